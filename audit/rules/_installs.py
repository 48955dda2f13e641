"""What an installer's command installs, as the PK rules ask: which install subcommand it runs
(the policy's `[names] installers`), through `python -m pip` too."""

from __future__ import annotations

from .._analysis import CommandSubject
from .._named_tuple import NamedTuple
from .._tables import Tables
from ..programs import Reading, read_command
from ._paths import keep_last


class Install(NamedTuple):
    """An install command: the installer's name (`pip` for `python -m pip`), its reading and the
    install subcommand it selects (`("install",)`, `("-S",)`)."""

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
    if name is None:
        return None
    args = subject.args
    spec = tables.interpreter(name)
    if spec is not None and spec.family == "python":
        values = [arg.value for arg in args]
        module_at = values.index("-m") + 1 if "-m" in values else 0
        if module_at and values[module_at : module_at + 1] == ["pip"]:
            name, args = "pip", args[module_at + 1 :]
    subcommands = tables.installers.get(name, ())
    if not subcommands:
        return None
    read = read_command(name, args)
    return next((Install(name, read, subcommand) for subcommand in subcommands if read.selects(subcommand)), None)
