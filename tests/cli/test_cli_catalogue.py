"""`audit-cmd rules` and `audit-cmd explain RULE_ID`, generated from the declarations."""

from __future__ import annotations

import json

import pytest
from cli_helpers import run_cli

from audit.rules import REGISTRY, Example, RetiredRule, Rule


def short(examples: tuple[Example, ...]) -> list[str]:
    """Examples short enough to be printed whole (long ones are shown cut)."""
    return [example.command for example in examples if len(example.command) < 40 and example.command.isprintable()]


def test_rules_lists_every_rule_id_and_name() -> None:
    result = run_cli("rules")
    assert result.exit_code == 0
    for declared in REGISTRY:
        assert declared.id in result.stdout
        assert declared.name in result.stdout


def test_rules_json_is_every_declaration_in_registry_order() -> None:
    result = run_cli("rules", "--json")
    document = json.loads(result.stdout)
    assert [entry["id"] for entry in document["rules"]] == [declared.id for declared in REGISTRY]
    assert document["retired"] == [
        {"id": entry.id, "name": entry.name, "reason": entry.reason} for entry in REGISTRY.retired
    ]
    first = document["rules"][0]
    declared = REGISTRY.rules[0]
    assert first["summary"] == declared.summary
    assert first["severity"] == declared.severity.value
    assert [example["command"] for example in first["examples"]] == [example.command for example in declared.examples]


@pytest.mark.parametrize("declared", list(REGISTRY), ids=lambda declared: declared.id)
def test_explain_shows_summary_rationale_safer_alternative_and_examples(declared: Rule) -> None:
    result = run_cli("explain", declared.id, width=400)
    assert result.exit_code == 0
    for text in (declared.id, declared.name, declared.summary, declared.rationale, declared.safer_alternative):
        assert text in result.stdout
    triggers, _, does_not = result.stdout.partition("Does not trigger on")
    for command in short(declared.examples):
        assert f"✗ {command}" in triggers
    for command in short(declared.counter_examples):
        assert f"✓ {command}" in does_not


def test_explain_shows_an_example_policy_as_toml_keys() -> None:
    assert "(with policy limits.max_length = 10)" in run_cli("explain", "IN003").stdout


def test_explain_accepts_any_case_and_the_rule_name() -> None:
    by_id = run_cli("explain", "PR001").stdout
    assert run_cli("explain", "pr001").stdout == by_id
    assert run_cli("explain", "privilege-change").stdout == by_id


def test_explain_json_is_the_declaration() -> None:
    document = json.loads(run_cli("explain", "PR001", "--json").stdout)
    declared = REGISTRY.get("PR001")
    assert declared is not None
    assert document["id"] == "PR001"
    assert document["rationale"] == declared.rationale
    assert document["safer_alternative"] == declared.safer_alternative
    assert [example["command"] for example in document["counter_examples"]] == [
        example.command for example in declared.counter_examples
    ]


def test_an_unknown_rule_id_exits_2_with_close_matches() -> None:
    result = run_cli("explain", "FS01")
    assert result.exit_code == 2
    assert "unknown rule 'FS01'" in result.stderr
    # FS010 is as close to FS01 as FS001 is: both are offered.
    suggestions = result.stderr.partition("did you mean ")[2].partition("?")[0].split(", ")
    assert "FS001" in suggestions
    assert "audit-cmd rules" in result.stderr
    assert result.stdout == ""


def test_an_unknown_rule_id_with_nothing_close_still_points_at_the_catalogue() -> None:
    result = run_cli("explain", "nothing-like-any-rule-at-all")
    assert result.exit_code == 2
    assert "did you mean" not in result.stderr
    assert "`audit-cmd rules` lists every rule" in result.stderr


def test_a_retired_rule_id_exits_2_saying_it_is_retired_and_why(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(REGISTRY, "retired", (RetiredRule("ZZ001", "old-check", "merged into FS001"),))
    result = run_cli("explain", "ZZ001")
    assert result.exit_code == 2
    assert "ZZ001 (old-check) is retired and no longer checked: merged into FS001" in result.stderr
    assert "ZZ001" in run_cli("rules").stdout


def test_rules_is_a_subcommand_only_as_the_first_argument() -> None:
    assert json.loads(run_cli("--json", "rules").stdout)["command"] == "rules"


def test_rules_groups_the_rules_by_pack_and_says_which_packs_are_on(tmp_path) -> None:  # type: ignore[no-untyped-def]
    listing = run_cli("rules", width=200).stdout
    assert "core rules (always on)" in listing
    for pack in REGISTRY.packs:
        assert (
            f"pack {pack.name}: {'on' if pack.default else 'off'} (default {'on' if pack.default else 'off'})"
            in listing
        )
    assert listing.index("pack git:") < listing.index("GT001") < listing.index("pack iac.stacks:")
    policy = tmp_path / "policy.toml"
    policy.write_text('[packs]\ndisable = ["git"]\n', encoding="utf-8")
    assert "pack git: off (default on)" in run_cli("rules", "--policy", str(policy), width=200).stdout


def test_rules_json_lists_the_packs_with_their_state_and_rules() -> None:
    document = json.loads(run_cli("rules", "--json").stdout)
    packs = {entry["name"]: entry for entry in document["packs"]}
    assert set(packs) == {pack.name for pack in REGISTRY.packs}
    git = packs["git"]
    assert git["enabled"] is True and git["default"] is True and "GT001" in git["rules"]
    assert {entry["id"]: entry["pack"] for entry in document["rules"]}["GT001"] == "git"


def test_explain_works_for_a_pack_rule() -> None:
    result = run_cli("explain", "git-reset-hard", width=300)
    assert result.exit_code == 0
    assert "GT001" in result.stdout and "git reset --hard origin/main" in result.stdout
