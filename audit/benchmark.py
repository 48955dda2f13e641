"""Measure the engine: `python -m audit.benchmark [--rounds N] [--json] [--packs SET | --compare-packs | --startup]`.

The default report, in one run:

* latency per command set (mixed: corpus, rule examples and adversarial
  inputs; everyday agent commands; tldr-pages-style examples), the engine
  side by side with a regex classifier (`audit.benchmarks.regex_baseline`),
  interleaved command by command, in CPU time of this thread so machine load
  falls on both alike: p50 and p99 and their ratio to the baseline;
* the worst adversarial input at the maximum length (CPU ms and decision),
  and the peak memory of each, measured in a child process;
* the slowest audit the step limit allows: the adversarial inputs at lengths
  from 1,000 characters up, with the CPU backstop lifted, and how many times
  that the backstop is (`audit.benchmarks.step_limit`);
* the CPU time a fresh interpreter spends on `from audit import
  audit_command`, on its first audit, and `audit-cmd --json ls` on its whole
  start-up, over `python -c pass`.

`--packs` times the engine with no threat pack, the default packs or every
pack on; `--compare-packs` times the three in one run, interleaved command by
command so that machine noise falls on all three alike. `--startup` runs the
whole-process start-up benchmark of the agent hooks
(`audit.benchmarks.startup`, which takes its own options after `--`).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypedDict

from . import Policy, audit_command, default_policy, policy_from_mapping
from .benchmarks import command_sets, regex_baseline, step_limit
from .rules import REGISTRY


class Outcome(TypedDict):
    """How one adversarial input went."""

    ms: float
    decision: str
    peak_mb: float


class SideBySide(TypedDict):
    """One command set, the engine against the regex baseline (µs of CPU)."""

    commands: int
    engine_p50_us: float
    engine_p99_us: float
    baseline_p50_us: float
    baseline_p99_us: float
    p50_ratio: float
    p99_ratio: float


# Issue 18's targets: the engine's p50 and p99 over the regex baseline's, per set.
P50_RATIO_TARGETS = {"mixed": 1.0, "everyday": 0.6, "tldr": 1.0}
P99_RATIO_TARGET = 1.5
TARGETS = {"worst_adversarial_ms": 50.0, "peak_mb": 100.0, "import_ms": 60.0}

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
        "brace sequences": lambda: " {1..99999}" * (length // 11),
        "nested braces": lambda: "echo " + "{a," * ((length - 5) // 4) + "}" * ((length - 5) // 4),
        "multiplying braces": lambda: "echo " + "{1..9}" * ((length - 5) // 6),
        "deep braces": lambda: "{ " * (length // 6) + "ls; " + "}; " * (length // 6),
        "deep if": lambda: "if a; then " * (length // 20) + "ls; " + "fi; " * (length // 20),
        "doubling variables": lambda: "v0=xxxxxxxx; " + "".join(f"v{i}=$v{i - 1}$v{i - 1}; " for i in range(1, 60)),
    }
    for name, generate in generators.items():
        yield name, generate()[:length]


def adversarial_at_every_length(max_length: int) -> Iterator[tuple[str, str]]:
    """The adversarial inputs at each of the step-limit benchmark's lengths up to `max_length`."""
    for length in step_limit.LENGTHS:
        if length <= max_length:
            for name, command in adversarial_inputs(length):
                yield f"{name} ({length:,} characters)", command


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


def side_by_side(commands: list[str], rounds: int, policy: Policy) -> SideBySide:
    """The engine and the regex baseline on the same commands, interleaved (which goes first
    alternates), in CPU time of this thread."""
    for command in commands:  # warm caches (dispatch, parser objects, compiled patterns)
        audit_command(command, policy=policy)
        regex_baseline.classify(command)
    engine: list[float] = []
    baseline: list[float] = []
    for round_number in range(rounds):
        for index, command in enumerate(commands):
            for engine_turn in (True, False) if (round_number + index) % 2 == 0 else (False, True):
                started = time.thread_time()
                if engine_turn:
                    audit_command(command, policy=policy)
                    engine.append(time.thread_time() - started)
                else:
                    regex_baseline.classify(command)
                    baseline.append(time.thread_time() - started)
    engine_p50, engine_p99 = percentile(engine, 0.5) * 1e6, percentile(engine, 0.99) * 1e6
    baseline_p50, baseline_p99 = percentile(baseline, 0.5) * 1e6, percentile(baseline, 0.99) * 1e6
    return {
        "commands": len(commands),
        "engine_p50_us": engine_p50,
        "engine_p99_us": engine_p99,
        "baseline_p50_us": baseline_p50,
        "baseline_p99_us": baseline_p99,
        "p50_ratio": engine_p50 / baseline_p50,
        "p99_ratio": engine_p99 / baseline_p99,
    }


def peak_memory_mb(commands: list[str]) -> list[float]:
    """Per command, the peak of Python memory its audit allocated (tracemalloc), measured in a
    child process so the benchmark's own heap and timing are not disturbed."""
    code = (
        "import json, sys, tracemalloc\n"
        "from audit import audit_command\n"
        "commands = json.load(sys.stdin)\n"
        "audit_command('ls')\n"
        "tracemalloc.start()\n"
        "peaks = []\n"
        "for command in commands:\n"
        "    tracemalloc.reset_peak()\n"
        "    base = tracemalloc.get_traced_memory()[0]\n"
        "    audit_command(command)\n"
        "    peaks.append((tracemalloc.get_traced_memory()[1] - base) / 1e6)\n"
        "print(json.dumps(peaks))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], input=json.dumps(commands), capture_output=True, text=True, check=True
    )
    peaks: list[float] = json.loads(run.stdout)
    return peaks


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


STARTUPS = {
    "from audit import audit_command": ("-c", "from audit import audit_command"),
    "... and one audit": ("-c", "from audit import audit_command; audit_command('git status')"),
    "audit-cmd --json ls": ("-m", "audit.cli", "--json", "ls"),
}


def startup_cpu_ms(repeats: int = 7) -> dict[str, float]:
    """Median CPU time (user + system) each of STARTUPS takes in a fresh interpreter beyond
    `python -c pass`, round-robin: CPU time, unlike wall time, barely moves with machine load."""

    def cpu(arguments: tuple[str, ...]) -> float:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([sys.executable, *arguments], check=False, capture_output=True, env=environment)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime

    # Measured as installed: modules compiled once and loaded from bytecode afterwards.
    environment = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    for arguments in STARTUPS.values():
        cpu(arguments)
    runs: dict[str, list[float]] = {"bare": [], **{name: [] for name in STARTUPS}}
    for _ in range(repeats):
        runs["bare"].append(cpu(("-c", "pass")))
        for name, arguments in STARTUPS.items():
            runs[name].append(cpu(arguments))
    bare = statistics.median(runs["bare"])
    return {name: max(statistics.median(runs[name]) - bare, 0.0) * 1000 for name in STARTUPS}


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(int(fraction * len(ordered)), len(ordered) - 1)]


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    options, rest = parser.parse_known_args(argv)
    if options.startup:
        from .benchmarks import startup

        return startup.main([argument for argument in rest if argument != "--"])
    if rest:
        parser.error(f"unrecognized arguments: {' '.join(rest)}")
    if options.compare_packs:
        _compare_packs_report(options.corpus, options.rounds, as_json=options.json)
        return 0
    policy = pack_policy(options.packs)
    sets = {
        "mixed": command_sets.mixed(corpus_commands(options.corpus), example_commands()),
        "everyday": list(command_sets.EVERYDAY),
        "tldr": list(command_sets.TLDR),
    }
    compared = {name: side_by_side(listed, options.rounds, policy) for name, listed in sets.items()}
    adversarial = adversarial_outcomes(policy)
    worst_name = max(adversarial, key=lambda name: adversarial[name]["ms"])
    results: dict[str, Any] = {
        "sets": compared,
        "worst_adversarial": worst_name,
        "worst_adversarial_ms": adversarial[worst_name]["ms"],
        "peak_mb": max(outcome["peak_mb"] for outcome in adversarial.values()),
        "adversarial": adversarial,
        "step_limit": step_limit.step_limit_headroom(policy, adversarial_at_every_length(policy.limits.max_length)),
        "startup_cpu_ms": startup_cpu_ms(),
    }
    if options.json:
        print(json.dumps(results, indent=2))
    else:
        _print_report(results)
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5, help="passes over the command set (default 5)")
    parser.add_argument("--corpus", type=Path, default=Path(__file__).resolve().parent.parent / "corpus")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    modes = parser.add_mutually_exclusive_group()
    modes.add_argument("--packs", choices=PACK_SETTINGS, default="default", help="which threat packs are on")
    modes.add_argument("--compare-packs", action="store_true", help="time no pack, the default and every pack")
    modes.add_argument("--startup", action="store_true", help="whole-process start-up of the agent hooks")
    return parser


def _compare_packs_report(corpus: Path, rounds: int, *, as_json: bool) -> None:
    commands = corpus_commands(corpus) + example_commands()
    # Twice: over every command, and over the commands that are not the packs' own cases
    # (the workload that existed without them: how much the packs cost everything else).
    others = corpus_commands(corpus, without_packs=True) + example_commands(without_packs=True)
    comparisons = {
        "every command": compare_packs(commands, rounds),
        "without the packs' own cases": compare_packs(others, rounds),
    }
    if as_json:
        print(json.dumps(comparisons, indent=2))
    else:
        sizes = {"every command": len(commands), "without the packs' own cases": len(others)}
        print("\n\n".join(_packs_report(comparison, sizes[name], name) for name, comparison in comparisons.items()))


def adversarial_outcomes(policy: Policy) -> dict[str, Outcome]:
    """Each adversarial input: its CPU time, decision and peak memory. The time is the least of
    three audits after an untimed one, so that neither loading a parser the input is the first to
    need (bashlex, the lexical reading) nor a full garbage collection that falls into an audit (up
    to 30 ms after inputs this size, every other audit) is counted as the input's cost."""
    inputs = dict(adversarial_inputs(policy.limits.max_length))
    peaks = peak_memory_mb(list(inputs.values()))
    adversarial: dict[str, Outcome] = {}
    for (name, command), peak in zip(inputs.items(), peaks, strict=True):
        verdict = audit_command(command, policy=policy)
        times: list[float] = []
        for _ in range(3):
            started = time.thread_time()
            verdict = audit_command(command, policy=policy)
            times.append(time.thread_time() - started)
        adversarial[name] = {
            "ms": min(times) * 1000,
            "decision": ",".join(verdict.rule_ids) or verdict.decision.value,
            "peak_mb": peak,
        }
    return adversarial


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
    print("engine vs regex baseline, µs of CPU per command (interleaved)")
    print(
        f"{'set':>10} {'n':>5} {'engine p50':>11} {'regex p50':>10} {'ratio':>6} {'engine p99':>11} {'regex p99':>10} {'ratio':>6}"
    )
    sets: dict[str, SideBySide] = results["sets"]
    for name, row in sets.items():
        print(
            f"{name:>10} {row['commands']:5d} {row['engine_p50_us']:11.1f} {row['baseline_p50_us']:10.1f}"
            f" {row['p50_ratio']:6.2f} {row['engine_p99_us']:11.1f} {row['baseline_p99_us']:10.1f} {row['p99_ratio']:6.2f}"
        )
    targets = ", ".join(f"{name} {target:g}x" for name, target in P50_RATIO_TARGETS.items())
    print(f"targets: p50 ratio at most {targets}; p99 ratio at most {P99_RATIO_TARGET:g}x")
    print("adversarial inputs at the maximum length (CPU ms, verdict, peak Python memory):")
    adversarial: dict[str, Outcome] = results["adversarial"]
    for name, outcome in sorted(adversarial.items(), key=lambda item: -item[1]["ms"]):
        print(f"{name:>28}: {outcome['ms']:8.2f}  {outcome['decision']:<16} {outcome['peak_mb']:7.1f} MB")
    print(
        f"worst: {results['worst_adversarial']} {results['worst_adversarial_ms']:.2f} ms"
        f" (target <= {TARGETS['worst_adversarial_ms']:g}); peak memory {results['peak_mb']:.1f} MB"
        f" (target <= {TARGETS['peak_mb']:g})"
    )
    headroom: step_limit.Headroom = results["step_limit"]
    print(
        f"slowest audit the step limit allows ({headroom['inputs']} adversarial inputs of 1,000 characters"
        f" to the maximum, CPU backstop lifted): {headroom['slowest']} {headroom['slowest_ms']:.2f} ms;"
        f" the backstop ({headroom['backstop_ms']:g} ms) is {headroom['headroom']:.1f}x that"
    )
    print("start-up, CPU ms over `python -c pass`:")
    for name, ms in results["startup_cpu_ms"].items():
        print(f"{name:>34}: {ms:8.1f}")


if __name__ == "__main__":
    sys.exit(main())
