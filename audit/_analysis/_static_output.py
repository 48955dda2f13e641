"""The output of `echo`, `printf`, `dirname`, `basename`, `realpath`, `readlink -f`
and `ls -d` with literal arguments, computed without running them: `$(echo rm)` and
`$(printf '\\x72\\x6d')` are spellings of `rm`, `$(dirname /x)` is `/`, `$(realpath ~)`
the home, and they are judged as such. So are the usual ways of printing a directory:
`$(cd DIR && pwd)` is DIR, `$(getent passwd $USER | cut -d: -f6)` the home,
and known text through `tr` or `rev` (`$(echo ql | tr a-z b-za)` is `rm`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from .._syntax import ast
from .._syntax._words import ansi_c_decode
from ._clean_paths import clean_path
from ._normalize import HOME, as_held

# Compiled on first use (re's own cache), not at import: only some commands need these patterns.
_ECHO_FLAGS = r"^-[neE]+$"
_CONVERSION = r"%(?:%|[-+ #0]*\d*(?:\.\d+)?([sbdiuxXoc]))"
# The most a printf or a tr set is expanded to. An input is at most 10,000 characters (IN003), so
# printf's output outgrows it only by reusing its format for many arguments: the bound keeps that
# from building megabytes, while any text written out in full (a script, a hook) stays known.
_MAX_OUTPUT = 65536


def static_output(argv: list[str]) -> str | None:
    """What `echo`/`printf`/`dirname`/`basename` with these literal arguments prints, or None."""
    if not argv:
        return None
    name, args = argv[0].rsplit("/", 1)[-1], argv[1:]
    if name in ("echo", "printf"):
        # They print the text bash holds: a literal `~` (normalised as `./~`) is printed as `~`,
        # which a shell reading the output expands as the home (`echo rm -rf '~' | sh`).
        args = [as_held(arg) for arg in args]
    if name == "echo":
        return _echo(args)
    if name == "printf" and args and args[0] != "-v":
        return _printf(args[0], args[1:])
    if name == "dirname" and args and not any(arg.startswith("-") for arg in args):
        return "".join(_dirname(arg) + "\n" for arg in args)
    if name == "basename" and 1 <= len(args) <= 2 and not any(arg.startswith("-") for arg in args):
        return _basename(*args) + "\n"
    if name in _CANONICAL_OPTIONS:
        return _canonical_paths(name, args)
    if name == "ls" and len(args) == 2 and args[0] in _LS_ONE_DIRECTORY and not args[1].startswith("-"):
        return args[1] + "\n"
    return None


# Options of the programs that print the absolute form of the paths they are given; readlink
# prints a link's target unless one of its canonicalising options is there.
_CANONICAL_OPTIONS = {
    "realpath": frozenset({"-e", "-m", "-s", "-q", "-L", "-P", "--canonicalize-existing", "--canonicalize-missing",
                           "--no-symlinks", "--strip", "--quiet", "--logical", "--physical"}),
    "readlink": frozenset({"-f", "-e", "-m", "-q", "-s", "-v", "--canonicalize", "--canonicalize-existing",
                           "--canonicalize-missing", "--quiet", "--silent", "--verbose"}),
}  # fmt: skip
_READLINK_CANONICAL = frozenset(
    {"-f", "-e", "-m", "--canonicalize", "--canonicalize-existing", "--canonicalize-missing"}
)
# `ls -d DIR`: the directory's own name, not its entries.
_LS_ONE_DIRECTORY = frozenset({"-d", "--directory", "-d1", "-1d"})


def _canonical_paths(name: str, args: list[str]) -> str | None:
    """`realpath PATH...`, `readlink -f PATH...`: each absolute path with `.` and `..` resolved (symbolic
    links are not known here: a path is taken to name itself); None for a relative path."""
    options = [arg for arg in args if arg.startswith("-")]
    paths = [arg for arg in args if not arg.startswith("-")]
    if not paths or not all(option in _CANONICAL_OPTIONS[name] for option in options):
        return None
    if name == "readlink" and not _READLINK_CANONICAL.intersection(options):
        return None
    if not all(path == HOME or path.startswith(("/", HOME + "/")) for path in paths):
        return None
    return "".join(clean_path(path) + "\n" for path in paths)


def _dirname(path: str) -> str:
    """POSIX dirname: the path without its last segment (`/x` -> `/`, `x` -> `.`); the home's is /home."""
    if path == HOME:
        return "/home"
    stripped = path.rstrip("/")
    if not stripped:
        return "/" if path else "."
    if "/" not in stripped:
        return "."
    parent = stripped.rsplit("/", 1)[0].rstrip("/")
    return parent or "/"


def _basename(path: str, suffix: str = "") -> str:
    """POSIX basename: the last segment, without `suffix` unless that is all of it."""
    stripped = path.rstrip("/")
    if not stripped:
        return "/" if path else ""
    name = stripped.rsplit("/", 1)[-1]
    return name[: -len(suffix)] if suffix and name.endswith(suffix) and name != suffix else name


def _echo(args: list[str]) -> str:
    newline, escapes = True, False
    while args and re.match(_ECHO_FLAGS, args[0]):
        flags = args[0][1:]
        newline = newline and "n" not in flags
        escapes = ("e" in flags) or (escapes and "E" not in flags)
        args = args[1:]
    text = " ".join(args)
    if escapes:
        text = ansi_c_decode(text)
    return text + ("\n" if newline else "")


def _printf(format_string: str, args: list[str]) -> str | None:
    """printf reuses its format until the arguments are used up."""
    if format_string == "--":
        return None
    pieces: list[str] = []
    remaining = list(args)
    length = 0  # of the pieces so far, kept as they grow: summing them at every pass is quadratic
    while True:
        consumed_any = False
        position = 0
        start = len(pieces)
        for match in re.finditer(_CONVERSION, format_string):
            pieces.append(ansi_c_decode(format_string[position : match.start()]))
            position = match.end()
            conversion = match.group(1)
            if conversion is None:
                pieces.append("%")
                continue
            value = remaining.pop(0) if remaining else ""
            consumed_any = consumed_any or bool(args)
            pieces.append(ansi_c_decode(value) if conversion == "b" else value)
        pieces.append(ansi_c_decode(format_string[position:]))
        length += sum(len(piece) for piece in pieces[start:])
        if not remaining or not consumed_any or length > _MAX_OUTPUT:
            break
    return "".join(pieces) if length <= _MAX_OUTPUT else None


LiteralArgv = Callable[[Iterable[ast.Word]], "list[str] | None"]
CommandOutput = Callable[[ast.Command], "str | None"]
# The invoking user, as `getent passwd` is asked about it.
_SELF = frozenset({"$USER", "${USER}", "$LOGNAME", "$(whoami)", "`whoami`", "$(id -un)", "$(id -nu)"})
_ASKED_ABOUT_SELF = [[word] for word in sorted(_SELF)]
_HOME_FIELD = frozenset({"-d:", "-f6"})


def printed_directory(command: ast.Command, literal_argv: LiteralArgv) -> str | None:
    """`cd DIR && pwd` prints DIR, `getent passwd $USER | cut -d: -f6` the home (each with its line break);
    None for anything else."""
    if not isinstance(command, ast.AndOrList | ast.Pipeline):
        return None
    parts = [part for part in command.commands if type(part) is ast.SimpleCommand]
    if len(parts) != 2 or len(command.commands) != 2:
        return None
    if type(command) is ast.AndOrList and command.operators == ("&&",):
        changed, printed = (literal_argv(part.words) for part in parts)
        if changed is not None and len(changed) == 2 and changed[0] == "cd" and printed in (["pwd"], ["pwd", "-P"]):
            return changed[1] + "\n"
        return None
    lookup = [word.source.strip('"') for word in parts[0].words]
    fields = literal_argv(parts[1].words)
    if type(command) is not ast.Pipeline or lookup[:2] != ["getent", "passwd"] or lookup[2:] not in _ASKED_ABOUT_SELF:
        return None
    return HOME + "\n" if fields is not None and fields[:1] == ["cut"] and _is_home_field(fields[1:]) else None


def _is_home_field(args: list[str]) -> bool:
    """`-d: -f6`, `-f 6 -d :`: cut prints the home field of a passwd line."""
    joined: list[str] = []
    for arg in args:
        if joined and joined[-1] in ("-d", "-f"):
            joined[-1] += arg
        else:
            joined.append(arg)
    return frozenset(joined) == _HOME_FIELD and len(joined) == 2


def pipeline_output(
    command: ast.AndOrList | ast.Pipeline, output_of: CommandOutput, literal_argv: LiteralArgv
) -> str | None:
    """What a list or pipeline prints when that is known without running it: a printed directory
    (`printed_directory`), or known text through filters whose effect is known (`echo TEXT | tr
    A-Za-z N-ZA-Mn-za-m`, `printf ... | rev`: the usual ways of hiding a command from a reader)."""
    directory = printed_directory(command, literal_argv)
    if directory is not None or type(command) is not ast.Pipeline or "|&" in command.operators:
        return directory
    first, *filters = command.commands
    output = output_of(first)
    for part in filters:
        if output is None or type(part) is not ast.SimpleCommand or part.assignments or part.redirects:
            return None
        argv = literal_argv(part.words)
        output = None if argv is None else filtered_output(argv, output)
    return output


def filtered_output(argv: list[str], text: str) -> str | None:
    """What `tr` (translating or deleting) or `rev` prints for `text`; None for any other command."""
    name, args = argv[0].rsplit("/", 1)[-1], argv[1:]
    if name == "rev" and not args:
        return "".join(line[::-1] + ending for line, ending in _lines(text))
    if name != "tr" or len(args) != 2:
        return None
    if args[0] == "-d":
        deleted = _tr_set(args[1])
        return None if deleted is None else "".join(char for char in text if char not in deleted)
    source, target = _tr_set(args[0]), _tr_set(args[1])
    if not source or not target or args[0].startswith("-"):
        return None
    # GNU tr pads a shorter second set with its last character.
    padded = target + target[-1] * (len(source) - len(target))
    return text.translate(str.maketrans(source, padded[: len(source)]))


def _lines(text: str) -> Iterable[tuple[str, str]]:
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\n")
        yield body, line[len(body) :]


_TR_CLASSES = {
    "[:upper:]": "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "[:lower:]": "abcdefghijklmnopqrstuvwxyz",
    "[:digit:]": "0123456789",
}


def _tr_set(spec: str) -> str | None:
    """The characters of a tr set: ranges (`a-z`), escapes (`\\n`, `\\052`) and the letter and digit classes;
    None for what tr would read otherwise (other classes, `[c*n]` repeats, equivalence classes)."""
    for name, members in _TR_CLASSES.items():
        spec = spec.replace(name, members)
    if "[:" in spec or "[=" in spec or "*" in spec:
        return None
    chars = list(ansi_c_decode(spec))
    expanded: list[str] = []
    index = 0
    while index < len(chars):
        if index + 2 < len(chars) and chars[index + 1] == "-" and chars[index] <= chars[index + 2]:
            expanded.extend(chr(code) for code in range(ord(chars[index]), ord(chars[index + 2]) + 1))
            index += 3
        else:
            expanded.append(chars[index])
            index += 1
    return "".join(expanded) if len(expanded) <= _MAX_OUTPUT else None
