"""A fuzz campaign: run every property with fresh random seeds for N minutes and
write each failure as a corpus candidate.

    python -m fuzz.campaign --minutes 30 --out corpus/candidates/

Candidates are TOML in the corpus format, labelled with what the engine says
*today* and `status = "todo"`; a reviewer corrects the labels, moves the case
into the right corpus file and pins the input as an `@example` (or a known
gap). `corpus/candidates/` is never loaded by the corpus runner.

The fuzzing runs in a worker process: an input that crashes the interpreter
(a segfault in the parser) would otherwise end the campaign and lose it. The
worker writes every input to a file before judging it; when the worker dies
by a signal, that file is the crashing input, written as a candidate, and a
new worker carries on.
"""

from __future__ import annotations

import argparse
import importlib
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType
from typing import Any

from hypothesis import HealthCheck, Phase, settings

from audit import Verdict, audit_command
from audit.rules import ENGINE_FAILURE

from .oracle import BashOracle, BashRun, OracleUnavailable, bash_oracle

TEST_MODULES = (
    "fuzz.fuzz_total",
    "fuzz.fuzz_metamorphic",
    "fuzz.fuzz_differential",
    "fuzz.fuzz_oracle",
    "fuzz.fuzz_plain_lane",
)
# Modules whose checks judge commands: the campaign records what they audit.
_AUDITING_MODULES = ("fuzz.properties", "fuzz.fuzz_oracle", "fuzz.fuzz_plain_lane")
LAST_INPUT = ".campaign-last-input"
_MIN_WORKER_SECONDS = 5.0


@dataclass(frozen=True, slots=True)
class Property:
    name: str
    test: Callable[..., None]
    needs_oracle: bool


@dataclass(frozen=True, slots=True)
class Failure:
    prop: str
    message: str
    commands: tuple[str, ...]
    crashed: bool = False
    """The input killed the process: it cannot be judged again to label it."""


@dataclass(slots=True)
class Recorder:
    """The commands audited during the current example; kept for the failing one."""

    current: list[str] = field(default_factory=list)
    failing: list[str] = field(default_factory=list)


def discover() -> list[Property]:
    found = []
    for module_name in TEST_MODULES:
        module = importlib.import_module(module_name)
        for name in dir(module):
            test = getattr(module, name)
            if name.startswith("test_") and hasattr(test, "hypothesis"):
                parameters = test.hypothesis.inner_test.__code__.co_varnames
                found.append(Property(name, test, "oracle" in parameters))
    return found


@contextmanager
def recording(recorder: Recorder, last_input: Path, oracle: BashOracle | None) -> Iterator[None]:
    """Record every command audited, and every command the oracle runs (a property may
    fail on bash's side before it audits anything)."""
    modules: list[ModuleType] = [importlib.import_module(name) for name in _AUDITING_MODULES]
    descriptor = os.open(last_input, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)

    def remember(command: str) -> None:
        recorder.current.append(command)
        # No fsync: a crashing process keeps what it wrote; only the machine could lose it.
        os.ftruncate(descriptor, 0)
        os.pwrite(descriptor, command.encode("utf-8", "surrogatepass"), 0)

    def recorded(command: str, **keywords: Any) -> Verdict:
        remember(command)
        verdict = audit_command(command, **keywords)
        # The engine blocks on its own exceptions rather than raise; the campaign counts them as failures.
        failures = [finding.message for finding in verdict.findings if finding.rule_id == ENGINE_FAILURE.id]
        assert not failures, failures[0]
        return verdict

    for module in modules:
        module.audit_command = recorded  # type: ignore[attr-defined]
    run_in_sandbox = oracle.run if oracle is not None else None

    def recorded_run(command: str, **keywords: Any) -> BashRun:
        remember(command)
        assert run_in_sandbox is not None
        return run_in_sandbox(command, **keywords)

    if oracle is not None:
        oracle.run = recorded_run  # type: ignore[method-assign]
    try:
        yield
    finally:
        for module in modules:
            module.audit_command = audit_command  # type: ignore[attr-defined]
        if oracle is not None:
            del oracle.run  # the instance attribute goes: the class's method is back
        os.close(descriptor)


def _campaign_settings(prop: Property, examples: int) -> Property:
    """Fresh random seeds, no example database, explicit examples skipped (they are pinned already).

    hypothesis applies settings to the test in place, so each property is configured once.
    """
    configured = settings(
        max_examples=examples,
        derandomize=False,
        database=None,
        deadline=None,
        phases=[Phase.generate, Phase.target, Phase.shrink],
        suppress_health_check=list(HealthCheck),
        print_blob=False,
        report_multiple_bugs=False,
    )(prop.test)
    return Property(prop.name, configured, prop.needs_oracle)


class _TimeUp(BaseException):
    """The campaign's time ran out in the middle of a property (hypothesis lets it through:
    some properties take a second an example, so a round of them could outlast the campaign).
    A property that has failed is left to shrink its failure first."""


def _run_once(prop: Property, oracle: BashOracle | None, recorder: Recorder, deadline: float) -> Failure | None:
    inner = prop.test.hypothesis.inner_test  # type: ignore[attr-defined]
    recorder.failing = []

    def remembering(*args: Any, **kwargs: Any) -> None:
        if time.monotonic() >= deadline and not recorder.failing:
            raise _TimeUp
        recorder.current = []
        try:
            inner(*args, **kwargs)
        except BaseException:
            recorder.failing = list(recorder.current)
            raise

    prop.test.hypothesis.inner_test = remembering  # type: ignore[attr-defined]
    try:
        prop.test(oracle=oracle) if prop.needs_oracle else prop.test()
    except Exception as failure:
        return Failure(prop.name, _one_line(str(failure)), tuple(dict.fromkeys(recorder.failing)))
    finally:
        prop.test.hypothesis.inner_test = inner  # type: ignore[attr-defined]
    return None


def _one_line(message: str) -> str:
    first = message.strip().splitlines()[0] if message.strip() else "failed"
    return first[:300]


def run(
    minutes: float, examples: int, oracle: BashOracle | None, last_input: Path, log: Callable[[str], None]
) -> list[Failure]:
    deadline = time.monotonic() + minutes * 60
    properties = [
        _campaign_settings(prop, examples) for prop in discover() if oracle is not None or not prop.needs_oracle
    ]
    recorder = Recorder()
    failures: dict[tuple[str, tuple[str, ...]], Failure] = {}
    rounds = 0
    with recording(recorder, last_input, oracle):
        while time.monotonic() < deadline:
            rounds += 1
            for prop in properties:
                if time.monotonic() >= deadline:
                    break
                try:
                    failure = _run_once(prop, oracle, recorder, deadline)
                except _TimeUp:
                    break
                if failure is not None and (failure.prop, failure.commands) not in failures:
                    failures[(failure.prop, failure.commands)] = failure
                    log(f"round {rounds}: {prop.name} failed: {failure.message}")
    log(f"{rounds} rounds over {len(properties)} properties, {len(failures)} distinct failures")
    return list(failures.values())


def _toml_string(text: str) -> str:
    """A TOML string for any text: readable multi-line literal when it can be, else escaped."""
    readable = all(character.isprintable() or character in "\n\t" for character in text)
    if readable and "'''" not in text and not text.endswith("'"):
        return "'''" + ("\n" if "\n" in text else "") + text + "'''"
    escaped = []
    for character in text:
        code = ord(character)
        if character in '"\\':
            escaped.append("\\" + character)
        elif code < 0x20 or code == 0x7F:
            escaped.append(f"\\u{code:04x}")
        elif 0xD800 <= code <= 0xDFFF:
            escaped.append("\\uFFFD")  # a lone surrogate cannot be written in TOML
        elif not character.isprintable():
            escaped.append(f"\\U{code:08x}")
        else:
            escaped.append(character)
    return '"' + "".join(escaped) + '"'


def write_candidates(failures: list[Failure], out: Path) -> Path | None:
    """One TOML file of candidate cases, labelled with today's verdicts for review."""
    cases = []
    for failure in failures:
        for command in failure.commands or ("",):
            if failure.crashed:
                decision, rule_ids = "pass", ()
            else:
                verdict = audit_command(command)
                decision, rule_ids = verdict.decision.value, verdict.rule_ids
            rules = ", ".join(f'"{rule_id}"' for rule_id in sorted(set(rule_ids)))
            cases.append(
                "[[case]]\n"
                f"command = {_toml_string(command)}\n"
                f'decision = "{decision}"\n'
                f"rules = [{rules}]\n"
                f"reason = {_toml_string('REVIEW: label with the correct verdict; found by ' + failure.prop)}\n"
                f"provenance = {_toml_string('fuzz campaign: ' + failure.message)}\n"
                'status = "todo"\n'
            )
    if not cases:
        return None
    out.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    path = out / f"campaign-{stamp}.toml"
    header = "# Fuzz campaign candidates: labels are the engine's verdicts today, NOT reviewed.\n\n"
    path.write_text(header + "\n".join(cases), encoding="utf-8")
    return path


def _worker(arguments: argparse.Namespace, log: Callable[[str], None]) -> int:
    last_input = arguments.out / LAST_INPUT
    if arguments.no_oracle:
        failures = run(arguments.minutes, arguments.examples, None, last_input, log)
    else:
        try:
            with bash_oracle() as oracle:
                failures = run(arguments.minutes, arguments.examples, oracle, last_input, log)
        except OracleUnavailable as reason:
            log(f"no bash oracle ({reason}); fuzzing without it")
            failures = run(arguments.minutes, arguments.examples, None, last_input, log)
    path = write_candidates(failures, arguments.out)
    if path is not None:
        log(f"wrote {len(failures)} failures as candidates to {path}")
    return 1 if failures else 0


def _supervise(arguments: argparse.Namespace, log: Callable[[str], None]) -> int:
    """Run workers until the time is up; turn each crash into a candidate."""
    deadline = time.monotonic() + arguments.minutes * 60
    last_input = arguments.out / LAST_INPUT
    crashes: list[Failure] = []
    status = 0
    while (seconds_left := deadline - time.monotonic()) > _MIN_WORKER_SECONDS:
        worker = [sys.executable, "-m", "fuzz.campaign", "--worker", "--minutes", f"{seconds_left / 60:.3f}"]
        worker += ["--examples", str(arguments.examples), "--out", str(arguments.out)]
        worker += ["--no-oracle"] if arguments.no_oracle else []
        returncode = subprocess.run(worker, check=False).returncode
        if returncode >= 0:
            status = returncode
            break
        crashing = last_input.read_bytes().decode("utf-8", "surrogatepass")
        log(f"the worker was killed by signal {-returncode} judging {crashing!r}; starting another")
        crashes.append(
            Failure("a crash of the engine process", f"killed by signal {-returncode}", (crashing,), crashed=True)
        )
    last_input.unlink(missing_ok=True)
    path = write_candidates(crashes, arguments.out)
    if path is not None:
        log(f"wrote {len(crashes)} crashing inputs as candidates to {path}")
    return 1 if crashes else status


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fuzz.campaign", description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0, help="how long to fuzz (default 10)")
    parser.add_argument("--out", type=Path, default=Path("corpus/candidates"), help="where candidates go")
    parser.add_argument("--examples", type=int, default=2_000, help="examples per property per round")
    parser.add_argument("--no-oracle", action="store_true", help="skip the properties that run real bash")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    arguments = parser.parse_args(argv)
    arguments.out.mkdir(parents=True, exist_ok=True)

    def log(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    return _worker(arguments, log) if arguments.worker else _supervise(arguments, log)


if __name__ == "__main__":
    sys.exit(main())
