"""The known-gap table holds together: pinned inputs are in their own class, and
every gap that changes a verdict has its `todo` case in the corpus."""

from __future__ import annotations

import pytest

from corpus import load_corpus

from .known_gaps import KNOWN_GAPS, KnownGap


def _texts(pinned: object) -> list[str]:
    """The commands a pinned argument holds: itself, the strings of a tuple, or an object's `text`."""
    values = pinned if isinstance(pinned, tuple) else (pinned,)
    texts = []
    for value in values:
        text = getattr(value, "text", value)
        if isinstance(text, str):
            texts.append(text)
    return texts


@pytest.mark.parametrize("gap", KNOWN_GAPS, ids=lambda gap: gap.name)
def test_each_pinned_input_belongs_to_its_gaps_class(gap: KnownGap) -> None:
    for prop, pinned in gap.pinned.items():
        for text in _texts(pinned):
            assert gap.pattern.search(text), f"{gap.name}: the input pinned on {prop} is outside the gap's pattern"


@pytest.mark.parametrize("gap", [gap for gap in KNOWN_GAPS if gap.corpus_command], ids=lambda gap: gap.name)
def test_each_gap_that_changes_a_verdict_is_a_todo_case_in_the_corpus(gap: KnownGap) -> None:
    todo_commands = {case.command.strip() for case in load_corpus() if case.todo}
    assert gap.corpus_command is not None and gap.corpus_command.strip() in todo_commands
