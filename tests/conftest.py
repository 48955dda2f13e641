"""Hooks every test shares."""

from tests.engine_failures import pytest_runtest_call

__all__ = ["pytest_runtest_call"]
