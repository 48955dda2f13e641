"""Threat packs: named groups of rules for one family of tools.

A pack (`git`, `database.postgresql`, `cloud.aws`) is declared once, in its
own module under `audit/packs/`, with its rules, whether it is on by default
and why. Its rules are ordinary rules in the one registry; the policy's
`[packs]` section turns whole packs on and off.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..errors import RegistryError
from ._rule import Rule

# Compiled on first use (re's own cache), not at import: only declaring a pack checks it.
PACK_NAME = r"^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)*$"


@dataclass(frozen=True, slots=True)
class Pack:
    """A named group of rules for one family of tools, on or off by default.

    The rules given are stamped with the pack's name (`Rule.pack`).
    """

    name: str
    """Dotted, family first: `database.postgresql`; the policy's patterns match it."""
    summary: str
    """What the pack guards, in one sentence."""
    default: bool
    """Whether the pack is on when no policy says otherwise."""
    reason: str
    """Why it is on (or off) by default."""
    rules: tuple[Rule, ...]

    def __post_init__(self) -> None:
        if not re.match(PACK_NAME, self.name):
            raise RegistryError(f"pack {self.name!r}: name must be dotted lower-case words (database.postgresql)")
        if not self.rules:
            raise RegistryError(f"pack {self.name}: has no rules")
        for text in (self.summary, self.reason):
            if not text.strip().endswith((".", ")")):
                raise RegistryError(f"pack {self.name}: summary and reason should be sentences")
        stamped: list[Rule] = []
        for declared in self.rules:
            if declared.pack not in (None, self.name):
                raise RegistryError(f"rule {declared.id}: already in pack {declared.pack}, cannot join {self.name}")
            stamped.append(replace(declared, pack=self.name))
        object.__setattr__(self, "rules", tuple(stamped))

    @property
    def family(self) -> str:
        """The first part of the name (`database` of `database.postgresql`); a family shares one id prefix."""
        return self.name.split(".", 1)[0]
