"""Threat packs: rules for the destructive operations of one family of tools.

One module per pack (`git.py`, `database/postgresql.py`), each declaring a
`Pack` with its rules, whether it is on by default and why. The rules are
mostly data (`_invocation.command`: program, subcommand path, options,
operand predicates) over the program declarations of `audit/programs`.
`PACKS` lists them all; the rule registry (`audit.rules.REGISTRY`) holds
their rules next to the core catalogue, and the policy's `[packs]` section
turns them on and off.
"""

# The registry is built from this package's packs, and the pack modules use the
# rule declarations: load `audit.rules` first so that it finds them complete.
from .. import rules as _rules  # noqa: F401  # pyright: ignore[reportUnusedImport]
from ..rules._pack import Pack
from ._all import PACKS
from ._invocation import (
    Found,
    Invocation,
    Predicate,
    any_operand,
    command,
    listed_by,
    named_operand,
    operand,
    option_value,
    pack_rule,
)
from ._vendor import vendor_pack

__all__ = [
    "PACKS",
    "Found",
    "Invocation",
    "Pack",
    "Predicate",
    "any_operand",
    "command",
    "listed_by",
    "named_operand",
    "operand",
    "option_value",
    "pack_rule",
    "vendor_pack",
]
