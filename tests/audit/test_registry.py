"""Registry invariants (CONVENTIONS: the declaration is the single source)."""

from __future__ import annotations

import re

import pytest

from audit import Severity
from audit.rules import (
    ENGINE_EMITTED,
    ENGINE_FAILURE,
    REGISTRY,
    RETIRED,
    Inspects,
    Registry,
    RegistryError,
    Rule,
)
from audit.rules._rule import examples


def test_rule_ids_and_names_are_unique_and_well_formed() -> None:
    ids = [declared.id for declared in REGISTRY]
    names = [declared.name for declared in REGISTRY]
    assert len(ids) == len(set(ids))
    assert len(names) == len(set(names))
    assert all(re.fullmatch(r"[A-Z]{2}\d{3}", rule_id) for rule_id in ids)
    assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)+", name) for name in names)


@pytest.mark.parametrize("declared", list(REGISTRY), ids=lambda declared: declared.id)
def test_every_rule_is_documented_and_has_two_examples_each_way(declared: Rule) -> None:
    for text in (declared.summary, declared.rationale, declared.safer_alternative):
        assert text.strip() and text.strip()[-1] in ".)", f"{declared.id}: documentation should be a sentence"
    # No honest command makes a correct engine fail: test_engine_failure.py injects the fault.
    assert len(declared.examples) >= 2 or declared is ENGINE_FAILURE, declared.id
    assert len(declared.counter_examples) >= 2, declared.id


@pytest.mark.parametrize("declared", list(REGISTRY), ids=lambda declared: declared.id)
def test_only_engine_emitted_rules_have_no_check(declared: Rule) -> None:
    assert (declared.check is None) == (declared.inspects in ENGINE_EMITTED)


def test_severities_map_to_block_and_warn() -> None:
    assert {declared.severity for declared in REGISTRY} == {Severity.HIGH, Severity.MEDIUM}


def test_retired_ids_are_never_reused() -> None:
    live = {declared.id for declared in REGISTRY}
    assert not live & {retired.id for retired in RETIRED}


def _rule(rule_id: str = "ZZ001", name: str = "some-rule", inspects: Inspects = Inspects.INPUT) -> Rule:
    return Rule(
        id=rule_id,
        name=name,
        severity=Severity.HIGH,
        summary="s.",
        rationale="r.",
        safer_alternative="a.",
        inspects=inspects,
        examples=examples("a", "b"),
        counter_examples=examples("c", "d"),
    )


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ([_rule("Z001")], "two capital letters"),
        ([_rule(name="NotKebab")], "kebab-case"),
        ([_rule(), _rule(name="other-rule")], "used twice"),
        ([_rule(), _rule("ZZ002")], "name 'some-rule' used twice"),
        ([_rule(inspects=Inspects.COMMAND)], "only engine-emitted"),
    ],
)
def test_an_inconsistent_catalogue_fails_when_built(rules: list[Rule], message: str) -> None:
    with pytest.raises(RegistryError, match=message):
        Registry(rules)
