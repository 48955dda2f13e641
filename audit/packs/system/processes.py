"""Which processes a kill by name reaches: `pkill PATTERN` (a regular expression searched in the
process name, or matched whole with `-x`), `killall NAME...` (exact names, or regular expressions
with `-r`), and `kill $(pgrep PATTERN)` or `kill $(pidof NAME)`. The system.machine pack asks
whether one reaches init or a daemon the machine is reached through."""

from __future__ import annotations

import re
from collections.abc import Callable

from ...programs import Arg
from .._invocation import Found, Predicate, listed_by

# Longer patterns are not compiled: a name test has no need of them, and a pattern is the user's text.
_LONGEST_PATTERN = 200


# No process is named this: a pattern that matches it matches any name (`.`, `.*`, `^`), which is
# DO003's kill of every process, not a kill of one daemon.
_NO_PROCESS_NAME = "\x01"


def _reaches(pattern: str, names: tuple[str, ...], *, whole: bool) -> bool:
    """Whether the pattern (a regular expression, as pkill reads it) selects one of these process
    names, and not every name."""
    if len(pattern) > _LONGEST_PATTERN:
        return False
    try:
        compiled = re.compile(pattern)
    except re.error:
        return False
    test = compiled.fullmatch if whole else compiled.search
    return test(_NO_PROCESS_NAME) is None and any(test(name) is not None for name in names)


def _pattern_words(found: Found) -> tuple[tuple[Arg, bool], ...]:
    """Each pattern or name a pkill or killall command gives, with whether it must match a whole name."""
    read = found.reading
    if found.subject.name == "killall":
        return tuple((word, not read.has("--regexp")) for word in read.operands)
    return tuple((word, read.has("--exact")) for word in read.operand("PATTERN"))


def _pgrep_lists(names: tuple[str, ...]) -> Callable[[list[str]], bool]:
    """A listing by pgrep or pidof whose pattern (its last word) selects one of the names."""

    def lists(words: list[str]) -> bool:
        operands = [word for word in words[1:] if not word.startswith("-")]
        whole = words[0].rsplit("/", 1)[-1] == "pidof" or "-x" in words
        return bool(operands) and _reaches(operands[-1], names, whole=whole)

    return lists


def killed_by_name(*names: str) -> Predicate:
    """A pkill or killall whose pattern or name selects one of these processes."""

    def named(found: Found) -> Arg | None:
        return next(
            (
                word
                for word, whole in _pattern_words(found)
                if word.value is not None and _reaches(word.value, names, whole=whole)
            ),
            None,
        )

    return named


def killed_by_listing(*names: str) -> Predicate:
    """A kill of the PIDs pgrep or pidof lists for one of these processes (`kill -9 $(pgrep sshd)`)."""
    return listed_by("pgrep", "pidof", selects_all=_pgrep_lists(names))
