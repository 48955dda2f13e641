"""The engine's errors share one root, and the old import paths keep working."""

from __future__ import annotations

import subprocess
import sys

import pytest

import audit
from audit import errors
from audit.rules import REGISTRY, Registry, RegistryError, Rule


@pytest.mark.parametrize(
    "error",
    [
        errors.PolicyError,
        errors.RegistryError,
        errors.ProgramError,
        errors.SyntaxLayerError,
        errors.BudgetExceeded,
        errors.ParserUnavailable,
    ],
)
def test_every_engine_error_is_an_audit_error(error: type[Exception]) -> None:
    assert issubclass(error, errors.AuditError)


def test_configuration_errors_are_still_value_errors_for_callers_that_catch_those() -> None:
    assert issubclass(errors.PolicyError, ValueError)
    assert issubclass(errors.RegistryError, ValueError)


def test_the_public_names_stay_importable_from_where_they_were() -> None:
    from audit._syntax import BudgetExceeded, SyntaxLayerError

    assert audit.PolicyError is errors.PolicyError
    assert audit.AuditError is errors.AuditError
    assert RegistryError is errors.RegistryError
    assert BudgetExceeded is errors.BudgetExceeded
    assert SyntaxLayerError is errors.SyntaxLayerError


def test_a_bad_policy_is_caught_by_the_root_error() -> None:
    with pytest.raises(errors.AuditError, match=r"limits\.max_depth"):
        audit.policy_from_mapping({"limits": {"max_depth": 0}})


def test_an_inconsistent_catalogue_is_caught_by_the_root_error() -> None:
    first: Rule = next(iter(REGISTRY))
    with pytest.raises(errors.AuditError, match="used twice"):
        Registry((first, first))


def test_importing_the_engine_leaves_garbage_collection_alone_until_the_first_audit_with_a_budget() -> None:
    code = (
        "import gc\n"
        "before = len(gc.callbacks)\n"
        "import audit\n"
        "assert len(gc.callbacks) == before, 'import installed a gc callback'\n"
        "audit.audit_command('ls')\n"  # the plain-command lane spends no budget
        "assert len(gc.callbacks) == before, 'the lane installed a gc callback'\n"
        "audit.audit_command('ls | wc -l')\n"
        "audit.audit_command('ls | wc -l')\n"
        "assert len(gc.callbacks) == before + 1, gc.callbacks\n"
    )
    completed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert completed.returncode == 0, completed.stderr
