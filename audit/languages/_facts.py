"""What the other-language analysers report: facts about a snippet of code,
each with a span into that snippet.

The analysers only report; the engine judges (a deleted path against its
protected-path tables, a shell string as shell code, and so on).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .._model import Span


class LanguageError(ValueError):
    """The caller asked for a language this package has no analyser for."""


class ShellOutKind(str, Enum):
    """How a program is started."""

    SHELL_STRING = "shell-string"
    """One string that a shell parses (`os.system("rm -rf ~")`)."""
    ARGV = "argv"
    """A program and its arguments, no shell (`subprocess.run(["git", "status"])`)."""


class FileOperation(str, Enum):
    """What a library call does to the path it is given."""

    DELETE_TREE = "delete-tree"
    DELETE_FILE = "delete-file"
    DELETE_DIR = "delete-dir"
    WRITE_FILE = "write-file"
    APPEND_FILE = "append-file"
    CHANGE_MODE = "change-mode"
    """Sets the path's mode (`os.chmod`); `operand` is the mode."""
    CHANGE_MODE_TREE = "change-mode-tree"
    CHANGE_OWNER = "change-owner"
    """Sets the path's owner or group (`os.chown`); `operand` is `USER:GROUP` as chown reads it."""
    CHANGE_OWNER_TREE = "change-owner-tree"
    MOVE = "move"
    """Moves or renames the path (`os.rename`); `operand` is where it goes."""
    READ_FILE = "read-file"
    """Reads the path (a copy's source, `shutil.copy(p, ...)`); reported as a `FileRead`."""


class SourceKind(str, Enum):
    """Where a value the code works with comes from, when not from the code itself."""

    NETWORK = "network"
    DECODED = "decoded"
    """Decoded or decompressed from a blob (base64, hex, zlib, char codes...)."""
    COMMAND_OUTPUT = "command-output"
    FILE = "file"
    ENVIRONMENT = "environment"
    SOCKET = "socket"
    ARGUMENT = "argument"
    """A command-line argument of the program (`sys.argv[1]`); `detail` is its position."""


@dataclass(frozen=True, slots=True)
class DataSource:
    """One origin of a value; `detail` is the URL, path, command or variable
    name when the code spells it out literally."""

    kind: SourceKind
    detail: str | None = None

    def __str__(self) -> str:
        return self.kind.value if self.detail is None else f"{self.kind.value} {self.detail}"


class UnresolvedKind(str, Enum):
    """Why part of a snippet could not be judged."""

    DYNAMIC_CODE = "dynamic-code"
    """The code runs code it builds at run time from data not in the snippet."""
    DYNAMIC_PATH = "dynamic-path"
    """The code deletes a path taken from its command-line arguments, not known here."""
    DYNAMIC_NAME = "dynamic-name"
    """A module or function of interest is picked by a name computed at run time."""
    SYNTAX = "syntax"
    """The grammar could not read part of the snippet."""
    BUDGET = "budget"
    """The analysis ran out of its time or step budget."""
    DEPTH = "depth"
    """Code nested in code (exec of a literal, and so on) deeper than allowed."""


@dataclass(frozen=True, slots=True)
class ShellOut:
    """The code starts a program.

    `command` is the shell string (SHELL_STRING) or the argument vector
    (ARGV); None when the code builds it from data the analysis cannot
    resolve. `command_span` is where a SHELL_STRING stands verbatim in the
    snippet (no escapes, no concatenation), so the engine can point into it.
    `words` is the argument vector word by word, None for each word only
    known at run time (`["git", "commit", "-m", msg]`); set for ARGV when the
    vector's length is known.
    """

    kind: ShellOutKind
    command: str | tuple[str, ...] | None
    via: str
    span: Span
    command_span: Span | None = None
    words: tuple[str | None, ...] | None = None


@dataclass(frozen=True, slots=True)
class DestructiveCall:
    """A library call that deletes, overwrites, moves or changes the access of `path` (None: not
    a literal); `operand` is the mode, owner or destination the operation also takes (None: not
    a literal, or an operation that takes none); `pattern`: the path is a wildcard pattern, each
    path it matches changed; `download`: the write saves a download, `content`: what it writes."""

    operation: FileOperation
    path: str | None
    via: str
    span: Span
    operand: str | None = None
    pattern: bool = False
    download: DataSource | None = None
    """For a write: the network read whose data it writes (`urlretrieve(URL, path)`), the URL its detail."""
    content: str | None = None
    """For a write: the text it writes, when the code spells it out (`writeFileSync(p, 'rm -rf ~')`)."""


@dataclass(frozen=True, slots=True)
class FileRead:
    """A library call reads the file at `path`, spelled out in the code (`open(p).read()`,
    `fs.readFileSync(p)`, `File.read(p)`, a copy's source): the engine judges it as `cat` of it,
    so the rules on reading secrets apply."""

    path: str
    via: str
    span: Span


@dataclass(frozen=True, slots=True)
class DownloadExecute:
    """The code runs, as code, data that comes from `source`: the network, a
    decoded blob, or a command's output (`source.detail` names the command,
    for the engine to judge whether its output is a download)."""

    via: str
    source: DataSource
    span: Span


@dataclass(frozen=True, slots=True)
class ReverseShell:
    """A network connection and a shell wired to it (or fed from it)."""

    via: str
    span: Span


@dataclass(frozen=True, slots=True)
class NetworkSend:
    """The code sends data over the network; `data_from` lists where the sent
    data comes from (files read, environment, command output...)."""

    via: str
    url: str | None
    data_from: tuple[DataSource, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class Unresolved:
    """Part of the code could not be judged; `reason` says what, in words."""

    kind: UnresolvedKind
    reason: str
    span: Span


Fact = ShellOut | DestructiveCall | FileRead | DownloadExecute | ReverseShell | NetworkSend | Unresolved


@dataclass(frozen=True, slots=True)
class CodeReport:
    """Everything found in one snippet, in source order."""

    language: str
    facts: tuple[Fact, ...]


# Programs that are a shell: started with no -c, they read commands from
# their standard input, which is what a reverse shell wires to the socket.
_SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "csh", "tcsh", "fish", "busybox"})


def starts_interactive_shell(shell: ShellOut) -> bool:
    """A shell started without `-c`: it reads its commands from its standard input."""
    command = shell.command
    if command is None:
        return False
    words = command.split() if isinstance(command, str) else list(command)
    if not words or words[0].rsplit("/", 1)[-1] not in _SHELLS:
        return False
    return not any(word.startswith("-") and not word.startswith("--") and "c" in word for word in words[1:])
