"""How far below the CPU-time backstop the step limit stops the slowest input.

Verdicts depend on the input and the policy only while the step limit, not the
backstop, decides: every audit the steps allow must finish well inside the
backstop, with room for a machine that runs slower under load. This module
audits the adversarial inputs of `audit.benchmark` at lengths from 1,000
characters to the maximum with the backstop lifted, so the steps alone stop
them, and reports the slowest audit and the headroom the backstop leaves it.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterable
from typing import TypedDict

from .. import Policy, audit_command

LENGTHS = (1_000, 2_000, 3_000, 5_000, 7_500, 10_000)
# Lifted far enough that no input here reaches it: the steps decide alone.
_LIFTED_BACKSTOP_MS = 60_000


class Headroom(TypedDict):
    """The slowest audit the step limit allows, against the backstop."""

    slowest: str
    slowest_ms: float
    backstop_ms: float
    headroom: float
    inputs: int


def step_limit_headroom(policy: Policy, inputs: Iterable[tuple[str, str]]) -> Headroom:
    """The slowest of `inputs` (name, command) under `policy`'s steps with its backstop lifted,
    each timed as the least of three audits after an untimed one."""
    lifted = dataclasses.replace(policy, limits=dataclasses.replace(policy.limits, time_budget_ms=_LIFTED_BACKSTOP_MS))
    slowest, slowest_ms, count = "", 0.0, 0
    for name, command in inputs:
        audit_command(command, policy=lifted)
        times: list[float] = []
        for _ in range(3):
            started = time.thread_time()
            audit_command(command, policy=lifted)
            times.append(time.thread_time() - started)
        count += 1
        if min(times) * 1000 > slowest_ms:
            slowest, slowest_ms = name, min(times) * 1000
    backstop_ms = float(policy.limits.time_budget_ms)
    return {
        "slowest": slowest,
        "slowest_ms": slowest_ms,
        "backstop_ms": backstop_ms,
        "headroom": backstop_ms / slowest_ms if slowest_ms else float("inf"),
        "inputs": count,
    }
