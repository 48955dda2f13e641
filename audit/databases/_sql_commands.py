"""The commands each SQL client reads itself, before the server sees anything.

psql and `cockroach sql` take a backslash command anywhere outside a quote
(`\\! rm -rf /`, `\\i file`, `\\gexec`); the mysql client takes `\\!` and
friends anywhere and `system`, `source`, `delimiter`, ... as the first word of
a line between statements; sqlite3 and duckdb take `.shell`, `.read`, ... at
the start of a line between statements; sqlcmd takes `!!` and `:r` at the
start of a line. Each reader here starts at a command the token stream shows
and returns its name, what it does and where SQL resumes.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .._model import Span
from ._model import SqlDialect


class Effect(Enum):
    """What a client command does, as far as damage goes."""

    NONE = "none"
    SHELL = "shell"
    """The argument is a shell command (none: an interactive shell)."""
    PIPE_OR_FILE = "pipe-or-file"
    """The argument names a file, or with a leading `|` a shell command."""
    INCLUDE = "include"
    """The argument is a file of statements, or with a leading `|` a command whose output is statements."""
    LOAD_MODULE = "load-module"
    """The argument is a shared library loaded into the client."""
    RUN_OUTPUT = "run-output"
    """The pending statement's result rows are run as statements (psql `\\gexec`)."""
    SET_VARIABLE = "set-variable"
    """psql `\\set name value`: the value can be interpolated as SQL later (`:name`)."""
    COPY = "copy"
    """psql `\\copy ...`: a client-side COPY whose argument reads like the statement."""
    DELIMITER = "delimiter"
    """mysql `delimiter X`: statements end at X from here on."""


@dataclass(frozen=True, slots=True)
class Command:
    effect: Effect
    ends_statement: bool = False
    whole_line: bool = True
    """The argument is the rest of the line; otherwise (psql) it is parsed into words."""


_NONE = Command(Effect.NONE)
_NONE_WORDS = Command(Effect.NONE, whole_line=False)
_SEPARATOR = Command(Effect.NONE, ends_statement=True, whole_line=False)

# psql meta-commands that matter here; any other `\name` has no effect on what runs (`\d`, `\x`, `\echo`).
PSQL = {
    "!": Command(Effect.SHELL),
    "i": Command(Effect.INCLUDE, whole_line=False),
    "include": Command(Effect.INCLUDE, whole_line=False),
    "ir": Command(Effect.INCLUDE, whole_line=False),
    "include_relative": Command(Effect.INCLUDE, whole_line=False),
    "o": Command(Effect.PIPE_OR_FILE, whole_line=False),
    "out": Command(Effect.PIPE_OR_FILE, whole_line=False),
    "w": Command(Effect.PIPE_OR_FILE, whole_line=False),
    "write": Command(Effect.PIPE_OR_FILE, whole_line=False),
    "g": Command(Effect.PIPE_OR_FILE, ends_statement=True, whole_line=False),
    "gx": Command(Effect.PIPE_OR_FILE, ends_statement=True, whole_line=False),
    "gexec": Command(Effect.RUN_OUTPUT, ends_statement=True, whole_line=False),
    "gset": _SEPARATOR,
    "gdesc": _SEPARATOR,
    "crosstabview": _SEPARATOR,
    "watch": _SEPARATOR,
    "r": _SEPARATOR,
    "reset": _SEPARATOR,
    "set": Command(Effect.SET_VARIABLE, whole_line=False),
    "copy": Command(Effect.COPY),
}

# cockroach sql: `\!` prints a command's output, `\|` runs a command and reads its output as SQL.
COCKROACH = {
    "!": Command(Effect.SHELL),
    "|": Command(Effect.SHELL),
    "i": Command(Effect.INCLUDE, whole_line=False),
    "ir": Command(Effect.INCLUDE, whole_line=False),
}

# mysql's one-letter backslash commands; the ones taking the rest of the line as argument are listed.
_MYSQL_BACKSLASH = {
    "!": Command(Effect.SHELL),
    ".": Command(Effect.INCLUDE),
    "P": Command(Effect.SHELL),  # pager: the pager is a shell command
    "d": Command(Effect.DELIMITER),
    "T": _NONE,
    "u": _NONE,
    "r": _NONE,
    "C": _NONE,
    "R": _NONE,
    "g": _SEPARATOR,
    "G": _SEPARATOR,
    "c": _SEPARATOR,
}

# mysql's named commands, read as the first word of a line between statements; the rest of the line is
# theirs.
MYSQL_NAMED = {
    "system": Command(Effect.SHELL),
    "source": Command(Effect.INCLUDE),
    "pager": Command(Effect.SHELL),
    "delimiter": Command(Effect.DELIMITER),
    "go": _SEPARATOR,
    "ego": _SEPARATOR,
    "clear": _SEPARATOR,
    **dict.fromkeys(
        (
            "charset", "connect", "edit", "exit", "help", "nopager", "notee", "nowarning", "print", "prompt",
            "query_attributes", "quit", "rehash", "resetconnection", "ssl_session_data_print", "status", "tee",
            "use", "warnings",
        ),
        _NONE,
    ),
}  # fmt: skip

# sqlite3 and duckdb dot commands (the rest are display and settings).
_DOT = {
    "shell": Command(Effect.SHELL),
    "system": Command(Effect.SHELL),
    "sh": Command(Effect.SHELL),
    "read": Command(Effect.INCLUDE),
    "output": Command(Effect.PIPE_OR_FILE),
    "once": Command(Effect.PIPE_OR_FILE),
    "import": Command(Effect.PIPE_OR_FILE),
    "load": Command(Effect.LOAD_MODULE),
}

# sqlcmd commands, at the start of a line.
_SQLCMD = {
    "!!": Command(Effect.SHELL),
    ":!!": Command(Effect.SHELL),
    ":r": Command(Effect.INCLUDE),
}


class Family(Enum):
    PSQL = "psql"
    COCKROACH = "cockroach"
    MYSQL = "mysql"
    DOT = "dot"
    SQLCMD = "sqlcmd"
    PLAIN = "plain"


FAMILY = {
    SqlDialect.POSTGRES: Family.PSQL,
    SqlDialect.COCKROACH: Family.COCKROACH,
    SqlDialect.MYSQL: Family.MYSQL,
    SqlDialect.SQLITE: Family.DOT,
    SqlDialect.DUCKDB: Family.DOT,
    SqlDialect.TSQL: Family.SQLCMD,
    SqlDialect.CLICKHOUSE: Family.PLAIN,
    SqlDialect.CQL: Family.PLAIN,
    SqlDialect.BIGQUERY: Family.PLAIN,
    SqlDialect.SNOWFLAKE: Family.PLAIN,
}


@dataclass(frozen=True, slots=True)
class ClientCommand:
    """A client command found in the text."""

    name: str
    command: Command
    arguments: tuple[str, ...]
    start: int
    end: int
    """Where SQL resumes."""
    shell_commands: tuple[str, ...] = ()
    """Shell commands in the arguments themselves (psql runs `backquoted` text)."""
    also_sql: bool = False
    """The line may be SQL as well (mysql, inside a statement): both readings count."""

    @property
    def effect(self) -> Effect:
        return self.command.effect

    @property
    def span(self) -> Span:
        return Span(self.start, self.end)

    @property
    def argument(self) -> str:
        return " ".join(self.arguments)


def end_of_line(text: str, index: int) -> int:
    newline = text.find("\n", index)
    return len(text) if newline < 0 else newline


def first_on_line(text: str, index: int, since: int) -> bool:
    """Whether only white space stands between the start of `index`'s line and `index`.

    `since` bounds the search: it is the end of the previous token (or where
    lexing started), so a line start not found after it means that token is
    on the same line; each search costs the gap, not the line.
    """
    newline = text.rfind("\n", since, index)
    if newline < 0 and since > 0:
        return False
    return text[newline + 1 : index].strip() == ""


def line_command(text: str, start: int, name_end: int, name: str, command: Command) -> ClientCommand:
    end = end_of_line(text, name_end)
    argument = text[name_end:end].strip()
    if command.effect is not Effect.DELIMITER:
        # `source file.sql;`: the statement delimiter typed out of habit is not part of the name.
        argument = argument.removesuffix(";").strip()
    return ClientCommand(name, command, (argument,) if argument else (), start, end)


def psql_command(text: str, start: int, commands: dict[str, Command]) -> ClientCommand:
    """A psql (or cockroach sql) backslash command at `start`.

    The name is letters (with psql's `+` and `S` suffixes) or one other
    character; the arguments run to the end of the line, or to an unquoted
    backslash: `\\\\` ends them and SQL goes on, any other starts the next
    command.
    """
    name_end = start + 1
    while name_end < len(text) and (text[name_end].isalnum() or text[name_end] in "_+"):
        name_end += 1
    if name_end == start + 1 and name_end < len(text) and not text[name_end].isspace():
        name_end += 1
    name = text[start + 1 : name_end]
    if name == "\\":
        # `\\` on its own separates commands; SQL goes on after it.
        return ClientCommand(name, _NONE, (), start, name_end)
    command = commands.get(name.rstrip("+S") if name[:1].isalpha() else name)
    if command is None and name[:1].isalpha():
        command = commands.get(name)
    command = command or _NONE_WORDS
    line_end = end_of_line(text, name_end)
    rest = text[name_end:line_end]
    if command.whole_line or (command.effect is Effect.PIPE_OR_FILE and rest.lstrip().startswith("|")):
        argument = rest.strip()
        return ClientCommand(name, command, (argument,) if argument else (), start, line_end)
    arguments, shell_commands, end = _psql_words(text, name_end, line_end)
    return ClientCommand(name, command, arguments, start, end, shell_commands)


def _psql_words(text: str, index: int, line_end: int) -> tuple[tuple[str, ...], tuple[str, ...], int]:
    """psql's reading of a meta-command's arguments: words, quotes, backquoted shell commands.

    Returns the words (unquoted), the shell commands psql runs to expand
    `backquotes`, and where the command ends.
    """
    words: list[str] = []
    shell_commands: list[str] = []
    current: list[str] = []
    started = False
    end = line_end
    while index < line_end:
        character = text[index]
        if character.isspace():
            if started:
                words.append("".join(current))
                current, started = [], False
            index += 1
            continue
        if character == "\\":
            # `\\` ends the arguments and SQL resumes after it; a single one starts another command.
            end = index + 2 if text.startswith("\\\\", index) else index
            break
        started = True
        if character in "'\"`":
            closing = _closing_quote(text, index, line_end)
            quoted = text[index + 1 : closing]
            if character == "`":
                shell_commands.append(quoted)
            current.append(quoted.replace("''", "'") if character == "'" else quoted)
            index = closing + 1
            continue
        current.append(character)
        index += 1
    if started:
        words.append("".join(current))
    return tuple(words), tuple(shell_commands), end


def _closing_quote(text: str, index: int, line_end: int) -> int:
    quote = text[index]
    position = index + 1
    while position < line_end:
        character = text[position]
        if character == "\\" and quote == "'":
            position += 2
            continue
        if character == quote:
            if text.startswith(quote * 2, position):
                position += 2
                continue
            return position
        position += 1
    return line_end


def mysql_backslash(text: str, start: int) -> ClientCommand:
    name = text[start + 1 : start + 2]
    command = _MYSQL_BACKSLASH.get(name)
    if command is None or not command.whole_line:
        return ClientCommand(name, command or _NONE, (), start, start + 1 + len(name))
    return line_command(text, start, start + 2, name, command)


def dot_command(text: str, start: int) -> ClientCommand:
    """A sqlite3/duckdb dot command (or a `#` comment line) between statements."""
    if text[start] == "#":
        return ClientCommand("#", _NONE, (), start, end_of_line(text, start))
    name_end = start + 1
    while name_end < len(text) and not text[name_end].isspace():
        name_end += 1
    name = text[start + 1 : name_end]
    return line_command(text, start, name_end, name, _DOT.get(name, _NONE))


def sqlcmd_command(text: str, start: int) -> ClientCommand | None:
    line_end = end_of_line(text, start)
    line = text[start:line_end]
    name = line.split(maxsplit=1)[0] if line.strip() else ""
    if name.startswith(("!!", ":!!")):
        name = "!!" if name.startswith("!!") else ":!!"
    elif not name.startswith(":"):
        return None
    command = _SQLCMD.get(name.lower(), _NONE)
    return line_command(text, start, start + len(name), name, command)
