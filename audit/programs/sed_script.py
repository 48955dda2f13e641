"""What a sed script makes GNU sed do beyond editing text: the shell commands it runs (`e CMD`,
and `s/.../.../e`, which runs the pattern space after the substitution), the files it writes
(`w FILE`, `W FILE`, `s/.../.../w FILE`), and the lines it puts in the file it edits (those of
`a`, `i` and `c`, and a substitution's replacement when its pattern matches whole lines, `^...$`
or `^....*`, and the replacement holds no `&` or `\\1`).

The script is read command by command as GNU sed reads it: addresses (`3`, `$`, `/re/`,
`\\%re%`, `1~2`, `a,b`, `!`), then a one-letter command with its arguments. The text of a
substitution whose `e` flag runs it is taken to be its replacement (`s/x/rm -rf ~/e` on the line
`x` runs `rm -rf ~`): what the pattern space becomes when the whole line matches.
"""

from __future__ import annotations

import functools
import re

from .._named_tuple import NamedTuple

# Commands whose argument is the rest of the line (text, file names, labels).
_REST_OF_LINE = frozenset("aic:rRwWe#")
# Commands that end at `;` or the end of the line, with an optional label or number.
_TO_SEPARATOR = frozenset("btTqQlL")


class Substitution(NamedTuple):
    """One `s/PATTERN/REPLACEMENT/FLAGS` of a script, as written (delimiters escaped in it unescaped)."""

    pattern: str
    replacement: str
    flags: str


class SedEffects(NamedTuple):
    """The commands a sed script runs and the files it writes, as written in it."""

    commands: tuple[str, ...]
    written: tuple[str, ...]
    added: tuple[str, ...]
    """Lines the script puts in the edited file: lines added or changed, whole lines replaced."""
    substitutions: tuple[Substitution, ...]


def sed_effects(script: str) -> SedEffects:
    """The shell commands `script` runs, the files it writes and the text it adds."""
    reader = _Reader(script)
    reader.read()
    return SedEffects(tuple(reader.commands), tuple(reader.written), tuple(reader.added), tuple(reader.substitutions))


# A replacement that copies what it matched (`&`, `\1`) is not known text.
_COPIES_MATCH = re.compile(r"(?<!\\)&|\\[0-9]")


class _Reader:
    __slots__ = ("added", "at", "commands", "script", "substitutions", "written")

    def __init__(self, script: str) -> None:
        self.script = script
        self.at = 0
        self.commands: list[str] = []
        self.written: list[str] = []
        self.added: list[str] = []
        self.substitutions: list[Substitution] = []

    def read(self) -> None:
        script = self.script
        while self.at < len(script):
            self._skip(" \t\n;{}")
            self._address()
            self._skip(" \t!")
            if self.at >= len(script):
                return
            letter = script[self.at]
            self.at += 1
            if letter == "s":
                self._substitution()
            elif letter == "y":
                delimiter = self._next()
                self._until(delimiter)
                self._until(delimiter)
            elif letter in "aic":
                self.added.append(self._text())
            elif letter in _REST_OF_LINE:
                self._argument(letter, self._rest_of_line().strip())
            elif letter in _TO_SEPARATOR:
                self._to_separator()

    def _argument(self, letter: str, text: str) -> None:
        if letter == "e" and text:
            self.commands.append(text)
        elif letter in "wW" and text:
            self.written.append(text)

    def _substitution(self) -> None:
        delimiter = self._next()
        pattern = self._until(delimiter)
        replacement = self._until(delimiter)
        flags = ""
        while self.at < len(self.script) and self.script[self.at] not in ";\n}":
            flag = self.script[self.at]
            self.at += 1
            if flag == "w":
                self.written.append(self._rest_of_line().strip())
                break
            flags += flag
        self.substitutions.append(Substitution(pattern, replacement, flags))
        if "e" in flags and replacement.strip():
            self.commands.append(replacement)
        whole_line = pattern.startswith("^") and pattern.endswith(("$", ".*"))
        if whole_line and replacement.strip() and not _COPIES_MATCH.search(replacement):
            self.added.append(replacement)

    def _text(self) -> str:
        """The text of `a`, `i` or `c`: the rest of the line (`a TEXT`, GNU's one-liner, or `a\\TEXT`),
        or after `a\\` the lines that follow, each but the last ending in a backslash."""
        text = self._rest_of_line().lstrip()
        if text != "\\":
            return text.removeprefix("\\")
        lines: list[str] = []
        while self.at < len(self.script):
            self.at += 1  # the line break
            line = self._rest_of_line()
            lines.append(line.removesuffix("\\"))
            if not line.endswith("\\"):
                break
        return "\n".join(lines)

    def _address(self) -> None:
        """Skip one address or range (`3`, `$`, `/re/`, `\\%re%`, `1~2`, `a,b`, `a,+3`)."""
        for _ in range(2):
            script = self.script
            if self.at < len(script) and script[self.at] == "/":
                self.at += 1
                self._until("/")
            elif self.at < len(script) and script[self.at] == "\\":
                self.at += 1
                self._until(self._next())
            else:
                while self.at < len(script) and (script[self.at].isdigit() or script[self.at] in "$~+"):
                    self.at += 1
            self._skip("IM")  # GNU regex address flags
            if self.at < len(script) and script[self.at] == ",":
                self.at += 1
                continue
            return

    def _until(self, delimiter: str) -> str:
        """The text up to an unescaped `delimiter` (consumed), with `\\delimiter` unescaped."""
        script = self.script
        text: list[str] = []
        while self.at < len(script):
            char = script[self.at]
            self.at += 1
            if char == "\\" and self.at < len(script):
                following = script[self.at]
                self.at += 1
                text.append(following if following == delimiter else char + following)
            elif char == delimiter:
                break
            else:
                text.append(char)
        return "".join(text)

    def _rest_of_line(self) -> str:
        end = self.script.find("\n", self.at)
        end = len(self.script) if end < 0 else end
        text = self.script[self.at : end]
        self.at = end
        return text

    def _to_separator(self) -> None:
        while self.at < len(self.script) and self.script[self.at] not in ";\n}":
            self.at += 1

    def _next(self) -> str:
        if self.at >= len(self.script):
            return "\n"
        char = self.script[self.at]
        self.at += 1
        return char

    def _skip(self, characters: str) -> None:
        while self.at < len(self.script) and self.script[self.at] in characters:
            self.at += 1


def substituted(text: str, substitutions: tuple[Substitution, ...], extended: bool) -> str | None:
    """`text` with the substitutions applied to each of its lines in order, as GNU sed applies them
    (the script's addresses and other commands aside); None when a substitution is beyond this
    reading of sed's regular expressions (POSIX classes, an occurrence number)."""
    lines = text.split("\n")
    for substitution in substitutions:
        pattern = _python_pattern(substitution.pattern, extended)
        flags = substitution.flags
        if pattern is None or any(flag.isdigit() for flag in flags):
            return None
        try:
            compiled = re.compile(pattern, re.IGNORECASE if "I" in flags or "i" in flags else 0)
        except re.error:
            return None
        template = substitution.replacement
        count = 0 if "g" in flags else 1
        replace = functools.partial(_replaced, template)
        lines = [compiled.sub(replace, line, count=count) for line in lines]
    return "\n".join(lines)


# In a basic regular expression these are literal, and special when escaped (GNU's `\+`, `\(`...).
_BRE_SWAPPED = frozenset("+?(){}|")
_ESCAPED_SPECIAL = frozenset("wWsSbB<>`'0123456789")


def _python_pattern(pattern: str, extended: bool) -> str | None:
    """A sed regular expression (basic, or extended with -E) as Python's `re` reads the same one."""
    out: list[str] = []
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if char == "\\" and index + 1 < len(pattern):
            escaped = pattern[index + 1]
            if escaped in _ESCAPED_SPECIAL:
                out.append("\\" + escaped if escaped not in "<>`'" else r"\b")
            elif escaped in _BRE_SWAPPED and not extended:
                out.append(escaped)
            else:
                out.append({"n": "\n", "t": "\t"}.get(escaped) or re.escape(escaped))
            index += 2
            continue
        if char == "[":
            end = pattern.find("]", index + (3 if pattern.startswith(("[^]", "[]"), index) else 1))
            bracket = pattern[index : end + 1]
            if end < 0 or "[:" in bracket or "\\" in bracket:
                return None
            out.append(bracket)
            index = end + 1
            continue
        out.append("\\" + char if char in _BRE_SWAPPED and not extended else char)
        index += 1
    return "".join(out)


def _replaced(template: str, found: re.Match[str]) -> str:
    """A replacement's text for one match: `&` is the match, `\\1`...`\\9` its groups."""
    out: list[str] = []
    index = 0
    while index < len(template):
        char = template[index]
        if char == "&":
            out.append(found.group(0))
        elif char == "\\" and index + 1 < len(template):
            index += 1
            escaped = template[index]
            if escaped.isdigit():
                group = int(escaped)
                out.append((found.group(group) or "") if group <= (found.re.groups or 0) else "")
            else:
                out.append({"n": "\n", "t": "\t"}.get(escaped, escaped))
        else:
            out.append(char)
        index += 1
    return "".join(out)
