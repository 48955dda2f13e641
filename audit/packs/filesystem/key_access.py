"""Private keys and credential files opened to other users (HM010); pack filesystem.home."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..._analysis import Arg, CommandSubject
from ..._model import Severity
from ..._tables import Tables
from ...rules._paths import path_is, path_under, reading
from ...rules._rule import Hit, Inspects, rule

_CLAUSE = re.compile(r"([ugoa]*)([-+=])([rwxXst]*)")


def opens_to_others(mode: str) -> bool:
    """Whether a chmod mode lets the group or others read or write (`644`, `go+r`, `a=rw`, `+r`)."""
    if mode.isdigit():
        digits = mode[-3:].rjust(3, "0")
        return any(int(digit) & 6 for digit in digits[1:] if digit in "01234567")
    for clause in mode.split(","):
        match = _CLAUSE.fullmatch(clause)
        if match is None:
            continue
        who, operator, permissions = match.groups()
        if operator != "-" and (not who or set(who) & set("goa")) and set(permissions) & set("rw"):
            return True
    return False


def _opened(subject: CommandSubject, tables: Tables, target: Arg, recursive: bool) -> str | None:
    """The credential file the target is, or for `chmod -R` the credential store it is or is in."""
    named = path_is(target, tables.credential_files, subject.cwd)
    if named is not None or not recursive:
        return named
    return path_under(target, tables.credential_stores, subject.cwd)


@rule(
    id="HM010",
    name="credential-file-opened-to-others",
    severity=Severity.MEDIUM,
    summary=(
        "Lets other users read or write a private key or credential file (`chmod 644 ~/.ssh/id_ed25519`, "
        "`chmod go+r ~/.aws/credentials`, `chmod -R 755 ~/.ssh`)."
    ),
    rationale=(
        "Every account on the machine, and every service running as one, can then copy the key; ssh refuses "
        "a key others can read, so the change also breaks the logins it serves. It warns: the command names "
        "the file, and a shared machine is what makes it a leak."
    ),
    safer_alternative="Keep keys readable by their owner alone (`chmod 600 ~/.ssh/id_ed25519`, `chmod 700 ~/.ssh`).",
    inspects=Inspects.COMMAND,
    commands=("chmod",),
    must_match=("chmod 644 ~/.ssh/id_ed25519", "chmod go+r ~/.aws/credentials", "chmod -R 755 ~/.ssh"),
    must_not_match=("chmod 600 ~/.ssh/id_ed25519", "chmod 644 ~/.ssh/id_ed25519.pub", "chmod 644 docs/index.md"),
)
def credential_file_opened_to_others(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    read = reading(subject)
    operands = read.operands
    if len(operands) < 2 or operands[0].value is None or not opens_to_others(operands[0].value):
        return
    recursive = read.has("-R")
    for target in operands[1:]:
        opened = _opened(subject, tables, target, recursive)
        if opened is not None:
            yield Hit(target.span, f"`chmod {operands[0].value}` lets other users read `{target.display()}` ({opened})")
