"""The core catalogue: every rule that belongs to no threat pack, checked when built.

The engine always runs these; the packs' rules are loaded per program
(`audit/packs/_index.py`), and the full registry (`_registry.py`) joins both.
"""

from __future__ import annotations

from ..packs._index import loaded_packs
from ._account_access import ACCOUNT_ACCESS_RULES
from ._accounts import ACCOUNT_RULES
from ._agent_guardrails import AGENT_GUARDRAIL_RULES
from ._attack_tools import ATTACK_RULES
from ._code import CODE_RULES
from ._command_position import COMMAND_POSITION_RULES
from ._contexts import CONTEXT_RULES
from ._controls import CONTROL_RULES
from ._credential_hunts import CREDENTIAL_HUNT_RULES
from ._device_removal import DEVICE_REMOVAL_RULES
from ._emptied_files import EMPTIED_FILE_RULES
from ._empty_variables import EMPTY_VARIABLE_RULES
from ._engine_rules import ENGINE_RULES
from ._exfiltration import EXFILTRATION_RULES
from ._exhaustion import EXHAUSTION_RULES
from ._exposure import EXPOSURE_RULES
from ._filesystem import FILESYSTEM_RULES
from ._foreign_images import FOREIGN_IMAGE_RULES
from ._hook_installs import HOOK_INSTALL_RULES
from ._hygiene import HYGIENE_RULES
from ._interception import INTERCEPTION_RULES
from ._interpreter_variables import INTERPRETER_VARIABLE_RULES
from ._kernel_settings import KERNEL_SETTING_RULES
from ._linker import LINKER_RULES
from ._network_and_resources import NETWORK_AND_RESOURCE_RULES
from ._permissions import PERMISSION_RULES
from ._persistence import PERSISTENCE_RULES
from ._pushes import PUSH_RULES
from ._resources import RESOURCE_RULES
from ._rule import Registry, RetiredRule, Rule
from ._secret_printing import SECRET_PRINTING_RULES
from ._secret_reads import SECRET_READ_RULES
from ._shared_directories import SHARED_DIRECTORY_RULES
from ._shredded_data import SHREDDED_DATA_RULES
from ._supply_chain import SUPPLY_CHAIN_RULES
from ._system import SYSTEM_RULES
from ._system_logs import SYSTEM_LOG_RULES
from ._tunnels import TUNNEL_RULES
from ._uploads import UPLOAD_RULES

RETIRED: tuple[RetiredRule, ...] = ()

CORE = Registry(
    ENGINE_RULES
    + COMMAND_POSITION_RULES
    + CONTEXT_RULES
    + CODE_RULES
    + FILESYSTEM_RULES
    + SHARED_DIRECTORY_RULES
    + SHREDDED_DATA_RULES
    + EMPTY_VARIABLE_RULES
    + EMPTIED_FILE_RULES
    + SECRET_READ_RULES
    + CREDENTIAL_HUNT_RULES
    + SYSTEM_RULES
    + AGENT_GUARDRAIL_RULES
    + LINKER_RULES
    + INTERPRETER_VARIABLE_RULES
    + PERSISTENCE_RULES
    + HOOK_INSTALL_RULES
    + SYSTEM_LOG_RULES
    + KERNEL_SETTING_RULES
    + DEVICE_REMOVAL_RULES
    + CONTROL_RULES
    + ACCOUNT_RULES
    + ACCOUNT_ACCESS_RULES
    + EXFILTRATION_RULES
    + PUSH_RULES
    + UPLOAD_RULES
    + FOREIGN_IMAGE_RULES
    + SECRET_PRINTING_RULES
    + NETWORK_AND_RESOURCE_RULES
    + RESOURCE_RULES
    + EXHAUSTION_RULES
    + EXPOSURE_RULES
    + TUNNEL_RULES
    + INTERCEPTION_RULES
    + ATTACK_RULES
    + HYGIENE_RULES
    + PERMISSION_RULES
    + SUPPLY_CHAIN_RULES,
    RETIRED,
)
"""The core rules alone (no pack), in id order."""


def find_rule(rule_id: str) -> Rule | None:
    """The rule with this id: a core rule, or one of a pack loaded so far (the rule of any
    finding is), else from the full registry, which loads every pack."""
    declared = CORE.get(rule_id)
    if declared is not None:
        return declared
    for pack in loaded_packs():
        for candidate in pack.rules:
            if candidate.id == rule_id:
                return candidate
    from ._registry import REGISTRY  # every pack: only for an id no loaded pack has

    return REGISTRY.get(rule_id)
