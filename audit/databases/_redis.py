"""`classify_redis`: the destructive commands among Redis (and Valkey) commands.

A command comes as an argv (`redis-cli -n 0 FLUSHDB` gives `["FLUSHDB"]`) or
as text, one command per line, which is how redis-cli reads a pipe or a file
on its standard input. Text lines are split the way redis-cli splits them
(its `sdssplitargs`): words, "double quotes" with C-like escapes, 'single
quotes' where only \\' is special; a line it cannot split it does not send,
and is reported unreadable. The Lua script of `EVAL` is read for the commands
it calls (`_redis_lua`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from .._model import Span
from ._model import DatabaseInputError, StatementFinding, StatementKind, evidence_of, merged
from ._redis_lua import lua_commands

# Parameters that decide which file the server writes: with a SAVE after them, any file it may write.
_WRITE_PATH_PARAMETERS = frozenset({"dir", "dbfilename", "logfile", "appendfilename", "appenddirname"})
# Commands that make the server write its dump or append-only file (SHUTDOWN saves unless told NOSAVE).
_WRITES_DUMP = frozenset({"SAVE", "BGSAVE", "BGREWRITEAOF", "SHUTDOWN"})
# Commands whose first argument is a Lua script they run now.
_RUNS_LUA = frozenset({"EVAL", "EVAL_RO"})
# `DEBUG` subcommands that crash or stop the server on purpose.
_DEBUG_CRASHES = frozenset({"SEGFAULT", "PANIC", "OOM", "CRASH-AND-RECOVER", "RESTART"})
_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", "b": "\b", "a": "\a"}


@dataclass(frozen=True, slots=True)
class _Command:
    argv: tuple[str, ...]
    span: Span
    evidence: str


def classify_redis(command: str | Sequence[str]) -> tuple[StatementFinding, ...]:
    """The destructive commands in a Redis command (argv) or text (one command per line).

    Spans are character offsets for text and argv positions for an argv.

    >>> [finding.kind.value for finding in classify_redis(["FLUSHDB", "ASYNC"])]
    ['flushdb']
    >>> classify_redis("GET session:42\\nTTL session:42")
    ()
    """
    findings: list[StatementFinding] = []
    if isinstance(command, str):
        commands: list[_Command] = []
        for line_span, line in _lines(command):
            argv = _split(line)
            if argv is None:
                findings.append(StatementFinding(StatementKind.UNREADABLE, False, line_span, None, evidence_of(line)))
            elif argv:
                commands.append(_Command(tuple(argv), line_span, evidence_of(line)))
    else:
        argv = tuple(command)
        if not all(isinstance(word, str) for word in argv):  # pyright: ignore[reportUnnecessaryIsInstance]
            raise DatabaseInputError("classify_redis reads text or a sequence of strings")
        commands = [_Command(argv, Span(0, len(argv)), evidence_of(" ".join(argv)))] if argv else []
    dump_written = any(_writes_dump(each.argv) for each in commands)
    for each in commands:
        findings.extend(_classify(each, dump_written))
    return merged(findings)


def _lines(text: str) -> Iterator[tuple[Span, str]]:
    start = 0
    for line in text.splitlines(keepends=True):
        yield Span(start, start + len(line.rstrip("\r\n"))), line.rstrip("\r\n")
        start += len(line)


def _writes_dump(argv: tuple[str, ...]) -> bool:
    name = argv[0].upper()
    return name in _WRITES_DUMP and not (
        name == "SHUTDOWN" and any(word.upper() in ("NOSAVE", "ABORT") for word in argv)
    )


def _classify(command: _Command, dump_written: bool) -> Iterator[StatementFinding]:
    argv = command.argv
    name = argv[0].upper()
    sub = argv[1].upper() if len(argv) > 1 else ""
    options = {word.upper() for word in argv[1:]}

    def found(kind: StatementKind, irreversible: bool, target: str | None = None) -> StatementFinding:
        return StatementFinding(kind, irreversible, command.span, target, command.evidence)

    if name == "FLUSHALL":
        yield found(StatementKind.FLUSHALL, True)
    elif name == "FLUSHDB":
        yield found(StatementKind.FLUSHDB, True)
    elif name == "SHUTDOWN" and "ABORT" not in options:
        # NOSAVE loses every write since the last snapshot; otherwise the server saves first.
        yield found(StatementKind.SHUTDOWN, "NOSAVE" in options)
    elif name == "DEBUG" and sub in _DEBUG_CRASHES:
        # The server process dies; what it had not written to disk is lost.
        yield found(StatementKind.SHUTDOWN, False)
    elif name == "SCRIPT" and sub == "FLUSH":
        yield found(StatementKind.SCRIPT_FLUSH, False)
    elif name == "FUNCTION" and sub == "FLUSH":
        yield found(StatementKind.FUNCTION_FLUSH, False)
    elif name == "FUNCTION" and sub == "DELETE":
        yield found(StatementKind.DROP_OTHER, False, argv[2] if len(argv) > 2 else None)
    elif name == "CONFIG" and sub == "SET":
        pairs = zip(argv[2::2], argv[3::2], strict=False)
        written = [
            f"{parameter.lower()}={value}" for parameter, value in pairs if parameter.lower() in _WRITE_PATH_PARAMETERS
        ]
        if written:
            yield found(StatementKind.CONFIG_WRITE_PATH, dump_written, " ".join(written))
    elif name == "MODULE" and sub in ("LOAD", "LOADEX"):
        yield found(StatementKind.MODULE_LOAD, True, argv[2] if len(argv) > 2 else None)
    elif name in ("REPLICAOF", "SLAVEOF") and len(argv) > 2 and (argv[1].upper(), argv[2].upper()) != ("NO", "ONE"):
        yield found(StatementKind.REPLICATE_FROM, True, f"{argv[1]}:{argv[2]}")
    elif name in _RUNS_LUA and len(argv) > 1:
        # The commands the script calls run on the server, reported at the EVAL that runs them.
        for called in lua_commands(argv[1]):
            yield from _classify(_Command(called, command.span, command.evidence), dump_written)


def _split(line: str) -> list[str] | None:
    """redis-cli's reading of a line into words; None where it rejects the line (an unclosed quote, or a
    closing quote followed by something other than white space)."""
    words: list[str] = []
    index = 0
    while True:
        while index < len(line) and line[index].isspace():
            index += 1
        if index >= len(line):
            return words
        word, index = _word(line, index)
        if word is None:
            return None
        words.append(word)


def _word(line: str, index: int) -> tuple[str | None, int]:
    """The word starting at `index` and where it ends; None for a word redis-cli rejects.

    Outside quotes a word runs to white space and a quote starts quoting;
    inside double quotes backslash escapes are read, inside single quotes
    only \\' is; a closing quote must end the word.
    """
    word: list[str] = []
    quote = ""
    while index < len(line):
        character = line[index]
        if not quote:
            if character.isspace():
                break
            if character in "\"'":
                quote = character
            else:
                word.append(character)
            index += 1
        elif character == "\\" and quote == '"' and index + 1 < len(line):
            escaped, index = _escape(line, index)
            word.append(escaped)
        elif character == "\\" and quote == "'" and line.startswith("\\'", index):
            word.append("'")
            index += 2
        elif character == quote:
            if index + 1 < len(line) and not line[index + 1].isspace():
                return None, index
            return "".join(word), index + 1
        else:
            word.append(character)
            index += 1
    return (None if quote else "".join(word)), index


def _escape(line: str, index: int) -> tuple[str, int]:
    """A backslash escape in double quotes at `index`: `\\xHH`, `\\n` and friends, or the character itself."""
    following = line[index + 1]
    hex_digits = line[index + 2 : index + 4]
    if following == "x" and len(hex_digits) == 2 and all(digit in "0123456789abcdefABCDEF" for digit in hex_digits):
        return chr(int(hex_digits, 16)), index + 4
    return _ESCAPES.get(following, following), index + 2
