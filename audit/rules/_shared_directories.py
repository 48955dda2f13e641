"""Directories that are not protected but hold what other programs are using (FS family): the
machine's shared temporary directories emptied (FS009), and an application's or site's whole
directory below /srv, /opt, /var/www, /var/lib or /usr/local/lib deleted (FS010). Both warn: each
is routine somewhere, and what FS001 blocks (the directories themselves, data roots) and SV001
blocks (the known services' data below /var/lib) is left to them."""

from __future__ import annotations

from collections.abc import Iterator

from .._analysis import Arg, CommandSubject, cleaned_values
from .._model import Severity
from .._tables import Tables
from ..programs import TREE_REMOVERS, removed_trees
from ._paths import path_is, reading
from ._rule import Hit, Inspects, rule

# Every user's and program's temporary files: sockets of the X server, ssh-agent, tmux and
# databases, locks, and other sessions' work.
_SHARED_TEMP = ("/tmp", "/var/tmp", "/private/tmp", "/private/var/tmp", "/dev/shm")
# The globs that name every entry of a directory.
_EVERYTHING = frozenset({"*", ".*", "*.*"})
# Where deployed applications and sites live, and where programs keep their state (/var/lib) and
# their libraries (/usr/local/lib): each entry is one of them whole.
_APPLICATION_ROOTS = ("/srv", "/opt", "/var/www", "/var/lib", "/usr/local/lib")


@rule(
    id="FS009",
    name="delete-shared-temp-directory",
    severity=Severity.MEDIUM,
    summary="Recursively deletes a shared temporary directory or everything in it (`rm -rf /tmp/*`, `rm -rf /var/tmp`).",
    rationale=(
        "/tmp holds what running programs rely on: the X server's and ssh-agent's sockets, tmux's, a "
        "database's socket and lock files, other users' and sessions' work. Emptying it breaks them until "
        "they restart. It warns: the files are temporary, and a reboot clears them anyway."
    ),
    safer_alternative='Delete the files your own program made (`rm -rf /tmp/myapp-*`, `rm -rf "$TMPDIR/build"`).',
    inspects=Inspects.COMMAND,
    commands=TREE_REMOVERS,
    must_match=("rm -rf /tmp/*", "sudo rm -rf /var/tmp/*", "rm -rf /tmp/.*", "rm -rf /dev/shm/*"),
    must_not_match=("rm -rf /tmp/build", "rm -rf /tmp/myapp-*", "rm -f /tmp/x.txt", "ls /tmp/*", "rm -rf /*"),
)
def delete_shared_temp(subject: CommandSubject, _tables: Tables) -> Iterator[Hit]:
    if any(label.startswith("find -") for label in subject.location.path):
        return  # what a find hands over is picked by tests read elsewhere (`-mtime +7`: routine clean-up)
    for arg in removed_trees(reading(subject)):
        for value in cleaned_values(arg, subject.cwd):
            head, _, tail = value.rstrip("/").rpartition("/")
            directory = value if value in _SHARED_TEMP else head if tail in _EVERYTHING else None
            if directory in _SHARED_TEMP:
                yield Hit(arg.span, f"recursive delete of `{arg.display()}`: what running programs keep in {directory}")
                break


@rule(
    id="FS010",
    name="delete-application-directory",
    severity=Severity.MEDIUM,
    summary=(
        "Recursively deletes a whole entry of /srv, /opt or /var/www (a deployed application or a site), "
        "of /var/lib (a program's state) or of /usr/local/lib (locally installed libraries): `rm -rf /srv/app`, "
        "`rm -rf /opt/service`, `rm -rf /var/www/html`, `rm -rf /var/lib/grafana`."
    ),
    rationale=(
        "An application's directory holds its configuration, uploads, a local database and logs, not only "
        "code. It warns: removing an old deployment is routine. Backup and data entries (`/srv/backups`) "
        "block (FS001), and so do known services' data below /var/lib (SV001)."
    ),
    safer_alternative=(
        "Delete the release or cache you mean (`rm -rf /srv/app/releases/2023-01-01`, `rm -rf "
        "/var/www/html/cache`), or move the directory aside first (`mv /srv/app /srv/app.old`)."
    ),
    inspects=Inspects.COMMAND,
    commands=TREE_REMOVERS,
    must_match=("rm -rf /srv/app", "sudo rm -rf /opt/myservice", "rm -rf /var/www/html/", "rm -rf /var/lib/grafana"),
    must_not_match=(
        "rm -rf /srv/app/releases/old", "rm -rf /var/www/html/cache", "rm -rf /srv/backups", "rm -rf /srv",
        "rm -rf /var/lib/apt/lists/*", "rm -rf /var/lib/postgresql",
    ),
)  # fmt: skip
def delete_application_directory(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    cwd = subject.cwd
    for arg in removed_trees(reading(subject)):
        parent = next((root for value in cleaned_values(arg, cwd) if (root := _application_root(value))), None)
        if parent is None:
            continue  # the common case, told first: no entry of an application root
        if path_is(arg, tables.data_directories, cwd) is not None or _holds_service_data(arg, tables, cwd):
            continue  # FS001's, SV001's
        yield Hit(arg.span, f"recursive delete of `{arg.display()}`, a whole application or site in {parent}")


def _application_root(value: str) -> str | None:
    """The application root a clean path is a whole entry of (`/srv` of `/srv/app`), if any."""
    parent, _, name = value.rstrip("/").rpartition("/")
    return parent if parent in _APPLICATION_ROOTS and name not in _EVERYTHING else None


def _holds_service_data(arg: Arg, tables: Tables, cwd: str | None) -> bool:
    """Whether the argument is a known service's data directory or a directory holding one
    (`/var/lib/dpkg` holds the package database), whose deletion SV001 blocks."""
    services = tables.service_data_directories
    if path_is(arg, services, cwd) is not None:
        return True
    return any(
        service.startswith(value.rstrip("/") + "/") for value in cleaned_values(arg, cwd) for service in services
    )


SHARED_DIRECTORY_RULES = (delete_shared_temp, delete_application_directory)
