"""Data files overwritten beyond recovery (FS011): `shred`, `srm` and `wipe` of a database, a dump, a
backup or an archive.

Deleting such a file (`rm app.db`) is everyday work and passes: a development database is made
again, and a deleted file may still be restored from a snapshot or by undeleting it. The overwriting
removers exist to make that impossible, and what a file's name says it holds (a database, the dump or
backup that is the way back) is what a human should see go. A disk given to them is FS002's, and a
known service's data directory SV001's.
"""

from __future__ import annotations

from collections.abc import Iterator
from fnmatch import fnmatchcase

from .._analysis import CommandSubject, cleaned_values
from .._model import Severity
from .._tables import Tables
from ._paths import path_is, path_under, reading
from ._rule import Hit, Inspects, rule

# The programs that overwrite a file's contents before (or instead of) deleting it.
_OVERWRITERS = ("shred", "srm", "wipe")
# File names (lower case) that say what the file holds: a database, a dump, a backup, an archive.
_DATA_NAMES = (
    "*.db", "*.sqlite", "*.sqlite3", "*.db3", "*.mdb", "*.accdb", "*.ibd", "*.rdb", "*.aof", "*.sql", "*.dump",
    "*.pgdump", "*.bak", "*.backup", "*backup*", "*.tar", "*.tar.*", "*.tgz", "*.zip", "*.7z", "*.rar", "*.gz",
    "*.bz2", "*.xz", "*.zst",
)  # fmt: skip


def _data_kind(path: str) -> str | None:
    """The data name the path's file matches, or a backup directory it lies in (`~/backups/x`)."""
    segments = path.lower().rstrip("/").split("/")
    name = next((pattern for pattern in _DATA_NAMES if fnmatchcase(segments[-1], pattern)), None)
    if name is not None:
        return name
    return next((f"{segment}/" for segment in segments[:-1] if "backup" in segment), None)


@rule(
    id="FS011",
    name="shred-data-file",
    severity=Severity.MEDIUM,
    summary=(
        "Overwrites beyond recovery (`shred`, `srm`, `wipe`) a file whose name says it is a database, a dump, "
        "a backup or an archive: `shred -u backup.sql`, `shred -zu prod.sqlite3`, `srm ~/backups/db.tar.gz`."
    ),
    rationale=(
        "Deleting a file may be undone from a snapshot or by undeleting it; shredding it may not, and that "
        "is its purpose. A database and the backups and dumps that can restore one are what is lost. It warns: "
        "shredding a plain-text dump once it is encrypted is good hygiene, and the command names the file."
    ),
    safer_alternative=(
        "Delete it with `rm` (or move it aside) unless it must not be recoverable; keep at least one backup."
    ),
    inspects=Inspects.COMMAND,
    commands=_OVERWRITERS,
    must_match=(
        "shred -u backup.sql",
        "shred -vzn 3 /srv/dumps/app.dump",
        "shred -zu ~/backups/2024-01.tar.gz",
        "srm -f data/production.sqlite3",
    ),
    must_not_match=(
        "shred -u ./secrets/old-token.txt",
        "shred -u /dev/sda",
        "rm -f backup.sql",
        "shred -u /var/lib/redis/dump.rdb",
    ),
)
def shred_data_file(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    cwd = subject.cwd
    services = tables.service_data_directories
    for arg in reading(subject).operands:
        if path_is(arg, services, cwd) is not None or path_under(arg, services, cwd) is not None:
            continue  # SV001's
        for value in cleaned_values(arg, cwd):
            kind = _data_kind(value)
            if kind is not None and not value.startswith("/dev/"):
                yield Hit(arg.span, f"`{subject.name}` overwrites `{arg.display()}` beyond recovery ({kind})")
                break


SHREDDED_DATA_RULES = (shred_data_file,)
