"""Fixtures for the audit-cmd tests."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def roomy_policy(tmp_path: Path) -> str:
    """A policy with a generous time budget, for tests about how long scripts are shown.

    The default budget (50 ms) is wall-clock: on a loaded machine a script of
    hundreds of commands can exceed it and be blocked as IN004 instead, which
    is right for the engine and beside the point of a display test.
    """
    path = tmp_path / "roomy-policy.toml"
    path.write_text("[limits]\ntime_budget_ms = 10000\n", encoding="utf-8")
    return str(path)
