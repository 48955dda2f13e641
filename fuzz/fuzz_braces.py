"""Brace expansion against real bash: the words the engine makes of a generated
brace word are the arguments bash passes, in bash's order.

bash runs `probe WORD` in the oracle's sandbox (fuzz/oracle.py), where `probe`
is a logging stub: nothing real runs, and the stub's record is bash's argv.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from audit._analysis._braces import expand_braces

from .oracle import BashOracle

pytestmark = pytest.mark.bwrap

# Plain characters only: the word reaches bash as one word with nothing to quote.
TEXT = st.text(alphabet="abcxyz019/._-", max_size=3)
NUMBER = st.integers(min_value=-12, max_value=12).map(str) | st.sampled_from(["01", "007", "-03", "00"])
LETTER = st.sampled_from(["a", "c", "e", "A", "Z", "x"])


def _sequence(ends: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    step = st.none() | st.integers(min_value=-4, max_value=4).map(str)
    return st.tuples(ends, ends, step).map(
        lambda parts: "{" + parts[0] + ".." + parts[1] + (".." + parts[2] if parts[2] is not None else "") + "}"
    )


# Pieces that are not groups in bash: they stay text, and groups may sit inside them.
NOT_A_GROUP = st.sampled_from(["{}", "{a}", "{a..}", "{1..b}", "}", "{,", "{a..c..x}"])


def _word(depth: int) -> st.SearchStrategy[str]:
    pieces: st.SearchStrategy[str] = TEXT | _sequence(NUMBER) | _sequence(LETTER) | NOT_A_GROUP
    if depth > 0:
        alternatives = st.lists(_word(depth - 1), min_size=2, max_size=3).map(lambda words: "{" + ",".join(words) + "}")
        pieces = pieces | alternatives
    return st.lists(pieces, min_size=1, max_size=3).map("".join)


def _comparable(word: str) -> bool:
    """At most 300 words (counted without making more than 301), none of them empty and
    none with a backquote: bash removes an empty word (`{,}`) as an unquoted null field,
    and reads a backquote a letter sequence makes (`{a..A}`) as the start of a command
    substitution, both after the expansion this test is about."""
    words = list(itertools.islice(expand_braces(word, _free), 301))
    return len(words) <= 300 and "" not in words and not any("`" in each for each in words)


@given(_word(2).filter(lambda word: not word.startswith("-") and _comparable(word)))
@example("/{etc,usr,{1..3}}")
@example("{x{a,b}}")
@example("{-05..3..2}")
@example("{Z..a}")
@example("a{,b}c")
@example("{a,b}{c,d}")
@example("{01..10..3}")
def test_the_engine_expands_braces_into_the_words_bash_passes(oracle: BashOracle, word: str) -> None:
    run = oracle.run(f"probe {word}")
    probes = [execution.argv[1:] for execution in run.executions if execution.name == "probe"]
    assert not run.timed_out
    assert probes == [tuple(expand_braces(word, _free))], f"bash expands {word!r} to {probes}"


def _free(_steps: int) -> None:
    """No budget: the generated words are small."""
