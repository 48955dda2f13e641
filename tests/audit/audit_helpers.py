"""Shared helpers for the engine tests."""

from __future__ import annotations

from audit import Decision, Verdict, audit_command


def verdict(command: str) -> Verdict:
    return audit_command(command)


def rule_ids(command: str) -> set[str]:
    return {finding.rule_id for finding in audit_command(command).findings}


def decision(command: str) -> Decision:
    return audit_command(command).decision
