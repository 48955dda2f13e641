"""Settings shared by the middleware tests."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True, scope="module")
def _short_garbage_collections() -> Iterator[None]:
    """Keep full garbage collections short while a test module runs.

    The engine's analysis budget (50 ms by default) is wall-clock time, and
    in a test process with LangChain loaded a full collection takes 30-60 ms;
    one landing inside `audit_command` turns a harmless command into IN004
    (budget exceeded), which made one test here fail on every run. These
    tests are about the middleware, so the objects that exist when a module
    starts are frozen out of the collector's scans.
    """
    gc.collect()
    gc.freeze()
    yield
    gc.unfreeze()
