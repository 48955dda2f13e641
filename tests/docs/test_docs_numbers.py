"""The numbers the corpus and fuzzing pages state are the numbers of the corpus and the fuzzers."""

from __future__ import annotations

import shutil
from collections import Counter

import pytest

from audit import Decision
from corpus import load_corpus
from tests.docs_pages import page

CORPUS = page("corpus")
FUZZING = page("fuzzing")
RUNTIMES = FUZZING.section("Runtimes")


def test_the_corpus_page_states_the_corpus_as_it_is() -> None:
    cases = load_corpus()
    decisions = Counter(case.decision for case in cases)
    sections = Counter(case.section for case in cases)
    totals = (
        f"`corpus/` holds {len(cases):,} labelled commands ({decisions[Decision.PASS]:,} pass, "
        f"{decisions[Decision.BLOCK]:,} block, {decisions[Decision.WARN]:,} warn): {sections['rules']:,} in `rules/`"
    )
    holds = CORPUS.section("What it holds").prose
    assert totals in holds, "the corpus totals on the corpus page are stale"
    for name in ("contexts", "parsing", "benign"):
        assert f"{sections[name]:,} in `{name}/`" in holds, f"the count of {name}/ on the corpus page is stale"
    assert f"corpus runner ({len(cases):,} cases)" in RUNTIMES.prose, "the runtimes table on the fuzzing page is stale"


def test_the_corpus_page_states_the_open_gaps_and_the_pinned_bugs() -> None:
    cases = load_corpus()
    gaps = sum(case.todo for case in cases)
    pinned = sum(case.provenance is not None for case in cases)
    known_gaps = CORPUS.section("Known gaps").prose
    assert f"{gaps} gap{'s are' if gaps != 1 else ' is'} open" in known_gaps
    assert f"{pinned:,} cases have a provenance" in known_gaps


def test_the_fuzzing_page_states_the_value_positions_and_the_oracle_sample() -> None:
    from fuzz.fuzz_metamorphic import VALUE_TEMPLATES
    from fuzz.fuzz_oracle import SAMPLE_STRIDE, oracle_eligible
    from fuzz.properties import corpus_cases

    eligible = oracle_eligible(corpus_cases())
    assert f"any of {len(VALUE_TEMPLATES)} value positions" in FUZZING.prose
    assert f"({len(eligible[::SAMPLE_STRIDE]):,} of {len(eligible):,};" in FUZZING.prose
    assert f"the whole corpus ({len(eligible):,} cases)" in RUNTIMES.prose
    assert f"{len(eligible[::SAMPLE_STRIDE]):,} corpus cases in sandboxes" in RUNTIMES.prose


@pytest.mark.bash
@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_the_fuzzing_page_states_the_number_of_blocked_seeds() -> None:
    from fuzz.properties import blocked_seeds

    assert f"({len(blocked_seeds()):,} seeds)" in FUZZING.prose
