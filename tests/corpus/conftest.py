"""The corpus gap report: the known gaps (`status = "todo"`) at the end of every run."""

from __future__ import annotations

import pytest

from corpus import Case, load_corpus

_GAP_TEST = "test_corpus.py::test_case["


def _gap_line(case: Case) -> str:
    decision, rule_ids = case.engine_labels()
    command = case.command if len(case.command) <= 70 else case.command[:67] + "..."
    line = (
        f"{case.id}: {command!r}\n"
        f"    expected {case.decision.value} {sorted(case.rules)}, engine says {decision.value} {sorted(rule_ids)}"
        f" - {case.reason}"
    )
    return line + (f"\n    ({case.provenance})" if case.provenance else "")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    gaps = [report for report in terminalreporter.stats.get("xfailed", []) if _GAP_TEST in report.nodeid]
    if not gaps:
        return
    by_id = {case.id: case for case in load_corpus()}
    terminalreporter.write_sep("=", f"corpus gap report: {len(gaps)} known gaps (status = \"todo\")")
    for report in gaps:
        case_id = report.nodeid.split(_GAP_TEST, 1)[1].removesuffix("]")
        terminalreporter.write_line(_gap_line(by_id[case_id]))
