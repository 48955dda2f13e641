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
    Arg,
    CommandSubject,
    RedirectSubject,
    autorun_location,
    cleaned_values,
    contents_glob,
    directory_held,
    literal_prefix,
    path_is,
    path_under,
)
from ..programs import Reading, extraction_directories, read_command, removed_files, written_files

__all__ = [
    "CLIMB_TO_ROOT",
    "autorun_location",
    "cleaned_values",
    "contents_glob",
    "directory_held",
    "extracted_into",
    "keep_last",
    "literal_prefix",
    "path_is",
    "path_under",
    "per_subject",
    "reading",
    "redirect_writes_file",
    "removed_paths",
    "written_paths",
]

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


def may_be_device(arg: Arg) -> bool:
    """A device, or a word known only at run time, which may name one."""
    return not arg.values or is_device(arg)
