"""A policy's rule settings, readable without loading the packs."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from types import MappingProxyType

from .._model import Severity
from ._core import CORE
from ._rule import Rule


class RuleSettings(Mapping[str, Severity | None]):
    """The rules whose severity differs from their declaration: off for every rule of a pack
    that is off, and each `[rules]` setting (which names the rule itself, and so wins).

    The engine asks `severity_of` for the rules it loads, which needs no pack; reading the
    mapping as a whole (the rules of every pack that is off) loads the full registry.
    """

    def __init__(self, explicit: Mapping[str, Severity | None], packs: frozenset[str]) -> None:
        self.explicit: Mapping[str, Severity | None] = MappingProxyType(dict(explicit))
        """The `[rules]` settings, by rule id."""
        self.packs = packs
        """The names of the packs that are on."""
        self._whole: Mapping[str, Severity | None] | None = None

    def severity_of(self, declared: Rule) -> Severity | None:
        """The rule's effective severity; None when the settings turn it off."""
        if declared.id in self.explicit:
            return self.explicit[declared.id]
        if declared.pack is not None and declared.pack not in self.packs:
            return None
        return declared.severity

    def turns_on_pack_rules(self) -> bool:
        """Whether a `[rules]` setting names a pack's rule (which may turn it on in a pack that is off)."""
        return any(rule_id not in CORE.by_id and setting is not None for rule_id, setting in self.explicit.items())

    def _as_mapping(self) -> Mapping[str, Severity | None]:
        if self._whole is None:
            from ._registry import REGISTRY  # every pack, loaded only when the whole mapping is read

            whole: dict[str, Severity | None] = {
                declared.id: None
                for declared in REGISTRY
                if declared.pack is not None and declared.pack not in self.packs
            }
            whole.update(self.explicit)
            self._whole = MappingProxyType(whole)
        return self._whole

    def __getitem__(self, rule_id: str) -> Severity | None:
        if rule_id in self.explicit:
            return self.explicit[rule_id]
        if rule_id in CORE.by_id:
            raise KeyError(rule_id)
        return self._as_mapping()[rule_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._as_mapping())

    def __len__(self) -> int:
        return len(self._as_mapping())
