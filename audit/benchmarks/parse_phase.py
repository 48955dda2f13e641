"""The parse phase on its own, against a whole audit, per command set; optionally
against another checkout of the engine, interleaved.

    python -m audit.benchmarks.parse_phase                   # this checkout
    python -m audit.benchmarks.parse_phase --against DIR     # DIR's engine, then this one, in turns

Each command is parsed (`audit._syntax.parse`, as the engine calls it: the
pre-pass, tree-sitter and the tree builder, not the code strings the analysis
parses later) and audited (`audit_command`) in turn, in CPU time of the
thread, for several rounds; the report gives the median of every sample and
the mean per command. With `--against`, each checkout runs in its own process
(`PYTHONPATH` set to it), the two alternating for `--pairs` pairs with the
order swapped every pair, so machine load falls on both alike; the report
gives the median over the pairs of each measure. The command lists are the
benchmark's (`audit.benchmark`), read by each checkout from its own files.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from audit import audit_command
from audit._budget import Budget
from audit._syntax import parse
from audit.benchmark import corpus_commands, example_commands
from audit.benchmarks import command_sets

DESCRIPTION = "The parse phase alone and whole audits per command set, optionally against another checkout."
# Steps and seconds no command of the sets comes near: the parse is timed, never cut short.
_UNLIMITED = (60.0, 10**9)


def command_lists(corpus_root: Path) -> dict[str, list[str]]:
    return {
        "mixed": command_sets.mixed(corpus_commands(corpus_root), example_commands()),
        "everyday": list(command_sets.EVERYDAY),
    }


def measure(commands: list[str], rounds: int) -> dict[str, float]:
    """Median and mean CPU microseconds of parsing and of auditing one command."""
    for command in commands:  # warm caches (parser objects, dispatch, lazily loaded packs)
        audit_command(command)
    parsing: list[float] = []
    auditing: list[float] = []
    for _ in range(rounds):
        for command in commands:
            started = time.thread_time()
            parse(command, budget=Budget(*_UNLIMITED))
            parsed = time.thread_time()
            audit_command(command)
            parsing.append(parsed - started)
            auditing.append(time.thread_time() - parsed)
    return {
        "parse_p50_us": statistics.median(parsing) * 1e6,
        "parse_mean_us": statistics.fmean(parsing) * 1e6,
        "audit_p50_us": statistics.median(auditing) * 1e6,
        "audit_mean_us": statistics.fmean(auditing) * 1e6,
    }


def compare(against: Path, here: Path, pairs: int, rounds: int) -> dict[str, dict[str, dict[str, float]]]:
    """Per checkout ("before" is `against`, "after" this one), per set, the median over the pairs."""
    runs: dict[str, list[dict[str, dict[str, float]]]] = {"before": [], "after": []}
    for pair in range(pairs):
        order = [("before", against), ("after", here)]
        if pair % 2:
            order.reverse()
        for label, checkout in order:
            output = subprocess.run(
                # -P: the script's own directory must not shadow the checkout's modules.
                [sys.executable, "-P", __file__, "--rounds", str(rounds), "--json"],
                cwd=checkout,
                env={**os.environ, "PYTHONPATH": str(checkout)},
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            runs[label].append(json.loads(output))
    return {
        label: {
            name: {key: statistics.median(run[name][key] for run in results) for key in results[0][name]}
            for name in results[0]
        }
        for label, results in runs.items()
    }


def _print_table(results: dict[str, dict[str, dict[str, float]]]) -> None:
    keys = ("parse_p50_us", "parse_mean_us", "audit_p50_us", "audit_mean_us")
    print(f"{'':22}" + "".join(f"{key:>15}" for key in keys))
    for label, sets in results.items():
        for name, numbers in sets.items():
            print(f"{label + ' ' + name:22}" + "".join(f"{numbers[key]:15.1f}" for key in keys))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=DESCRIPTION)
    parser.add_argument("--rounds", type=int, default=5, help="passes over each set per process")
    parser.add_argument("--against", type=Path, help="another checkout of the repository, measured as 'before'")
    parser.add_argument("--pairs", type=int, default=5, help="with --against: processes per checkout")
    parser.add_argument("--json", action="store_true", help="print a JSON report")
    options = parser.parse_args(argv)
    if options.against is not None:
        here = Path(__file__).resolve().parents[2]
        results = compare(options.against.resolve(), here, options.pairs, options.rounds)
    else:
        lists = command_lists(Path("corpus"))
        results = {"now": {name: measure(commands, options.rounds) for name, commands in lists.items()}}
    if options.json:
        print(json.dumps(results.get("now", results), indent=2))
    else:
        _print_table(results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
