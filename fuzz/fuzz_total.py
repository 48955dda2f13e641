"""Total and bounded: any text gets a consistent verdict, within the time budget."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from audit import audit_command

from .bash_grammar import script_texts
from .properties import check_total_and_bounded

SHELL_SOUP = st.text(alphabet="$`'\"\\(){}[]<>|&;!#*?~=-_ \n\tabcEOF0123456789", max_size=300)


@given(st.text(max_size=500))
@example("")
@example("\x00")
@example("rm -rf /\x00")
@example("cat <<" * 1_600)
@example("a | " * 2_400 + "a")
@example("$(" * 300 + ")" * 300)
@example("`" * 501)
@example("'" + "x" * 9_990)
def test_any_text_gets_a_consistent_verdict_within_the_budget(text: str) -> None:
    check_total_and_bounded(text)


@given(SHELL_SOUP)
@example("<<EOF\n$(\nEOF\n)")
@example("${x:-`${y:-$(`)}`}")
def test_shell_punctuation_soup_gets_a_consistent_verdict_within_the_budget(text: str) -> None:
    check_total_and_bounded(text)


@given(script_texts())
def test_any_generated_script_gets_a_consistent_verdict_within_the_budget(text: str) -> None:
    check_total_and_bounded(text)


@given(st.one_of(st.none(), st.binary(), st.integers(), st.dictionaries(st.text(), st.text()), st.lists(st.text())))
def test_anything_but_a_str_is_a_type_error(value: object) -> None:
    with pytest.raises(TypeError):
        audit_command(value)  # type: ignore[arg-type]


@pytest.mark.deep
@given(st.integers(min_value=1, max_value=40).flatmap(lambda leaves: script_texts(max_leaves=leaves * 3)))
def test_long_generated_scripts_get_a_consistent_verdict_within_the_budget(text: str) -> None:
    check_total_and_bounded(text)
