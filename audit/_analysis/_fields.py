"""Bash's field splitting: the fields one word becomes as `_normalize` joins its parts.

Each field is kept as the list of its possible values (a variable with several
literal assignments gives several). An unquoted expansion is cut at IFS
characters; a separator at the start of its value ends the field before it
(`pre$X` with `X=' y'` is `pre` and `y`), one at its end ends the field once
more text follows, and a field with no text is no field (`$X` with `X=' '`
adds nothing).
"""

from __future__ import annotations

import re

DEFAULT_IFS = " \t\n"


class Fields:
    """The fields of one word so far: those finished, and the one being built."""

    __slots__ = ("_ended", "current", "finished")

    def __init__(self) -> None:
        self.finished: list[list[str]] = []
        self.current: list[str] = [""]
        # A split value ended in a separator: its field ends when more text follows.
        self._ended = False

    def starts_field(self) -> bool:
        """Whether text added now starts a field (nothing is in the current one)."""
        return self._ended or not any(self.current)

    def join(self, values: tuple[str, ...]) -> None:
        """Join each of `values` onto each possible value of the current field."""
        if self._ended and any(values):
            self._end()
        self.current = [prefix + value for prefix in self.current for value in values]

    def add_pieces(self, pieces: list[str]) -> None:
        """Add the fields of a list expansion: the first joins the current field, each later
        one starts a field of its own."""
        if not pieces:
            return
        if self._ended:
            self._end()
        self.current = [prefix + pieces[0] for prefix in self.current]
        if len(pieces) > 1:
            self.finished.append(self.current)
            self.finished.extend([piece] for piece in pieces[1:-1])
            self.current = [pieces[-1]]

    def split(self, value: str, separators: str) -> list[str]:
        """Add an unquoted expansion's `value`, cut at `separators`; the pieces it made."""
        pieces = split_fields(value, separators)
        if self._ended or value[0] in separators:
            self._end()
        self.add_pieces(pieces)
        self._ended = value[-1] in separators
        return pieces

    def done(self) -> list[list[str]]:
        """Every field of the word."""
        if any(self.current) or not self._ended:
            self.finished.append(self.current)
        return self.finished

    def _end(self) -> None:
        if any(self.current):
            self.finished.append(self.current)
        self.current = [""]
        self._ended = False


def splits(value: str, separators: str | None) -> bool:
    """Whether word splitting would cut `value` (unknown separators: assume so)."""
    if separators is None:
        return True
    return any(char in value for char in separators)


def split_fields(value: str, separators: str) -> list[str]:
    """Bash field splitting: IFS whitespace runs and other IFS characters separate fields."""
    if set(separators) <= set(DEFAULT_IFS):
        return value.split()
    pattern = "[" + re.escape(separators) + "]"
    return [field for field in re.split(pattern, value) if field]
