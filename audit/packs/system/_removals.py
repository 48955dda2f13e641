"""What a package manager's command removes: the packages it names, whether it removes them
despite what needs them, and whether a word stands for every installed package (a listing's
output: `$(pacman -Qq)`, `pip freeze | xargs pip uninstall`).

The system's package managers are read by a table of how each one selects a removal (a
subcommand, `apt remove`; or an option, `dpkg -P`, `rpm -e`, `pacman -R`) and which of its options
take a value, rather than as declared programs: the rules ask only which words are packages.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..._analysis import CommandSubject
from ..._named_tuple import NamedTuple
from ...programs import Arg
from ...rules._paths import per_subject
from .._invocation import substituted_commands, xargs_input_commands


class Manager(NamedTuple):
    """How one package manager's command line selects a removal."""

    removes: frozenset[str] = frozenset()
    """Subcommands that remove (`remove`, `purge`): the packages are the operands after it."""
    remove_options: frozenset[str] = frozenset()
    """Options that select a removal (`-P`, `--purge`; a short one leads a cluster: `-Rns`)."""
    valued: frozenset[str] = frozenset()
    """Options that take the next word as their value."""
    forces: frozenset[str] = frozenset()
    """Options that remove a package although others need it (`--nodeps`)."""
    force_letters: str = ""
    """Letters that do the same inside a removal's short-option cluster (pacman's `-Rdd`)."""


_APT_VALUED = frozenset(
    {"-o", "--option", "-c", "--config-file", "-t", "--target-release", "-a", "--host-architecture"}
)
_RPM_FAMILY_VALUED = frozenset({
    "-c", "--config", "--installroot", "--releasever", "--repo", "--repoid", "--enablerepo", "--disablerepo",
    "-x", "--exclude", "--setopt", "--root", "--dbpath",
})  # fmt: skip
# dpkg's `--force-THINGS` takes a comma-separated list; these let a removal break what depends on it.
_DPKG_FORCED = frozenset({"all", "depends", "remove-essential", "remove-protected"})

SYSTEM_MANAGERS: dict[str, Manager] = {
    "apt": Manager(frozenset({"remove", "purge", "autoremove", "autopurge"}), valued=_APT_VALUED,
                   forces=frozenset({"--allow-remove-essential"})),
    "apt-get": Manager(frozenset({"remove", "purge", "autoremove"}), valued=_APT_VALUED,
                       forces=frozenset({"--allow-remove-essential"})),
    "aptitude": Manager(frozenset({"remove", "purge"}), valued=_APT_VALUED),
    "dpkg": Manager(remove_options=frozenset({"-r", "--remove", "-P", "--purge"}),
                    valued=frozenset({"--root", "--admindir", "--instdir"})),
    "rpm": Manager(remove_options=frozenset({"-e", "--erase"}), valued=frozenset({"--root", "--dbpath"}),
                   forces=frozenset({"--nodeps"})),
    "yum": Manager(frozenset({"remove", "erase", "autoremove"}), valued=_RPM_FAMILY_VALUED),
    "dnf": Manager(frozenset({"remove", "erase", "rm", "autoremove"}), valued=_RPM_FAMILY_VALUED),
    "dnf5": Manager(frozenset({"remove", "erase", "rm", "autoremove"}), valued=_RPM_FAMILY_VALUED),
    "microdnf": Manager(frozenset({"remove"}), valued=_RPM_FAMILY_VALUED),
    "pacman": Manager(remove_options=frozenset({"-R", "--remove"}), forces=frozenset({"--nodeps"}), force_letters="d",
                      valued=frozenset({"-r", "--root", "-b", "--dbpath", "--config", "--cachedir"})),
    "apk": Manager(frozenset({"del"}), valued=frozenset({"-X", "--repository", "-p", "--root", "--arch"}),
                   forces=frozenset({"--force-broken-world"})),
    "zypper": Manager(frozenset({"remove", "rm"}), valued=frozenset({"-r", "--repo", "--root", "-R"})),
}  # fmt: skip
"""The system's package managers by command name."""


class Removal(NamedTuple):
    """A removal: the words that name its packages, and whether it ignores what needs them."""

    packages: tuple[Arg, ...]
    forced: bool


def _forces(value: str, manager: Manager) -> bool:
    if value in manager.forces:
        return True
    if value.startswith("--force-"):  # dpkg
        return not _DPKG_FORCED.isdisjoint(value.removeprefix("--force-").split(","))
    return False


def read_removal(args: tuple[Arg, ...], manager: Manager) -> Removal | None:
    """The removal the words make, or None when they remove nothing (`apt install`, `rpm -qa`)."""
    removing, forced, takes_value = False, False, False
    operands: list[Arg] = []
    for arg in args:
        value = arg.value
        if takes_value or value is None or not value.startswith("-") or value == "-":
            if not takes_value:
                operands.append(arg)
            takes_value = False
            continue
        option = value.partition("=")[0] if value.startswith("--") else value[:2]
        if option in manager.remove_options:
            removing = True
            forced = forced or any(letter in value[2:] for letter in manager.force_letters)
        forced = forced or _forces(value, manager)
        takes_value = value in manager.valued
    if manager.removes:
        first = operands[0].value if operands else None
        if first not in manager.removes:
            return None
        return Removal(tuple(operands[1:]), forced)
    return Removal(tuple(operands), forced) if removing else None


@per_subject
def system_removal(subject: CommandSubject) -> Removal | None:
    manager = SYSTEM_MANAGERS.get(subject.name or "")
    return read_removal(subject.args, manager) if manager is not None else None


# -- words that stand for every installed package --------------------------------------------------

# Commands that only reshape a listing's lines (`awk '{print $1}'`, `cut -d' ' -f1`); any other
# command in the pipeline (grep, sed, head) may narrow it to some packages.
_FORMATTERS = frozenset({"cut", "tr", "sort", "uniq", "column"})
_AWK_PRINTS_A_FIELD = re.compile(r"\{\s*print\s+\$\d+\s*\}")


def _formats(words: list[str]) -> bool:
    name = words[0].rsplit("/", 1)[-1]
    if name in ("awk", "gawk", "mawk"):
        return len(words) >= 2 and all(
            _AWK_PRINTS_A_FIELD.fullmatch(word.strip()) or word.startswith("-") for word in words[1:]
        )
    return name in _FORMATTERS


Listing = Callable[[list[str]], bool]
"""Whether a command's literal words list every installed package (`pacman -Qq`, `pip freeze`)."""


def _lists_every_package(commands: list[list[str]], lists: Listing) -> bool:
    """A pipeline that lists every installed package and then at most reshapes the lines."""
    words = [command for command in commands if command]
    return any(lists(command) for command in words) and all(lists(c) or _formats(c) for c in words)


def every_package(subject: CommandSubject, packages: tuple[Arg, ...], lists: Listing) -> Arg | None:
    """The word that stands for every installed package: an operand substituted from a listing, or
    the operands xargs adds from one (the command's last word stands for them)."""
    for word in packages:
        if any(_lists_every_package(commands, lists) for commands in substituted_commands(word)):
            return word
    fed = xargs_input_commands(subject)
    if fed is not None and _lists_every_package(fed, lists) and subject.args:
        return subject.args[-1]
    return None


def _options_only(words: list[str]) -> bool:
    return all(word.startswith("-") for word in words)


def _pacman_lists_all(words: list[str]) -> bool:
    """`pacman -Qq`, `pacman -Qqe`: installed packages, not only orphans (`-Qdt`), foreign ones
    (`-Qm`), a group's (`-Qg`) or a search's."""
    letters = "".join(word[1:] for word in words[1:])
    return _options_only(words[1:]) and "Q" in letters and set(letters) <= set("Qqen")


# Per listing program: whether its words list every installed package (no package or pattern named).
_SYSTEM_LISTINGS: dict[str, Listing] = {
    "pacman": _pacman_lists_all,
    "dpkg": lambda words: words[1:2] in (["--get-selections"], ["-l"], ["--list"]) and _options_only(words[2:]),
    "dpkg-query": lambda words: _options_only(words[1:]) and len(words) > 1,
    "rpm": lambda words: words[1:2] in (["-qa"], ["-aq"]) and _options_only(words[2:]),
    "apt": lambda words: words[1:2] == ["list"] and "--installed" in words and _options_only(words[2:]),
    "apk": lambda words: words[1:2] == ["info"] and _options_only(words[2:]),
    "dnf": lambda words: words[1:3] == ["list", "installed"] and _options_only(words[3:]),
    "yum": lambda words: words[1:3] == ["list", "installed"] and _options_only(words[3:]),
}


def lists_system_packages(words: list[str]) -> bool:
    listing = _SYSTEM_LISTINGS.get(words[0].rsplit("/", 1)[-1])
    return listing is not None and listing(words)
