"""Fixtures for the audit-cmd tests."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def roomy_policy(tmp_path: Path) -> str:
    """A policy with a generous budget, for tests about how long scripts are shown.

    A script of hundreds of commands can exceed the default budget and be
    blocked as IN004 instead, which is right for the engine and beside the
    point of a display test.
    """
    path = tmp_path / "roomy-policy.toml"
    path.write_text("[limits]\ntime_budget_ms = 10000\nmax_steps = 1000000\n", encoding="utf-8")
    return str(path)
