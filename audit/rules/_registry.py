"""The registry: every rule of the catalogue and of the threat packs, checked for consistency when built.

Building it loads every pack; the engine itself needs only the core rules and
the packs of the programs it meets (`Dispatch`), so only listings, lookups and
checks of the whole catalogue import this module.
"""

from __future__ import annotations

from ..packs._all import PACKS
from ._core import CORE, RETIRED
from ._rule import Registry

REGISTRY = Registry(CORE.rules, RETIRED, PACKS)

__all__ = ["PACKS", "REGISTRY"]
