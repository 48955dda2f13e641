"""A test fails when the engine fails on a command, even a test that only looks at the decision.

The engine turns its own exceptions into a blocking finding ([IN006]) so that a caller always gets
a verdict; that would hide a bug from a test asserting "blocked". The engine also logs each failure,
and this hook, shared by `tests/conftest.py` and `fuzz/conftest.py`, fails the test that caused one.
A test that makes the engine fail on purpose is marked `engine_failure`.
"""

from __future__ import annotations

import logging
from collections.abc import Generator

import pytest

from audit._engine import ENGINE_LOGGER_NAME


class _FailureLog(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


_FAILURES = _FailureLog()
logging.getLogger(ENGINE_LOGGER_NAME).addHandler(_FAILURES)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, object, object]:
    first = len(_FAILURES.records)
    result = yield
    failures = _FAILURES.records[first:]
    del _FAILURES.records[first:]
    if failures and item.get_closest_marker("engine_failure") is None:
        first = failures[0]
        trace = logging.Formatter().formatException(first.exc_info) if first.exc_info else ""
        pytest.fail(f"the engine failed {len(failures)} time(s); the first: {first.getMessage()}\n{trace}")
    return result
