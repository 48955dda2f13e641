"""Mapping offsets in a parsed text back to the user's original string."""

from __future__ import annotations

from .._model import Span
from .._named_tuple import NamedTuple
from ._ast import new_node


class Origin(NamedTuple):
    """Where each character of a parsed text came from (one is made for most
    nested words, hence a NamedTuple).

    `offsets[i]` is the original offset of character `i` (with one extra
    entry for the end of the text); `None` means the text is a verbatim slice
    of the original starting at `base`. `exact` is False when the text is
    derived (unescaped backquotes, a decoded code string), so spans are the
    best available approximation.
    """

    offsets: tuple[int, ...] | None = None
    base: int = 0
    exact: bool = True
    pinned: Span | None = None
    """Set for text that exists nowhere in the original (the output of
    `echo` that a process substitution feeds to bash): every span is this one."""

    @classmethod
    def derived_from(cls, span: Span) -> Origin:
        return cls(exact=False, pinned=span)

    def span(self, start: int, end: int) -> Span:
        if self.pinned is not None:
            return self.pinned
        offsets = self.offsets
        if offsets is None:
            return new_node(Span, (self.base + start, self.base + end))
        last = len(offsets) - 1
        start = min(start, last)
        end = min(end, last)
        if end <= start:
            return Span(offsets[start], offsets[start])
        return Span(offsets[start], offsets[end - 1] + 1)

    def compose(self, offsets: tuple[int, ...]) -> Origin:
        """The origin of a text whose characters sit at `offsets` in this one."""
        if self.pinned is not None:
            return self
        if self.offsets is None:
            base = self.base
            return Origin(tuple(base + offset for offset in offsets), exact=self.exact)
        mine = self.offsets
        last = len(mine) - 1
        return Origin(tuple(mine[min(offset, last)] for offset in offsets), exact=self.exact)

    def shifted(self, start: int) -> Origin:
        """The origin of the verbatim slice of this text that begins at `start`."""
        if self.pinned is not None:
            return self
        if self.offsets is None:
            return Origin(None, self.base + start, self.exact)
        return Origin(self.offsets[start:], exact=self.exact)

    def approximate(self) -> Origin:
        return Origin(self.offsets, self.base, exact=False, pinned=self.pinned)


VERBATIM = Origin()
"""The origin of the user's own string (origins are immutable: one serves every parse)."""
