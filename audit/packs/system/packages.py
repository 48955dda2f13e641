"""system.packages: the packages the machine and its environments run on, removed.

A package the system cannot run without removed with the system's package manager (OS101: the
policy's `essential_packages`), every installed package removed (OS102), packages removed while
others still need them (OS103), and an environment emptied: every package of a Python, Homebrew or
gem installation, the package manager itself, a whole conda environment (OS104).

Removing one ordinary package (`apt remove nginx`, `pip uninstall requests`) is routine and passes
(through sudo it warns, PR001). Deleting a package manager's database (`/var/lib/dpkg/status`) is
pack filesystem.services' (the policy's `service_data_directories`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from fnmatch import fnmatchcase
from functools import cache

from ..._analysis import CommandSubject
from ..._model import Severity
from ..._tables import Tables
from ...programs import Arg
from ...rules._pack import Pack
from ...rules._rule import Hit, Inspects, rule
from ._removals import (
    SYSTEM_MANAGERS,
    Listing,
    Manager,
    every_package,
    lists_system_packages,
    read_removal,
    system_removal,
)

_GLOB = frozenset("*?[")
# The running kernel's packages, named by its release (`linux-image-$(uname -r)`, `kernel-core-$(uname -r)`):
# a kernel of one version is routine clean-up, but not the one the machine boots and runs.
_RUNNING_KERNEL = re.compile(
    r"""^["']?(?:linux-image|linux-modules|kernel|kernel-core)-(?:\$\(uname -r\)|`uname -r`)"""
)


def _package_name(value: str) -> str:
    """The name a package word gives: apt's `:arch`, `=version` and `/release` dropped."""
    for separator in (":", "=", "/"):
        value = value.partition(separator)[0]
    return value


@cache
def _names_and_globs(entries: tuple[str, ...]) -> tuple[frozenset[str], tuple[str, ...]]:
    """The table's plain names (looked up) and its globs (matched), split once per table."""
    globs = tuple(entry for entry in entries if not _GLOB.isdisjoint(entry))
    return frozenset(entries).difference(globs), globs


def _essential(value: str, tables: Tables) -> str | None:
    """The essential package a word removes: one the table names or its globs match, or for a
    pattern given to the package manager (`'linux-image-*'`), a name of the table it selects."""
    name = _package_name(value)
    if not name:
        return None
    names, globs = _names_and_globs(tables.essential_packages)
    if _GLOB.isdisjoint(name):
        return name if name in names else next((entry for entry in globs if fnmatchcase(name, entry)), None)
    return next((entry for entry in sorted(names) if fnmatchcase(entry, name)), None)


@rule(
    id="OS101",
    name="essential-package-removed",
    severity=Severity.HIGH,
    summary=(
        "Removes a package the system cannot run without with its package manager (`apt remove python3`, "
        "`apt-get purge 'linux-image-*'`, `dpkg --purge libc6`, `rpm -e glibc`, `dnf remove sudo`, `pacman -R "
        "linux`, `apk del musl`): the C library, the shell and core tools, init, sudo and logging in, the package "
        "manager, the kernel and the boot loader (the policy's `essential_packages`)."
    ),
    rationale=(
        "Without the C library no program starts, not even the package manager that could put it back; without "
        "init, the kernel or the boot loader the machine does not boot; without sudo or PAM nobody can log in or "
        "become root to repair it. The package manager removes what depends on the package too (on Debian, Python "
        "3 takes the distribution's own tools with it). Recovery needs a rescue system."
    ),
    safer_alternative=(
        "Remove the one package you mean and read the list of what goes with it first (`apt-get -s remove PKG`, "
        "`dnf remove --assumeno PKG`); to clean up old kernels, name their versions (`apt autoremove`)."
    ),
    inspects=Inspects.COMMAND,
    commands=tuple(SYSTEM_MANAGERS),
    must_match=(
        "sudo apt-get remove --purge -y python3",
        "apt-get purge -y 'linux-image-*'",
        "dpkg --purge --force-all libc6",
        "rpm -e --nodeps glibc",
        "yum remove -y systemd",
        "dnf remove sudo",
        "pacman -Rns linux",
        "apk del musl busybox",
        "zypper rm -y glibc",
        "apt remove libc6:amd64",
        "apt-get remove -y linux-image-$(uname -r)",
    ),
    must_not_match=(
        "apt remove nginx",
        "apt-get purge -y linux-image-6.1.0-13-amd64",
        "apt-get install -y python3",
        "dpkg -l libc6",
        "rpm -qa glibc",
        "pacman -S linux",
        "apt-get autoremove --purge",
        "apt remove python3-requests",
        "apt-get remove -y linux-headers-$(uname -r)",
    ),
)
def essential_package_removed(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    removal = system_removal(subject)
    for word in removal.packages if removal is not None else ():
        if _RUNNING_KERNEL.match(word.source):
            yield Hit(word.span, f"removes `{word.source}`, the kernel the machine is running")
            return
        for value in word.values:
            essential = _essential(value, tables)
            if essential is not None:
                yield Hit(word.span, f"removes `{value}`, a package the system cannot run without (`{essential}`)")
                return


@rule(
    id="OS102",
    name="every-system-package-removed",
    severity=Severity.HIGH,
    summary=(
        "Removes every installed package with the system's package manager: the packages given by a listing of "
        "all of them (`pacman -Rns $(pacman -Qq)`, `dpkg --get-selections | cut -f1 | xargs apt-get purge`, "
        "`rpm -qa | xargs rpm -e`)."
    ),
    rationale=(
        "The list holds the C library, init, the kernel and the package manager itself: the machine is left "
        "without a working program, and only reinstalling it from outside brings it back."
    ),
    safer_alternative=(
        "Remove what is no longer needed by name, or the orphans only (`pacman -Rns $(pacman -Qdtq)`, `apt "
        "autoremove`)."
    ),
    inspects=Inspects.COMMAND,
    commands=tuple(SYSTEM_MANAGERS),
    must_match=(
        "sudo pacman -Rns --noconfirm $(pacman -Qq)",
        "dpkg --get-selections | cut -f1 | xargs apt-get purge -y",
        "rpm -qa | xargs rpm -e --nodeps",
        "apt-get remove $(dpkg-query -W -f='${Package} ')",
    ),
    must_not_match=(
        "pacman -Rns $(pacman -Qdtq)",
        "apt-get purge $(dpkg -l | grep '^rc' | awk '{print $2}')",
        "pacman -Rns $(pacman -Qqg gnome)",
        "apt remove nginx",
    ),
)
def every_system_package_removed(subject: CommandSubject, _tables: Tables) -> Iterator[Hit]:
    removal = system_removal(subject)
    if removal is None:
        return
    word = every_package(subject, removal.packages, lists_system_packages)
    if word is not None:
        yield Hit(word.span, "removes every installed package (the words come from a listing of them all)")


_HOMEBREW = Manager(frozenset({"uninstall", "remove", "rm"}), forces=frozenset({"--ignore-dependencies"}))


@rule(
    id="OS103",
    name="package-removed-despite-dependents",
    severity=Severity.MEDIUM,
    summary=(
        "Removes packages while others still need them: `rpm -e --nodeps`, `dpkg --force-depends` (or "
        "`--force-all`, `--force-remove-essential`), `pacman -Rdd`, `apk del --force-broken-world`, `apt-get "
        "--allow-remove-essential`, `brew uninstall --ignore-dependencies`."
    ),
    rationale=(
        "The package manager is told to skip the check that keeps installed programs working: whatever needed "
        "the package fails from then on, and later upgrades stop on the broken dependencies. It warns: "
        "replacing a package by hand sometimes needs it, and the packages are named."
    ),
    safer_alternative=(
        "Let the package manager remove what depends on the package too, or swap it in one transaction "
        "(`dnf swap OLD NEW`, `apt install NEW` with the conflict declared)."
    ),
    inspects=Inspects.COMMAND,
    commands=(*SYSTEM_MANAGERS, "brew"),
    must_match=(
        "rpm -e --nodeps openssl-libs",
        "dpkg --force-depends -r libfoo1",
        "dpkg -P --force-all nginx",
        "pacman -Rdd mesa",
        "apk del --force-broken-world openssl",
        "brew uninstall --force --ignore-dependencies node",
    ),
    must_not_match=(
        "rpm -e nginx",
        "dpkg -r nginx",
        "pacman -Rns mesa",
        "dpkg --force-confold -i pkg.deb",
        "brew uninstall node",
    ),
)
def package_removed_despite_dependents(subject: CommandSubject, _tables: Tables) -> Iterator[Hit]:
    removal = read_removal(subject.args, _HOMEBREW) if subject.name == "brew" else system_removal(subject)
    if removal is not None and removal.forced and removal.packages:
        yield Hit(subject.span, "removes packages although other installed packages need them")


# -- environments ---------------------------------------------------------------------------------

_PIP = Manager(frozenset({"uninstall"}), valued=frozenset({"-r", "--requirement", "--python", "--root"}))
_NPM = Manager(frozenset({"uninstall", "remove", "rm", "r", "un", "unlink"}), valued=frozenset({"--prefix", "-w"}))
_GEM = Manager(frozenset({"uninstall"}), valued=frozenset({"-v", "--version", "-i", "--install-dir"}))
_CONDA = Manager(frozenset({"remove", "uninstall"}), valued=frozenset({"-n", "--name", "-p", "--prefix", "-c"}))
_CONDAS = ("conda", "mamba", "micromamba")
_NARROWING_PIP_LISTS = frozenset({"-o", "--outdated", "-u", "--uptodate", "--not-required", "-e", "--editable"})


def _pip_lists_all(words: list[str]) -> bool:
    """`pip freeze`, `pip list`, `python3 -m pip freeze`: every package, unless an option narrows it."""
    if words[1:3] == ["-m", "pip"]:
        words = words[2:]
    return (
        words[0].startswith("pip") and words[1:2] in (["freeze"], ["list"]) and _NARROWING_PIP_LISTS.isdisjoint(words)
    )


def _brew_lists_all(words: list[str]) -> bool:
    return words[1:2] in (["list"], ["ls"], ["leaves"]) and all(word.startswith("-") for word in words[2:])


def _gem_lists_all(words: list[str]) -> bool:
    return words[1:2] == ["list"] and all(word.startswith("-") for word in words[2:])


# Per environment's package manager: how it removes, how it lists everything, and the names of
# its own package (removing that leaves the environment without its installer).
_ENVIRONMENTS: dict[str, tuple[Manager, Listing | None, frozenset[str]]] = {
    "pip": (_PIP, _pip_lists_all, frozenset({"pip"})),
    "pip3": (_PIP, _pip_lists_all, frozenset({"pip"})),
    "brew": (_HOMEBREW, _brew_lists_all, frozenset()),
    "gem": (_GEM, _gem_lists_all, frozenset({"rubygems-update"})),
    "npm": (_NPM, None, frozenset({"npm"})),
}
_GLOBAL = frozenset({"-g", "--global", "--location=global"})


def _whole_conda_environment(subject: CommandSubject) -> Arg | None:
    """`conda remove --all [-n ENV]`, `conda env remove -n ENV`: the environment and everything in it."""
    args = subject.args
    values = [arg.value for arg in args]
    if values[:2] == ["env", "remove"]:
        return args[1]
    removal = read_removal(args, _CONDA)
    return next((arg for arg in args if arg.value == "--all"), None) if removal is not None else None


def _emptied(subject: CommandSubject) -> tuple[Arg, str] | None:
    """The word that empties an environment, and what it removes."""
    name = subject.name or ""
    if name in _CONDAS:
        word = _whole_conda_environment(subject)
        return (word, "a whole conda environment") if word is not None else None
    environment = _ENVIRONMENTS.get(name)  # a rule listed for npm also sees what `npm exec` runs
    if environment is None:
        return None
    manager, lists, itself = environment
    removal = read_removal(subject.args, manager)
    if removal is None:
        return None
    if name == "npm" and _GLOBAL.isdisjoint(arg.value for arg in subject.args):
        return None  # a project's own dependency named npm
    own = next((word for word in removal.packages if word.value in itself), None)
    if own is not None:
        return own, f"{name}'s own package"
    word = every_package(subject, removal.packages, lists) if lists is not None else None
    return (word, f"every package {name} installed") if word is not None else None


@rule(
    id="OS104",
    name="environment-packages-removed",
    severity=Severity.MEDIUM,
    summary=(
        "Empties a package environment: uninstalls every package a listing gives (`pip freeze | xargs pip "
        "uninstall -y`, `brew uninstall $(brew list)`, `gem uninstall $(gem list --no-versions)`), the package "
        "manager itself (`npm uninstall -g npm`, `pip uninstall pip`), or a whole conda environment (`conda "
        "remove -n ENV --all`, `conda env remove -n ENV`)."
    ),
    rationale=(
        "Everything installed there goes at once, tools other projects use included, and what was installed by "
        "hand is recorded nowhere to put back; without its own package manager the environment cannot even "
        "reinstall. It warns: a disposable environment is rebuilt from its lock file."
    ),
    safer_alternative=(
        "Recreate a project's environment from its lock file in a new directory (`python -m venv .venv`), "
        "uninstall the packages you mean by name, and export a conda environment before removing it (`conda env "
        "export -n ENV`)."
    ),
    inspects=Inspects.COMMAND,
    commands=(*_ENVIRONMENTS, *_CONDAS),
    must_match=(
        "pip freeze | xargs pip uninstall -y",
        "pip uninstall -y $(pip freeze)",
        "brew uninstall --force $(brew list --formula)",
        "npm uninstall -g npm",
        "pip uninstall -y pip",
        "conda remove --name research --all -y",
        "conda env remove -n research",
    ),
    must_not_match=(
        "pip uninstall -y requests",
        "pip freeze > requirements.txt",
        "brew uninstall node",
        "npm uninstall lodash",
        "npm uninstall npm-run-all",
        "conda remove -n research numpy",
        "pip list --outdated",
    ),
)
def environment_packages_removed(subject: CommandSubject, _tables: Tables) -> Iterator[Hit]:
    emptied = _emptied(subject)
    if emptied is not None:
        word, what = emptied
        yield Hit(word.span, f"removes {what}")


PACK = Pack(
    name="system.packages",
    summary=(
        "Packages removed with the system's package managers (apt, dpkg, rpm, yum, dnf, pacman, apk, zypper) and "
        "environments emptied with pip, Homebrew, gem, npm and conda."
    ),
    default=True,
    reason=(
        "A package the system runs on, or every package, removed leaves a machine that does not boot or run a "
        "program, and only a rescue system brings it back."
    ),
    rules=(
        essential_package_removed,
        every_system_package_removed,
        package_removed_despite_dependents,
        environment_packages_removed,
    ),
)
