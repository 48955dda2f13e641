"""Directories of downloaded code: a repository cloned from the network, an archive from a download
unpacked. Running a program from one later in the same command string runs code nobody reviewed
(`git clone URL && cd tool && ./install.sh`, `curl URL | tar xz && ./tool/run.sh`), as running a
downloaded file does (`curl -o x.sh URL && ./x.sh`), only routine enough in builds from source to warn."""

from __future__ import annotations

from .._model import Span
from ..programs import Arg, extraction_directories, read_command, tar_archive, tar_extracts
from ._state import WalkState
from ._subjects import ContextKind, ExecContextSubject, Location, Risk, Stdin

# What a repository URL looks like: a scheme git fetches over the network, or scp-like `user@host:path`.
_REMOTE_SCHEMES = ("https://", "http://", "git://", "ssh://", "git+ssh://", "ssh+git://")
_HERE = Arg((".",), ".", Span(0, 0))
"""The working directory, where an archive unpacks without `-C`/`-d`."""


def note_downloaded_tree(
    state: WalkState, name: str | None, args: tuple[Arg, ...], stdin: Stdin | None, fetchers: frozenset[str]
) -> None:
    """Remember the directory `name ARGS` fills with downloaded code, if it does (`fetchers`: the
    programs whose output is a download, for `curl URL | tar x`)."""
    tree = _tree_of(name, args, stdin, state, fetchers)
    if tree is not None:
        state.remember_tree(*tree)


def _tree_of(
    name: str | None, args: tuple[Arg, ...], stdin: Stdin | None, state: WalkState, fetchers: frozenset[str]
) -> tuple[Arg, Span] | None:
    """The directory `name ARGS` fills with downloaded code (`.` for the working directory), with the
    span of the download, when it clones a repository from the network or unpacks a downloaded archive."""
    if name == "git":
        return _cloned(args)
    if name not in ("tar", "unzip"):
        return None
    reading = read_command(name, args)
    if name == "tar":
        if not tar_extracts(reading):
            return None
        archive = tar_archive(reading)
        if archive is not None and archive.value != "-":
            source = _downloaded_file(archive, state)
        else:
            piped = stdin is not None and (Risk.FETCH in stdin.risks or not fetchers.isdisjoint(stdin.feeders))
            source = stdin.span if stdin is not None and piped else None
    else:
        source = _downloaded_file(reading.operands[0], state) if reading.operands else None
    if source is None:
        return None
    into = extraction_directories(reading)
    return (into[-1] if into else _HERE), source


def _cloned(args: tuple[Arg, ...]) -> tuple[Arg, Span] | None:
    reading = read_command("git", args)
    if reading.path != ("clone",) or not reading.operands:
        return None
    url = reading.operands[0]
    source = url.value
    if source is None or not _remote(source):
        return None
    if len(reading.operands) > 1:
        return reading.operands[1], url.span
    directory = source.rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1].removesuffix(".git")
    return Arg((directory,), directory, url.span), url.span


def _remote(source: str) -> bool:
    if source.lower().startswith(_REMOTE_SCHEMES):
        return True
    head, colon, _ = source.partition(":")
    return bool(colon) and "@" in head and "/" not in head


def _downloaded_file(word: Arg, state: WalkState) -> Span | None:
    return next((span for span in map(state.downloaded, word.values) if span is not None), None)


def downloaded_program(program: Arg, location: Location, label: str, state: WalkState) -> ExecContextSubject | None:
    """The context of running `program` when this command string downloaded it, or filled the
    directory it is in with downloaded code (`label`: what runs it, for a script operand)."""
    for value in program.values:
        if "/" not in value and not label:
            continue  # a bare name is looked up in PATH, not in the working directory
        downloaded = state.downloaded(value)
        kind = ContextKind.DOWNLOADED_FILE
        if downloaded is None:
            downloaded = state.downloaded_tree(value)
            kind = ContextKind.DOWNLOADED_TREE
        if downloaded is not None:
            return ExecContextSubject(kind, label or value, "file", program.span, location, (), downloaded)
    return None
