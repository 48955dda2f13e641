"""`--policy FILE`: applied when valid; exit 2 with a message naming the problem when not."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_helpers import run_cli

from audit import audit_command, load_policy


def write_policy(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "policy.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_policy_that_raises_a_rule_to_high_turns_a_warn_into_a_block(tmp_path: Path) -> None:
    policy = write_policy(tmp_path, '[rules]\nPR001 = "high"\n')
    assert run_cli("sudo ls").exit_code == 0
    result = run_cli("--policy", str(policy), "sudo ls")
    assert result.exit_code == 1
    assert result.stdout.startswith("BLOCK")


def test_a_policy_that_turns_a_rule_off_lets_the_command_pass(tmp_path: Path) -> None:
    policy = write_policy(tmp_path, '[rules]\nPK001 = "off"\n')
    result = run_cli("--fail-on", "warn", "--policy", str(policy), "pip install requests")
    assert result.exit_code == 0
    assert result.stdout.startswith("PASS")


def test_a_policy_turns_threat_packs_on_and_off(tmp_path: Path) -> None:
    policy = write_policy(tmp_path, '[packs]\nenable = ["payments.*"]\ndisable = ["git"]\n')
    assert run_cli("git reset --hard").exit_code == 1
    assert run_cli("--policy", str(policy), "git reset --hard").exit_code == 0
    assert run_cli("stripe customers delete cus_1").exit_code == 0
    assert run_cli("--policy", str(policy), "stripe customers delete cus_1").exit_code == 1


def test_json_with_a_policy_is_the_verdict_under_that_policy(tmp_path: Path) -> None:
    policy = write_policy(tmp_path, '[rules]\nPR001 = "high"\n')
    result = run_cli("--json", "--policy", str(policy), "sudo ls")
    assert json.loads(result.stdout) == audit_command("sudo ls", policy=load_policy(policy)).to_dict()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("[limitz]\nmax_length = 5\n", "limitz: unknown key", id="unknown table"),
        pytest.param("[limits]\nmax_lenght = 5\n", "limits.max_lenght: unknown key", id="misspelt key"),
        pytest.param('[rules]\nXX999 = "off"\n', "rules.XX999: unknown rule id", id="unknown rule id"),
        pytest.param('[rules]\nPR001 = "loud"\n', "rules.PR001", id="unknown severity"),
        pytest.param("[limits]\nmax_length = -1\n", "limits.max_length", id="out of range"),
        pytest.param("x = [", "not valid TOML", id="not TOML"),
        pytest.param(
            '[packs]\nenable = ["cloud.asw"]\n',
            "packs.enable[0]: no pack is named 'cloud.asw'; did you mean cloud.aws",
            id="unknown pack",
        ),
    ],
)
def test_an_invalid_policy_exits_2_with_a_message_naming_file_and_key(tmp_path: Path, text: str, expected: str) -> None:
    policy = write_policy(tmp_path, text)
    result = run_cli("--policy", str(policy), "ls")
    assert result.exit_code == 2
    assert "audit-cmd: error: invalid policy:" in result.stderr
    assert str(policy) in result.stderr
    assert expected in result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout == ""


def test_a_missing_policy_file_exits_2(tmp_path: Path) -> None:
    result = run_cli("--policy", str(tmp_path / "nope.toml"), "ls")
    assert result.exit_code == 2
    assert "cannot read policy file" in result.stderr


def test_an_invalid_policy_stops_a_batch_before_any_line_is_audited(tmp_path: Path) -> None:
    policy = write_policy(tmp_path, "[limitz]\n")
    result = run_cli("--batch", "-", "--json", "--policy", str(policy), stdin='"ls"\n')
    assert result.exit_code == 2
    assert result.stdout == ""
