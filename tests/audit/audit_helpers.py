"""Shared helpers for the engine tests.

They use the default policy with a patient time budget: these tests are
about what is found, and a loaded CI machine must not turn a finding into
an IN004 budget block. Speed is measured by `python -m audit.benchmark`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

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
