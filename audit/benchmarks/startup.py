"""Whole-process start-up of `audit-cmd`, against `python -c pass` on the same machine.

An agent runs the hook as a fresh process before every tool call, so what the
user waits for is interpreter start, imports and one audit. This script runs
each command as a real process, round-robin so machine load hits them alike,
and reports the median wall time and its ratio to `python -c pass`. The target
for the hook is at most 5x.

    python -m audit.benchmarks.startup                # 30 runs each
    python -m audit.benchmarks.startup --runs 60 --importtime

`--importtime` adds the modules whose own import time dominates the hook
(`python -X importtime`), the list to work from when it gets slower.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

DESCRIPTION = "Whole-process start-up of audit-cmd, against python -c pass on the same machine."
REPOSITORY = Path(__file__).resolve().parents[2]
HOOK_TARGET_RATIO = 5.0
_WARM_UP_RUNS = 2

# A PreToolUse call shaped as Claude Code documents it; the command passes, so
# the time is start-up plus one ordinary audit, what most tool calls cost.
HOOK_PAYLOAD = {
    "session_id": "benchmark",
    "transcript_path": "/tmp/benchmark.jsonl",
    "cwd": "/tmp",
    "permission_mode": "default",
    "hook_event_name": "PreToolUse",
    "tool_name": "Bash",
    "tool_input": {"command": "git status", "description": "Show the working tree"},
    "tool_use_id": "toolu_benchmark",
}


@dataclass(frozen=True, slots=True)
class Case:
    """One process to start: its label, argv after the interpreter, and what it reads on stdin."""

    label: str
    arguments: tuple[str, ...]
    stdin: bytes = b""


CASES = (
    Case("python -c pass", ("-c", "pass")),
    Case("python -c 'import audit'", ("-c", "import audit")),
    Case("audit-cmd hook claude-code", ("-m", "audit.cli", "hook", "claude-code"), json.dumps(HOOK_PAYLOAD).encode()),
    Case("audit-cmd --json 'git status'", ("-m", "audit.cli", "--json", "git status")),
    Case("audit-cmd 'git status'", ("-m", "audit.cli", "git status")),
)
BASELINE = CASES[0]
HOOK = CASES[2]


def _environment() -> dict[str, str]:
    # Measured as installed: modules compiled once (by the warm-up runs) and loaded from
    # bytecode afterwards; with PYTHONDONTWRITEBYTECODE every run would compile every module.
    ignored = {"PYTHONSTARTUP", "PYTHONPROFILEIMPORTTIME", "PYTHONDONTWRITEBYTECODE"}
    environment = {key: value for key, value in os.environ.items() if key not in ignored}
    environment["PYTHONPATH"] = str(REPOSITORY)
    return environment


def _run(case: Case, environment: dict[str, str], workdir: str, *extra: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, *extra, *case.arguments],
        input=case.stdin,
        capture_output=True,
        env=environment,
        cwd=workdir,
        check=False,
        timeout=120,
    )


def measure(runs: int) -> dict[Case, list[float]]:
    """Wall seconds per run of every case, interleaved; warm-up runs are discarded."""
    environment = _environment()
    timings: dict[Case, list[float]] = {case: [] for case in CASES}
    with tempfile.TemporaryDirectory() as workdir:
        for round_number in range(runs + _WARM_UP_RUNS):
            for case in CASES:
                started = time.perf_counter()
                process = _run(case, environment, workdir)
                elapsed = time.perf_counter() - started
                if process.returncode != 0:
                    raise SystemExit(f"{case.label} failed ({process.returncode}): {process.stderr.decode()[-500:]}")
                if round_number >= _WARM_UP_RUNS:
                    timings[case].append(elapsed)
    return timings


def heaviest_imports(count: int) -> list[tuple[int, int, str]]:
    """The hook's imports with the most self time: (self µs, cumulative µs, module)."""
    with tempfile.TemporaryDirectory() as workdir:
        process = _run(HOOK, _environment(), workdir, "-X", "importtime")
    rows: list[tuple[int, int, str]] = []
    for line in process.stderr.decode().splitlines():
        if not line.startswith("import time:") or "|" not in line or "self [us]" in line:
            continue
        own, cumulative, module = (part.strip() for part in line.removeprefix("import time:").split("|"))
        rows.append((int(own), int(cumulative), module))
    return sorted(rows, reverse=True)[:count]


def report(timings: dict[Case, list[float]]) -> str:
    baseline = statistics.median(timings[BASELINE])
    lines = [
        f"python {sys.version.split()[0]} at {sys.executable}; {len(timings[BASELINE])} runs each, medians",
        f"{'command':36} {'median':>9} {'p90':>9} {'x pass':>7}",
    ]
    for case, samples in timings.items():
        median = statistics.median(samples)
        p90 = statistics.quantiles(samples, n=10)[-1] if len(samples) >= 2 else median
        lines.append(f"{case.label:36} {median * 1000:7.1f}ms {p90 * 1000:7.1f}ms {median / baseline:6.1f}x")
    ratio = statistics.median(timings[HOOK]) / baseline
    verdict = "met" if ratio <= HOOK_TARGET_RATIO else "MISSED"
    lines.append(f"hook target (at most {HOOK_TARGET_RATIO:g}x python -c pass): {verdict} at {ratio:.1f}x")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m audit.benchmarks.startup", description=DESCRIPTION)
    parser.add_argument("--runs", type=int, default=30, help="measured runs per command (default: 30)")
    parser.add_argument("--importtime", action="store_true", help="also list the hook's heaviest imports")
    options = parser.parse_args(argv)
    print(report(measure(options.runs)))
    if options.importtime:
        print("\nheaviest imports of the hook (self time, cumulative, module):")
        for own, cumulative, module in heaviest_imports(25):
            print(f"{own / 1000:7.1f}ms {cumulative / 1000:7.1f}ms  {module}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
