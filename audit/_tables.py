"""The name tables of a policy: what the analysis and the rules consult.

Built by `_policy` from the built-in programs (`audit/programs/`) and the
policy's `[names]`, `[interpreters]` and `[wrappers]` tables. Rules and the
analysis import this module, never the policy loader (which imports the rule
registry to validate rule ids).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from ._caches import COMMAND_NAMES, Memo
from .programs import InterpreterSpec, WrapperSpec

_VERSION_SUFFIX = re.compile(r"[0-9][0-9.]*$")


@dataclass(frozen=True, slots=True)
class Tables:
    """The name tables rules and the analysis consult."""

    fetchers: frozenset[str]
    decoders: Mapping[str, frozenset[str]]
    privilege: frozenset[str]
    installers: Mapping[str, tuple[tuple[str, ...], ...]]
    secret_files: tuple[str, ...]
    process_environment_files: tuple[str, ...]
    credential_files: tuple[str, ...]
    system_directories: tuple[str, ...]
    shell_startup_files: tuple[str, ...]
    authorized_keys_files: tuple[str, ...]
    autorun_scripts: tuple[str, ...]
    autorun_crontabs: tuple[str, ...]
    autorun_units: tuple[str, ...]
    autorun_opaque: tuple[str, ...]
    protected_directories: tuple[str, ...]
    linker_variables: frozenset[str]
    credential_stores: tuple[str, ...]
    """Directories of credentials and keys (`~/.ssh`, `~/.aws`): deleting them is blocked (packs)."""
    disposable_home_directories: tuple[str, ...]
    """Entries of the home directory that only hold caches (`~/.cache`): deleting them is not reported."""
    protected_branches: tuple[str, ...]
    """Branch names (globs) whose history a force push must not rewrite (`main`, `release/*`)."""
    interpreter_families: Mapping[str, InterpreterSpec]
    wrappers: Mapping[str, WrapperSpec]
    interpreters_by_name: Mapping[str, InterpreterSpec] = field(init=False)
    # Asked several times for every command audited.
    _table_names: Memo[str, str] = field(init=False, repr=False, compare=False)
    _interpreters: Memo[str, InterpreterSpec | None] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_name = {name: spec for spec in self.interpreter_families.values() for name in spec.names}
        object.__setattr__(self, "interpreters_by_name", MappingProxyType(by_name))
        object.__setattr__(self, "_table_names", Memo(COMMAND_NAMES))
        object.__setattr__(self, "_interpreters", Memo(COMMAND_NAMES))

    def interpreter(self, name: str | None) -> InterpreterSpec | None:
        """The interpreter family of a command basename (`python3.12` included)."""
        if name is None:
            return None
        interpreters = self._interpreters
        if name in interpreters:
            return interpreters[name]
        return interpreters.remember(name, self.interpreters_by_name.get(self.table_name(name)))

    def table_name(self, name: str) -> str:
        """The name the tables know a command by: `python3.12` is `python`."""
        known = self._table_names.get(name)
        if known is not None:
            return known
        resolved = name
        if name not in self.interpreters_by_name:
            base = _VERSION_SUFFIX.sub("", name).rstrip("-")
            spec = self.interpreters_by_name.get(base)
            if base != name and spec is not None and spec.versioned:
                resolved = base
        return self._table_names.remember(name, resolved)
