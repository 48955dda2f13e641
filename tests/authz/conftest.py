"""Fixtures shared by the authz tests."""

from __future__ import annotations

import pytest
from authz_doubles import TEAM_POLICY, RecordingSink

from authz import RbacProvider


@pytest.fixture
def team_rbac() -> RbacProvider:
    return RbacProvider(TEAM_POLICY)


@pytest.fixture
def sink() -> RecordingSink:
    return RecordingSink()
