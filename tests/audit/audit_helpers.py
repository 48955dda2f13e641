"""Shared helpers for the engine tests.

They use the default policy with a patient time budget: these tests are
about what is found, and a loaded CI machine must not turn a finding into
an IN004 budget block. Speed is measured by `python -m audit.benchmark`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from audit import Decision, Policy, Verdict, audit_command, policy_from_mapping

PATIENT: Mapping[str, Any] = {"limits": {"time_budget_ms": 5_000}}
PATIENT_POLICY: Policy = policy_from_mapping(PATIENT, "patient test policy")


def patient_policy(overrides: Mapping[str, Any] | None = None) -> Policy:
    """The default policy with a patient budget, plus `overrides` (which win)."""
    if not overrides:
        return PATIENT_POLICY
    limits = {**PATIENT["limits"], **overrides.get("limits", {})}
    return policy_from_mapping({**overrides, "limits": limits}, "patient test policy")


def verdict(command: str) -> Verdict:
    return audit_command(command, policy=PATIENT_POLICY)


def rule_ids(command: str) -> set[str]:
    return {finding.rule_id for finding in verdict(command).findings}


def decision(command: str) -> Decision:
    return verdict(command).decision


def steps_needed(command: str) -> int:
    """The fewest steps `command` is judged with (below them it is IN004), the clock lifted."""
    low, high = 1, 1_000_000
    while low < high:
        middle = (low + high) // 2
        limits = {"limits": {"max_steps": middle, "time_budget_ms": 60_000}}
        if "IN004" in audit_command(command, policy=policy_from_mapping(limits)).rule_ids:
            low = middle + 1
        else:
            high = middle
    return low


def tree_sitter_asked(
    monkeypatch: pytest.MonkeyPatch, command: str, policy: Policy | None = None
) -> tuple[bool, Verdict]:
    """Whether the audit of `command` asked tree-sitter for a reading, and its verdict."""
    import audit._syntax._treesitter as treesitter

    asked: list[str] = []
    real = treesitter.parse_tree_sitter

    def recording(*args: Any, **kwargs: Any) -> Any:
        asked.append("asked")
        return real(*args, **kwargs)

    monkeypatch.setattr(treesitter, "parse_tree_sitter", recording)
    verdict = audit_command(command, policy=policy)
    return bool(asked), verdict
