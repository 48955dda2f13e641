"""Fixtures the fuzz modules share."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.engine_failures import pytest_runtest_call

from .oracle import BashOracle, OracleUnavailable, bash_oracle

__all__ = ["oracle", "pytest_runtest_call"]


@pytest.fixture(scope="module")
def oracle() -> Iterator[BashOracle]:
    try:
        with bash_oracle() as prepared:
            yield prepared
    except OracleUnavailable as reason:
        pytest.skip(f"no bash oracle here: {reason}")
