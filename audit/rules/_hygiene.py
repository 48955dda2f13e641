"""Medium-risk changes an agent should be told about (PE, PK, PR families)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from .._analysis import Arg, CommandSubject
from .._model import Severity
from .._tables import Tables
from ..programs import forces_major_upgrades, installs_only_the_lock_file, installs_the_project
from ._installs import install_of, installer_names
from ._paths import reading
from ._rule import Hit, Inspects, rule

# Compiled on first use (re's own cache), not at import: only some commands need these patterns.
_NUMERIC_MODE = r"^[0-7]{3,4}$"
_SYMBOLIC_CLAUSE = r"^([ugoa]*)([-+=])([rwxXst]*)$"


def _world_writable(mode: str) -> bool:
    if re.match(_NUMERIC_MODE, mode):
        return int(mode[-1]) & 2 == 2
    for clause in mode.split(","):
        match = re.match(_SYMBOLIC_CLAUSE, clause)
        if match is None:
            continue
        who, operator, permissions = match.groups()
        # No `who` means all, filtered by the umask; `+w` alone stays user-only
        # under the usual umask 022, so only explicit o/a count.
        if operator in "+=" and "w" in permissions and ("o" in who or "a" in who):
            return True
    return False


# A umask as digits: bash reads one to four octal digits, the missing ones leading zeros.
_NUMERIC_UMASK = r"^[0-7]{1,4}$"


def _umask_world_writable(mask: str) -> bool:
    """Whether `umask MASK` leaves new files writable by every user: a numeric mask without the
    others' write bit (`000`, `0`, `001`), or a symbolic one, which names the permissions kept
    (`o=rwx`, `a+w`)."""
    if re.match(_NUMERIC_UMASK, mask):
        return int(mask, 8) & 2 == 0
    return _world_writable(mask)


@rule(
    id="PE001",
    name="world-writable-permissions",
    severity=Severity.MEDIUM,
    summary="chmod makes files writable by every user (777, a+rwx, o+w), or umask makes every new file so (`umask 000`).",
    rationale="Any local user or process can then replace the file; for scripts and binaries that is code execution. A umask does it to every file and directory the shell and its children create from then on.",
    safer_alternative="Grant only what is needed: `chmod 755` for programs, `chmod 644` for data, `u+w` for yourself; keep the umask at 022 (or 002 for a shared group).",
    inspects=Inspects.COMMAND,
    commands=("chmod", "umask"),
    must_match=(
        "chmod 777 f",
        "chmod -R 777 .",
        "chmod 0777 x",
        "chmod a+rwx f",
        "chmod o+w f",
        "chmod 666 f",
        "chmod u+x,o+w f",
        "umask 000",
        "umask 0",
        "umask u=rwx,g=rwx,o=rwx",
    ),
    must_not_match=(
        "chmod 644 f",
        "chmod +x script.sh",
        "chmod 755 bin",
        "chmod u+w f",
        "chmod -R g+w dir",
        "umask 022",
        "umask 002",
        "umask",
        "umask -S",
    ),
)
def world_writable(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    arguments = reading(subject).operands
    if not arguments:
        return
    mode = arguments[0]
    if mode.value is None:
        return
    if subject.name == "umask":
        if _umask_world_writable(mode.value):
            yield Hit(mode.span, f"umask `{mode.value}` makes every new file writable by every user")
    elif _world_writable(mode.value):
        yield Hit(mode.span, f"mode `{mode.value}` lets every user write")


def _sets_id_bit(mode: str) -> bool:
    if re.match(_NUMERIC_MODE, mode):
        return len(mode) == 4 and int(mode[0]) & 6 != 0
    for clause in mode.split(","):
        match = re.match(_SYMBOLIC_CLAUSE, clause)
        if match is not None and match.group(2) in "+=" and "s" in match.group(3):
            return True
    return False


def sets_setuid(mode: str) -> bool:
    """The mode sets the setuid bit (`4755`, `u+s`, `+s`), not only setgid (`2775`, `g+s`)."""
    if re.match(_NUMERIC_MODE, mode):
        return len(mode) == 4 and int(mode[0]) & 4 != 0
    for clause in mode.split(","):
        match = re.match(_SYMBOLIC_CLAUSE, clause)
        if match is None:
            continue
        who, operator, permissions = match.groups()
        if operator in "+=" and "s" in permissions and (not who or "u" in who or "a" in who):
            return True
    return False


def mode_words(subject: CommandSubject) -> tuple[Arg, ...]:
    """The modes a command gives files: chmod's MODE, install's `-m`."""
    read = reading(subject)
    if subject.name == "install":
        return read.values("--mode")
    return read.operands[:1]


@rule(
    id="PE002",
    name="setuid-or-setgid-bit",
    severity=Severity.MEDIUM,
    summary="chmod or install sets the setuid or setgid bit (4755, u+s, g+s, `install -m 4755`).",
    rationale="A setuid program runs with its owner's rights for every user: on a root-owned shell or copy of a tool it is a root backdoor.",
    safer_alternative="Use sudo rules or capabilities for the one operation that needs privileges.",
    inspects=Inspects.COMMAND,
    commands=("chmod", "install"),
    must_match=(
        "chmod u+s /bin/bash",
        "chmod 4755 ./tool",
        "chmod +s x",
        "chmod 2775 shared/",
        "chmod g+s,o-w dir",
        "install -m 4755 build/helper ./dist/helper",
    ),
    must_not_match=("chmod 755 x", "chmod 0644 f", "chmod u+x run.sh", "chmod -R go-w .", "install -m 755 tool ./bin/"),
)
def setuid_bit(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    for mode in mode_words(subject):
        if mode.value is not None and _sets_id_bit(mode.value):
            yield Hit(mode.span, f"mode `{mode.value}` sets the setuid/setgid bit")


@rule(
    id="PK001",
    name="package-install",
    severity=Severity.MEDIUM,
    summary="Installs packages it names (pip, apt, npm, gem, cargo...), fetches one to run it (`pipx run`, `go run PKG@VERSION`), or installs versions past the ones the project declares (`npm audit fix --force`); installing what the project declares (`npm install`, `pip install -r requirements.txt`, `pip install -e .`, `go install ./...`) or what a lock file pins passes.",
    rationale="Installing runs the package's install hooks with the agent's rights and changes the environment; typosquatted names are a common attack. The project's own dependency files were chosen by its maintainers, not typed by the agent.",
    safer_alternative="Pin the package in the project's dependency file and install from a lock file, or install inside the sandbox.",
    inspects=Inspects.COMMAND,
    commands=installer_names,
    must_match=(
        "pip install requests",
        "python -m pip install x",
        "python3.12 -m pip install --user x",
        "uv pip install x",
        "sudo apt-get install -y curl",
        "apt -q install x",
        "npm install lodash",
        "brew install jq",
        "pip install -r requirements.txt --extra-index-url https://pypi.example.com/simple",
        "go run golang.org/x/vuln/cmd/govulncheck@latest ./...",
        "npm audit fix --force",
    ),
    must_not_match=(
        "pip list",
        "pip show x",
        "apt-get update",
        "npm test",
        "npm run build",
        "pip freeze",
        "python -m pytest",
        "npm ci",
        "pnpm install --frozen-lockfile",
        "pip install --require-hashes -r requirements.txt",
        "pip download requests",
        "pip3 install -r requirements.txt",
        "npm install",
        "pip install -e '.[dev]'",
        "go install ./...",
        "go run ./cmd/migrate up",
        "npm audit fix",
        "npm audit fix --force --dry-run",
    ),
)
def package_install(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    if subject.name == "npm" and forces_major_upgrades(reading(subject)):
        yield Hit(subject.span, "`npm audit fix --force` installs versions past the ones the project declares")
        return
    install = install_of(subject, tables)
    if install is None or installs_only_the_lock_file(install.reading) or installs_the_project(install.reading):
        return
    yield Hit(subject.span, f"`{install.name} {' '.join(install.subcommand)}` installs packages")


@rule(
    id="PR001",
    name="privilege-change",
    severity=Severity.MEDIUM,
    summary="Runs a command with other privileges (sudo, su, doas, pkexec).",
    rationale="Root can do anything to the machine; every root command deserves a second look.",
    safer_alternative="Do the work as the current user, or inside the sandbox.",
    inspects=Inspects.COMMAND,
    commands=lambda tables: tables.privilege,
    must_match=("sudo ls", "su -", "doas reboot", "sudo -i", "pkexec visudo", "sudo -u app make"),
    must_not_match=("echo sudo", "ls sudo-docs/", "man sudo", "cat /etc/sudoers.d/README"),
)
def privilege_change(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    used = [name for name in subject.wrappers if name in tables.privilege]
    if subject.name in tables.privilege:
        used.append(subject.name)
    if used:
        yield Hit(subject.span, f"runs with other privileges through `{used[0]}`")


HYGIENE_RULES = (world_writable, setuid_bit, package_install, privilege_change)
