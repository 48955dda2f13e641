"""Destruction of data and filesystems (FS family)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from .._analysis import HOME, Arg, CommandSubject, RedirectSubject, cleaned_values
from .._model import Severity
from .._syntax import ast
from .._tables import Tables
from ..programs import TREE_REMOVERS, Reading, deletes_what_it_finds, find_scope, removed_trees
from ._paths import DERIVED_NAMES, contents_glob, is_device, may_be_device, path_is, path_under, reading, written_paths
from ._rule import Hit, Inspects, rule


@rule(
    id="FS001",
    name="recursive-delete-of-protected-directory",
    severity=Severity.HIGH,
    summary=(
        "Recursive delete of /, the home directory, another top-level system directory, or a mount point, "
        "mounted volume or data root (`/mnt/backups`, `/Volumes/Backup`, `/data`, `/var/www`, and below /srv "
        "and /opt what is named for backups, data or archives: `/srv/backups`, `/opt/app/data`)."
    ),
    rationale=(
        "`rm -rf /` or `rm -rf ~` destroys the system or every file the user owns; a mounted disk, a backup "
        "volume or a data root holds data that exists nowhere else. There is no undo."
    ),
    safer_alternative="Delete the specific project directory you mean (`rm -rf ./build`).",
    inspects=Inspects.COMMAND,
    commands=("find", *TREE_REMOVERS),
    must_match=(
        "rm -rf /",
        "rm -fr ~",
        "rm -Rf $HOME",
        "rm -r -f /home",
        "rm --recursive --force /root",
        "rm -rf /*",
        "rm -rf /tmp/../..",
        "sudo rm -rf --no-preserve-root /",
        'rm -rf "$HOME/"',
        "rm -rf ../../../../../..",
        "rm -rf ~/*",
        "d=/; rm -rf $d",
        "find / -delete",
        "find / -type f -delete",
        "find ~ -depth -exec rm -rf {} +",
        "find / -type f -exec rm -f {} +",
        "find ~ -type f -execdir unlink {} ;",
        "rm -rf /mnt/backups",
        "rm -rf /Volumes/Backup/*",
        "rm -rf /nix/store",
        "rm -rf /srv/backups",
        "cmake -E rm -rf ~",
        "cmake -E remove_directory /",
        "srm -r ~",
        "wipe -rf /home",
        "npx rimraf ~",
    ),
    must_not_match=(
        "rm -rf ./build /tmp/cache",
        "rm -rf node_modules",
        "rm -f /tmp/x",
        "echo rm -rf /",
        "rm -rf ~/project/build",
        "rm /",
        "find / -name '*.pyc' -delete",
        "find . -delete",
        "find / -name '*.pyc' -exec rm -f {} +",
        "find ~ -type f -exec grep -l TODO {} +",
        "rm -rf /mnt/backups/2023-01-01",
        "rm -rf /var/www/html/cache",
        "rm -rf /srv/app",
    ),
)
def recursive_delete(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    args = subject.args
    if subject.name == "find":
        if not deletes_what_it_finds(args):
            return
        scope = find_scope(args)
        if not scope.unfiltered:
            return
        targets = scope.starting_points
    else:
        targets = removed_trees(reading(subject))
    cwd = subject.cwd
    for arg in targets:
        target = _protected_or_data_root(arg, tables.protected_directories, cwd) or _protected_or_data_root(
            arg, tables.data_directories, cwd
        )
        if target is not None:
            shown = arg.display()
            suffix = "" if shown.rstrip("/") == target.rstrip("/") or shown == target else f", which is {target}"
            yield Hit(arg.span, f"recursive delete of `{shown}`{suffix}")


def _protected_or_data_root(arg: Arg, directories: tuple[str, ...], cwd: str | None) -> str | None:
    """The directory of the table the argument names, or whose every entry it names by a glob (`/*`)."""
    return path_is(arg, directories, cwd) or contents_glob(arg, directories, cwd)


@rule(
    id="FS002",
    name="write-to-block-device",
    severity=Severity.HIGH,
    summary="Raw write to a disk, partition or memory device.",
    rationale="Writing to /dev/sda (dd, shred, cp, a redirect) destroys the filesystem on it.",
    safer_alternative="Write to a regular file (`dd if=... of=./disk.img`).",
    inspects=Inspects.COMMAND,
    commands=("dd", "shred", "cp", "tee", "install", "mv", "truncate", "badblocks", "nwipe", "scrub", "ddrescue"),
    must_match=(
        "dd if=/dev/zero of=/dev/sda bs=1M",
        "badblocks -w /dev/sdb",
        "dd of=/dev/nvme0n1 if=image.iso",
        "shred -n 3 /dev/sdb",
        "cp disk.img /dev/mmcblk0",
        "echo x | sudo tee /dev/sda1",
        "ddrescue --force /dev/zero /dev/sdb",
        "nwipe --autonuke /dev/sdb",
    ),
    must_not_match=(
        "dd if=a.img of=b.img",
        "dd if=/dev/zero of=./zeros bs=1M count=1",
        "dd if=/dev/sda of=backup.img",
        "shred -u secret.txt",
        "ddrescue /dev/sdb disk.img rescue.map",
        "scrub -p dod old-notes.txt",
    ),
)
def block_device_write(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    targets = reading(subject).operands if subject.name == "shred" else written_paths(subject)
    for target in targets:
        if is_device(target):
            yield Hit(target.span, f"`{subject.name}` writes to the device `{target.display()}`")


@rule(
    id="FS003",
    name="write-to-block-device-by-redirect",
    severity=Severity.HIGH,
    summary="A redirect writes straight onto a disk, partition or memory device.",
    rationale="`> /dev/sda` overwrites the start of the disk: partition table and filesystem are gone.",
    safer_alternative="Redirect to a regular file.",
    inspects=Inspects.REDIRECT,
    must_match=("cat image > /dev/sda", "echo x >> /dev/nvme0n1p1", "exec 3<>/dev/sdb"),
    must_not_match=("echo x > /dev/null", "cat /dev/sda > disk.img", "ls 2>/dev/stderr"),
)
def block_device_redirect(subject: RedirectSubject, tables: Tables) -> Iterator[Hit]:
    if subject.writes and subject.target is not None and is_device(subject.target):
        yield Hit(subject.span, f"redirect writes to the device `{subject.target.display()}`")


# Filesystem makers by their declared names; other `mkfs.*` and these are read undeclared.
_MAKERS = frozenset({"mkfs", "mke2fs", "mkswap", "mkdosfs", "mkntfs", "mkexfatfs"})
# Options with which a maker only shows what it would do, its usage or its version, by program
# (`-V` is mkfs's --verbose, mke2fs's version).
_MAKER_SHOWS_ONLY: dict[str, tuple[str, ...]] = {
    "mke2fs": ("-n", "-V"),
    "mkfs.xfs": ("-N", "-V"),
    "mkswap": ("-V", "--help", "--version"),
}
_SHOWS_ONLY = ("-h", "--help", "--version")
# Tools that rewrite a device's partition table, and the arguments with which
# each only reads it.
_PARTITIONERS: dict[str, frozenset[str]] = {
    "fdisk": frozenset({"-l", "--list"}),
    "sfdisk": frozenset({"-l", "--list", "-d", "--dump", "-J", "--json", "-s", "--show-size", "-V", "--verify"}),
    "cfdisk": frozenset(),
    "gdisk": frozenset({"-l"}),
    "cgdisk": frozenset(),
    "sgdisk": frozenset({"-p", "--print", "-v", "--verify", "-i", "--info", "-b", "--backup"}),
    "parted": frozenset({"-l", "--list", "print"}),
}
_HELP = frozenset({"-h", "--help", "-V", "--version"})


def _is_maker(name: str) -> bool:
    return name in _MAKERS or name.startswith("mkfs.")


def _wiped_devices(subject: CommandSubject) -> tuple[str, tuple[Arg, ...]]:
    """What the command does to which of its operands, when it formats or wipes: (verb, operands)."""
    name = subject.name or ""
    read = reading(subject)
    if _is_maker(name):
        program = read.program.name if read.program.name != "<undeclared>" else name
        if read.has(*_SHOWS_ONLY, *_MAKER_SHOWS_ONLY.get(program, ())):
            return "", ()
        return "formats", read.operands
    if name == "wipefs" and read.has("--all", "--offset") and not read.has("--no-act"):
        return "wipes the signatures of", read.operands
    return "", ()


@rule(
    id="FS004",
    name="format-filesystem",
    severity=Severity.HIGH,
    summary="Creates or wipes a filesystem or partition table on a device (mkfs*, mkswap, wipefs -a, fdisk/parted, blkdiscard; encrypted volumes and drive erases are the disks pack's).",
    rationale="Formatting or repartitioning destroys everything on the target device.",
    safer_alternative="Work on an image file in the workspace, never on host devices.",
    inspects=Inspects.COMMAND,
    commands=("mkfs.*", *_MAKERS, "wipefs", *_PARTITIONERS, "blkdiscard"),
    must_match=(
        "mkfs.ext4 /dev/sda1",
        "mkfs -t xfs /dev/sdb",
        "sudo mke2fs /dev/sdc",
        "wipefs -a /dev/sda",
        "mkswap /dev/sda2",
        "mkfs.ext4 $DEV",
        "sfdisk /dev/sda < layout",
        "parted -s /dev/nvme0n1 mklabel gpt",
        "blkdiscard /dev/sdb",
    ),
    must_not_match=(
        "ls mkfs-notes/",
        "cat docs/mkfs.md",
        "man mkfs",
        "echo mkfs.ext4 /dev/sda",
        "fdisk -l /dev/sda",
        "parted /dev/sda print",
        "fdisk disk.img",
        "mkfs.ext4 disk.img",
        "mkswap /swapfile",
        "wipefs -n /dev/sda",
        "mke2fs -n /dev/sda1",
    ),
)
def format_filesystem(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    name = subject.name
    if name == "blkdiscard" or name in _PARTITIONERS:
        read_only = _PARTITIONERS.get(name, frozenset()) | _HELP
        if any(arg.value in read_only for arg in subject.args):
            return
        action = "discards every block of" if name == "blkdiscard" else "rewrites the partition table of"
        for arg in subject.args:
            if is_device(arg):
                yield Hit(arg.span, f"`{name}` {action} `{arg.display()}`")
        return
    verb, operands = _wiped_devices(subject)
    for arg in operands:
        if may_be_device(arg):
            yield Hit(arg.span, f"`{name}` {verb} `{arg.display()}`")


# `$USER`, `$(id -u)`...: the account the agent's shell runs as, the one `~` belongs to.
_SELF_VARIABLES = {"USER": "user", "LOGNAME": "user", "UID": "uid", "EUID": "uid"}
_SELF_COMMANDS = {
    "whoami": "user", "id -u": "uid", "id -un": "user", "id -nu": "user", "id -u -n": "user", "id -n -u": "user",
    "id -g": "gid", "id -gn": "group", "id -ng": "group", "id -g -n": "group", "id -n -g": "group",
}  # fmt: skip
_OWN_USERS = frozenset({"\0user\0", "\0uid\0"})
# A user's own group: the private group named after the user, or the primary group.
_OWN_GROUPS = frozenset({"\0user\0", "\0gid\0", "\0group\0"})
_OWNER_ADDITION = re.compile(r"u\+[rwxX]+(?:,u\+[rwxX]+)*")


def _self_reference(part: ast.WordPart) -> str | None:
    """`$USER`, `$(id -u)`: the part names the invoking user or its group (the name of which), else None."""
    if type(part) is ast.ParamExpansion:
        if part.operator or part.argument or part.subscript is not None:
            return None
        return _SELF_VARIABLES.get(part.name)
    if type(part) is ast.CommandSubstitution and len(part.body.statements) == 1:
        command = part.body.statements[0].command
        if type(command) is ast.SimpleCommand and not command.assignments and not command.redirects:
            return _SELF_COMMANDS.get(" ".join(word.source for word in command.words))
    return None


def own_account(arg: Arg, name: str) -> bool:
    """Whether chown's OWNER (`$USER:$USER`, `$(id -u):$(id -g)`) or chgrp's GROUP is the invoking user's."""
    if arg.values or arg.word is None:
        return False  # a literal name, or a variable this command assigns: not known to be the user's
    pieces: list[str] = []
    for part in arg.word.parts:
        if type(part) is ast.Literal:
            pieces.append(part.text)
            continue
        reference = _self_reference(part)
        if reference is None:
            return False
        pieces.append(f"\0{reference}\0")
    spec = "".join(pieces)
    if name == "chgrp":
        return spec in _OWN_GROUPS
    user, separator, group = spec.partition(":")
    return user in _OWN_USERS and (not separator or not group or group in _OWN_GROUPS)


def _keeps_home_its_users(subject: CommandSubject, read: Reading, target: Arg) -> bool:
    """`sudo chown -R $USER:$USER ~`, `chmod -R u+rwX ~`: the home given back to its own user, or
    permissions added for its owner: nothing is lost and nobody else gains. `~` and `$USER` must
    both be one account's: not in code a privilege change started (`sudo bash -c CODE`, whose
    location says so), where USER and HOME may be set to different accounts. chown
    must not follow symbolic links out of the home (`-L`)."""
    values = tuple(cleaned_values(target, subject.cwd))
    if not values or any(value != HOME for value in values):
        return False  # `/home/bob` is another user's home, however it is written
    mode_or_owner = read.operands[0]
    if subject.name == "chmod":
        return mode_or_owner.value is not None and _OWNER_ADDITION.fullmatch(mode_or_owner.value) is not None
    return not subject.location.other_account and not read.has("-L") and own_account(mode_or_owner, subject.name or "")


# How an ACL entry's text names the invoking user (`u:$USER:rwx`): access given to oneself.
_OWN_ENTRY = re.compile(r"(u|user):(\$\{?(USER|LOGNAME)\}?|\$\((whoami|id -un)\)):")


def _grants_another_account(read: Reading) -> bool:
    """setfacl's `-m`/`--set` entries give some account other than the invoking user access."""
    entries = [arg.source for arg in read.values("--modify", "--set", "--modify-file", "--set-file")]
    return any(not _OWN_ENTRY.match(entry.strip("'\"")) for text in entries for entry in text.split(","))


@rule(
    id="FS005",
    name="wreck-protected-directory",
    severity=Severity.HIGH,
    summary="Moves a top-level system or home directory, or recursively changes its owner, permissions or ACL (`setfacl -R -m u:guest:rwx /home`).",
    rationale=(
        "`mv /etc x`, `chmod -R 777 /` or `chown -R user /` leave the system unbootable or every file exposed. "
        "Giving the home back to its own user (`sudo chown -R $USER:$USER ~`) or adding its owner's "
        "permissions (`chmod -R u+rwX ~`) loses nothing: that repair is not a wreck."
    ),
    safer_alternative="Change only the project files you mean (`chmod -R u+w ./build`).",
    inspects=Inspects.COMMAND,
    commands=("mv", "chmod", "chown", "chgrp", "setfacl"),
    must_match=(
        "mv / /dev/null",
        "sudo setfacl -R -m u:guest:rwx /home",
        "mv /etc /tmp/etc",
        "chmod -R 777 /",
        "chown -R nobody:nogroup /usr",
        "sudo chgrp -R users ~",
        "chmod -R 000 $HOME",
        "chown -R nobody ~",
        "sudo chown -R $USER /",
    ),
    must_not_match=(
        "mv build/ /tmp/old-build",
        "chmod -R 755 ./bin",
        "chown -R app:app /srv/app",
        "chmod 755 /usr/local/bin/tool",
        "sudo chown -R $USER:$USER ~",
        "sudo chown -R $(id -u):$(id -g) $HOME",
        "chmod -R u+rwX ~",
        "setfacl -R -m u:$USER:rwx ~",
        "setfacl -R -b /home",
    ),
)
def wreck_protected_directory(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    read = reading(subject)
    if subject.name == "mv":
        # The sources: every operand with -t DIR, else all but the destination.
        targets = read.operands if read.has("--target-directory") else read.operands[:-1]
    elif subject.name == "setfacl":
        targets = read.operands if read.has("-R") and _grants_another_account(read) else ()
    elif read.has("--recursive"):
        targets = read.operands[1:]  # after the mode, owner or group
    else:
        return
    for arg in targets:
        matched = path_is(arg, tables.protected_directories, subject.cwd)
        if matched is not None and not (subject.name != "mv" and _keeps_home_its_users(subject, read, arg)):
            yield Hit(arg.span, f"`{subject.name}` on the protected directory `{arg.display()}` ({matched})")


@rule(
    id="FS008",
    name="delete-by-name-across-protected-directory",
    severity=Severity.MEDIUM,
    summary=(
        "`find` deletes every file of a name pattern across /, the home directory or another protected directory "
        "(`find ~ -name '*.py' -delete`, `find / -name '*.log' -delete`); caches and build litter are exempt."
    ),
    rationale=(
        "A name pattern narrows the files, not the places: every project's sources, every document of a kind, "
        "every log of the system goes, wherever it is."
    ),
    safer_alternative="Start the search in the one directory you mean (`find ./build -name '*.o' -delete`).",
    inspects=Inspects.COMMAND,
    commands=("find",),
    must_match=(
        "find ~ -name '*.py' -delete",
        "find / -name '*.log' -delete",
        "find ~ -type f -iname '*.md' -exec rm {} +",
        "find $HOME -name '*.jpg' -exec rm -f {} ;",
    ),
    must_not_match=(
        "find / -name '*.pyc' -delete",
        "find ~ -name node_modules -type d -prune -exec rm -rf {} +",
        "find ~/Downloads -name '*.zip' -delete",
        "find . -name '*.py' -delete",
        "find ~ -name '*.py' -print",
    ),
)
def delete_by_name_across_protected(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    args = subject.args
    scope = find_scope(args)
    kept = [name for name in scope.only_names if name not in DERIVED_NAMES]
    if not kept or not deletes_what_it_finds(args):
        return
    for start in scope.starting_points:
        directory = path_is(start, tables.protected_directories, subject.cwd)
        # A system directory's files (`find /etc -name '*.conf' -delete`) are SY001's.
        if directory is not None and path_under(start, tables.system_directories, subject.cwd) is None:
            yield Hit(start.span, f"deletes every `{kept[0]}` below `{start.display()}` ({directory})")


FILESYSTEM_RULES = (
    recursive_delete,
    block_device_write,
    block_device_redirect,
    format_filesystem,
    wreck_protected_directory,
    delete_by_name_across_protected,
)
