"""The plain-command lane: a command of plain words that runs an ordinary program goes to the rules directly.

Most commands an agent runs are one program and plain words (`ls -la src/`,
`git status`, `make test`). For those the walk does one thing: it hands one
`CommandSubject` to the rules. Nothing is quoted or expanded (the parser's
fast path, `plain_words`, accepts only such text), no wrapper is peeled, no
code is found, and nothing the command sends, downloads or writes is read by
a later command, because there is none. Building the walk for it (the
analyzer, its state, the frame, the environment, the budget) costs several
times what the rules cost, so the lane builds the subject itself from the
walk's own pieces (`peel`, `basename`, `display`) and leaves
everything else to the full path.

It is sound only if the verdict is the full path's in every field:
tests/audit/test_plain_lane.py compares the two on the whole corpus, every
rule example, every program name the engine knows and generated commands,
and at the step limit. A walk branch keyed on a command name must keep its
names out of the lane (`_needs_the_walk`).
"""

from __future__ import annotations

from .._budget import Budget, command_steps
from .._model import CommandRecord, Span
from .._named_tuple import NamedTuple
from .._syntax import CHARACTERS_PER_STEP, STEPS_PER_COMMAND_NODE, STEPS_PER_FRAGMENT, VERBATIM, plain_words
from .._tables import Tables
from ..programs.interpreters import InterpreterSpec
from ..programs.sending import SENDERS, may_send
from ._contexts import HANDLERS, OPTION_CODE_PROGRAMS, WRITER_NAMES, option_commands
from ._normalize import basename
from ._resolve import display, peel
from ._state import TOP
from ._subjects import Arg, CommandSubject, NameSource


class PlainCommand(NamedTuple):
    """What the full path would hand the rules and the verdict for a plain command."""

    subject: CommandSubject
    record: CommandRecord


def plain_command(text: str, tables: Tables, max_steps: int) -> PlainCommand | None:
    """The subject and record of `text` when it takes the lane, else None (the full path judges it)."""
    words = plain_words(text, VERBATIM)
    if words is None or not _within_budget(text, len(words), max_steps):
        return None
    # What normalisation makes of an unquoted literal without `~`, braces or glob characters.
    argv = tuple([Arg((word.source,), word.source, word.span, False, word) for word in words])
    argv, index, unwrapped = peel(argv, tables)
    if unwrapped is not None or index != 0:
        return None
    name = basename(argv[0].values[0])
    if _needs_the_walk(name, argv[1:], tables):
        return None
    span = Span(0, len(text))
    location = TOP
    subject = CommandSubject(argv, 0, name, NameSource.STATIC, None, (), span, location, None, False, False)
    return PlainCommand(subject, CommandRecord(display(argv), span, location.position, location.path))


def _within_budget(text: str, words: int, max_steps: int) -> bool:
    """Whether the full path's steps for this text fit the limit before its first reading of the CPU
    clock: then its verdict on the text depends on steps alone, and they fit."""
    steps = STEPS_PER_FRAGMENT + len(text) // CHARACTERS_PER_STEP + STEPS_PER_COMMAND_NODE + command_steps(words)
    return steps <= max_steps and steps < Budget.STEPS_PER_CLOCK_READ


def _needs_the_walk(name: str, args: tuple[Arg, ...], tables: Tables) -> bool:
    """Whether the walk does more with a command `name ARGS` runs than hand it to the rules: it runs
    code (an execution context; for a program that runs code only through some options, `tar`,
    `sed`, when they are given), sends data the secret search follows, writes files whose content
    the walk remembers, or downloads or decodes into a file the walk judges. (Declarations,
    `export A=1`, are not plain words.)"""
    interpreter = tables.interpreter(name)
    return (
        (name in HANDLERS and (name not in OPTION_CODE_PROGRAMS or bool(option_commands(name, args))))
        or (interpreter is not None and not _runs_no_code(interpreter, args))
        or (name in SENDERS and may_send(name, args))
        or name in WRITER_NAMES
        or name in tables.fetchers
        or name in tables.decoders  # decoding or not: the flags are the walk's to read
    )


def _runs_no_code(interpreter: InterpreterSpec, args: tuple[Arg, ...]) -> bool:
    """Whether an interpreter that runs code only through its subcommands (`go run`; `go test` and `go
    build` build packages) is given another subcommand first, and reads no program from its input."""
    subcommands = interpreter.code_subcommands | interpreter.script_subcommands
    if not subcommands or interpreter.reads_stdin_code or not args:
        return False
    first = args[0].values[0]
    return not first.startswith("-") and first not in subcommands
