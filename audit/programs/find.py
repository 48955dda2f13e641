"""find: its global options, starting points and expression, as far as the
engine needs them (what a `find` acts on, the commands `-exec` runs, the
files its actions write and delete)."""

from __future__ import annotations

from collections.abc import Iterator

from .._model import Span
from .._named_tuple import NamedTuple
from ._arg import Arg
from ._grammar import Syntax
from ._program import Program, Reading

EXEC_ACTIONS = frozenset({"-exec", "-execdir", "-ok", "-okdir"})
"""The actions that run a command of their own, up to `;` or `+`."""

# find's expression words that do not narrow which files are acted on.
_FIND_UNFILTERED = frozenset(
    {"-exec", "-execdir", "-ok", "-okdir", "-delete", "-depth", "-xdev", "-mount", "-print", "-print0", "-ls", "-prune",
     "-follow", "-noleaf", "-ignore_readdir_race", "-d"}
)  # fmt: skip
# `-type f` still reaches every file: for destruction it narrows nothing. Nor do the tests of
# owner, age and size: `find / -user $USER -delete` is every file the user owns, `find ~ -mtime -30
# -delete` every file of a month's work.
_FIND_VALUED_UNFILTERED = frozenset(
    {"-type", "-xtype", "-maxdepth", "-mindepth", "-user", "-uid", "-group", "-gid", "-mtime", "-mmin", "-atime",
     "-amin", "-ctime", "-cmin", "-newer", "-size"}
)  # fmt: skip
_FIND_CONNECTIVES = frozenset({"-o", "-or", "-a", "-and"})
_FIND_GLOBAL_OPTIONS = frozenset({"-H", "-L", "-P", "-O0", "-O1", "-O2", "-O3"})


class FindScope(NamedTuple):
    """What a `find` acts on: its starting points, whether any test narrows them, and the name
    patterns (`-name`, `-iname`) when they are the only tests that do."""

    starting_points: tuple[Arg, ...]
    unfiltered: bool
    only_names: tuple[str, ...] = ()
    spares_history: bool = False
    """Whether the expression leaves out `.git` (`-not -path './.git/*'`, `-path ./.git -prune -o`),
    which narrows nothing else: every other file is still found."""


# Tests of a file's whole path, which exclude the repository's history when negated or pruned.
_PATH_TESTS = frozenset({"-path", "-wholename", "-ipath", "-iwholename"})
_NEGATIONS = frozenset({"!", "-not"})


def _history_exclusion(values: list[str | None], index: int) -> int:
    """How many words from `index` leave out `.git` and nothing else (`! -path '*/.git/*'`, `-not -path
    ./.git`, `-path ./.git -prune`); 0 when they do not."""
    first = values[index]
    if index + 2 >= len(values) or (first not in _NEGATIONS and first not in _PATH_TESTS):
        return 0  # most words: no window to look at (find_scope asks at every word)
    second, third = values[index + 1], values[index + 2]
    if first in _NEGATIONS:
        return 3 if second in _PATH_TESTS and _names_history(third) else 0
    return 3 if _names_history(second) and third == "-prune" else 0


def _names_history(pattern: str | None) -> bool:
    """`./.git`, `*/.git/*`, `*.git*`: a path pattern with a segment that is the history directory."""
    return pattern is not None and any(segment.lstrip("*") in (".git", ".git*") for segment in pattern.split("/"))


def find_scope(args: tuple[Arg, ...]) -> FindScope:
    """The starting points of `find ARGS` (`.` when none), and whether its expression narrows them."""
    starting: list[Arg] = []
    position = 0
    while position < len(args) and args[position].value in _FIND_GLOBAL_OPTIONS:
        position += 1
    while position < len(args):
        value = args[position].value
        if value is not None and (value.startswith("-") or value in ("(", "!")):
            break
        starting.append(args[position])
        position += 1
    narrowed_otherwise = spares_history = False
    names: list[str] = []
    skip_until_terminator = False
    skipped = 0
    values = [arg.value for arg in args]
    for index in range(position, len(args)):
        value = values[index]
        if skip_until_terminator:
            skip_until_terminator = value not in (";", "+")
            continue
        if skipped:
            skipped -= 1
            continue
        exclusion = _history_exclusion(values, index)
        if exclusion:
            spares_history = True
            skipped = exclusion - 1
        elif value in _FIND_VALUED_UNFILTERED:
            skipped = 1
        elif value in EXEC_ACTIONS:
            skip_until_terminator = True
        elif value in ("-name", "-iname") and index + 1 < len(args):
            names.append(args[index + 1].value or "*")
            skipped = 1
        elif value in _FIND_CONNECTIVES:
            continue  # `-name '*.py' -o -name '*.md'`: the tests around it say what is found
        elif value in ("(", "!", ",") or (
            value is not None and value.startswith("-") and value not in _FIND_UNFILTERED
        ):
            narrowed_otherwise = True
    starting_points = tuple(starting) or (Arg((".",), ".", Span(0, 0)),)
    unfiltered = not names and not narrowed_otherwise
    return FindScope(starting_points, unfiltered, () if narrowed_otherwise else tuple(names), spares_history)


# Actions that write the list they print into a file: the file, then (-fprintf) a format.
_OUTPUT_ACTIONS = frozenset({"-fprint", "-fprint0", "-fls", "-fprintf"})


def _output_files(reading: Reading) -> tuple[Arg, ...]:
    """The files `-fprint FILE`, `-fprint0 FILE`, `-fls FILE` and `-fprintf FILE FORMAT` write."""
    args = reading.args
    files: list[Arg] = []
    in_exec = False
    for index, arg in enumerate(args):
        value = arg.value
        if in_exec:
            in_exec = value not in (";", "+")
        elif value in EXEC_ACTIONS:
            in_exec = True
        elif value in _OUTPUT_ACTIONS and index + 1 < len(args):
            files.append(args[index + 1])
    return tuple(files)


# Programs that destroy each file `-exec PROGRAM {}` (or xargs) hands them: with find doing the
# recursion, `-exec rm -f {} +` deletes every file under the starting points, as `-delete` does;
# `-exec truncate -s 0 {} +` leaves every file empty.
FILE_DESTROYERS = frozenset({"rm", "unlink", "shred", "srm"})
_EMPTYING_SIZES = frozenset({("-s", "0"), ("--size", "0"), ("-s0",), ("--size=0",)})


def _destroys(command: list[str | None]) -> bool:
    """Whether an `-exec` command destroys the file it is given as `{}` (a remover, or `truncate -s 0`)."""
    program = (command[0] or "").rpartition("/")[2] if command and "{}" in command else ""
    if program in FILE_DESTROYERS:
        return True
    if program != "truncate":
        return False
    words = command[1:]
    return any(
        tuple(words[index : index + len(size)]) == size for size in _EMPTYING_SIZES for index in range(len(words))
    )


def deletes_what_it_finds(args: tuple[Arg, ...]) -> bool:
    """Whether `find ARGS` deletes the files it finds: `-delete`, or an action that runs a file
    remover on `{}` (`-exec rm -f {} +`, `-execdir unlink {} ;`, `-ok shred -u {} ;`) or empties it
    (`-exec truncate -s 0 {} +`)."""
    command: list[str | None] | None = None
    for arg in args:
        value = arg.value
        if command is None:
            if value == "-delete":
                return True
            if value in EXEC_ACTIONS:
                command = []
        elif value in (";", "+"):
            if _destroys(command):
                return True
            command = None
        else:
            command.append(value)
    return command is not None and _destroys(command)


def named_finds(args: tuple[Arg, ...]) -> tuple[Arg, ...]:
    """`find ~ -maxdepth 1 -name .ssh`: when the only tests are fixed names (no wildcard), each
    `START/NAME`, which find acts on whenever it exists (at any depth it may act on more)."""
    scope = find_scope(args)
    names = scope.only_names
    if not names or any(not name or "*" in name or "?" in name or "[" in name for name in names):
        return ()
    return tuple(
        Arg(tuple(f"{value.rstrip('/')}/{name}" for value in start.values), start.source, start.span)
        for start in scope.starting_points
        if start.values
        for name in names
    )


class ExecAction(NamedTuple):
    """One `-exec CMD... ;|+` (or `-execdir`, `-ok`, `-okdir`) of a find."""

    action: str
    command: tuple[Arg, ...]
    each_file: bool
    """`;`: one command per file, `{}` replaced inside words too; `+`: the files added where a word is `{}`."""


def exec_actions(args: tuple[Arg, ...]) -> Iterator[ExecAction]:
    """The commands find runs on the files it finds, in order."""
    index = 0
    while index < len(args):
        action = args[index].value
        index += 1
        if action not in EXEC_ACTIONS:
            continue
        start = index
        while index < len(args) and args[index].value not in (";", "+"):
            index += 1
        each_file = index < len(args) and args[index].value == ";"
        if index > start:
            yield ExecAction(action, args[start:index], each_file)
        index += 1


def given_files(action: ExecAction, files: tuple[str, ...]) -> tuple[Arg, ...]:
    """The action's command with `{}` standing for `files` (globs): in any word with `;`, in a word
    of its own with `+` (`curl -F f=@{} URL \\;` sends each file)."""

    def substituted(arg: Arg) -> Arg:
        value = arg.value
        if value is None or "{}" not in value or (value != "{}" and not action.each_file):
            return arg
        return Arg(tuple(value.replace("{}", path) for path in files), arg.source, arg.span, True, None)

    return tuple(substituted(arg) for arg in action.command)


def found_globs(scope: FindScope) -> tuple[str, ...]:
    """The files find acts on, as globs in its starting points: `START/NAME` for name tests alone
    (`~/.ssh/*.pub`), `START/*` for any other or none (at any depth it may act on more)."""
    starts = (value for point in scope.starting_points for value in point.values)
    return tuple(f"{start.rstrip('/')}/{name}" for start in starts for name in scope.only_names or ("*",))


def _deleted(reading: Reading) -> tuple[Arg, ...]:
    """What `find` deletes (`-delete`, `-exec rm {} +`): what each starting point holds, read as `START/*`."""
    if not deletes_what_it_finds(reading.args):
        return ()
    return tuple(
        Arg(tuple(f"{value.rstrip('/')}/*" for value in start.values), start.source, start.span, True, start.word)
        for start in find_scope(reading.args).starting_points
    )


FIND = Program(("find",), syntax=Syntax(clusters=False), writes=_output_files, removes=_deleted)
"""find as a program: only what it writes and deletes; its expression is read by `find_scope`."""
