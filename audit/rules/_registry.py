"""The registry: every rule of the catalogue and of the threat packs, checked for consistency when built."""

from __future__ import annotations

from ..packs._all import PACKS
from ._code import CODE_RULES
from ._command_position import COMMAND_POSITION_RULES
from ._contexts import CONTEXT_RULES
from ._engine_rules import ENGINE_RULES
from ._exfiltration import EXFILTRATION_RULES
from ._filesystem import FILESYSTEM_RULES
from ._hygiene import HYGIENE_RULES
from ._network_and_resources import NETWORK_AND_RESOURCE_RULES
from ._rule import Registry, RetiredRule
from ._system import SYSTEM_RULES

RETIRED: tuple[RetiredRule, ...] = ()

REGISTRY = Registry(
    ENGINE_RULES
    + COMMAND_POSITION_RULES
    + CONTEXT_RULES
    + CODE_RULES
    + FILESYSTEM_RULES
    + SYSTEM_RULES
    + EXFILTRATION_RULES
    + NETWORK_AND_RESOURCE_RULES
    + HYGIENE_RULES,
    RETIRED,
    PACKS,
)
