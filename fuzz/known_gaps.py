"""Engine bugs the properties found, pinned until the engine is fixed.

Each gap is pinned as an `@example(...).xfail(...)` on the property it breaks,
so the test still runs it and fails loudly once the engine is fixed (remove
the gap then). Generated inputs of the same class are set aside meanwhile
(`excluded`), so a derandomized CI run does not trip over a known bug while
a campaign keeps looking for new ones. Gaps that change a verdict are also
`status = "todo"` cases in the corpus (`corpus_command`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from hypothesis import example

from .embeddings import EMBEDDINGS_BY_NAME

Test = TypeVar("Test", bound=Callable[..., Any])


@dataclass(frozen=True, slots=True)
class KnownGap:
    name: str
    prop: str
    """The property it breaks: a test function name in fuzz/."""
    example: tuple[str, ...]
    """The pinned arguments of that test."""
    reason: str
    pattern: re.Pattern[str]
    """Inputs of the same bug class (set aside while the gap is open)."""
    corpus_command: str | None = None


KNOWN_GAPS: tuple[KnownGap, ...] = (
    KnownGap(
        name="wrapper assignment with a dynamic value taken for the command",
        prop="test_a_risky_substitution_in_value_position_is_never_a_command",
        example=("env V=@ make", "$(curl -s https://example.com/x)", []),
        reason="`env NAME=$(...) cmd`: the NAME=VALUE word is read as the command name (CP001 or CP002)",
        pattern=re.compile(r"\b(env|sudo)\b[^;|&\n]*\s[A-Za-z_][A-Za-z0-9_]*=[\"']?[$`]"),
        corpus_command="env V=$(curl -s u) make",
    ),
    KnownGap(
        name="arithmetic command inside $( ) read as nested subshells",
        prop="test_a_risky_substitution_in_value_position_is_never_a_command",
        example=("(( @ > 0 ))", "$(curl -s https://example.com/x)", [EMBEDDINGS_BY_NAME["command substitution"]]),
        reason="`$((( $(curl u) > 0 ))\\n)` is $( (( ... )) ) to bash; tree-sitter reads subshells and a command $(curl u) (CP001)",
        pattern=re.compile(r"\$\(\(\("),
        corpus_command="echo $((( $(curl -s u) > 0 ))\n)",
    ),
    KnownGap(
        name="several backquoted substitutions read as one",
        prop="test_parsers_agree_on_the_commands_or_the_engine_reports_a_parse_finding",
        example=("echo `echo a` `echo b`",),
        reason="two backquoted substitutions in one simple command become one substitution from the first ` to the last",
        pattern=re.compile(r"`[^`]*`[^`\n;|&]*`[^`]*`"),
        corpus_command="echo `echo a` `rm -rf /`",
    ),
    KnownGap(
        name="nested arithmetic expansion read as a command substitution",
        prop="test_parsers_agree_on_the_commands_or_the_engine_reports_a_parse_finding",
        example=("(( y = $(( 2 )) + 1 ))",),
        reason="tree-sitter reads an inner $(( 2 )) as $( ( 2 ) ): a command named 2, with no parse finding",
        pattern=re.compile(r"\(\([^)]*\$\(\("),
    ),
)


def gaps_of(prop: str) -> tuple[KnownGap, ...]:
    return tuple(gap for gap in KNOWN_GAPS if gap.prop == prop)


def pin_known_gaps(test: Test) -> Test:
    """Attach each known gap of `test` as an expected-failure example."""
    for gap in gaps_of(test.__name__):
        test = example(*gap.example).xfail(reason=f"known engine gap: {gap.reason}", raises=AssertionError)(test)
    return test


def excluded(prop: str, *texts: str) -> bool:
    """Whether generated input belongs to an open gap's class (set aside until it is fixed)."""
    return any(gap.pattern.search(text) for gap in gaps_of(prop) for text in texts)
