"""Threat packs: rules for the destructive operations of one family of tools.

One module per pack (`git.py`, `database/postgresql.py`), each declaring a
`Pack` with its rules, whether it is on by default and why. The rules are
mostly data (`_invocation.command`: program, subcommand path, options,
operand predicates) over the program declarations of `audit/programs`.
`PACKS` lists them all; the rule registry (`audit.rules.REGISTRY`) holds
their rules next to the core catalogue, and the policy's `[packs]` section
turns them on and off. `_index.py` says where each pack lives, so that the
engine loads a pack only when a command names one of its programs.

The public names are loaded on first use, so that importing the index does
not load every pack.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_names

if TYPE_CHECKING:  # what the names are, for type checkers; `__getattr__` loads them at run time
    from ..rules._pack import Pack as Pack
    from ._all import PACKS as PACKS
    from ._invocation import Found as Found
    from ._invocation import Invocation as Invocation
    from ._invocation import Predicate as Predicate
    from ._invocation import any_operand as any_operand
    from ._invocation import command as command
    from ._invocation import device_operand as device_operand
    from ._invocation import listed_by as listed_by
    from ._invocation import named_operand as named_operand
    from ._invocation import operand as operand
    from ._invocation import option_value as option_value
    from ._invocation import pack_rule as pack_rule
    from ._vendor import vendor_pack as vendor_pack

# Public name -> the module that defines it.
_HOMES = {
    "PACKS": "._all",
    "Pack": "..rules._pack",
    "Found": "._invocation",
    "Invocation": "._invocation",
    "Predicate": "._invocation",
    "any_operand": "._invocation",
    "command": "._invocation",
    "device_operand": "._invocation",
    "listed_by": "._invocation",
    "named_operand": "._invocation",
    "operand": "._invocation",
    "option_value": "._invocation",
    "pack_rule": "._invocation",
    "vendor_pack": "._vendor",
}

__all__ = [
    "PACKS",
    "Found",
    "Invocation",
    "Pack",
    "Predicate",
    "any_operand",
    "command",
    "device_operand",
    "listed_by",
    "named_operand",
    "operand",
    "option_value",
    "pack_rule",
    "vendor_pack",
]

__getattr__, __dir__ = lazy_names(__name__, _HOMES, globals())
