"""Differential: tree-sitter, mvdan/sh and bashlex agree on which commands run, or PA001."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from .bash_grammar import script_texts
from .known_gaps import DIFFERENTIAL, pin_known_gaps, without_known_gaps
from .parsers import shfmt_available
from .properties import bash_accepts, check_parsers_agree_or_parse_finding, corpus_cases

pytestmark = pytest.mark.skipif(not shfmt_available(), reason="shfmt (the shfmt-py test dependency) is not installed")


def valid_bash(texts: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return without_known_gaps(DIFFERENTIAL, texts).filter(bash_accepts)


@pin_known_gaps
@given(valid_bash(script_texts()))
# A campaign's find: shfmt rejects `arr=(a b) ls`, and bashlex reads no command inside `${...}`.
@example("ls \"${arr[$(if python3 -c 'print(1)'; then if ls; then arr=(a b) ls; fi; fi)]}\"")
# Found by the CI tier: parsing it takes more than the step limit, so the engine blocks it (IN004).
@example(
    "$([[ -n file.txtfile.txt\"$(if sudo grep file.txtfile.txt > out.txt > out.txt; then x=$(date) msg=\"hello world\" sudo -u root cat file.txt'`'$(python3 -c 'print(1)') $'\\x41\\x42' $(sudo timeout -s KILL 10 ls > out.txt) > out.txt <<< word <<EOF\nplain text\nplain text\nEOF\nelse python3 -c 'print(1)' && python3 -c 'print(1)'; fi)\" && file.txtfile.txt\"$(if sudo grep file.txtfile.txt > out.txt > out.txt; then x=$(date) msg=\"hello world\" sudo -u root cat file.txt'`'$(python3 -c 'print(1)') $'\\x41\\x42' $(sudo timeout -s KILL 10 ls > out.txt) > out.txt <<< word <<EOF\nplain text\nplain text\nEOF\nelse python3 -c 'print(1)' && python3 -c 'print(1)'; fi)\" != x ]])"
)
def test_parsers_agree_on_the_commands_or_the_engine_reports_a_parse_finding(text: str) -> None:
    check_parsers_agree_or_parse_finding(text)


@given(valid_bash(st.deferred(lambda: st.sampled_from(corpus_cases())).map(lambda case: case.command)))
def test_parsers_agree_on_corpus_commands_or_the_engine_reports_a_parse_finding(text: str) -> None:
    check_parsers_agree_or_parse_finding(text)


@pytest.mark.deep
@given(valid_bash(st.integers(min_value=4, max_value=30).flatmap(lambda leaves: script_texts(max_leaves=leaves))))
def test_parsers_agree_on_long_scripts_or_the_engine_reports_a_parse_finding(text: str) -> None:
    check_parsers_agree_or_parse_finding(text)
