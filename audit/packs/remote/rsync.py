"""remote.rsync: rsync runs that delete at the destination, onto another machine
or onto a protected directory."""

from __future__ import annotations

from ..._model import Severity
from ...programs import Arg
from ...rules._pack import Pack
from ...rules._paths import contents_glob, path_is
from .._invocation import Found, command, pack_rule

_DELETES = (
    "--del", "--delete", "--delete-before", "--delete-during", "--delete-delay", "--delete-after", "--delete-excluded",
)  # fmt: skip
_SAFE = ("--dry-run", "--list-only")


def _destination(found: Found) -> Arg | None:
    operands = found.reading.operands
    return operands[-1] if len(operands) >= 2 else None


def _remote(value: str) -> bool:
    """`host:path`, `user@host:path`, `host::module`, `rsync://host/module`: another machine."""
    if value.startswith("rsync://"):
        return True
    head, colon, _ = value.partition(":")
    return bool(colon) and bool(head) and "/" not in head


def _remote_destination(found: Found) -> Arg | None:
    destination = _destination(found)
    if destination is None or not any(_remote(value) for value in destination.values):
        return None
    return None if _protected_destination(found) is not None else destination


def _remote_path(destination: Arg) -> Arg | None:
    """The directory of another machine that `host:PATH` names, as a path there: the login's home for an
    empty or relative path (`host:`, `host:site`); None for an rsync daemon's module or a local path."""
    value = destination.value
    if value is None or value.startswith("rsync://") or not _remote(value):
        return None
    path = value.partition(":")[2]
    if path.startswith(":"):
        return None  # `host::module`
    if not path.startswith(("/", "~")):
        path = "~/" + path if path else "~"
    return Arg((path,), destination.source, destination.span, destination.pattern, destination.word)


def _protected_destination(found: Found) -> Arg | None:
    destination = _destination(found)
    if destination is None:
        return None
    tables = found.tables
    remote = _remote_path(destination)
    # A path on another machine is judged as the same path here, with no working directory.
    cwd = None if remote is not None else found.subject.cwd
    judged = remote or destination
    for directories in (
        tables.protected_directories,
        tables.home_data_directories,
        tables.credential_stores,
        tables.service_data_directories,
    ):
        if path_is(judged, directories, cwd) or contents_glob(judged, directories, cwd):
            return destination
    return None


DELETE_PROTECTED = pack_rule(
    id="RS001",
    name="rsync-delete-protected-directory",
    severity=Severity.HIGH,
    summary=(
        "rsync with `--delete` onto /, the home directory or another protected directory, the user's own data "
        "(`~/projects`, `~/Documents`), a credential store or a service's data, on this machine or another "
        "(`host:/`, `host:` is the login's home; a mirror onto a backup volume passes)."
    ),
    rationale=(
        "`--delete` removes everything at the destination the source lacks: from an empty or wrong source that "
        "is the whole home or system directory, every project, the keys or a database's files. Mirroring onto "
        "a backup volume (`/mnt/backup`) is what `--delete` is for."
    ),
    safer_alternative="Sync into a dedicated subdirectory, and run with `--dry-run` first.",
    matches=(command("rsync", any_of=_DELETES, unless=_SAFE, where=_protected_destination),),
    message="deletes whatever the source lacks from a protected directory",
    must_match=(
        "rsync -a --delete empty/ ~/",
        "rsync -av --delete-after ./backup/ /etc",
        "rsync -a --delete /tmp/empty/ ~/projects/",
        "rsync -a --delete /srv/pg/ /var/lib/postgresql/",
        "rsync -av --delete ./ root@prod:/",
        "rsync -a --delete dist/ deploy@web:",
    ),
    must_not_match=(
        "rsync -av --delete src/ /tmp/mirror/",
        "rsync -a --delete --dry-run empty/ ~/",
        "rsync -a --delete build/ ~/projects/site/public/",
        "rsync -a --delete ~/ /mnt/backup/",
    ),
)

DELETE_REMOTE = pack_rule(
    id="RS002",
    name="rsync-delete-remote",
    severity=Severity.MEDIUM,
    summary="rsync with `--delete` onto another machine (`host:path`, `rsync://`), below its protected directories.",
    rationale="Files on the remote side that the local source lacks are deleted there, where no local undo reaches.",
    safer_alternative="Run with `--dry-run` (`-n`) first and check the deletions it lists, or sync without `--delete`.",
    matches=(command("rsync", any_of=_DELETES, unless=_SAFE, where=_remote_destination),),
    message="deletes files on the remote side that the source lacks",
    must_match=("rsync -avz --delete ./site/ deploy@web:/var/www/site/", "rsync -a --del build/ rsync://mirror/pub/"),
    must_not_match=(
        "rsync -avz ./site/ deploy@web:/var/www/site/",
        "rsync -avzn --delete ./site/ web:/var/www/",
        "rsync -a --delete ./ root@prod:/",
    ),
)

PACK = Pack(
    name="remote.rsync",
    summary="rsync's `--delete` onto other machines and onto protected directories.",
    default=True,
    reason="Files deleted on a server or in the home directory cannot be restored by the agent.",
    rules=(DELETE_PROTECTED, DELETE_REMOTE),
)
