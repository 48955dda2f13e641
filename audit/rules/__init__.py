"""The rule catalogue: one declaration per rule, the registry of all, and the
dispatch that runs them on what the analysis finds.

Ids are permanent. A rule that is removed moves to `RETIRED` (`_core.py`)
with its reason and its id is never given to another rule.

`REGISTRY` and `PACKS` are loaded on first use: they load every pack, which the
engine does not need to audit a command. So is `Pack`: only a pack's module
(loaded when a command names one of its programs) declares one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_names
from ..errors import RegistryError
from ._core import RETIRED
from ._dispatch import Dispatch, RuleRunner
from ._engine_rules import (
    BUDGET_EXCEEDED,
    COMMAND_TOO_LONG,
    EMPTY_COMMAND,
    ENGINE_FAILURE,
    NESTING_TOO_DEEP,
    NULL_BYTE,
    PARSE_TROUBLE,
)
from ._paths import autorun_location
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
    "ENGINE_FAILURE",
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

if TYPE_CHECKING:  # what the names are, for type checkers; `__getattr__` loads them at run time
    from ._pack import Pack as Pack
    from ._registry import PACKS as PACKS
    from ._registry import REGISTRY as REGISTRY

__getattr__, __dir__ = lazy_names(
    __name__, {"PACKS": "._registry", "REGISTRY": "._registry", "Pack": "._pack"}, globals()
)
