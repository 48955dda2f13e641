"""Questions rules share about a command: how its program reads its argv
(`reading`); which files it writes (`written_paths`); and, from the analysis,
whether an argument is a file of a path table (`path_is`, `path_under`) or a
device (`is_device`)."""

from __future__ import annotations

import re
from collections.abc import Callable
from fnmatch import fnmatchcase
from typing import ParamSpec, TypeVar

from .._analysis import (
    CLIMB_TO_ROOT,
    HARMLESS_DEVICES,
    RUN_TIME,
    Arg,
    CommandSubject,
    RedirectSubject,
    autorun_location,
    cleaned_values,
    contents_glob,
    directory_held,
    literal_prefix,
    path_is,
    path_is_anywhere,
    path_under,
    run_time_shape,
)
from .._syntax import ast
from ..programs import Reading, extraction_directories, read_command, removed_files, written_files

__all__ = [
    "CLIMB_TO_ROOT",
    "DERIVED_NAMES",
    "KEPT_FILE_NAMES",
    "TEMP_DIRECTORIES",
    "autorun_location",
    "cleaned_values",
    "contents_glob",
    "copied_sources",
    "directory_held",
    "extracted_into",
    "in_working_directory",
    "keep_last",
    "kept_file_name",
    "literal_prefix",
    "names_production",
    "names_working_directory",
    "path_is",
    "path_is_anywhere",
    "path_under",
    "per_subject",
    "placed_paths",
    "prints_to_screen",
    "reading",
    "redirect_writes_file",
    "removed_paths",
    "source_names",
    "writes_paths",
    "written_paths",
]

TEMP_DIRECTORIES = ("/tmp", "/var/tmp", "/dev/shm")
"""Directories every user of the machine may write."""

Subject = TypeVar("Subject")
Answer = TypeVar("Answer")


def per_subject(question: Callable[[Subject], Answer]) -> Callable[[Subject], Answer]:
    """Several rules ask the same question about one command, one after the
    other: keep the last answer. One slot, replaced atomically, so threads
    auditing at the same time only ever recompute."""
    return keep_last(question)


Asked = ParamSpec("Asked")


def keep_last(question: Callable[Asked, Answer]) -> Callable[Asked, Answer]:
    """`per_subject` for a question asked with more than the command, which comes first; the
    rest (the policy's tables) is the same for every rule run on one command."""
    last: list[tuple[object, Answer] | None] = [None]

    def ask(*args: Asked.args, **kwargs: Asked.kwargs) -> Answer:
        subject = args[0]
        cached = last[0]
        if cached is not None and cached[0] is subject:
            return cached[1]
        answer = question(*args, **kwargs)
        last[0] = (subject, answer)
        return answer

    return ask


@per_subject
def reading(subject: CommandSubject) -> Reading:
    """The command's argv read against its program's declaration (audit/programs)."""
    return read_command(subject.name, subject.args)


@per_subject
def written_paths(subject: CommandSubject) -> tuple[Arg, ...]:
    """The files a writer command opens for writing."""
    return written_files(reading(subject))


@per_subject
def removed_paths(subject: CommandSubject) -> tuple[Arg, ...]:
    """The files a command deletes (`rm`'s operands, what `mv` moves away, `find -delete`'s START/*)."""
    return removed_files(reading(subject))


@per_subject
def extracted_into(subject: CommandSubject) -> tuple[Arg, ...]:
    """The directories a command unpacks an archive into."""
    return extraction_directories(reading(subject))


def writes_paths(subject: CommandSubject) -> bool:
    """The test of the writer rules: a command that writes some file it names."""
    return bool(written_paths(subject))


# The programs that put their sources at a destination, or inside it when it is a directory.
_COPIERS = frozenset({"cp", "mv", "install", "ln", "rsync"})


@per_subject
def copied_sources(subject: CommandSubject) -> tuple[Arg, ...]:
    """What a copy, move, link or install puts at its destination: every operand it does not write."""
    if subject.name not in _COPIERS:
        return ()
    written = written_paths(subject)
    return tuple([arg for arg in reading(subject).operands if all(arg is not target for target in written)])


@per_subject
def placed_paths(subject: CommandSubject) -> tuple[Arg, ...]:
    """The files a command writes (`written_paths`) and, when a copy's destination may be a directory,
    each source's name inside it: `cp .bashrc ~/` writes ~/.bashrc, `install -t ~/bin x` ~/bin/x."""
    written = written_paths(subject)
    if len(written) != 1 or subject.name not in _COPIERS or reading(subject).has("--no-target-directory"):
        return written
    inside = (_inside(written[0], source) for source in copied_sources(subject))
    return written + tuple([path for path in inside if path is not None])


def _inside(directory: Arg, source: Arg) -> Arg | None:
    """The path the source gets inside the directory, when its name is known: a glob name stays a glob,
    and `dir/.` (its whole content, dotfiles too) is any name."""
    names = [
        _copied_name(name, source.pattern)
        for name in source_names(source)
        if RUN_TIME not in name and name not in ("", "..")
    ]
    if not names or not directory.values:
        return None
    paths = tuple(dict.fromkeys(f"{value.rstrip('/')}/{name}" for value in directory.values for name in names))
    return Arg(paths, directory.source, directory.span, directory.pattern or source.pattern or "*" in names)


def _copied_name(name: str, pattern: bool) -> str:
    """The name a copied source keeps, as a glob over names: bash's `*` and `?` do not match a leading dot
    (`cp build/* ~/` copies no .bashrc)."""
    if name == ".":
        return "*"
    if pattern and name[0] in "*?":
        return "[!.]" + (name if name[0] == "*" else name[1:])
    return name


def source_names(arg: Arg) -> tuple[str, ...]:
    """The last path segment of each value (of a URL too, without its query), the text of run-time
    parts replaced by `RUN_TIME` when the word is known only at run time (`$(pwd)/bin/tool` is `tool`,
    `docker-compose-\\x00` of `...-$(uname -m)`)."""
    if arg.values:
        return tuple(dict.fromkeys(_last_segment(value) for value in arg.values))
    shape = run_time_shape(arg)
    return (RUN_TIME if shape is None else _last_segment(shape),)


def _last_segment(path: str) -> str:
    if "://" in path:
        path = path.partition("?")[0].partition("#")[0]
    return path.rstrip("/").rpartition("/")[2] if path.strip("/") else ""


# Names of files and directories that are made, not kept: caches, bytecode, editors' swap and
# backup files, the desktop's litter, dependency and build output directories. Deleting every
# one of them anywhere (FS008), or the one beside the project (HM004's `../build`), loses nothing
# a build does not make again.
DERIVED_NAMES = frozenset({
    "*.pyc", "*.pyo", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", "*.class", "*.o", "*.tmp",
    "*.swp", "*.swo", "*~", "*.orig", "*.rej", ".DS_Store", "._*", "Thumbs.db", "desktop.ini", "node_modules",
    ".terraform", "core", "core.*", ".cache", "build", "_build", "dist", "target", "out", ".venv", "venv", ".tox",
    ".next", ".nuxt", ".svelte-kit", ".turbo", ".parcel-cache", "coverage", ".nyc_output",
})  # fmt: skip


# Names of files that exist nowhere else and that nothing makes again, wherever they are:
# Terraform's state (and a workspace's states), release signing keystores, password databases.
# `!` excludes, the last match decides: an Android debug keystore is made afresh.
KEPT_FILE_NAMES = (
    "*.tfstate", "terraform.tfstate.d", "*.jks", "*.keystore", "!debug.keystore", "*.kdbx",
)  # fmt: skip


def kept_file_name(arg: Arg) -> str | None:
    """The entry of KEPT_FILE_NAMES the argument's last segment matches (`infra/prod.tfstate`), a glob
    written as one too (`*.jks`); None when no value does."""
    for value in arg.values:
        name = _last_segment(value)
        for pattern in reversed(KEPT_FILE_NAMES):
            if fnmatchcase(name, pattern.removeprefix("!")):
                if not pattern.startswith("!"):
                    return pattern
                break
    return None


def writes_a_file(subject: RedirectSubject) -> bool:
    """The test of the redirect-writes rules (`2>&1` and `> /dev/null` write no file)."""
    return redirect_writes_file(subject) is not None


def redirect_writes_file(subject: RedirectSubject) -> Arg | None:
    """The file a writing redirect opens, unless it is a descriptor or /dev/null-like."""
    if not subject.writes or subject.target is None:
        return None
    target = subject.target
    value = target.value
    if value is not None and (
        value in HARMLESS_DEVICES or value.startswith("/dev/fd/") or value.isdigit() or value == "-"
    ):
        return None
    return target


# Block devices and raw memory. Partitions and whole disks both match, by kernel name or
# by the stable names udev gives them (/dev/disk/by-id/..., /dev/block/8:0). Compiled on
# first use (re's own cache), not at import: only some commands need it.
_DEVICE = (
    r"^/dev/(sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|md\d|dm-\d|loop\d|disk\d|rdisk\d|mapper/"
    r"|disk/by-[a-z-]+/|block/|mem$|kmem$|port$)"
)
# One name of each kind of device: a glob over /dev (`/dev/nvme?n1`, `/dev/sd[ab]`) that
# matches one of them can expand to a device.
_DEVICE_NAMES = (
    "/dev/sda", "/dev/sdb1", "/dev/hda", "/dev/vda", "/dev/xvda1", "/dev/nvme0n1", "/dev/nvme0n1p1", "/dev/mmcblk0",
    "/dev/mmcblk0p1", "/dev/md0", "/dev/dm-0", "/dev/loop0", "/dev/disk0", "/dev/rdisk0", "/dev/mem",
)  # fmt: skip


def is_device(arg: Arg) -> bool:
    """A block device or raw memory, by kernel or udev name, or a glob over /dev that can expand to one."""
    if not any("dev" in value for value in arg.values):
        return False
    for value in cleaned_values(arg):
        if re.match(_DEVICE, value):
            return True
        if arg.pattern and value.startswith("/dev/") and any(fnmatchcase(name, value) for name in _DEVICE_NAMES):
            return True
    return False


# `prod-eu`, `app.settings.production`, `arn:aws:eks:...:cluster/prod`: the separators of a name's words.
_NAME_WORDS = re.compile(r"[._/:@-]")


def names_production(value: str) -> bool:
    """`production`, `prod`, `app.settings.prod`, `prod-eu`, `gke_acme_prd`: a word of the value names
    production (`preprod`, `nonprod`, `non-prod` and `pre-prod` do not)."""
    words = _NAME_WORDS.split(value.lower().replace("_", "-"))
    return any(
        word in ("prod", "production", "prd") and (index == 0 or words[index - 1] not in ("non", "pre"))
        for index, word in enumerate(words)
    )


# Paths that are the terminal, or the streams the agent's transcript captures.
_SCREEN_PATHS = frozenset(
    {"/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/1", "/dev/fd/2", "/proc/self/fd/1", "/proc/self/fd/2"}
)


def prints_to_screen(subject: CommandSubject) -> bool:
    """Whether what the command prints reaches the terminal, where the transcript keeps it: not piped on
    to a later stage, not redirected to a file (`> copy.env`, `{ ...; } > out`, `> /dev/null`); a redirect
    to the terminal itself (`> /dev/tty`, `>&2`) still shows it."""
    if subject.piped_on:
        return False
    stdout = subject.stdout
    return stdout is None or any(value in _SCREEN_PATHS for value in stdout.values)


def may_be_device(arg: Arg) -> bool:
    """A device, or a word known only at run time, which may name one."""
    return not arg.values or is_device(arg)


def names_working_directory(part: ast.WordPart) -> bool:
    """`$PWD` or `$(pwd)`: the working directory, whose path is known only at run time."""
    if type(part) is ast.ParamExpansion:
        return part.name == "PWD" and not part.operator and part.subscript is None
    if type(part) is not ast.CommandSubstitution or len(part.body.statements) != 1:
        return False
    command = part.body.statements[0].command
    if type(command) is not ast.SimpleCommand or command.assignments or command.redirects:
        return False
    parts = command.words[0].parts if len(command.words) == 1 else ()
    return len(parts) == 1 and type(parts[0]) is ast.Literal and parts[0].text == "pwd"


def in_working_directory(arg: Arg) -> Arg:
    """`"$PWD/.."`, `$(pwd)/build`: a word that is the working directory followed by literal text,
    as the relative path it names (`./..`, `./build`), so that paths are judged as if written
    relative; any other word as it is."""
    parts = arg.word.parts if arg.word is not None and not arg.values else ()
    if not parts or not names_working_directory(parts[0]):
        return arg
    rest = parts[1:]
    if any(type(part) is not ast.Literal for part in rest):
        return arg
    return arg._replace(values=("." + "".join(part.text for part in rest if type(part) is ast.Literal),))
