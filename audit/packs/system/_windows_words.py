"""Windows' switches as the system.windows pack reads them: every word after the command's name, in
lower case (`/Create`, `-DisableRealtimeMonitoring`, `/v NAME`, `-Enabled:False`)."""

from __future__ import annotations

from ...programs import Arg
from .._invocation import Found, Predicate


def lowered_words(found: Found) -> list[tuple[str, Arg]]:
    """The command's words after its name, in lower case."""
    return [(arg.value.lower(), arg) for arg in found.subject.args if arg.value is not None]


def after(listed: list[tuple[str, Arg]], *switches: str) -> str | None:
    """The word after the first of `switches` (`/v NAME`), or its value glued with `:` (`-Enabled:False`)."""
    for index, (word, _arg) in enumerate(listed):
        name, colon, glued = word.partition(":")
        if name in switches:
            if colon and glued:
                return glued
            return listed[index + 1][0] if index + 1 < len(listed) else ""
    return None


def has(*wanted: str) -> Predicate:
    """A word equal to one of `wanted` (a verb or switch in any case)."""
    names = frozenset(wanted)

    def given(found: Found) -> Arg | None:
        return next((arg for word, arg in lowered_words(found) if word.partition(":")[0] in names), None)

    return given


def all_of(*predicates: Predicate) -> Predicate:
    """Every predicate holds; the evidence is the last one's word."""

    def every(found: Found) -> Arg | None:
        evidence = None
        for predicate in predicates:
            evidence = predicate(found)
            if evidence is None:
                return None
        return evidence

    return every
