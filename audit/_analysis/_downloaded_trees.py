"""Directories of downloaded code: a repository cloned from the network, an archive from a download
unpacked. Running a program from one later in the same command string runs code nobody reviewed
(`git clone URL && cd tool && ./install.sh`, `curl URL | tar xz && ./tool/run.sh`), as running a
downloaded file does (`curl -o x.sh URL && ./x.sh`), only routine enough in builds from source to warn."""

from __future__ import annotations

from .._model import Span
from ..programs import Arg, extraction_directories, read_command, tar_archive, tar_extracts
from ._clean_paths import resolve_path
from ._contexts._call import ContextWalk
from ._state import Frame, WalkState
from ._subjects import ContextKind, ExecContextSubject, Location, Risk, Stdin

# What a repository URL looks like: a scheme git fetches over the network, or scp-like `user@host:path`.
_REMOTE_SCHEMES = ("https://", "http://", "git://", "ssh://", "git+ssh://", "ssh+git://")
_HERE = Arg((".",), ".", Span(0, 0))
"""The working directory, where an archive unpacks without `-C`/`-d`."""
# Directories of installed packages, whose code the project's tools import without asking.
_PACKAGE_DIRECTORIES = frozenset({"node_modules", "site-packages", "dist-packages"})


def note_downloaded_tree(
    walk: ContextWalk,
    state: WalkState,
    name: str | None,
    args: tuple[Arg, ...],
    stdin: Stdin | None,
    frame: Frame,
    downloaded_to: list[Arg] | None,
) -> None:
    """Remember the directory `name ARGS` fills with downloaded code, if it does; report downloaded
    code it writes among installed packages (`downloaded_to`: the files its own download goes to)."""
    tree = _tree_of(name, args, stdin, state, walk.tables.fetchers)
    if tree is None and not downloaded_to:
        return  # most commands download nothing
    filled = [tree] if tree is not None else []
    if tree is not None:
        state.remember_tree(*tree)
    filled.extend((target, target.span) for target in downloaded_to or ())
    for target, download in filled:
        subject = _into_installed_packages(target, download, state.cwd, frame.location)
        if subject is not None:
            walk.emit(subject)


def _into_installed_packages(
    target: Arg, download: Span, cwd: str | None, location: Location
) -> ExecContextSubject | None:
    """Downloaded code written among installed packages (`curl URL | tar xz -C node_modules/x`,
    `curl -o node_modules/x/index.js URL`), which the project's tools load as a dependency."""
    for value in target.values:
        if not _PACKAGE_DIRECTORIES.isdisjoint(resolve_path(cwd, value).split("/")):
            return ExecContextSubject(
                ContextKind.INTO_INSTALLED_PACKAGES, value, "file", target.span, location, (), download
            )
    return None


def _tree_of(
    name: str | None, args: tuple[Arg, ...], stdin: Stdin | None, state: WalkState, fetchers: frozenset[str]
) -> tuple[Arg, Span] | None:
    """The directory `name ARGS` fills with downloaded code (`.` for the working directory), with the
    span of the download, when it clones a repository from the network or unpacks a downloaded archive."""
    if name == "git":
        return _cloned(args) if any(arg.value == "clone" for arg in args) else None
    piped_download = stdin is not None and (Risk.FETCH in stdin.risks or not fetchers.isdisjoint(stdin.feeders))
    # Only a download can be unpacked as one: most archive commands need no reading.
    if name not in ("tar", "unzip") or not (state.downloads or piped_download):
        return None
    reading = read_command(name, args)
    if name == "tar":
        if not tar_extracts(reading):
            return None
        archive = tar_archive(reading)
        if archive is not None and archive.value != "-":
            source = _downloaded_file(archive, state)
        else:
            source = stdin.span if stdin is not None and piped_download else None
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
