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
from fnmatch import fnmatchcase
from types import MappingProxyType

from ._caches import COMMAND_NAMES, Memo
from .programs import InterpreterSpec, WrapperSpec

_VERSION_SUFFIX = re.compile(r"[0-9][0-9.]*$")


# Tables are never compared (their mappings cannot even be hashed) and 39 fields make a
# repr nobody reads: without the two generated methods the class is a third cheaper to create.
@dataclass(frozen=True, slots=True, eq=False, repr=False)
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
    secret_file_names: tuple[str, ...]
    """Globs over a file's name (`.env`, `*.pem`); `!` entries exclude (`!.env.example`); the last match wins."""
    secret_variables: tuple[str, ...]
    """Globs over a variable's name, matched in upper case (`*_TOKEN`); `!` entries exclude; the last match wins."""
    secret_printers: Mapping[str, tuple[tuple[str, ...], ...]]
    """Commands and the subcommands (or options) that make them print a credential (`gh auth token`)."""
    allowed_destinations: tuple[str, ...]
    """Host names or globs a secret may be sent to."""
    credential_stores: tuple[str, ...]
    """Directories of credentials and keys (`~/.ssh`, `~/.aws`): deleting them is blocked (packs)."""
    disposable_home_directories: tuple[str, ...]
    """Entries of the home directory that only hold caches (`~/.cache`): deleting them is not reported."""
    protected_branches: tuple[str, ...]
    """Branch names (globs) whose history a force push must not rewrite (`main`, `release/*`)."""
    binary_directories: tuple[str, ...]
    """Standard directories of programs (`/usr/bin`): where a glob in command position is matched."""
    program_names: frozenset[str]
    """Every program the engine knows by name (declarations, name tables, rules): what such a glob may match."""
    interpreter_families: Mapping[str, InterpreterSpec]
    wrappers: Mapping[str, WrapperSpec]
    interpreters_by_name: Mapping[str, InterpreterSpec] = field(init=False)
    # Asked several times for every command audited.
    _table_names: Memo[str, str] = field(init=False, repr=False, compare=False)
    _interpreters: Memo[str, InterpreterSpec | None] = field(init=False, repr=False, compare=False)
    _standard_programs: Memo[str, tuple[str, ...]] = field(init=False, repr=False, compare=False)
    # Asked for the files and variables that reach a network sender.
    _secret_file_names: Memo[str, bool] = field(init=False, repr=False, compare=False)
    _secret_variables: Memo[str, bool] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_name = {name: spec for spec in self.interpreter_families.values() for name in spec.names}
        object.__setattr__(self, "interpreters_by_name", MappingProxyType(by_name))
        object.__setattr__(self, "_table_names", Memo(COMMAND_NAMES))
        object.__setattr__(self, "_interpreters", Memo(COMMAND_NAMES))
        object.__setattr__(self, "_standard_programs", Memo(COMMAND_NAMES))
        object.__setattr__(self, "_secret_file_names", Memo(COMMAND_NAMES))
        object.__setattr__(self, "_secret_variables", Memo(COMMAND_NAMES))

    def is_secret_file_name(self, name: str) -> bool:
        """Whether a file called `name` (its last path segment) holds secrets wherever it is."""
        known = self._secret_file_names.get(name)
        if known is None:
            known = self._secret_file_names.remember(name, last_match_includes(name, self.secret_file_names))
        return known

    def is_secret_variable(self, name: str) -> bool:
        """Whether an environment variable called `name` holds a secret (`GITHUB_TOKEN`, `db_password`)."""
        known = self._secret_variables.get(name)
        if known is None:
            known = self._secret_variables.remember(name, last_match_includes(name.upper(), self.secret_variables))
        return known

    def interpreter(self, name: str | None) -> InterpreterSpec | None:
        """The interpreter family of a command basename (`python3.12` included)."""
        if name is None:
            return None
        interpreters = self._interpreters
        if name in interpreters:
            return interpreters[name]
        return interpreters.remember(name, self.interpreters_by_name.get(self.table_name(name)))

    def standard_programs_matching(self, pattern: str) -> tuple[str, ...]:
        """The paths (standard directory x known program) an absolute glob matches, one per program name:
        `/usr/b?n/c?rl` gives `/usr/bin/curl`. A wildcard matches within one path segment, as in bash."""
        known = self._standard_programs.get(pattern)
        if known is None:
            known = self._standard_programs.remember(pattern, self._match_standard_programs(pattern))
        return known

    def _match_standard_programs(self, pattern: str) -> tuple[str, ...]:
        # Bash reads `[^...]` as `[!...]`; fnmatch knows only the second spelling.
        directory_pattern, _, name_pattern = pattern.replace("[^", "[!").rpartition("/")
        wanted = directory_pattern.split("/")
        directories = [
            directory
            for directory in self.binary_directories
            if len(segments := directory.split("/")) == len(wanted)
            and all(fnmatchcase(segment, glob) for segment, glob in zip(segments, wanted, strict=True))
        ]
        if not directories:
            return ()
        if not any(char in name_pattern for char in "*?["):
            # `/usr/b?n/iconv`: only the directory is a glob; the name is the name, known to the tables or not.
            return (f"{directories[0]}/{name_pattern}",)
        names = sorted(name for name in self.program_names if fnmatchcase(name, name_pattern))
        return tuple(f"{directories[0]}/{name}" for name in names)

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


def last_match_includes(name: str, patterns: tuple[str, ...]) -> bool:
    """Whether `name` is in a list of globs where a `!glob` entry excludes and the last matching entry decides."""
    for pattern in reversed(patterns):
        excluded = pattern.startswith("!")
        if fnmatchcase(name, pattern[1:] if excluded else pattern):
            return not excluded
    return False
