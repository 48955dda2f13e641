"""Frozen syntax nodes: the one shape every parser adapter produces.

Nodes are NamedTuples: immutable and named like frozen dataclasses, but
about twice as cheap to create, which matters because the engine builds
dozens of them for every command it audits.

Offsets are character offsets into the *original* command string (after the
adapters have mapped them back through line-continuation removal and any
recursive parse), so a node's span can be shown to the user as is.
"""

from __future__ import annotations

from typing import Any, Protocol, TypeVar, cast

from .._model import Span
from .._named_tuple import NamedTuple

_Node = TypeVar("_Node", bound=tuple[Any, ...])


class _NodeMaker(Protocol):
    def __call__(self, cls: type[_Node], fields: tuple[Any, ...], /) -> _Node: ...


_TUPLE: type[tuple[Any, ...]] = tuple
new_node = cast(_NodeMaker, _TUPLE.__new__)
"""`new_node(Word, (parts, span, source))` makes the node from all its fields,
defaults included, in order: what a NamedTuple's generated `__new__` does,
without that Python frame (about half the cost). The builders make several
nodes per tree-sitter node, so their hottest paths use it; it checks neither
the number nor the types of the fields, so it is kept to those paths."""


class Literal(NamedTuple):
    """Text after quote and backslash removal.

    `quoted` is True when bash would not glob, brace-expand or tilde-expand it.
    """

    text: str
    quoted: bool
    span: Span


class ParamExpansion(NamedTuple):
    """`$x`, `${x}`, `${x:-word}`, `${!x}`, `${x@P}`...

    `operator` is the text between the name and the argument (`:-`, `//`,
    `@P`...), or `!` for indirection; `argument` holds the words inside the
    braces after the operator, whose substitutions bash may run.
    """

    name: str
    operator: str
    argument: tuple[Word, ...]
    quoted: bool
    span: Span
    subscript: Word | None = None
    """`${arr[INDEX]}`: evaluated as arithmetic for an indexed array."""


class CommandSubstitution(NamedTuple):
    """`$(...)` or a backquoted command: the body runs, its output is text."""

    body: Script
    backquoted: bool
    quoted: bool
    span: Span


class ProcessSubstitution(NamedTuple):
    """`<(...)` / `>(...)`: the body runs; the word becomes a /dev/fd path."""

    body: Script
    direction: str
    span: Span


class ArithmeticExpansion(NamedTuple):
    """`$((...))`: only the substitutions and parameters inside matter here."""

    parts: tuple[WordPart, ...]
    span: Span


WordPart = Literal | ParamExpansion | CommandSubstitution | ProcessSubstitution | ArithmeticExpansion


class Word(NamedTuple):
    """One shell word: the concatenation of its parts, before field splitting."""

    parts: tuple[WordPart, ...]
    span: Span
    source: str


class Heredoc(NamedTuple):
    """The body of a `<<` / `<<-` redirect.

    A quoted delimiter makes the body pure data (`parts` is one literal); an
    unquoted one expands parameters and substitutions, which `parts` holds.
    """

    delimiter: str
    quoted: bool
    strip_tabs: bool
    parts: tuple[WordPart, ...]
    text: str
    span: Span


class Redirect(NamedTuple):
    """`[fd]op target`; for heredocs `target` is None and `heredoc` is set."""

    operator: str
    fd: str | None
    target: Word | None
    heredoc: Heredoc | None
    span: Span


class Assignment(NamedTuple):
    """`name[index]=value`, `name+=value` or `name=(items...)`."""

    name: str
    subscript: Word | None
    value: Word | None
    items: tuple[Word, ...] | None
    append: bool
    span: Span


class SimpleCommand(NamedTuple):
    """Assignments, words and redirects of one simple command, as written."""

    assignments: tuple[Assignment, ...]
    words: tuple[Word, ...]
    redirects: tuple[Redirect, ...]
    span: Span


class Pipeline(NamedTuple):
    """`a | b |& c`; `operators[i]` joins `commands[i]` and `commands[i + 1]`."""

    commands: tuple[Command, ...]
    operators: tuple[str, ...]
    negated: bool
    span: Span


class AndOrList(NamedTuple):
    """`a && b || c`; `operators[i]` joins `commands[i]` and `commands[i + 1]`."""

    commands: tuple[Command, ...]
    operators: tuple[str, ...]
    span: Span


class Subshell(NamedTuple):
    body: Script
    span: Span


class Group(NamedTuple):
    """`{ ...; }`."""

    body: Script
    span: Span


class IfClause(NamedTuple):
    """`if c1; then b1; elif c2; then b2; else b3; fi` as ((c1, b1), (c2, b2)), b3."""

    branches: tuple[tuple[Script, Script], ...]
    else_body: Script | None
    span: Span


class WhileLoop(NamedTuple):
    """`while`/`until` loops (`until` only negates the condition)."""

    condition: Script
    body: Script
    until: bool
    span: Span


class ForLoop(NamedTuple):
    """`for`/`select NAME [in WORDS]`; `items` None means `"$@"`."""

    keyword: str
    variable: str
    items: tuple[Word, ...] | None
    body: Script
    span: Span


class ArithmeticFor(NamedTuple):
    """`for ((init; cond; step))`: the header's expansions, and the condition's
    text ("" when empty, which never ends the loop)."""

    header: tuple[WordPart, ...]
    body: Script
    span: Span
    condition: str


class CaseArm(NamedTuple):
    patterns: tuple[Word, ...]
    body: Script


class CaseClause(NamedTuple):
    subject: Word
    arms: tuple[CaseArm, ...]
    span: Span


class FunctionDefinition(NamedTuple):
    name: str
    body: Command
    span: Span


class ArithmeticCommand(NamedTuple):
    """`(( expr ))`."""

    parts: tuple[WordPart, ...]
    span: Span


class TestClause(NamedTuple):
    """`[[ ... ]]` or `[ ... ]`: its operands are words in value position.

    `keyword` is `[[` for the keyword, whose arithmetic operators (`-eq`...)
    evaluate their operands as expressions, `[` for the builtin, which reads
    them as integers, or "" for words recovered from an error region, which
    bash only expands (no test at all).
    """

    words: tuple[Word, ...]
    span: Span
    keyword: str


class Redirected(NamedTuple):
    """A compound command with redirects of its own (`{ ...; } > f`)."""

    command: Command
    redirects: tuple[Redirect, ...]
    span: Span


Command = (
    SimpleCommand
    | Pipeline
    | AndOrList
    | Subshell
    | Group
    | IfClause
    | WhileLoop
    | ForLoop
    | ArithmeticFor
    | CaseClause
    | FunctionDefinition
    | ArithmeticCommand
    | TestClause
    | Redirected
)


class Statement(NamedTuple):
    """A command terminated by `;`, newline or `&` (`background`)."""

    command: Command
    background: bool
    span: Span


class Script(NamedTuple):
    statements: tuple[Statement, ...]
    span: Span
