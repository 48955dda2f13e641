"""The name tables of a policy: what the analysis and the rules consult.

Built by `_policy` from the built-in programs (`audit/programs/`) and the
policy's `[names]`, `[interpreters]` and `[wrappers]` tables. Rules and the
analysis import this module, never the policy loader (which imports the rule
registry to validate rule ids).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from fnmatch import fnmatchcase
from types import MappingProxyType
from typing import Final

from ._caches import COMMAND_NAMES, Memo
from .programs import InterpreterSpec, WrapperSpec

_VERSION_SUFFIX = re.compile(r"[0-9][0-9.]*$")


class Tables:
    """The name tables rules and the analysis consult.

    Never compared (their mappings cannot even be hashed) nor printed: a plain class, as a
    dataclass this size costs about two milliseconds to create at import.
    """

    __slots__ = (
        "_interpreters",
        "_secret_file_names",
        "_secret_variables",
        "_standard_programs",
        "_table_names",
        "agent_settings_files",
        "allowed_destinations",
        "authorized_keys_files",
        "autorun_crontabs",
        "autorun_opaque",
        "autorun_scripts",
        "autorun_units",
        "binary_directories",
        "credential_files",
        "credential_stores",
        "data_directories",
        "decoders",
        "disposable_databases",
        "disposable_home_directories",
        "essential_packages",
        "fetchers",
        "home_data_directories",
        "installers",
        "interpreter_families",
        "interpreter_startup_files",
        "interpreters_by_name",
        "library_directories",
        "linker_variables",
        "privilege",
        "process_environment_files",
        "program_directories",
        "program_names",
        "protected_branches",
        "protected_directories",
        "repository_hosts",
        "secret_file_names",
        "secret_files",
        "secret_printers",
        "secret_variables",
        "service_data_directories",
        "shell_startup_files",
        "system_directories",
        "token_files",
        "wrappers",
    )

    # long: one parameter and one assignment per table
    def __init__(
        self,
        *,
        fetchers: frozenset[str],
        decoders: Mapping[str, frozenset[str]],
        privilege: frozenset[str],
        installers: Mapping[str, tuple[tuple[str, ...], ...]],
        secret_files: tuple[str, ...],
        process_environment_files: tuple[str, ...],
        credential_files: tuple[str, ...],
        token_files: tuple[str, ...],
        system_directories: tuple[str, ...],
        shell_startup_files: tuple[str, ...],
        authorized_keys_files: tuple[str, ...],
        agent_settings_files: tuple[str, ...],
        autorun_scripts: tuple[str, ...],
        autorun_crontabs: tuple[str, ...],
        autorun_units: tuple[str, ...],
        autorun_opaque: tuple[str, ...],
        protected_directories: tuple[str, ...],
        data_directories: tuple[str, ...],
        linker_variables: frozenset[str],
        secret_file_names: tuple[str, ...],
        secret_variables: tuple[str, ...],
        secret_printers: Mapping[str, tuple[tuple[str, ...], ...]],
        allowed_destinations: tuple[str, ...],
        repository_hosts: tuple[str, ...],
        credential_stores: tuple[str, ...],
        disposable_home_directories: tuple[str, ...],
        disposable_databases: tuple[str, ...],
        home_data_directories: tuple[str, ...],
        service_data_directories: tuple[str, ...],
        protected_branches: tuple[str, ...],
        essential_packages: tuple[str, ...],
        binary_directories: tuple[str, ...],
        interpreter_startup_files: tuple[str, ...],
        program_directories: tuple[str, ...],
        library_directories: tuple[str, ...],
        interpreter_families: Mapping[str, InterpreterSpec],
        wrappers: Mapping[str, WrapperSpec],
        known_programs: Callable[[Tables], frozenset[str]],
    ) -> None:
        self.fetchers: Final = fetchers
        self.decoders: Final = decoders
        self.privilege: Final = privilege
        self.installers: Final = installers
        self.secret_files: Final = secret_files
        self.process_environment_files: Final = process_environment_files
        self.credential_files: Final = credential_files
        """Private keys and credential stores, the token files among them."""
        self.token_files: Final = token_files
        """Credential files that hold one bearer token: one sent as a request's credential is used, not leaked."""
        self.system_directories: Final = system_directories
        self.shell_startup_files: Final = shell_startup_files
        self.authorized_keys_files: Final = authorized_keys_files
        self.agent_settings_files: Final = agent_settings_files
        """What an AI coding agent may do by itself: its permissions, hooks, sandbox and MCP servers."""
        self.autorun_scripts: Final = autorun_scripts
        self.autorun_crontabs: Final = autorun_crontabs
        self.autorun_units: Final = autorun_units
        self.autorun_opaque: Final = autorun_opaque
        self.protected_directories: Final = protected_directories
        self.data_directories: Final = data_directories
        """Mount points, mounted volumes and data roots (`/mnt/*`, `/data`): deleting one recursively is blocked (FS001)."""
        self.linker_variables: Final = linker_variables
        self.secret_file_names: Final = secret_file_names
        """Globs over a file's name (`.env`, `*.pem`); `!` entries exclude (`!.env.example`); the last match wins."""
        self.secret_variables: Final = secret_variables
        """Globs over a variable's name, matched in upper case (`*_TOKEN`); `!` entries exclude; the last match wins."""
        self.secret_printers: Final = secret_printers
        """Commands and the subcommands (or options) that make them print a credential (`gh auth token`)."""
        self.allowed_destinations: Final = allowed_destinations
        """Host names or globs a secret may be sent to."""
        self.repository_hosts: Final = repository_hosts
        """Host names or globs a push of a repository or an image goes to routinely (NE008)."""
        self.credential_stores: Final = credential_stores
        """Directories of credentials and keys (`~/.ssh`, `~/.aws`): deleting them is blocked (packs)."""
        self.disposable_home_directories: Final = disposable_home_directories
        """Entries of the home directory that only hold caches (`~/.cache`): deleting them is not reported."""
        self.disposable_databases: Final = disposable_databases
        """Globs of the database names that mark a test database (`*_test`): what its statements destroy is not reported (packs)."""
        self.home_data_directories: Final = home_data_directories
        """The user's own data in the home directory (`~/Documents`, `~/Maildir`): deleting one is blocked (packs)."""
        self.service_data_directories: Final = service_data_directories
        """Where services keep their data (`/var/lib/postgresql`, `/var/lib/docker`): deleting any of it is blocked (packs)."""
        self.protected_branches: Final = protected_branches
        """Branch names (globs) whose history a force push must not rewrite (`main`, `release/*`)."""
        self.essential_packages: Final = essential_packages
        """Package names (globs) the system cannot run without (`libc6`, `systemd`, `sudo`): removing one is blocked (packs)."""
        self.binary_directories: Final = binary_directories
        """Standard directories of programs (`/usr/bin`): where a glob in command position is matched."""
        self.interpreter_startup_files: Final = interpreter_startup_files
        """Files an interpreter runs at every start (`**/site-packages/*.pth`); `**/` matches in any directory."""
        self.program_directories: Final = program_directories
        """Directories on the usual PATH that the user or an installer writes (`~/.local/bin`, `/usr/local/bin`)."""
        self.library_directories: Final = library_directories
        """The system's library directories (`/usr/lib`, `/usr/local/cuda`): a library search path may name them."""
        self.interpreter_families: Final = interpreter_families
        self.wrappers: Final = wrappers
        by_name = {name: spec for spec in interpreter_families.values() for name in spec.names}
        self.interpreters_by_name: Final[Mapping[str, InterpreterSpec]] = MappingProxyType(by_name)
        # Asked several times for every command audited.
        self._table_names: Final[Memo[str, str]] = Memo(COMMAND_NAMES)
        self._interpreters: Final[Memo[str, InterpreterSpec | None]] = Memo(COMMAND_NAMES)
        self._standard_programs: Final[Memo[str, tuple[str, ...]]] = Memo(COMMAND_NAMES)
        # Asked for the files and variables that reach a network sender.
        self._secret_file_names: Final[Memo[str, bool]] = Memo(COMMAND_NAMES)
        self._secret_variables: Final[Memo[str, bool]] = Memo(COMMAND_NAMES)
        # Last: the names come from the finished tables (their own names, and the commands of rules).
        self.program_names: Final = known_programs(self)
        """Every program the engine knows by name (declarations, name tables, rules): what such a glob may match."""

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
