"""Questions rules share about a command: how its program reads its argv
(`reading`); which files it writes (`written_paths`); and, from the analysis,
whether an argument is a file of a path table (`path_is`, `path_under`)."""

from __future__ import annotations

from collections.abc import Callable
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
