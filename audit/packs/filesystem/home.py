"""filesystem.home: the home directory's credential stores, the repository's
own history, and deletions that climb out of the working directory.

Whole system and home directories are the core rule FS001's; this pack
covers what sits below them and around the project.
"""

from __future__ import annotations

from collections.abc import Iterator
from fnmatch import fnmatchcase

from ..._analysis import HOME, RUN_TIME, Arg, CommandSubject, run_time_shape
from ..._caches import PATH_TABLES, Memo
from ..._model import Severity
from ..._tables import Tables
from ...programs import TREE_REMOVERS, find_scope
from ...rules._pack import Pack
from ...rules._paths import CLIMB_TO_ROOT, DERIVED_NAMES, cleaned_values, contents_glob, path_is, reading
from ...rules._rule import Hit, Inspects, rule
from ._deleted import DELETERS, DeletedTarget, deleted_targets, home_relative, may_concern, recursively_deleted
from .kept_files import delete_unrecoverable_project_file, destroy_private_key_by_tool
from .key_access import credential_file_opened_to_others


def _anchor(path: str) -> str:
    """Where a clean path hangs: `~` for the home directory (however written), else its first
    directory (`/etc`); "" for a relative path."""
    if home_relative(path).startswith(HOME):
        return HOME
    return "/" + path.split("/", 2)[1] if path.startswith("/") else ""


_ANCHORS: Memo[tuple[str, ...], frozenset[str]] = Memo(PATH_TABLES)


def _credential_anchors(tables: Tables) -> frozenset[str]:
    entries = (*tables.credential_stores, *tables.credential_files)
    anchors = _ANCHORS.get(entries)
    if anchors is None:
        anchors = _ANCHORS.remember(entries, frozenset(_anchor(entry) for entry in entries))
    return anchors


def _holds_credentials(arg: Arg, tables: Tables, cwd: str | None, values: tuple[str, ...]) -> str | None:
    """The credential store or file the argument (clean `values`) deletes: the store itself,
    everything in it by a glob, a credential file, or a directory with one of them inside
    (`~/.config`)."""
    anchors = _credential_anchors(tables)
    if not any(_anchor(value) in anchors for value in values):
        return None  # `/tmp/x`, `build/`: nowhere near a credential
    protected = tables.protected_directories
    if path_is(arg, protected, cwd) is not None or contents_glob(arg, protected, cwd) is not None:
        return None  # `rm -rf ~` and `rm -rf ~/*` are FS001's
    stores = tables.credential_stores
    named = path_is(arg, stores, cwd) or contents_glob(arg, stores, cwd) or path_is(arg, tables.credential_files, cwd)
    if named is not None:
        return named
    for value in values:
        inside = home_relative(value).rstrip("/") + "/"
        # A token kept in a cache (`~/.cache/huggingface/token`) goes with the cache: deleting
        # the cache, or a directory in it, is a sign-in to repeat, not a key lost.
        cache = next((held for held in tables.disposable_home_directories if (inside).startswith(held + "/")), None)
        entries = (*stores, *tables.credential_files)
        held = next((entry for entry in entries if _below(entry, inside) and not _in_cache(entry, cache)), None)
        if held is not None:
            return held
    return None


def _below(entry: str, directory: str) -> bool:
    """Whether a table's entry lies below `directory` (ending in `/`), its glob segments matching any
    name but a cache's: a browser's profile `~/.config/google-chrome/Default/` holds
    `~/.config/google-chrome/*/Login Data`, its `ShaderCache/` beside the profiles does not."""
    if entry.startswith(directory):
        return True
    if "*" not in entry:
        return False
    names = directory.rstrip("/").split("/")
    patterns = entry.split("/")
    return len(patterns) > len(names) and all(
        fnmatchcase(name, pattern) and (pattern == name or "cache" not in name.lower())
        for name, pattern in zip(names, patterns[: len(names)], strict=True)
    )


def _in_cache(entry: str, cache: str | None) -> bool:
    return cache is not None and entry.startswith(cache + "/")


@rule(
    id="HM001",
    name="delete-credential-store",
    severity=Severity.HIGH,
    summary=(
        "Deletes a credential store or key file (`~/.ssh`, `~/.gnupg`, `~/.aws`, `~/.kube`, ...), or a directory "
        "holding one, or leaves nothing of a key file (`truncate -s 0`, `cp /dev/null`, `dd if=/dev/zero`, `shred`)."
    ),
    rationale="Private keys and cloud credentials often exist nowhere else; deleting them locks the user out of servers, clouds and encrypted data.",
    safer_alternative="Remove the one stale entry you mean (`ssh-keygen -R host`, `aws configure`), or move the store aside and keep it.",
    inspects=Inspects.COMMAND,
    commands=DELETERS,
    applies=may_concern,
    must_match=(
        "rm -rf ~/.aws",
        "rm ~/.ssh/id_ed25519",
        "rm -rf ~/.ssh/*",
        "find ~/.gnupg -delete",
        "rm -rf ~/.config",
        "truncate -s 0 ~/.ssh/id_rsa",
        "cp /dev/null ~/.aws/credentials",
    ),
    must_not_match=(
        "rm ~/.ssh/known_hosts",
        "rm -rf ~/.cache/pip",
        "ls ~/.ssh",
        "rm -rf ./aws-sdk",
        "cp ~/.ssh/config ~/.ssh/config.bak",
        "truncate -s 0 ~/.ssh/known_hosts",
    ),
)
def delete_credential_store(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    for arg, values, _ in deleted_targets(subject):
        held = _holds_credentials(arg, tables, subject.cwd, values)
        if held is not None:
            yield Hit(arg.span, f"deletes `{arg.display()}`, which holds credentials ({held})")


# Where clones made for a moment live: a repository there is nobody's working copy.
_SCRATCH_DIRECTORIES = ("/tmp", "/var/tmp", "/private/tmp")
_GLOB_CHARACTERS = frozenset("*?[(")


def _history_owner(path: str) -> str | None:
    """The directory whose history `path` is (its `.git`, everything in it, or its object or ref
    store): "" for the working directory, "/" for the root; None when `path` is no history."""
    segments = path.rstrip("/").split("/")
    if segments[-1] == ".git":
        owner = segments[:-1]
    elif len(segments) >= 2 and segments[-2] == ".git" and segments[-1] in ("*", ".*", "objects", "refs"):
        owner = segments[:-2]
    else:
        return None
    return "/".join(owner) or ("/" if path.startswith("/") else "")


def _may_climb(segment: str) -> bool:
    """`..`, or a glob that can match `.`, `..` or nothing (`.*`, `**`): the segment may not descend."""
    if segment in (".", ".."):
        return True
    if _GLOB_CHARACTERS.isdisjoint(segment):
        return False
    return segment.startswith((".", "[")) or "**" in segment or "(" in segment


def _works_in(owner: str) -> bool:
    """Whether the repository in `owner` (a clean path) may be the one the command works in: the
    working directory or one above it, one known only at run time, or one named by an absolute
    path outside the scratch directories. A repository in a subdirectory (`vendor/lib`,
    `node_modules/pkg`) is another project's copy, and one in /tmp a throwaway clone."""
    if owner.startswith(("/", HOME)):
        return not any(owner == scratch or owner.startswith(scratch + "/") for scratch in _SCRATCH_DIRECTORIES)
    return owner == "" or RUN_TIME in owner or any(_may_climb(segment) for segment in owner.split("/"))


def _deletes_own_history(target: DeletedTarget) -> bool:
    """Whether the deleted target is the history of a repository the command may work in (`_works_in`);
    a path known only at run time when the directory holding its `.git` is (`"$REPO/.git"`)."""
    if not target.values:
        shape = run_time_shape(target.arg)
        owner = _history_owner(shape) if shape is not None else None
        return owner is not None and RUN_TIME in owner
    for value in target.values:
        owner = _history_owner(value)
        if owner is not None and _works_in(owner):
            return True
    return False


@rule(
    id="HM002",
    name="delete-repository-history",
    severity=Severity.HIGH,
    summary=(
        "Deletes the `.git` directory, or its objects or refs, of the repository the command works in "
        "(the working directory's or one above it, one found at run time, one named by an absolute path)."
    ),
    rationale=(
        "`.git` holds every commit, branch, stash and the reflog; unpushed work, local branches and stashes exist "
        "nowhere else. A repository inside the project (`vendor/lib/.git`, `node_modules/pkg/.git`) is another "
        "project's copy and one in /tmp a throwaway clone: removing their history is how code is vendored."
    ),
    safer_alternative="To start over, clone afresh into a new directory; to drop a lock, delete only `.git/index.lock`.",
    inspects=Inspects.COMMAND,
    commands=("find", *TREE_REMOVERS),
    applies=may_concern,
    must_match=(
        "rm -rf .git",
        "rm -rf ./.git/",
        "rm -rf ../.git",
        'rm -rf "$(git rev-parse --show-toplevel)/.git"',
        "rm -rf .git/objects",
        "rm -rf ~/projects/app/.git",
    ),
    must_not_match=(
        "rm -f .git/index.lock",
        "rm -rf .github",
        "rm -rf .git/rebase-merge",
        "rm -rf .gitignore",
        "rm -rf vendor/somelib/.git",
        "rm -rf /tmp/clone/.git",
        "rm -rf node_modules/some-pkg/.git",
    ),
)
def delete_repository_history(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    for target in recursively_deleted(subject):
        if _deletes_own_history(target):
            yield Hit(target.arg.span, f"deletes the repository history `{target.arg.display()}`")


def _climbs(value: str) -> int:
    """How many leading `..` a clean relative path has."""
    count = 0
    for segment in value.split("/"):
        if segment != "..":
            break
        count += 1
    return count


def _ancestor_of_working_directory(arg: Arg, cwd: str | None, values: tuple[str, ...]) -> str | None:
    """`..`, `../..`, `../*`: the directory the command runs in, or one above it (or all their contents)."""
    for value in values:
        head, _, tail = value.rpartition("/")
        whole = value if tail not in ("*", ".*") or not arg.pattern else head
        if cwd is None:
            climbs = _climbs(whole)
            if 0 < climbs < CLIMB_TO_ROOT and climbs == len(whole.split("/")):
                return value
        elif whole and cwd.startswith(whole.rstrip("/") + "/"):
            return value
    return None


@rule(
    id="HM003",
    name="delete-parent-directory",
    severity=Severity.HIGH,
    summary='Recursively deletes the working directory\'s parent (`..`, `../..`, `../*`, `"$PWD/.."`, `find .. -delete`) or, after a `cd`, a directory above the working one.',
    rationale="The parent of a project directory is usually the user's whole workspace or home: every sibling project goes with it.",
    safer_alternative="Name the directory you mean by its path (`rm -rf ../old-build`), after checking it with `ls`.",
    inspects=Inspects.COMMAND,
    commands=(*TREE_REMOVERS, "find"),
    applies=may_concern,
    must_match=(
        "rm -rf ../../",
        "rm -rf ..",
        "rm -rf ../*",
        "cd /srv/app/releases && rm -rf /srv/app",
        "find .. -delete",
    ),
    must_not_match=(
        "rm -rf ../old-build",
        "rm -rf ./build",
        "rm -rf ../../../../..",
        "rm ../notes.txt",
        "find .. -name '*.pyc' -delete",
    ),
)
def delete_parent_directory(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    if subject.name == "find" and not find_scope(subject.args).unfiltered:
        return  # `find .. -name '*.pyc' -delete` deletes what it selects, not the parent
    cwd = subject.cwd
    for arg, values, _ in recursively_deleted(subject):
        if _ancestor_of_working_directory(arg, cwd, values) is None:
            continue
        # `rm -rf /` written out is FS001's alone; a climb (`../..`) is this rule's wherever it lands.
        climbs = any(".." in value for value in arg.values)
        if climbs or path_is(arg, tables.protected_directories, cwd) is None:
            yield Hit(arg.span, f"recursive delete of `{arg.display()}`, above the working directory")


@rule(
    id="HM004",
    name="delete-outside-working-directory",
    severity=Severity.MEDIUM,
    summary=(
        "Recursively deletes a directory beside or above the working directory by climbing out of it (`../other`); "
        "build output and dependency directories (`../build`, `../node_modules`) are exempt."
    ),
    rationale=(
        "A path that climbs out of the project reaches other projects and files the task never touched. "
        "A build directory beside the sources (CMake's `../build`) holds only what a build makes again."
    ),
    safer_alternative="Stay inside the project, or check the resolved path (`realpath ../x`) before deleting it.",
    inspects=Inspects.COMMAND,
    commands=TREE_REMOVERS,
    applies=may_concern,
    must_match=("rm -rf ../sibling-app", "rm -r ../../shared/cache", "rm -rf ../build/../src"),
    must_not_match=("rm -rf build/../dist", "rm -rf ..", "rm ../notes.txt", "rm -rf ./tmp", "rm -rf ../build"),
)
def delete_outside_working_directory(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    if subject.cwd is not None:
        return  # an absolute path after `cd`: nothing says where the project is
    for arg, values, _ in recursively_deleted(subject):
        if not any(0 < _climbs(value) < CLIMB_TO_ROOT and not _derived(value) for value in values):
            continue
        if _ancestor_of_working_directory(arg, None, values) is None:  # else HM003's
            yield Hit(arg.span, f"recursive delete of `{arg.display()}`, outside the working directory")


def _derived(value: str) -> bool:
    """`../build`, `../../node_modules`: a clean path ending in a directory a build or an install makes."""
    return value.rpartition("/")[2] in DERIVED_NAMES


def _home_entry(values: tuple[str, ...]) -> str | None:
    """`~/Documents`, `/home/u/projects`: one entry directly in a home directory."""
    for value in values:
        relative = home_relative(value)
        segments = relative.split("/")
        if len(segments) == 2 and segments[0] == HOME and segments[1] not in ("", "*", ".*", "*.*"):
            return relative
    return None


@rule(
    id="HM005",
    name="delete-home-directory-entry",
    severity=Severity.MEDIUM,
    summary="Recursively deletes a whole directory directly in the home directory (`~/Downloads`, `~/experiments`).",
    rationale=(
        "Top-level home directories hold the user's own data and other projects; caches and tools' own installs "
        "are listed in the policy and exempt, and the directories of the user's own data are HM007's."
    ),
    safer_alternative="Delete the specific subdirectory you mean (`rm -rf ~/projects/app/build`).",
    inspects=Inspects.COMMAND,
    commands=TREE_REMOVERS,
    applies=may_concern,
    must_match=("rm -rf ~/Downloads", "rm -rf $HOME/experiments", "cd ~ && rm -rf Downloads"),
    must_not_match=("rm -rf ~/.cache", "rm -rf ~/projects/app/build", "rm -rf ~", "rm ~/notes.txt"),
)
def delete_home_directory_entry(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    for arg, values, _ in recursively_deleted(subject):
        entry = _home_entry(values)
        if entry is None or path_is(arg, tables.disposable_home_directories, subject.cwd) is not None:
            continue
        if (
            _holds_credentials(arg, tables, subject.cwd, values) is None
            and _user_data(arg, tables, subject.cwd) is None
        ):
            yield Hit(arg.span, f"recursive delete of the home directory entry `{entry}`")


def _user_data(arg: Arg, tables: Tables, cwd: str | None) -> str | None:
    """The directory of the user's own data (`~/Documents`) the argument names, or empties by a glob."""
    protected = tables.protected_directories
    if path_is(arg, protected, cwd) is not None or contents_glob(arg, protected, cwd) is not None:
        return None  # `rm -rf ~/*` is FS001's
    directories = tables.home_data_directories
    return path_is(arg, directories, cwd) or contents_glob(arg, directories, cwd)


def _across_user_data(arg: Arg, tables: Tables, values: tuple[str, ...]) -> str | None:
    """`~/projects/*/src/*.py`, `~/Documents/*`: a glob whose segment right below a directory of the
    user's own data is `*`, so it reaches into every project or document there; build output and
    caches (`~/projects/*/node_modules`) are exempt."""
    if not arg.pattern:
        return None
    for value in values:
        relative = home_relative(value)
        if relative.rpartition("/")[2] in DERIVED_NAMES:
            continue
        for directory in tables.home_data_directories:
            prefix = directory + "/"
            if relative.startswith(prefix) and relative[len(prefix) :].split("/", 1)[0] in ("*", ".*", "*.*"):
                return directory
    return None


@rule(
    id="HM007",
    name="delete-home-user-data",
    severity=Severity.HIGH,
    summary=(
        "Recursively deletes a directory of the user's own data or everything in it (`~/Documents`, "
        "`~/projects/*`, `~/Maildir`, WSL's `/mnt/c/Users/NAME/Documents`), or deletes files by a glob that "
        "reaches into every entry of one (`shred -u ~/projects/*/src/*.py`)."
    ),
    rationale=(
        "These directories hold what the user made and kept: every project, every mail, every photo. "
        "Nothing reinstalls them, and a synced folder spreads the deletion to every device."
    ),
    safer_alternative="Delete the one file or project you mean (`rm -rf ~/projects/old-experiment`).",
    inspects=Inspects.COMMAND,
    commands=("find", *DELETERS),
    applies=may_concern,
    must_match=(
        "rm -rf ~/Documents",
        "rm -rf ~/projects/*",
        "rm -r $HOME/Maildir",
        "find ~/Pictures -delete",
        "shred -u ~/projects/*/src/*.py",
        "rm -rf /mnt/c/Users/dev/Documents",
        "mv ~/projects /dev/null",
    ),
    must_not_match=(
        "rm -rf ~/projects/old-experiment",
        "rm -rf ~/Downloads",
        "rm -f ~/Documents/draft.txt",
        "rm -rf ~/projects/*/node_modules",
        "rm -f ~/projects/app/src/*.pyc",
        "mv ~/projects/app/old.txt /tmp/",
    ),
)
def delete_home_user_data(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    for arg, values, recursive in deleted_targets(subject):
        directory = _user_data(arg, tables, subject.cwd) if recursive else None
        if directory is None:
            directory = _across_user_data(arg, tables, values)
        if directory is not None and _holds_credentials(arg, tables, subject.cwd, values) is None:
            yield Hit(arg.span, f"deletes `{arg.display()}`, the user's own data ({directory})")


@rule(
    id="HM006",
    name="move-credential-store",
    severity=Severity.MEDIUM,
    summary="Moves a credential store or key file away from where its tools look for it.",
    rationale="Moving `~/.ssh` or `~/.aws` breaks every tool that uses them, and a move into /tmp is a deletion on the next reboot.",
    safer_alternative="Copy the store for a backup (`cp -a ~/.ssh ~/ssh-backup`) and leave the original in place.",
    inspects=Inspects.COMMAND,
    commands=("mv",),
    applies=may_concern,
    must_match=("mv ~/.ssh ~/.ssh.bak", "mv ~/.aws/credentials /tmp/"),
    must_not_match=("mv ~/.ssh/config.new ~/.ssh/config", "mv notes.txt ~/Documents/"),
)
def move_credential_store(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    read = reading(subject)
    sources = read.operands if read.has("--target-directory") else read.operands[:-1]
    for arg in sources:
        held = _holds_credentials(arg, tables, subject.cwd, tuple(cleaned_values(arg, subject.cwd)))
        if held is not None:
            yield Hit(arg.span, f"moves `{arg.display()}`, which holds credentials ({held})")


PACK = Pack(
    name="filesystem.home",
    summary=(
        "The home directory and the workspace: credential stores, the repository's `.git`, deletions that climb "
        "out of the project, files that exist nowhere else (Terraform state, release keystores)."
    ),
    default=True,
    reason="Keys, credentials, repository history and other projects cannot be restored by the agent once deleted.",
    rules=(
        delete_credential_store,
        delete_repository_history,
        delete_parent_directory,
        delete_outside_working_directory,
        delete_home_directory_entry,
        move_credential_store,
        delete_home_user_data,
        delete_unrecoverable_project_file,
        destroy_private_key_by_tool,
        credential_file_opened_to_others,
    ),
)
