"""What an installer's command installs, as the PK rules ask: which install subcommand it runs
(the policy's `[names] installers`; `python -m pip` reaches the rules as pip)."""

from __future__ import annotations

from .._analysis import CommandSubject
from .._named_tuple import NamedTuple
from .._tables import Tables
from ..programs import Reading, read_command
from ._paths import keep_last


class Install(NamedTuple):
    """An install command: the installer's name, its reading and the install subcommand it
    selects (`("install",)`, `("-S",)`)."""

    name: str
    reading: Reading
    subcommand: tuple[str, ...]


def installer_names(tables: Tables) -> frozenset[str]:
    """The commands that may run an install: the installers, and Python (`python -m pip`)."""
    return frozenset(tables.installers) | {
        name for spec in tables.interpreter_families.values() if spec.family == "python" for name in spec.names
    }


@keep_last
def install_of(subject: CommandSubject, tables: Tables) -> Install | None:
    """The install the command runs, or None when it runs no installer's install subcommand
    (`pip list`, `npm test`)."""
    name = subject.name
    subcommands = tables.installers.get(name or "", ())
    if name is None or not subcommands:
        return None
    read = read_command(name, subject.args)
    return next((Install(name, read, subcommand) for subcommand in subcommands if read.selects(subcommand)), None)
