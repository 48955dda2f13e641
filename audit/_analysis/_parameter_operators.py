"""The string operators of a parameter expansion, applied to a variable's known values:
`${a:2}` and `${a:1:3}` (substrings), `${a#p}`, `${a##p}`, `${a%p}`, `${a%%p}` (a pattern
removed from either end), `${a^^}`, `${a,,}`, `${a^}`, `${a,}` (case), `${#a}` (length), `${a/p/r}`, `${a//p/r}`,
`${a/#p/r}`, `${a/%p/r}` (a pattern replaced). Code obfuscated with them (`a=xxrm; ${a:2} -rf ~`,
`c=xrmx; ${c//x/} -rf ~`) is read as bash runs it. The operator's arguments must be literal;
anything else (arithmetic offsets, a bracket expression) stays unknown. A
variable the command does not set is known only by its first character where that is certain
(`KNOWN_PREFIXES`)."""

from __future__ import annotations

from collections.abc import Callable
from fnmatch import fnmatchcase

from .._syntax import ast

_CASE: dict[str, Callable[[str], str]] = {
    "^^": str.upper,
    ",,": str.lower,
    "^": lambda value: value[:1].upper() + value[1:],
    ",": lambda value: value[:1].lower() + value[1:],
}


def operated(part: ast.ParamExpansion, values: tuple[str, ...]) -> tuple[str, ...] | None:
    """What `part`'s operator makes of each of the variable's known values; None when the operator
    or its arguments are not ones read here."""
    if part.operator in _REPLACEMENTS:
        return replaced(part, values)
    arguments = _literal_arguments(part.argument)
    if arguments is None:
        return None
    apply = _operation(part.operator, arguments)
    return None if apply is None else tuple(dict.fromkeys(apply(value) for value in values))


KNOWN_PREFIXES = {"PATH": "/", "PWD": "/", "OLDPWD": "/", "SHELL": "/"}
"""How a variable the command does not set starts, in any real session: its directories are
absolute. Enough to read `${PATH:0:1}` as `/` (`${PATH:0:1}bin${PATH:0:1}rm` is `/bin/rm`)."""


def prefix_sliced(part: ast.ParamExpansion, prefix: str) -> tuple[str, ...] | None:
    """`${a:OFFSET:LENGTH}` of a value known only to start with `prefix`, when the slice lies inside it."""
    arguments = _literal_arguments(part.argument)
    if part.operator != "::" or arguments is None or len(arguments) != 2:
        return None
    bounds = [argument.strip() for argument in arguments]
    if not all(bound.isdigit() for bound in bounds):
        return None
    offset, length = int(bounds[0]), int(bounds[1])
    return (prefix[offset : offset + length],) if offset + length <= len(prefix) else None


def _operation(operator: str, arguments: list[str]) -> Callable[[str], str] | None:
    if operator in _CASE and not arguments:
        return _CASE[operator]
    if operator == "#" and not arguments:
        return lambda value: str(len(value))
    if operator in (":", "::") and len(arguments) == (1 if operator == ":" else 2):
        bounds = [argument.strip() for argument in arguments]
        if not all(bound.lstrip("-").isdigit() for bound in bounds):
            return None
        return lambda value: _substring(value, int(bounds[0]), int(bounds[1]) if len(bounds) == 2 else None)
    if operator in ("#", "##", "%", "%%") and len(arguments) == 1:
        pattern = arguments[0]
        return lambda value: _removed(value, pattern, operator)
    return None


def _substring(value: str, offset: int, length: int | None) -> str:
    """bash's `${a:OFFSET:LENGTH}`: a negative offset counts from the end, a negative length is
    an end counted from the end."""
    start = len(value) + offset if offset < 0 else offset
    if start < 0:
        return ""  # an offset from the end past the start expands to nothing
    if length is None:
        return value[start:]
    end = len(value) + length if length < 0 else start + length
    return value[start:end] if end >= start else ""


def _removed(value: str, pattern: str, operator: str) -> str:
    """`value` without the shortest (`#`, `%`) or longest (`##`, `%%`) start or end the glob matches."""
    cuts = range(len(value) + 1)
    if operator.startswith("#"):
        ends = [cut for cut in cuts if fnmatchcase(value[:cut], pattern)]
        return value if not ends else value[(max(ends) if operator == "##" else min(ends)) :]
    starts = [cut for cut in cuts if fnmatchcase(value[cut:], pattern)]
    return value if not starts else value[: (min(starts) if operator == "%%" else max(starts))]


# How the parsers spell `${a/p/r}` (the first match), `${a//p/r}` (every match), `${a/#p/r}` and
# `${a/%p/r}` (anchored at the start or the end), by the operator with its separators. A lone `//`
# with one argument is either `${a/p/}` or `${a//p}`: both readings are kept.
_REPLACEMENTS: dict[str, tuple[str, ...]] = {"//": ("first",), "///": ("every",), "/#/": ("start",), "/%/": ("end",)}


def replaced(part: ast.ParamExpansion, values: tuple[str, ...]) -> tuple[str, ...] | None:
    """`${a//x/}`, `${a/X/y}`: each of the variable's known values with the pattern replaced, as bash
    does (the longest match, leftmost first); None for a pattern that may match nothing, or arguments
    that are not literal."""
    modes = _REPLACEMENTS.get(part.operator)
    arguments = _literal_arguments(part.argument) if modes is not None else None
    if modes is None or arguments is None or not 1 <= len(arguments) <= 2:
        return None
    pattern, replacement = arguments[0], arguments[1] if len(arguments) == 2 else ""
    if not pattern or fnmatchcase("", pattern):
        return None
    if part.operator == "//" and len(arguments) == 1:
        modes = ("first", "every")
    found = (_replace(value, pattern, replacement, mode) for value in values for mode in modes)
    return tuple(dict.fromkeys(found))


def _replace(value: str, pattern: str, replacement: str, mode: str) -> str:
    if mode == "start":
        end = _longest_match(value, 0, pattern)
        return value if end is None else replacement + value[end:]
    if mode == "end":
        start = next((start for start in range(len(value)) if fnmatchcase(value[start:], pattern)), None)
        return value if start is None else value[:start] + replacement
    pieces: list[str] = []
    start = 0
    while start < len(value):
        end = _longest_match(value, start, pattern)
        if end is None:
            pieces.append(value[start])
            start += 1
            continue
        pieces.append(replacement)
        start = end
        if mode == "first":
            break
    return "".join(pieces) + value[start:]


def _longest_match(value: str, start: int, pattern: str) -> int | None:
    """The end of the longest match of `pattern` that starts at `start`, if any."""
    return next((end for end in range(len(value), start, -1) if fnmatchcase(value[start:end], pattern)), None)


# Characters that make an operator's argument more than literal text. The parsers may leave an
# argument's expansions inside a literal (`${a#$p}`), which must not be read as the text `$p`.
_NOT_LITERAL = frozenset("$`\\'\"[")


def _literal_arguments(words: tuple[ast.Word, ...]) -> list[str] | None:
    """The operator's arguments as text, when each is unquoted literal text with nothing bash
    would expand or unquote in it (a pattern's `*` and `?` are then wildcards, as fnmatch reads
    them; bracket expressions, which fnmatch reads differently, are left unknown)."""
    arguments: list[str] = []
    for word in words:
        if not all(type(part) is ast.Literal and not part.quoted for part in word.parts):
            return None
        text = "".join(part.text for part in word.parts if type(part) is ast.Literal)
        if not _NOT_LITERAL.isdisjoint(text):
            return None
        arguments.append(text)
    return arguments
