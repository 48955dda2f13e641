"""Measure the engine: `python -m audit.benchmark [--rounds N] [--json] [--packs SET | --compare-packs]`.

Reports latency per command over the project's own commands (the corpus in
`corpus/` when run from a checkout, and every rule example), commands per
second on one core, the worst case over adversarial inputs at the maximum
length, and the time `import audit` takes in a fresh interpreter.

`--packs` times the engine with no threat pack, the default packs or every
pack on; `--compare-packs` times the three in one run, interleaved command by
command so that machine noise falls on all three alike.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypedDict

from . import Policy, audit_command, default_policy, policy_from_mapping
from .rules import REGISTRY


class Outcome(TypedDict):
    """How one adversarial input went."""

    ms: float
    decision: str


TARGETS = {"p50_us": 50.0, "p99_us": 500.0, "worst_adversarial_ms": 50.0, "import_ms": 150.0}

# The `[packs]` sections of the pack settings compared: no pack, the default ones, every one.
PACK_SETTINGS: dict[str, dict[str, list[str]]] = {"none": {"disable": ["*"]}, "default": {}, "all": {"enable": ["*"]}}
# Issue 13's bar: every pack on costs at most this much more at the median than no pack.
PACKS_P50_BUDGET = 1.10


def pack_policy(setting: str) -> Policy:
    """The default policy with the packs of `setting` (a key of PACK_SETTINGS) on."""
    packs = PACK_SETTINGS[setting]
    return policy_from_mapping({"packs": packs}, f"<packs: {setting}>") if packs else default_policy()


def corpus_commands(root: Path, *, without_packs: bool = False) -> list[str]:
    """Every `command` in the corpus TOML files under `root` (none if absent); with
    `without_packs`, not those of the packs' own files (`corpus/packs/`)."""
    commands: list[str] = []
    for path in sorted(root.glob("**/*.toml")):
        if without_packs and path.parent.name == "packs":
            continue
        document = tomllib.loads(path.read_text(encoding="utf-8"))
        for case in document.get("case", []):
            command = case.get("command")
            if isinstance(command, str):
                commands.append(command)
    return commands


def example_commands(*, without_packs: bool = False) -> list[str]:
    """Every rule's examples both ways (with `without_packs`, only the core rules')."""
    return [
        example.command
        for declared in REGISTRY
        if not (without_packs and declared.pack is not None)
        for example in declared.examples + declared.counter_examples
        if example.policy is None and len(example.command) <= default_policy().limits.max_length
    ]


def adversarial_inputs(length: int) -> Iterator[tuple[str, str]]:
    """Inputs built to be slow for the parsers or the analysis, at `length`."""
    generators: dict[str, Callable[[], str]] = {
        "deep parentheses": lambda: "(" * (length // 2) + ")" * (length // 2),
        "deep substitutions": lambda: "$(" * (length // 3) + "x" + ")" * (length // 3),
        "deep backquotes": lambda: "echo " + "`" * (length - 5),
        "thousands of <<": lambda: "<<" * (length // 2),
        "thousands of cat <<": lambda: "cat <<" * (length // 6),
        "many heredocs": lambda: "cat <<A <<B\na\nA\nb\nB\n" * (length // 22),
        "long pipeline": lambda: "a | " * (length // 4),
        "long and-list": lambda: "a && " * (length // 5) + "a",
        "long word": lambda: "echo " + "x" * (length - 5),
        "unterminated quote": lambda: "echo '" + "a b " * ((length - 6) // 4),
        "unterminated double quote": lambda: 'echo "' + "$x " * ((length - 6) // 3),
        "many ${": lambda: "${" * (length // 2),
        "nested bash -c": lambda: _nested_shells(length),
        "many commands": lambda: "ls -la; " * (length // 8),
        "many substitutions": lambda: "echo " + "$(ls) " * ((length - 5) // 6),
        "many variables": lambda: "".join(f"v{i}=$v{i - 1}; " for i in range(1, length // 14)),
        "case soup": lambda: "case x in " * (length // 10),
        "brace soup": lambda: "echo " + "{a,b}" * ((length - 5) // 5),
    }
    for name, generate in generators.items():
        yield name, generate()[:length]


def _nested_shells(length: int) -> str:
    command = "ls"
    while len(command) * 2 + 12 < length:
        command = "bash -c " + json.dumps(command)
    return command


def time_each(commands: list[str], rounds: int, policy: Policy | None = None) -> list[float]:
    samples: list[float] = []
    for _ in range(rounds):
        for command in commands:
            started = time.perf_counter()
            audit_command(command, policy=policy)
            samples.append(time.perf_counter() - started)
    return samples


def compare_packs(commands: list[str], rounds: int) -> dict[str, dict[str, float]]:
    """p50/p90/p99 (µs) per pack setting, each command audited under every setting in turn
    (the order rotating) so that noise falls on all settings alike. Times are this thread's CPU
    time: the settings differ by microseconds, less than a busy machine's scheduling noise."""
    policies = {name: pack_policy(name) for name in PACK_SETTINGS}
    for policy in policies.values():
        time_each(commands, 1, policy)  # warm caches (dispatch, parser objects)
    samples: dict[str, list[float]] = {name: [] for name in policies}
    names = list(policies)
    for round_number in range(rounds):
        for index, command in enumerate(commands):
            shift = (round_number + index) % len(names)
            for name in names[shift:] + names[:shift]:
                started = time.thread_time()
                audit_command(command, policy=policies[name])
                samples[name].append(time.thread_time() - started)
    return {
        name: {
            key: percentile(timed, fraction) * 1e6
            for key, fraction in (("p50_us", 0.5), ("p90_us", 0.9), ("p99_us", 0.99))
        }
        for name, timed in samples.items()
    }


def import_time_ms(repeats: int = 5) -> float:
    """Median extra time of `import audit` over a bare interpreter start."""

    def run(code: str) -> float:
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        return time.perf_counter() - started

    bare = statistics.median(run("pass") for _ in range(repeats))
    loaded = statistics.median(run("import audit") for _ in range(repeats))
    return max(loaded - bare, 0.0) * 1000


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(int(fraction * len(ordered)), len(ordered) - 1)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5, help="passes over the command set (default 5)")
    parser.add_argument("--corpus", type=Path, default=Path(__file__).resolve().parent.parent / "corpus")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    packs = parser.add_mutually_exclusive_group()
    packs.add_argument("--packs", choices=PACK_SETTINGS, default="default", help="which threat packs are on")
    packs.add_argument("--compare-packs", action="store_true", help="time no pack, the default and every pack")
    options = parser.parse_args(argv)

    commands = corpus_commands(options.corpus) + example_commands()
    if options.compare_packs:
        # Twice: over every command, and over the commands that are not the packs' own cases
        # (the workload that existed without them: how much the packs cost everything else).
        others = corpus_commands(options.corpus, without_packs=True) + example_commands(without_packs=True)
        comparisons = {
            "every command": compare_packs(commands, options.rounds),
            "without the packs' own cases": compare_packs(others, options.rounds),
        }
        if options.json:
            print(json.dumps(comparisons, indent=2))
        else:
            sizes = {"every command": len(commands), "without the packs' own cases": len(others)}
            print("\n\n".join(_packs_report(comparison, sizes[name], name) for name, comparison in comparisons.items()))
        return 0
    policy = pack_policy(options.packs)
    time_each(commands, 1, policy)  # warm caches (policy dispatch, parser objects)
    samples = time_each(commands, options.rounds, policy)
    max_length = policy.limits.max_length
    adversarial: dict[str, Outcome] = {}
    for name, command in adversarial_inputs(max_length):
        started = time.perf_counter()
        verdict = audit_command(command, policy=policy)
        adversarial[name] = {"ms": (time.perf_counter() - started) * 1000, "decision": verdict.decision.value}
    worst_name = max(adversarial, key=lambda name: adversarial[name]["ms"])
    results: dict[str, Any] = {
        "commands": len(commands),
        "samples": len(samples),
        "p50_us": percentile(samples, 0.50) * 1e6,
        "p90_us": percentile(samples, 0.90) * 1e6,
        "p99_us": percentile(samples, 0.99) * 1e6,
        "max_us": max(samples) * 1e6,
        "commands_per_second": len(samples) / sum(samples),
        "worst_adversarial": worst_name,
        "worst_adversarial_ms": adversarial[worst_name]["ms"],
        "adversarial": adversarial,
        "import_ms": import_time_ms(),
    }
    if options.json:
        print(json.dumps(results, indent=2))
    else:
        _print_report(results)
    return 0


def _packs_report(comparison: dict[str, dict[str, float]], commands: int, title: str) -> str:
    lines = [f"{title}: {commands} commands, each audited under every pack setting in turn (µs of CPU)"]
    lines.append(f"{'packs':>8} {'p50':>8} {'p90':>8} {'p99':>8}")
    lines.extend(
        f"{name:>8} {timing['p50_us']:8.1f} {timing['p90_us']:8.1f} {timing['p99_us']:8.1f}"
        for name, timing in comparison.items()
    )
    ratio = comparison["all"]["p50_us"] / comparison["none"]["p50_us"]
    verdict = "within" if ratio <= PACKS_P50_BUDGET else "OVER"
    lines.append(f"p50 with every pack on / no pack: {ratio:.3f} ({verdict} the budget of {PACKS_P50_BUDGET:.2f})")
    return "\n".join(lines)


def _print_report(results: dict[str, Any]) -> None:
    print(f"commands: {results['commands']} distinct, {results['samples']} timed audits")
    for key in ("p50_us", "p90_us", "p99_us", "max_us"):
        target = TARGETS.get(key)
        suffix = f"   (target <= {target:g})" if target else ""
        print(f"{key:>22}: {results[key]:10.1f}{suffix}")
    print(f"{'commands per second':>22}: {results['commands_per_second']:10.0f}   (one core)")
    print(f"{'import audit (ms)':>22}: {results['import_ms']:10.1f}   (target <= {TARGETS['import_ms']:g})")
    print("adversarial inputs at the maximum length (ms, decision):")
    adversarial: dict[str, Outcome] = results["adversarial"]
    for name, outcome in sorted(adversarial.items(), key=lambda item: -item[1]["ms"]):
        print(f"{name:>28}: {outcome['ms']:8.2f}  {outcome['decision']}")
    print(
        f"worst: {results['worst_adversarial']} {results['worst_adversarial_ms']:.2f} ms (target <= {TARGETS['worst_adversarial_ms']:g})"
    )


if __name__ == "__main__":
    sys.exit(main())
