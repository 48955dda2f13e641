"""Every program declared in this package, by command name, and the reading
of a command line against its declaration."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType

from ..errors import ProgramError
from ._arg import Arg
from ._program import Program, Reading, read
from .builtins import BUILTIN_PROGRAMS
from .cloud import CLOUD_PROGRAMS
from .containers import CONTAINER_PROGRAMS
from .databases import DATABASE_PROGRAMS
from .disks import DISK_PROGRAMS
from .files import FILE_PROGRAMS
from .find import FIND
from .iac import IAC_PROGRAMS
from .kubernetes import KUBERNETES_PROGRAMS
from .network import NETWORK_PROGRAMS
from .packages import PACKAGE_PROGRAMS
from .remote import REMOTE_PROGRAMS
from .runners import RUNNER_PROGRAMS
from .secrets import SECRETS_PROGRAMS
from .system import SYSTEM_PROGRAMS
from .vcs import VCS_PROGRAMS
from .vendors import VENDOR_PROGRAMS

_UNDECLARED = Program(("<undeclared>",))
"""How a program nobody declared is read: GNU getopt with every option a flag."""


def _by_name(programs: Iterable[Program]) -> Mapping[str, Program]:
    known: dict[str, Program] = {}
    for program in programs:
        for name in program.names:
            if name in known:
                raise ProgramError(f"program {name!r} declared twice")
            known[name] = program
    return MappingProxyType(known)


KNOWN: Mapping[str, Program] = _by_name(
    (
        *BUILTIN_PROGRAMS,
        *FILE_PROGRAMS,
        FIND,
        *NETWORK_PROGRAMS,
        *SYSTEM_PROGRAMS,
        *RUNNER_PROGRAMS,
        *VCS_PROGRAMS,
        *CONTAINER_PROGRAMS,
        *KUBERNETES_PROGRAMS,
        *CLOUD_PROGRAMS,
        *SECRETS_PROGRAMS,
        *IAC_PROGRAMS,
        *DISK_PROGRAMS,
        *DATABASE_PROGRAMS,
        *VENDOR_PROGRAMS,
        *PACKAGE_PROGRAMS,
        *REMOTE_PROGRAMS,
    )
)
"""The declared programs by command name (interpreters and wrappers are in their own tables)."""

WRITERS: tuple[str, ...] = tuple(name for name, program in KNOWN.items() if program.writes is not None)
"""The commands `written_files` knows how to read."""

REMOVERS: tuple[str, ...] = tuple(name for name, program in KNOWN.items() if program.removes is not None)
"""The commands `removed_files` knows how to read."""


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


def extraction_directories(reading: Reading) -> tuple[Arg, ...]:
    """The directories the command read unpacks an archive into (any file below them may be written)."""
    extracts = reading.program.extracts
    return tuple(extracts(reading)) if extracts is not None else ()
