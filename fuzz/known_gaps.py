"""Engine bugs the properties found, pinned until the engine is fixed.

Each gap is pinned as an `@example(...).xfail(...)` on the properties it
breaks, so the tests still run it and fail loudly once the engine is fixed
(then delete the gap). Generated inputs of the same class (`pattern`) are
filtered out of the strategies meanwhile (explicit examples bypass
strategies), so a derandomized CI run does not trip over a known bug while a
campaign keeps looking for new ones. Gaps that change a verdict are
also `status = "todo"` cases in the corpus (`corpus_command`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from hypothesis import example
from hypothesis import strategies as st

Test = TypeVar("Test", bound=Callable[..., Any])

TOTAL = "test_any_text_gets_a_consistent_verdict_within_the_budget"
STAYS_BLOCKED = "test_a_blocked_command_stays_blocked_wherever_bash_runs_it"
VALUE_POSITION = "test_a_risky_substitution_in_value_position_is_never_a_command"
DIFFERENTIAL = "test_parsers_agree_on_the_commands_or_the_engine_reports_a_parse_finding"
ORACLE_GENERATED = "test_the_engine_finds_exactly_what_bash_runs_in_generated_scripts"
ORACLE_CORPUS = "corpus cases under the bash oracle"


@dataclass(frozen=True, slots=True)
class KnownGap:
    name: str
    reason: str
    pattern: re.Pattern[str]
    """Inputs of the same bug class (set aside while the gap is open)."""
    pinned: Mapping[str, object]
    """Property it breaks -> the test's one argument that shows it (None: nothing to pin on)."""
    corpus_command: str | None = None


KNOWN_GAPS: tuple[KnownGap, ...] = (
    KnownGap(
        name="arithmetic command inside $( ) read as nested subshells",
        reason="`$((( $(curl u) > 0 ))\\n)` is $( (( ... )) ) to bash; tree-sitter reads subshells and a command $(curl u)",
        pattern=re.compile(r"\$\(\(\("),
        pinned={VALUE_POSITION: "echo $((( $(curl -s https://example.com/x) > 0 ))\n)"},
        corpus_command="echo $((( $(curl -s u) > 0 ))\n)",
    ),
    KnownGap(
        name="time before a group read as words",
        reason="tree-sitter reads `time { cmd; }` as a command `time { cmd` and a command `}`; the analysis "
        "compensates (the verdict is right) but there is no parse finding",
        pattern=re.compile(r"\btime\s+(-p\s+)?\{"),
        pinned={DIFFERENTIAL: "time { rm -rf /; }"},
    ),
    KnownGap(
        name="nested arithmetic expansion read as a command substitution",
        reason="tree-sitter reads an inner $(( 2 )) as $( ( 2 ) ): a command named 2, with no parse finding",
        pattern=re.compile(r"\(\([^)]*\$\(\("),
        pinned={DIFFERENTIAL: "(( y = $(( 2 )) + 1 ))"},
    ),
    KnownGap(
        name="a relative command word of one-letter brackets",
        reason="the engine reads `[l]s` as `ls`, as if the file the glob needs were in the working directory "
        "(for `[r]m -rf /` a finding rather than a miss); the oracle's workspace has none, so bash looks up `[l]s` "
        "as written and finds nothing to run",
        pattern=re.compile(r"(?:^|[;&|(]\s*)\[[^\s\[\]]\][^\s/]*(?:\s|$)"),
        pinned={ORACLE_CORPUS: None},
    ),
    KnownGap(
        name="bash 5.2 rejects time before a subshell inside $( )",
        reason="`$(time ( cmd ))` is a syntax error in bash 5.2, so bash runs nothing; the engine judges cmd "
        "(more findings, never fewer) without a parse finding",
        pattern=re.compile(r"\$\(\s*time\s+(-p\s+)?\("),
        pinned={ORACLE_GENERATED: None},
    ),
)


# The metamorphic and oracle properties over hidden commands and fork bombs.
HIDDEN = "test_a_command_hidden_from_a_reader_keeps_its_findings"
HIDDEN_ORACLE = "test_bash_runs_a_hidden_command_and_the_engine_keeps_its_findings"
BOMBS = "test_a_fork_bomb_is_blocked_and_its_bounded_neighbour_is_not"
BOMBS_ORACLE = "test_bash_and_the_engine_agree_on_what_is_a_fork_bomb"

# Found by the tenth session's campaign (round 2).
KNOWN_GAPS += (
    KnownGap(
        name="an unknown outer positional parameter read as the inner shell's",
        reason="`bash -c \"$1\" x 'rm -rf ~'` blocks: the agent shell's unknown $1 is judged as if it were bash's "
        "own first argument (a finding rather than a miss); inside a shell whose $1 is known to be empty the "
        "same text runs nothing, and passes",
        # Also as written inside an outer double-quoted string (`sh -c "bash -c \"\$1\" ..."`).
        pattern=re.compile(r'-c\s+\\*"\\*\$[1-9@*]\\*"'),
        pinned={STAYS_BLOCKED: (frozenset({"FS001"}), """bash -c 'bash -c "$1" x '\\''rm -rf ~'\\'''""")},
    ),
)


def gaps_of(prop: str) -> tuple[KnownGap, ...]:
    return tuple(gap for gap in KNOWN_GAPS if prop in gap.pinned)


def pin_known_gaps(test: Test) -> Test:
    """Attach each known gap of `test` as an expected-failure example (its one argument)."""
    for gap in gaps_of(test.__name__):
        pinned = gap.pinned[test.__name__]
        if pinned is not None:
            test = example(pinned).xfail(reason=f"known engine gap: {gap.reason}", raises=AssertionError)(test)
    return test


def excluded(prop: str, text: str) -> bool:
    """Whether `text` belongs to the class of an open gap of `prop`."""
    return any(gap.pattern.search(text) for gap in gaps_of(prop))


def without_known_gaps(prop: str, texts: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    """`texts` less the classes of the open gaps of `prop` (pinned examples still run)."""
    return texts.filter(lambda text: not excluded(prop, text))
