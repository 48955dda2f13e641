"""Paths against the policy's path tables: is this argument that file, under
that directory, or a glob that reaches it; and where a written file runs by
itself later (the autorun tables). Shared by the analysis (which secrets a
command reads) and the rules (which files a command reads or writes).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Mapping
from fnmatch import fnmatchcase
from types import MappingProxyType
from typing import Final

from .._caches import PATH_ANSWERS, PATH_TABLES, Memo
from .._named_tuple import NamedTuple
from .._syntax import ast
from .._tables import Tables
from ._clean_paths import clean_path
from ._normalize import HOME
from ._subjects import Arg, Autorun, AutorunFormat

# A relative path this many `..` deep climbs to / from any plausible agent
# working directory (/home/user/project/sub is four deep).
CLIMB_TO_ROOT = 4

# Redirect targets that are not files: writing to them touches nothing.
HARMLESS_DEVICES = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/zero"})


def cleaned_values(arg: Arg, cwd: str | None = None) -> Iterator[str]:
    """The argument's values as clean paths.

    Relative ones are resolved against `cwd` when known; otherwise one that
    climbs CLIMB_TO_ROOT levels is taken to reach `/`.
    """
    for value in arg.values:
        if cwd is not None and not value.startswith(("/", HOME)):
            value = f"{cwd}/{value}"
        cleaned = clean_path(value)
        yield _climbed(cleaned) if cwd is None else cleaned


def _climbed(path: str) -> str:
    segments = path.split("/")
    climbs = 0
    while climbs < len(segments) and segments[climbs] == "..":
        climbs += 1
    if climbs < CLIMB_TO_ROOT:
        return path
    return "/" + "/".join(segments[climbs:])


# The places a home directory lives: root's, Linux users', macOS users', and under WSL the
# Windows user's folder (`/mnt/c/Users/NAME`: its Documents, Desktop and .ssh are the user's as
# much as `~/Documents` is).
_HOMES = ("/root", "/home/*", "/Users/*", "/mnt/*/Users/*")


def _home_variants(entry: str) -> tuple[str, ...]:
    """`~/X` also names /root/X and /home/USER/X."""
    if entry == HOME:
        return (entry, *_HOMES)
    if entry.startswith(HOME + "/"):
        rest = entry[1:]
        return (entry, *(home + rest for home in _HOMES))
    return (entry,)


def _expanded(entries: Iterable[str]) -> Iterator[str]:
    for entry in entries:
        yield from _home_variants(entry)


# What path_is() and path_under() answer from: an argument's values and
# pattern flag, and the working directory.
_PathKey = tuple[tuple[str, ...], bool, "str | None"]
# path_under() also by whether the directory itself counts.
_ContainingKey = tuple[tuple[str, ...], bool, "str | None", bool]


class _PathTable:
    """A table of paths with their home aliases, and a cheap pre-filter.

    Each entry is keyed by its last segment that is not a bare `*`, counted
    from the end (`/etc/shadow` by `shadow` at 1, `/home/*` by `home` at
    2). Most arguments (`status`, `-la`, `src/`) have no such segment in that
    place and are ruled out before any path work.

    Made once per path list and only queried: a plain class, as a dataclass costs about a
    millisecond to create at import.
    """

    __slots__ = ("answers", "containing", "entries", "glob_keys", "literal_keys", "named")

    def __init__(
        self, entries: tuple[str, ...], literal_keys: frozenset[tuple[int, str]], glob_keys: tuple[tuple[int, str], ...]
    ) -> None:
        self.entries: Final = entries
        self.literal_keys: Final = literal_keys
        self.glob_keys: Final = glob_keys
        # Arguments repeat across commands (`-la`, `status`, `/tmp/x`): answers are
        # memoised, by value for may_name(), by (values, pattern, cwd) for
        # path_is() and path_under().
        self.answers: Final[Memo[str, bool]] = Memo(PATH_ANSWERS)
        self.named: Final[Memo[_PathKey, str | None]] = Memo(PATH_ANSWERS)
        self.containing: Final[Memo[_ContainingKey, str | None]] = Memo(PATH_ANSWERS)

    def may_name(self, arg: Arg) -> bool:
        """False only when no value of `arg` can clean up to an entry."""
        if arg.pattern:
            return True
        answers = self.answers
        for value in arg.values:
            known = answers.get(value)
            if known is None:
                known = answers.remember(value, self._may_be(value))
            if known:
                return True
        return False

    def _may_be(self, value: str) -> bool:
        segments = value.rstrip("/").split("/")
        if "." in segments or ".." in segments or (segments[0] == HOME and len(segments) == 1):
            return True
        count = len(segments)
        for index, segment in self.literal_keys:
            if index <= count and segments[-index] == segment:
                return True
        return any(index <= count and fnmatchcase(segments[-index], glob) for index, glob in self.glob_keys)


def _key(entry: str) -> tuple[int, str]:
    segments = entry.rstrip("/").split("/") if entry != "/" else [""]
    index = 1
    while index < len(segments) and segments[-index] == "*":
        index += 1
    return index, segments[-index]


# A C-level cache: asked for every path question of every rule.
@functools.lru_cache(maxsize=PATH_TABLES)
def _path_table(entries: tuple[str, ...]) -> _PathTable:
    expanded = tuple(_expanded(entries))
    keys = {_key(entry) for entry in expanded}
    globs = tuple(sorted(key for key in keys if "*" in key[1]))
    return _PathTable(expanded, frozenset(keys.difference(globs)), globs)


def path_is(arg: Arg, entries: tuple[str, ...], cwd: str | None = None) -> str | None:
    """The entry `arg` names (exactly, through a glob, or by home alias), if any."""
    table = _path_table(entries)
    values = arg.values
    if not values:
        return _shape_names(arg, table.entries, cwd)
    key = (values, arg.pattern, cwd)
    named = table.named
    if key in named:  # the answer may be None: membership, not get()
        return named[key]
    return named.remember(key, _named_entry(arg, table, cwd))


def _named_entry(arg: Arg, table: _PathTable, cwd: str | None) -> str | None:
    if cwd is None and not any("/" in value or value[:1] == HOME for value in arg.values):
        return None  # a bare relative name cannot reach an absolute entry
    if not table.may_name(arg):
        return None
    for value in cleaned_values(arg, cwd):
        for entry in table.entries:
            if _same_path(value, entry, arg.pattern):
                return entry
    return None


def _same_path(value: str, entry: str, value_is_pattern: bool) -> bool:
    if value == entry:
        return True
    if "*" in entry and _glob_match(value, entry):
        return True
    if value_is_pattern and value.startswith(("/", HOME)):
        # The glob in the argument may expand to the entry. A relative glob
        # (`cat *`) names nothing here while the working directory is unknown.
        # An entry's own wildcard stands for some text or none (`auth.log*` is
        # `auth.log` too, which `*.log` matches).
        return _glob_match(entry.replace("*", "x"), value) or (
            "*" in entry and _glob_match(entry.replace("*", ""), value)
        )
    return False


RUN_TIME = "\x00"
"""What stands for a run-time part in a word's shape (`run_time_shape`)."""


def run_time_shape(arg: Arg) -> str | None:
    """The word as written, each run-time part (`$x`, `$(cmd)`) replaced by RUN_TIME; None without a word."""
    if arg.word is None:
        return None
    return "".join(part.text if type(part) is ast.Literal else RUN_TIME for part in arg.word.parts)


def _shape_names(arg: Arg, entries: tuple[str, ...], cwd: str | None = None) -> str | None:
    """A run-time path (`/proc/$$/environ`) names an entry when each run-time
    segment stands where the entry has a wildcard segment; other entries are
    not assumed (`/etc/$f` is not /etc/shadow). A run-time directory followed
    by CLIMB_TO_ROOT or more `..` (`$DIR/../../../..`) is taken to reach `/`.
    A relative one is in `cwd` when that is a known absolute directory (`cd /home
    && rm -rf "$USER"` names /home/*)."""
    shape = run_time_shape(arg)
    if shape is None:
        return None
    if not shape.startswith(("/", HOME)) and cwd is not None and cwd.startswith("/"):
        shape = cwd.rstrip("/") + "/" + shape
    segments = shape.split("/")
    climbed = _climbed_past_run_time(segments)
    if climbed is not None:
        return next((entry for entry in entries if _same_path(climbed, entry, False)), None)
    if not shape.startswith("/"):
        return None
    for entry in entries:
        wanted = entry.split("/")
        if len(wanted) == len(segments) and all(
            segment == glob
            or (segment == RUN_TIME and glob == "*")
            or (RUN_TIME not in segment and fnmatchcase(segment, glob))
            for segment, glob in zip(segments, wanted, strict=True)
        ):
            return entry
    return None


def _climbed_past_run_time(segments: list[str]) -> str | None:
    """The clean path after a run-time segment and a climb of CLIMB_TO_ROOT `..`, if the shape has one."""
    last_run_time = max((index for index, segment in enumerate(segments) if RUN_TIME in segment), default=None)
    if last_run_time is None:
        return None
    rest = [segment for segment in segments[last_run_time + 1 :] if segment not in ("", ".")]
    climbs = 0
    while climbs < len(rest) and rest[climbs] == "..":
        climbs += 1
    if climbs < CLIMB_TO_ROOT:
        return None
    return clean_path("/" + "/".join(rest[climbs:]))


def _glob_match(path: str, pattern: str) -> bool:
    """Shell globbing: a wildcard matches within one path segment, never across `/`."""
    path_segments = path.split("/")
    pattern_segments = pattern.split("/")
    return len(path_segments) == len(pattern_segments) and all(
        fnmatchcase(segment, glob) for segment, glob in zip(path_segments, pattern_segments, strict=True)
    )


def contents_glob(arg: Arg, directories: tuple[str, ...], cwd: str | None = None) -> str | None:
    """`/*`, `~/*`, `~/.ssh/.*`: a glob that expands to everything inside one of the directories."""
    if not arg.pattern:
        return None
    for value in cleaned_values(arg, cwd):
        head, slash, tail = value.rpartition("/")
        if not slash or tail not in ("*", ".*", "*.*"):
            continue
        if path_is(Arg((head or "/",), arg.source, arg.span), directories):
            return value
    return None


def path_under(arg: Arg, directories: tuple[str, ...], cwd: str | None = None, *, strictly: bool = False) -> str | None:
    """The directory `arg` is inside of (or is, unless `strictly`), if any; globs in either side count."""
    table = _path_table(directories)
    key = (arg.values, arg.pattern, cwd, strictly)
    containing = table.containing
    if key in containing:  # the answer may be None: membership, not get()
        return containing[key]
    return containing.remember(key, _directory_containing(arg, table.entries, cwd, strictly))


def _directory_containing(arg: Arg, entries: tuple[str, ...], cwd: str | None, strictly: bool) -> str | None:
    for value in cleaned_values(arg, cwd):
        if not value.startswith(("/", HOME)):
            continue
        segments = value.split("/")
        for directory in entries:
            depth = directory.count("/") + 1
            if len(segments) < depth + strictly:
                continue
            head = "/".join(segments[:depth])
            if _same_path(head, directory, arg.pattern):
                return directory
    return None


def directory_held(arg: Arg, directories: tuple[str, ...], cwd: str | None = None) -> str | None:
    """A directory of `directories` strictly below `arg` (`/` holds /etc, `/usr` holds /usr/bin), if any."""
    for value in cleaned_values(arg, cwd):
        if not value.startswith("/"):
            continue
        prefix = value.rstrip("/") + "/"
        for directory in directories:
            if directory.startswith(prefix) and directory != value:
                return directory
    return None


ANY_DIRECTORY = "**/"
"""An autorun entry starting with this matches in any directory (`**/.git/hooks/*`)."""


class _AutorunTable(NamedTuple):
    """The policy's autorun entries, prepared: rooted entries by their format, and the `**/` ones by theirs."""

    rooted: tuple[str, ...]
    formats: Mapping[str, AutorunFormat]
    anywhere: tuple[tuple[str, AutorunFormat], ...]


_SSH, _GIT, _NODE, _PIP = (AutorunFormat.SSH_CONFIG, AutorunFormat.GIT_CONFIG, AutorunFormat.NODE_CONFIG,
                           AutorunFormat.PIP_CONFIG)  # fmt: skip
_VIM, _LUA, _EMACS = AutorunFormat.VIM_SCRIPT, AutorunFormat.LUA, AutorunFormat.EMACS_LISP
SETTINGS_FILES: Mapping[str, AutorunFormat] = MappingProxyType(
    {
        "~/.ssh/config": _SSH, "~/.ssh/config.d/*": _SSH, "/etc/ssh/ssh_config": _SSH, "/etc/ssh/ssh_config.d/*": _SSH,
        "~/.gitconfig": _GIT, "~/.config/git/config": _GIT, "/etc/gitconfig": _GIT, "**/.git/config": _GIT,
        "**/.npmrc": _NODE, "/etc/npmrc": _NODE, "**/.yarnrc": _NODE, "**/.yarnrc.yml": _NODE,
        "**/pip.conf": _PIP, "**/pip.ini": _PIP, "**/.vscode/tasks.json": AutorunFormat.VSCODE_TASKS,
        "~/.vimrc": _VIM, "~/.vim/vimrc": _VIM, "~/.gvimrc": _VIM, "~/.exrc": _VIM, "~/.vim/plugin/*": _VIM,
        "~/.config/nvim/init.vim": _VIM, "~/.config/nvim/plugin/*": _VIM, "/etc/vimrc": _VIM, "/etc/vim/vimrc": _VIM,
        "~/.config/nvim/init.lua": _LUA, "~/.emacs": _EMACS, "~/.emacs.el": _EMACS, "~/.emacs.d/init.el": _EMACS,
        "~/.emacs.d/early-init.el": _EMACS, "~/.config/emacs/init.el": _EMACS, "~/.config/emacs/early-init.el": _EMACS,
    }
)  # fmt: skip
"""Settings files whose values a tool runs as commands or trusts for its downloads, by how each
is read: program knowledge, not policy (ssh reads ~/.ssh/config, npm every .npmrc from the project
up, pip a pip.conf in the user's, the system's or the virtual environment's directory, vim and
neovim their startup files and plugins, Emacs its startup files)."""


@functools.lru_cache(maxsize=PATH_TABLES)
def _autorun_table(
    scripts: tuple[str, ...], crontabs: tuple[str, ...], units: tuple[str, ...], opaque: tuple[str, ...]
) -> _AutorunTable:
    formats: dict[str, AutorunFormat] = {}
    for kind, entries in (
        (AutorunFormat.SCRIPT, scripts),
        (AutorunFormat.CRONTAB, crontabs),
        (AutorunFormat.UNIT, units),
        (AutorunFormat.OPAQUE, opaque),
    ):
        for entry in entries:
            formats.setdefault(entry, kind)
    for entry, kind in SETTINGS_FILES.items():
        formats.setdefault(entry, kind)
    rooted = tuple(entry for entry in formats if not entry.startswith(ANY_DIRECTORY))
    anywhere = tuple((entry, kind) for entry, kind in formats.items() if entry.startswith(ANY_DIRECTORY))
    # path_is names the entry as it matched (`/root/.bashrc` for `~/.bashrc`).
    by_match = {variant: formats[entry] for entry in rooted for variant in _home_variants(entry)}
    return _AutorunTable(rooted, MappingProxyType(by_match), anywhere)


def autorun_location(arg: Arg, tables: Tables, cwd: str | None = None) -> Autorun | None:
    """Whether a file written to `arg` runs by itself later, and how it is read (the `autorun_*`
    tables, and the settings files whose values a tool runs)."""
    if not arg.values:
        return None
    scripts = tables.autorun_scripts + tables.shell_startup_files
    table = _autorun_table(scripts, tables.autorun_crontabs, tables.autorun_units, tables.autorun_opaque)
    matched = path_is(arg, table.rooted, cwd)
    if matched is not None:
        return Autorun(table.formats[matched], matched)
    for entry, kind in table.anywhere:
        if _ends_in(arg, entry.removeprefix(ANY_DIRECTORY), cwd):
            return Autorun(kind, entry)
    return None


def path_is_anywhere(arg: Arg, entries: tuple[str, ...], cwd: str | None = None) -> str | None:
    """The entry `arg` names: a rooted entry as `path_is` says, or one that starts with `**/` when
    the path ends in the rest (`.venv/lib/python3.12/site-packages/x.pth` is `**/site-packages/*.pth`).
    A directory known only at run time may be any directory (`$(python -m site --user-site)/x.pth`)."""
    rooted, anywhere = _rooted_and_anywhere(entries)
    matched = path_is(arg, rooted, cwd) if rooted else None
    if matched is not None:
        return matched
    known_tail = None if arg.values else _known_tail(arg)
    for entry, tail in anywhere:
        if _ends_in(arg, tail, cwd) if known_tail is None else _glob_tail(known_tail, tail):
            return entry
    return None


@functools.lru_cache(maxsize=PATH_TABLES)
def _rooted_and_anywhere(entries: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
    """The rooted entries, and the `**/` ones with the tail each matches."""
    rooted = tuple(entry for entry in entries if not entry.startswith(ANY_DIRECTORY))
    anywhere = tuple((entry, entry.removeprefix(ANY_DIRECTORY)) for entry in entries if entry not in rooted)
    return rooted, anywhere


def _known_tail(arg: Arg) -> str | None:
    """The literal segments a run-time path ends in (`x.pth` of `$DIR/x.pth`), if it has any."""
    shape = run_time_shape(arg)
    if shape is None:
        return None
    _, slash, tail = shape.rpartition(RUN_TIME)
    return tail.lstrip("/") if slash and tail.startswith("/") and len(tail) > 1 else None


def _glob_tail(known: str, tail: str) -> bool:
    """Whether the last segments `known` can end a path matching `tail`: a run-time directory stands for the rest."""
    segments, wanted = known.split("/"), tail.split("/")
    return len(segments) <= len(wanted) and _glob_match(known, "/".join(wanted[-len(segments) :]))


def _ends_in(arg: Arg, tail: str, cwd: str | None) -> bool:
    """Whether the argument's path ends in `tail` (`.git/hooks/*`), in whatever directory."""
    count = tail.count("/") + 1
    directory = tail.rpartition("/")[0]
    for value in arg.values:
        # The cheap test: most paths hold no `.git/hooks`; a relative one may be under it through `cwd`.
        relative = cwd is not None and not value.startswith(("/", HOME))
        if directory and directory not in (f"{cwd}/{value}" if relative else value):
            continue
        for cleaned in cleaned_values(Arg((value,), arg.source, arg.span), cwd):
            segments = cleaned.split("/")
            if len(segments) >= count and _glob_match("/".join(segments[-count:]), tail):
                return True
    return False


def literal_prefix(arg: Arg) -> str:
    """The literal text a run-time word starts with (`/dev/tcp/` of `/dev/tcp/$HOST/80`)."""
    if arg.word is None:
        return arg.value or ""
    prefix: list[str] = []
    for part in arg.word.parts:
        if type(part) is not ast.Literal:
            break
        prefix.append(part.text)
    return "".join(prefix)


def path_holding(arg: Arg, entries: tuple[str, ...], cwd: str | None = None) -> str | None:
    """An entry inside the directory `arg` names, if any (`~/.ssh` holds `~/.ssh/id_rsa`, `/` holds every one)."""
    table = _path_table(entries)
    for value in cleaned_values(arg, cwd):
        if not value.startswith(("/", HOME)):
            continue
        directory = value.rstrip("/")
        depth = directory.count("/") + 1
        for entry in table.entries:
            segments = entry.split("/")
            if len(segments) > depth and _glob_match(directory, "/".join(segments[:depth])):
                return entry
    return None


def read_arguments(args: tuple[Arg, ...]) -> tuple[Arg, ...]:
    """Every argument that may be a path a command reads: each argument, the value
    part of `--option=value` and `name=value` (dd's `if=FILE`), and curl's `@file`."""
    paths: list[Arg] = []
    for arg in args:
        paths.append(arg)
        value = arg.value
        if value is None:
            continue
        if "=" in value:
            # `--input=FILE`, and operands like dd's `if=FILE`.
            paths.append(Arg((value.partition("=")[2],), arg.source, arg.span, arg.pattern, arg.word))
        if "@" in value:
            # curl -d @FILE / -F name=@FILE upload the file's contents.
            paths.append(Arg((value.partition("@")[2],), arg.source, arg.span, arg.pattern, arg.word))
    return tuple(paths)
