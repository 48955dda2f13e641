"""The rule catalogue: one declaration per rule, the registry of all, and the
dispatch that runs them on what the analysis finds.

Ids are permanent. A rule that is removed moves to `RETIRED` (`_registry.py`)
with its reason and its id is never given to another rule.
"""

from ..errors import RegistryError
from ._dispatch import Dispatch, RuleRunner
from ._engine_rules import (
    BUDGET_EXCEEDED,
    COMMAND_TOO_LONG,
    EMPTY_COMMAND,
    NESTING_TOO_DEEP,
    NULL_BYTE,
    PARSE_TROUBLE,
)
from ._pack import Pack
from ._paths import autorun_location
from ._registry import PACKS, REGISTRY, RETIRED
from ._rule import (
    ENGINE_EMITTED,
    Applies,
    Example,
    Hit,
    Inspects,
    Registry,
    RetiredRule,
    Rule,
)

__all__ = [
    "BUDGET_EXCEEDED",
    "COMMAND_TOO_LONG",
    "EMPTY_COMMAND",
    "ENGINE_EMITTED",
    "NESTING_TOO_DEEP",
    "NULL_BYTE",
    "PACKS",
    "PARSE_TROUBLE",
    "REGISTRY",
    "RETIRED",
    "Applies",
    "Dispatch",
    "Example",
    "Hit",
    "Inspects",
    "Pack",
    "Registry",
    "RegistryError",
    "RetiredRule",
    "Rule",
    "RuleRunner",
    "autorun_location",
]
