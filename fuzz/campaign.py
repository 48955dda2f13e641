"""A fuzz campaign: run every property with fresh random seeds for N minutes and
write each failure as a corpus candidate.

    python -m fuzz.campaign --minutes 30 --out corpus/candidates/

Candidates are TOML in the corpus format, labelled with what the engine says
*today* and `status = "todo"`; a reviewer corrects the labels, moves the case
into the right corpus file and pins the input as an `@example` (or a known
gap). `corpus/candidates/` is never loaded by the corpus runner.
"""

from __future__ import annotations

import argparse
import importlib
import json
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

from .oracle import BashOracle, OracleUnavailable, bash_oracle

TEST_MODULES = ("fuzz.fuzz_total", "fuzz.fuzz_metamorphic", "fuzz.fuzz_differential", "fuzz.fuzz_oracle")
# Modules whose checks judge commands: the campaign records what they audit.
_AUDITING_MODULES = ("fuzz.properties", "fuzz.fuzz_oracle")
_CONTROL = {chr(code) for code in range(32)} - {"\n", "\t"}


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


@dataclass(slots=True)
class _Recorder:
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
def _recording(recorder: _Recorder) -> Iterator[None]:
    modules: list[ModuleType] = [importlib.import_module(name) for name in _AUDITING_MODULES]

    def recorded(command: str, **keywords: Any) -> Verdict:
        recorder.current.append(command)
        return audit_command(command, **keywords)

    for module in modules:
        module.audit_command = recorded  # type: ignore[attr-defined]
    try:
        yield
    finally:
        for module in modules:
            module.audit_command = audit_command  # type: ignore[attr-defined]


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


def _run_once(prop: Property, oracle: BashOracle | None, recorder: _Recorder) -> Failure | None:
    inner = prop.test.hypothesis.inner_test  # type: ignore[attr-defined]

    def remembering(*args: Any, **kwargs: Any) -> None:
        recorder.current = []
        try:
            inner(*args, **kwargs)
        except BaseException:
            recorder.failing = list(recorder.current)
            raise

    prop.test.hypothesis.inner_test = remembering  # type: ignore[attr-defined]
    try:
        prop.test(oracle=oracle) if prop.needs_oracle else prop.test()
    except Exception as failure:  # noqa: BLE001 - any failure of any property is a finding
        return Failure(prop.name, _one_line(str(failure)), tuple(dict.fromkeys(recorder.failing)))
    finally:
        prop.test.hypothesis.inner_test = inner  # type: ignore[attr-defined]
    return None


def _one_line(message: str) -> str:
    first = message.strip().splitlines()[0] if message.strip() else "failed"
    return first[:300]


def run(minutes: float, examples: int, oracle: BashOracle | None, log: Callable[[str], None]) -> list[Failure]:
    deadline = time.monotonic() + minutes * 60
    properties = [_campaign_settings(prop, examples) for prop in discover() if oracle is not None or not prop.needs_oracle]
    recorder = _Recorder()
    failures: dict[tuple[str, tuple[str, ...]], Failure] = {}
    rounds = 0
    with _recording(recorder):
        while time.monotonic() < deadline:
            rounds += 1
            for prop in properties:
                if time.monotonic() >= deadline:
                    break
                failure = _run_once(prop, oracle, recorder)
                if failure is not None and (failure.prop, failure.commands) not in failures:
                    failures[(failure.prop, failure.commands)] = failure
                    log(f"round {rounds}: {prop.name} failed: {failure.message}")
    log(f"{rounds} rounds over {len(properties)} properties, {len(failures)} distinct failures")
    return list(failures.values())


def _toml_string(text: str) -> str:
    if "'''" in text or _CONTROL & set(text) or text.endswith("'"):
        return json.dumps(text)
    return "'''" + ("\n" if "\n" in text else "") + text + "'''"


def write_candidates(failures: list[Failure], out: Path) -> Path | None:
    """One TOML file of candidate cases, labelled with today's verdicts for review."""
    cases = []
    for failure in failures:
        for command in failure.commands or ("",):
            verdict = audit_command(command)
            rules = ", ".join(f'"{rule_id}"' for rule_id in sorted(set(verdict.rule_ids)))
            cases.append(
                "[[case]]\n"
                f"command = {_toml_string(command)}\n"
                f'decision = "{verdict.decision.value}"\n'
                f"rules = [{rules}]\n"
                f"reason = {json.dumps('REVIEW: label with the correct verdict; found by ' + failure.prop)}\n"
                f"provenance = {json.dumps('fuzz campaign: ' + failure.message)}\n"
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fuzz.campaign", description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0, help="how long to fuzz (default 10)")
    parser.add_argument("--out", type=Path, default=Path("corpus/candidates"), help="where candidates go")
    parser.add_argument("--examples", type=int, default=2_000, help="examples per property per round")
    parser.add_argument("--no-oracle", action="store_true", help="skip the properties that run real bash")
    arguments = parser.parse_args(argv)

    def log(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    if arguments.no_oracle:
        failures = run(arguments.minutes, arguments.examples, None, log)
    else:
        try:
            with bash_oracle() as oracle:
                failures = run(arguments.minutes, arguments.examples, oracle, log)
        except OracleUnavailable as reason:
            log(f"no bash oracle ({reason}); fuzzing without it")
            failures = run(arguments.minutes, arguments.examples, None, log)
    path = write_candidates(failures, arguments.out)
    if path is not None:
        log(f"wrote {len(failures)} failures as candidates to {path}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
