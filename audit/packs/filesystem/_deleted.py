"""What a command deletes, for the filesystem packs' rules: the programs that delete or empty
files, the targets each command deletes (worked out once per command), and a quick test that
lets most deletions skip the home pack's rules."""

from __future__ import annotations

from collections.abc import Iterator

from ..._analysis import HOME, Arg, CommandSubject
from ..._named_tuple import NamedTuple
from ...programs import TREE_REMOVERS, deletes_what_it_finds, emptied_files, find_scope, named_finds, removed_trees
from ...rules._paths import cleaned_values, in_working_directory, per_subject, reading
from ...rules._system_logs import names_history_variable

# The programs that may empty a file they write (`emptied_files`).
EMPTIERS = ("truncate", "cp", "install", "dd")
# The programs that delete files (shred overwrites them first).
REMOVERS = ("shred", "find", "unlink", *TREE_REMOVERS)
# The programs that delete files, or leave nothing of them (`truncate -s 0`, `cp /dev/null F`).
DELETERS = (*REMOVERS, *EMPTIERS)


@per_subject
def may_concern(subject: CommandSubject) -> bool:
    """The `applies` test of the home pack's rules: a word that is absolute or in the home directory
    (dd's `of=` too), climbs with `..`, names a `.git` (or is known only at run time and ends in
    one) or the shell's history file (`$HISTFILE`), or a working directory made known by `cd`. Most deletions
    (`rm -rf ./build`, `rm -f out.txt`) have none, and skip every rule here at once."""
    if subject.cwd is not None:
        return True
    for arg in subject.args:
        if names_history_variable(arg):
            return True
        for value in in_working_directory(arg).values:
            if value.removeprefix("of=").startswith(("/", HOME)) or ".." in value or ".git" in value:
                return True
        if not arg.values and ".git" in arg.source:
            return True  # `"$(git rev-parse --show-toplevel)/.git"`
    return False


class DeletedTarget(NamedTuple):
    """One thing a command deletes, with its values as clean paths (resolved against a known
    working directory) and whether it goes recursively."""

    arg: Arg
    values: tuple[str, ...]
    recursive: bool


@per_subject
def deleted_targets(subject: CommandSubject) -> tuple[DeletedTarget, ...]:
    """What the command deletes: rm's operands (and those of its kind: srm, wipe, unlink), shred's
    files, the files a command empties (`truncate -s 0 F`), the starting points of a `find ... -delete`
    and what a deleting `find` finds by a fixed name (worked out once per command: every rule here asks)."""
    cwd = subject.cwd
    if subject.name == "find":
        args = subject.args
        words = find_scope(args).starting_points if any(arg.value == "-delete" for arg in args) else ()
        if deletes_what_it_finds(args):
            words += named_finds(args)  # `find ~ -name .ssh -exec rm -rf {} +` deletes ~/.ssh
        return tuple(DeletedTarget(word, _paths(word, cwd), True) for word in words)
    read = reading(subject)
    if subject.name in EMPTIERS:
        return tuple(DeletedTarget(word, _paths(word, cwd), False) for word in emptied_files(read))
    trees = removed_trees(read)
    # A move deletes only into /dev/null (elsewhere it is HM006's); tar only what it archives into
    # /dev/null with --remove-files (into an archive, the files are kept there).
    if subject.name in ("mv", "tar"):
        return tuple(DeletedTarget(word, _paths(word, cwd), True) for word in trees)
    return tuple(DeletedTarget(word, _paths(word, cwd), any(word is tree for tree in trees)) for word in read.operands)


def _paths(word: Arg, cwd: str | None) -> tuple[str, ...]:
    """A deleted word's values as clean paths; `"$PWD/.."` is `..`."""
    return tuple(cleaned_values(in_working_directory(word), cwd))


def recursively_deleted(subject: CommandSubject) -> Iterator[DeletedTarget]:
    return (target for target in deleted_targets(subject) if target.recursive)


def home_relative(value: str) -> str:
    """`/root/x`, `/home/USER/x`, macOS's `/Users/USER/x` and WSL's `/mnt/c/Users/USER/x` as `~/x`:
    the home directory written any way."""
    if value == "/root" or value.startswith("/root/"):
        return HOME + value[len("/root") :]
    segments = value.split("/")
    if len(segments) < 3 or segments[0] != "":
        return value
    if segments[1] in ("home", "Users"):
        user = 2
    elif segments[1] == "mnt" and len(segments) >= 5 and segments[3] == "Users":
        user = 4  # /mnt/DRIVE/Users/USER
    else:
        return value
    if not segments[user]:
        return value
    return "/".join((HOME, *segments[user + 1 :]))
