"""Every program declared in this package, by command name, and the reading
of a command line against its declaration."""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Iterator, Mapping, Sequence

from ..errors import ProgramError
from ._arg import Arg
from ._index import FAMILY_OF, LAZY_FAMILIES, Family
from ._program import Program, Reading, read
from .accounts import ACCOUNT_PROGRAMS
from .archives import ARCHIVE_PROGRAMS
from .builtins import BUILTIN_PROGRAMS
from .disks import DISK_PROGRAMS
from .files import FILE_PROGRAMS
from .find import FIND
from .kubernetes import KUBERNETES_PROGRAMS
from .network import NETWORK_PROGRAMS
from .packages import PACKAGE_PROGRAMS
from .remote import REMOTE_PROGRAMS
from .runners import RUNNER_PROGRAMS
from .system import SYSTEM_PROGRAMS
from .temporary import MKTEMP

_UNDECLARED = Program(("<undeclared>",))
"""How a program nobody declared is read: GNU getopt with every option a flag."""

_CORE_PROGRAMS = (
    *BUILTIN_PROGRAMS,
    *FILE_PROGRAMS,
    *ARCHIVE_PROGRAMS,
    FIND,
    *NETWORK_PROGRAMS,
    *SYSTEM_PROGRAMS,
    *ACCOUNT_PROGRAMS,
    MKTEMP,
    *RUNNER_PROGRAMS,
    *KUBERNETES_PROGRAMS,
    *DISK_PROGRAMS,
    *PACKAGE_PROGRAMS,
    *REMOTE_PROGRAMS,
)


def _add(known: dict[str, Program], programs: Iterable[Program]) -> None:
    for program in programs:
        for name in program.names:
            if name in known:
                raise ProgramError(f"program {name!r} declared twice")
            known[name] = program


class _Programs(Mapping[str, Program]):
    """The declared programs by command name: the core families' at once, every other
    family's (`_index.py`) when a command first names one of its programs."""

    def __init__(self, core: Iterable[Program]) -> None:
        self._known: dict[str, Program] = {}
        _add(self._known, core)
        self._unloaded: set[Family] = set(LAZY_FAMILIES)
        # Listed in declaration order whichever family a command happened to load first.
        self._order = (*self._known, *(name for family in LAZY_FAMILIES for name in family.names))

    def _load(self, family: Family) -> None:
        if family in self._unloaded:
            self._unloaded.discard(family)
            _add(self._known, getattr(importlib.import_module(family.module, __package__), family.attribute))

    # Mapping.get's behaviour without its KeyError round trip (most command names are undeclared).
    def get(self, name: str, default: Program | None = None) -> Program | None:  # pyright: ignore[reportIncompatibleMethodOverride]
        program = self._known.get(name)
        if program is None:
            family = FAMILY_OF.get(name)
            if family is None or family not in self._unloaded:
                return default
            self._load(family)
            program = self._known[name]
        return program

    def __getitem__(self, name: str) -> Program:
        program = self.get(name)
        if program is None:
            raise KeyError(name)
        return program

    def __iter__(self) -> Iterator[str]:
        for family in LAZY_FAMILIES:
            self._load(family)
        return iter(self._order)

    def __len__(self) -> int:
        return len(self._order)


KNOWN: Mapping[str, Program] = _Programs(_CORE_PROGRAMS)
"""The declared programs by command name (interpreters and wrappers are in their own tables)."""

KNOWN_NAMES: frozenset[str] = frozenset((*(name for program in _CORE_PROGRAMS for name in program.names), *FAMILY_OF))
"""Every declared program's name, read from the static index (loads no family)."""

WRITERS: tuple[str, ...] = tuple(
    name for program in _CORE_PROGRAMS if program.writes is not None for name in program.names
)
"""The commands `written_files` knows how to read (all of them core programs: a test pins that)."""

REMOVERS: tuple[str, ...] = tuple(
    name for program in _CORE_PROGRAMS if program.removes is not None for name in program.names
)
"""The commands `removed_files` knows how to read (all of them core programs: a test pins that)."""

TREE_REMOVERS: tuple[str, ...] = tuple(
    name for program in _CORE_PROGRAMS if program.removes_trees is not None for name in program.names
)
"""The commands that may delete a directory with everything below it (`rm -r`, `srm -r`, `cmake -E remove_directory`)."""


def read_command(name: str | None, args: Sequence[Arg]) -> Reading:
    """The command line `name ARGS...` read against the program's declaration
    (or as a GNU-style program with no declared options when there is none)."""
    program = KNOWN.get(name or "", _UNDECLARED)
    return read(program, args)


def written_files(reading: Reading) -> tuple[Arg, ...]:
    """The files the command read opens for writing (none for a program that is not a writer)."""
    writes = reading.program.writes
    return tuple(writes(reading)) if writes is not None else ()


def removed_files(reading: Reading) -> tuple[Arg, ...]:
    """The files the command read deletes (none for a program that deletes nothing)."""
    removes = reading.program.removes
    return tuple(removes(reading)) if removes is not None else ()


def removed_trees(reading: Reading) -> tuple[Arg, ...]:
    """The files the command read deletes with everything below them (`rm -r`'s operands)."""
    removes_trees = reading.program.removes_trees
    return tuple(removes_trees(reading)) if removes_trees is not None else ()


def extraction_directories(reading: Reading) -> tuple[Arg, ...]:
    """The directories the command read unpacks an archive into (any file below them may be written)."""
    extracts = reading.program.extracts
    return tuple(extracts(reading)) if extracts is not None else ()
