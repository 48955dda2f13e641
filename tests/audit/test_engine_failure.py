"""An exception inside the engine still ends in a verdict: block, [IN006], the exception named,
the traceback logged. Faults are injected here; no honest input makes a correct engine fail."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from audit import Decision, audit_command
from audit._analysis import Analyzer
from audit._engine import ENGINE_LOGGER_NAME
from audit.rules import RuleRunner
from fuzz.campaign import Recorder, recording
from fuzz.properties import check_total_and_bounded
from tests.engine_failures import pytest_runtest_call

pytestmark = pytest.mark.engine_failure


def _raiser(error: Exception) -> Callable[..., Any]:
    def fail(*_args: object, **_keywords: object) -> Any:
        raise error

    return fail


# Where a bug can be: the plain-command lane, the walk over the parsed tree, a rule's check.
_FAULT_SITES = (
    pytest.param("audit._engine.plain_command", "ls -la", id="plain lane"),
    pytest.param(f"{Analyzer.__module__}.Analyzer.run", 'echo "$HOME" | wc -c', id="analysis"),
    pytest.param(f"{RuleRunner.__module__}.RuleRunner.command", "git status", id="rules"),
)


@pytest.mark.parametrize(("site", "command"), _FAULT_SITES)
def test_an_exception_anywhere_in_the_engine_blocks_with_in006(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, site: str, command: str
) -> None:
    monkeypatch.setattr(site, _raiser(IndexError("tuple index out of range")))
    with caplog.at_level(logging.ERROR, logger=ENGINE_LOGGER_NAME):
        verdict = audit_command(command)
    assert verdict.decision is Decision.BLOCK
    assert verdict.rule_ids == ("IN006",)
    assert "IndexError: tuple index out of range" in verdict.findings[0].message
    (logged,) = caplog.records
    assert logged.exc_info is not None
    assert command in logged.getMessage()


def test_a_long_exception_message_is_cut_in_the_verdict(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("audit._engine.plain_command", _raiser(ValueError("x" * 5_000)))
    message = audit_command("ls").findings[0].message
    assert len(message) < 400
    assert "ValueError: xxx" in message


def test_findings_made_before_the_failure_are_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    real_command = RuleRunner.command
    calls: list[str] = []

    def fail_on_the_second(self: RuleRunner, subject: Any) -> None:
        calls.append("call")
        if len(calls) == 2:
            raise KeyError("second")
        real_command(self, subject)

    monkeypatch.setattr(RuleRunner, "command", fail_on_the_second)
    verdict = audit_command("rm -rf / ; git status")
    assert {"FS001", "IN006"} <= set(verdict.rule_ids)
    assert verdict.decision is Decision.BLOCK


def test_a_fuzz_campaign_counts_an_engine_failure_as_a_failure(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr("audit._engine.plain_command", _raiser(RuntimeError("bug")))
    with recording(Recorder(), tmp_path / "last-input", None), pytest.raises(AssertionError, match="RuntimeError: bug"):
        check_total_and_bounded("ls")


def test_a_test_that_makes_the_engine_fail_unmarked_is_failed(monkeypatch: pytest.MonkeyPatch) -> None:
    class UnmarkedItem:
        def get_closest_marker(self, name: str) -> None:
            return None

    monkeypatch.setattr("audit._engine.plain_command", _raiser(RuntimeError("bug")))
    hook = pytest_runtest_call(UnmarkedItem())  # type: ignore[arg-type]
    next(hook)
    audit_command("ls")
    with pytest.raises(pytest.fail.Exception, match="the engine failed"):
        hook.send(None)


def test_a_correct_engine_leaves_a_test_alone() -> None:
    class UnmarkedItem:
        def get_closest_marker(self, name: str) -> None:
            return None

    hook = pytest_runtest_call(UnmarkedItem())  # type: ignore[arg-type]
    next(hook)
    audit_command("ls")
    with pytest.raises(StopIteration):
        hook.send(None)
