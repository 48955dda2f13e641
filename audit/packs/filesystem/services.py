"""filesystem.services: the directories where services keep their data, and the system's logs.

A database's data directory, a container engine's state, a cluster's store:
deleting the directory, or any file in it, destroys data no `rm` can give
back, whether or not the deletion is recursive (`rm /var/lib/mysql/ibdata1`
loses every InnoDB table). The directories are the policy's
`service_data_directories`; whole system directories (`/var/lib` itself) are
the core rule FS001's.
"""

from __future__ import annotations

from collections.abc import Iterator
from fnmatch import fnmatchcase

from ..._analysis import Arg, CommandSubject
from ..._model import Severity
from ..._tables import Tables
from ...programs import find_scope
from ...rules._pack import Pack
from ...rules._paths import contents_glob, path_is, path_under, reading
from ...rules._rule import Hit, Inspects, rule
from ...rules._system_logs import (
    AUDIT_DIRECTORIES,
    ROTATED_ARCHIVE,
    SYSTEM_LOG_DIRECTORY,
    SYSTEM_LOGS,
    audit_trail,
)
from ._deleted import DELETERS, REMOVERS, deleted_targets, home_relative, may_concern


def _service_data(arg: Arg, tables: Tables, cwd: str | None, values: tuple[str, ...]) -> str | None:
    """The service data directory the argument (clean `values`) deletes: the directory, what is
    in it, anything below it, or a directory that holds one (`/usr/local/var`)."""
    directories = tables.service_data_directories
    protected = tables.protected_directories
    if path_is(arg, protected, cwd) is not None or contents_glob(arg, protected, cwd) is not None:
        return None  # `rm -rf /var/lib` and `rm -rf /var/lib/*` are FS001's
    named = path_is(arg, directories, cwd) or path_under(arg, directories, cwd) or contents_glob(arg, directories, cwd)
    if named is not None:
        return named
    for value in values:
        holder = home_relative(value).rstrip("/") + "/"
        held = next((directory for directory in directories if directory.startswith(holder)), None)
        if held is not None:
            return held
    return None


@rule(
    id="SV001",
    name="delete-service-data",
    severity=Severity.HIGH,
    summary=(
        "Deletes a service's data directory (a database's, a container engine's, a cluster's: "
        "`/var/lib/postgresql`, `/var/lib/docker`, `/var/lib/etcd`; a package manager's database: "
        "`/var/lib/dpkg/status`, `/var/lib/rpm`), anything in it, or a directory holding one."
    ),
    rationale=(
        "The files are the databases, volumes and cluster state themselves: deleting any of them loses "
        "data, and a running service may corrupt what is left."
    ),
    safer_alternative=(
        "Use the service's own tools on the one thing you mean (`dropdb NAME`, `docker volume rm NAME`, "
        "`docker system prune`), with a backup taken first."
    ),
    inspects=Inspects.COMMAND,
    commands=DELETERS,
    applies=may_concern,
    must_match=(
        "rm -rf /var/lib/postgresql",
        "rm -rf /var/lib/postgresql/16/main",
        "rm /var/lib/mysql/ibdata1",
        "rm -rf /var/lib/docker/volumes/*",
        "find /var/lib/mongodb -delete",
        "shred -u /var/lib/redis/dump.rdb",
        "rm -rf /usr/local/var",
    ),
    must_not_match=(
        "rm -rf /var/lib/apt/lists/*",
        "rm -rf /var/lib/postgresql-backup",
        "rm -rf ./postgresql",
        "ls /var/lib/docker",
        "rm -rf /var/lib",
    ),
)
def delete_service_data(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    for arg, values, _ in deleted_targets(subject):
        if (directory := _service_data(arg, tables, subject.cwd, values)) is not None:
            yield Hit(arg.span, f"deletes `{arg.display()}`, service data ({directory})")


# The names of the records, for a `find -name` pattern to be tested against.
_RECORD_NAMES = (
    "auth.log", "secure", "wtmp", "btmp", "lastlog", "faillog", "syslog", "messages", "audit.log", ".bash_history",
    ".zsh_history", "fish_history",
)  # fmt: skip


def _find_may_reach_records(subject: CommandSubject) -> bool:
    """A `find` narrowed by name reaches the records only when a name could be one of theirs
    (`find /var/log -name '*.gz' -delete` deletes the rotated archives, not `auth.log`)."""
    names = find_scope(subject.args).only_names
    return not names or any(fnmatchcase(record, name) for name in names for record in _RECORD_NAMES)


@rule(
    id="SV002",
    name="delete-system-logs",
    severity=Severity.HIGH,
    summary=(
        "Deletes the system's logs, or empties them (`truncate -s 0`): `/var/log` or everything in it, "
        "the records of logins, authentication and the audit system (`auth.log`, `secure`, `wtmp`, `audit/`, "
        "the journal), or the shell's history file (`~/.bash_history`, `~/.zsh_history`, `$HISTFILE`)."
    ),
    rationale=(
        "These records are how anyone finds out later what happened on the machine; wiping them is how "
        "an intrusion is hidden, and no build or clean-up needs it."
    ),
    safer_alternative=(
        "Let the log rotation do it (`journalctl --vacuum-time=7d`, `logrotate`), or delete the one "
        "application's logs you mean (`rm -rf /var/log/myapp/*.log`); to drop one line of the shell's "
        "history, `history -d OFFSET`."
    ),
    inspects=Inspects.COMMAND,
    # Copying nothing over a log (`cp /dev/null /var/log/wtmp`) is SY013's, an overwrite.
    commands=(*REMOVERS, "truncate"),
    applies=may_concern,
    must_match=(
        "truncate -s 0 /var/log/auth.log",
        "rm -rf /var/log/*",
        "rm -rf /var/log",
        "rm -f /var/log/auth.log",
        "shred -u /var/log/wtmp",
        "rm -rf /var/log/audit",
        "find /var/log -type f -delete",
        "shred -u ~/.zsh_history",
        "find /var/log -name 'auth.log*' -delete",
    ),
    must_not_match=(
        "find /var/log -name '*.gz' -mtime +30 -delete",
        "rm -f /var/log/syslog.1 /var/log/auth.log.2.gz",
        "rm -rf /var/log/myapp/*.log",
        "rm -f /var/log/nginx/access.log.1",
        "ls /var/log",
        "rm -rf ./var/log",
        "truncate -s 10M /var/log/auth.log",
        "rm ~/.psql_history",
    ),
)
def delete_system_logs(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    cwd = subject.cwd
    if subject.name == "truncate":
        read = reading(subject)
        if any(size.value == "0" for size in read.values("--size")):
            for arg in read.operands:
                # The directory itself is what `find /var/log -exec truncate -s 0 {} +` hands it: every file.
                in_logs = contents_glob(arg, SYSTEM_LOG_DIRECTORY, cwd) or path_is(arg, SYSTEM_LOG_DIRECTORY, cwd)
                record = audit_trail(arg, cwd) or (SYSTEM_LOGS if in_logs else None)
                if record is not None:
                    yield Hit(arg.span, f"empties `{arg.display()}`, {record}")
        return
    if subject.name == "find" and not _find_may_reach_records(subject):
        return
    for arg, values, _ in deleted_targets(subject):
        if values and all(ROTATED_ARCHIVE.search(value) for value in values):
            continue
        # `rm -f /var/log` deletes nothing unless it stands for every file a `find` hands over
        # (`find /var/log -type f -exec sh -c 'rm -f "$1"' _ {} ;`).
        whole = path_is(arg, SYSTEM_LOG_DIRECTORY, cwd) is not None
        in_logs = whole or contents_glob(arg, (*SYSTEM_LOG_DIRECTORY, *AUDIT_DIRECTORIES), cwd) is not None
        record = audit_trail(arg, cwd) or (SYSTEM_LOGS if in_logs else None)
        if record is not None:
            yield Hit(arg.span, f"deletes `{arg.display()}`, {record}")


PACK = Pack(
    name="filesystem.services",
    summary=(
        "Where services keep their data (database data directories, container engine and cluster state), "
        "the system's logs and the shell's history file."
    ),
    default=True,
    reason="A database's or a container engine's files are its data: deleting them loses it, and no agent task needs to.",
    rules=(delete_service_data, delete_system_logs),
)
