"""Input validation happens before parsing; nothing raises for a str (docs/engine.md#validation)."""

from __future__ import annotations

import pytest
from audit_helpers import rule_ids

from audit import Decision, Position, audit_command, policy_from_mapping


@pytest.mark.parametrize("command", ["", " ", "\n", "\t \n  ", "\r\n"])
def test_empty_or_whitespace_command_is_blocked_as_empty(command: str) -> None:
    verdict = audit_command(command)
    assert verdict.decision is Decision.BLOCK
    assert [f.rule_id for f in verdict.findings] == ["IN001"]
    assert verdict.findings[0].position is Position.INPUT


@pytest.mark.parametrize("command", ["ls\x00", "\x00", "echo a\x00b", "rm -rf /tmp/x\x00; ls"])
def test_command_with_null_byte_is_blocked_and_the_span_points_at_it(command: str) -> None:
    verdict = audit_command(command)
    assert verdict.decision is Decision.BLOCK
    assert [f.rule_id for f in verdict.findings] == ["IN002"]
    assert verdict.findings[0].evidence == "\x00"


def test_command_over_the_default_limit_is_blocked_and_at_the_limit_is_not() -> None:
    assert rule_ids("x" * 10_001) == {"IN003"}
    assert "IN003" not in rule_ids("x" * 10_000)


def test_max_length_comes_from_the_policy() -> None:
    policy = policy_from_mapping({"limits": {"max_length": 5}})
    assert audit_command("echo hi", policy=policy).decision is Decision.BLOCK
    assert audit_command("ls", policy=policy).decision is Decision.PASS


@pytest.mark.parametrize("value", [None, b"ls", {"command": "ls"}, 42, ["ls"]])
def test_non_string_input_raises_type_error_at_the_library_api(value: object) -> None:
    with pytest.raises(TypeError, match="must be a str"):
        audit_command(value)  # type: ignore[arg-type]


def test_policy_of_the_wrong_type_raises_type_error() -> None:
    with pytest.raises(TypeError, match=r"audit\.Policy"):
        audit_command("ls", policy={"limits": {}})  # type: ignore[arg-type]


def test_every_block_and_warn_has_a_finding_and_pass_has_none() -> None:
    for command in ("ls", "sudo ls", "rm -rf /", "", "echo 'x"):
        verdict = audit_command(command)
        assert bool(verdict.findings) == (verdict.decision is not Decision.PASS)
        if verdict.findings:
            assert verdict.findings[0].severity.decision is verdict.decision


def test_every_public_name_of_the_package_loads_and_is_listed_in_all() -> None:
    import audit

    assert sorted(audit.__all__) == sorted(audit._HOMES)  # pyright: ignore[reportPrivateUsage]
    for name in audit.__all__:
        assert getattr(audit, name) is not None, name
    with pytest.raises(AttributeError, match="no attribute 'nonexistent'"):
        audit.nonexistent  # noqa: B018 (the attribute access is the test)
