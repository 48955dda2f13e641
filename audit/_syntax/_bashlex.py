"""bashlex adapter: the second opinion where tree-sitter reports errors.

bashlex is a port of bash's own grammar (no `case`, `[[`, arithmetic or
arrays), so it reads some inputs tree-sitter rejects and rejects many it
reads. It is pure Python and cannot be cancelled, so it is only asked about
inputs small enough to finish well inside the time budget. bashlex objects
never leave this module.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from .._model import Span
from ..errors import ParserUnavailable
from . import _ast as ast
from ._session import ParseSession, PreparedText
from ._words import heredoc_node

# bashlex takes 16-27 µs of CPU per character on this class of machine
# (linear in the length; a long and-list or substitutions are the dearest);
# above this size it could eat the whole default budget.
MAX_BASHLEX_INPUT = 1000
# It cannot be interrupted, so its cost is charged before it starts, and it
# is skipped when the budget cannot afford it (see _budget).
STEPS_PER_CHARACTER = 24

_STRIP_QUOTES = str.maketrans("", "", "'\"")


def _bashlex() -> ModuleType:
    """bashlex, imported on first use: its grammar tables take 60 ms to load,
    which most processes never need (only inputs tree-sitter rejects do)."""
    return importlib.import_module("bashlex")


def parse_bashlex(ready: PreparedText, session: ParseSession) -> ast.Script:
    """Parse the prepared text with bashlex, or raise ParserUnavailable."""
    text = ready.text
    if len(text) > MAX_BASHLEX_INPUT:
        raise ParserUnavailable("input too large for bashlex within the budget")
    steps = len(text) * STEPS_PER_CHARACTER
    if not session.budget.affords(steps):
        raise ParserUnavailable("not enough of the budget left")
    session.charge(steps)
    with session.budget.paused():
        bashlex = _bashlex()
    try:
        nodes = bashlex.parse(text)
    except Exception as error:  # bashlex raises many types (ParsingError, NotImplementedError, IndexError...)
        raise ParserUnavailable(f"{type(error).__name__}: {error}") from error
    converter = _Converter(ready, session)
    statements = tuple(statement for node in nodes for statement in converter.statements(node))
    return ast.Script(statements, ready.origin.span(0, len(text)))


class _Converter:
    def __init__(self, ready: PreparedText, session: ParseSession) -> None:
        self.session = session
        self.text = ready.text
        self.origin = ready.origin
        self.prepared = ready.prepared
        self.source_origin = ready.source_origin

    def span(self, node: Any) -> Span:
        start, end = node.pos
        return self.origin.span(start, end)

    def statements(self, node: Any) -> list[ast.Statement]:
        if node.kind == "list":
            statements: list[ast.Statement] = []
            for part in node.parts:
                if part.kind == "operator":
                    if part.op == "&" and statements:
                        last = statements[-1]
                        statements[-1] = ast.Statement(last.command, True, last.span)
                    continue
                statements.extend(self.statements(part))
            return statements
        command = self.command(node)
        return [] if command is None else [ast.Statement(command, False, self.span(node))]

    def script(self, nodes: list[Any], span: Span) -> ast.Script:
        return ast.Script(tuple(statement for node in nodes for statement in self.statements(node)), span)

    def command(self, node: Any) -> ast.Command | None:
        kind = node.kind
        if kind == "command":
            return self.simple(node)
        if kind == "pipeline":
            commands = [self.command(part) for part in node.parts if part.kind != "pipe"]
            operators = tuple(part.pipe for part in node.parts if part.kind == "pipe")
            kept = tuple(command for command in commands if command is not None)
            return ast.Pipeline(kept, operators[: max(len(kept) - 1, 0)], False, self.span(node))
        if kind == "compound":
            body = [part for part in node.list if part.kind not in ("reservedword", "operator")]
            group = ast.Group(self.script(body, self.span(node)), self.span(node))
            redirects = tuple(self.redirect(r) for r in getattr(node, "redirects", ()) or ())
            return ast.Redirected(group, redirects, self.span(node)) if redirects else group
        if kind in ("if", "for", "while", "until"):
            return self.clause(node)
        if kind == "function":
            body = self.command(node.body)
            return None if body is None else ast.FunctionDefinition(node.name.word, body, self.span(node))
        if kind == "list":
            return ast.Group(ast.Script(tuple(self.statements(node)), self.span(node)), self.span(node))
        return None

    def clause(self, node: Any) -> ast.Command:
        """if/for/while/until: every nested list is walked; loop words kept for `for`."""
        parts = [part for part in node.parts if part.kind not in ("reservedword", "operator")]
        if node.kind == "for":
            variable = parts[0].word if parts else ""
            items = tuple(self.word(part) for part in parts[1:] if part.kind == "word")
            body = [part for part in parts[1:] if part.kind != "word"]
            return ast.ForLoop("for", variable, items, self.script(body, self.span(node)), self.span(node))
        return ast.Group(self.script(parts, self.span(node)), self.span(node))

    def simple(self, node: Any) -> ast.SimpleCommand:
        assignments: list[ast.Assignment] = []
        words: list[ast.Word] = []
        redirects: list[ast.Redirect] = []
        for part in node.parts:
            if part.kind == "assignment":
                assignments.append(self.assignment(part))
            elif part.kind == "word":
                words.append(self.word(part))
            elif part.kind == "redirect":
                redirects.append(self.redirect(part))
        return ast.SimpleCommand(tuple(assignments), tuple(words), tuple(redirects), self.span(node))

    def assignment(self, node: Any) -> ast.Assignment:
        name, _, _ = node.word.partition("=")
        start, end = node.pos
        equals = self.text.find("=", start, end)
        value_node = _Slice(equals + 1, end, getattr(node, "parts", []))
        append = name.endswith("+")
        return ast.Assignment(name.rstrip("+"), None, self.word(value_node), None, append, self.span(node))

    def redirect(self, node: Any) -> ast.Redirect:
        operator = node.type
        start, _ = node.pos
        prepared = self.prepared
        if prepared is not None and start in prepared.heredocs:
            body = prepared.heredocs[start]
            heredoc = heredoc_node(body, self.source_origin, self.session)
            return ast.Redirect(body.operator, None, None, heredoc, self.span(node))
        if prepared is not None and start in prepared.read_write:
            operator = "<>"
        output = node.output
        target = self.word(output) if hasattr(output, "kind") and output.kind == "word" else None
        descriptor = getattr(node, "input", None)
        fd = str(descriptor) if isinstance(descriptor, int) else None
        return ast.Redirect(operator, fd, target, None, self.span(node))

    def word(self, node: Any) -> ast.Word:
        start, end = node.pos
        parts: list[ast.WordPart] = []
        cursor = start
        for part in sorted(getattr(node, "parts", []) or [], key=lambda child: child.pos[0]):
            part_start, part_end = part.pos
            if part_start > cursor:
                parts.append(self.literal(cursor, part_start))
            converted = self.part(part)
            if converted is not None:
                parts.append(converted)
            cursor = max(cursor, part_end)
        if cursor < end:
            parts.append(self.literal(cursor, end))
        return ast.Word(tuple(parts), self.origin.span(start, end), self.text[start:end])

    def literal(self, start: int, end: int) -> ast.Literal:
        raw = self.text[start:end]
        # bashlex drops quoting information; quotes are removed and the text
        # counts as quoted when it had any, which keeps globs from matching.
        return ast.Literal(
            raw.translate(_STRIP_QUOTES).replace("\\", ""), "'" in raw or '"' in raw, self.origin.span(start, end)
        )

    def part(self, node: Any) -> ast.WordPart | None:
        kind = node.kind
        span = self.span(node)
        if kind == "commandsubstitution":
            body = self.script([node.command], span)
            backquoted = self.text.startswith("`", node.pos[0])
            return ast.CommandSubstitution(body, backquoted, False, span)
        if kind == "processsubstitution":
            body = self.script([node.command], span)
            direction = self.text[node.pos[0] : node.pos[0] + 1]
            return ast.ProcessSubstitution(body, direction, span)
        if kind == "parameter":
            name = node.value
            for index, char in enumerate(name):
                if not (char.isalnum() or char == "_"):
                    return ast.ParamExpansion(name[:index] or name[:1], name[index:] if index else "", (), False, span)
            return ast.ParamExpansion(name, "", (), False, span)
        if kind == "tilde":
            return ast.Literal(node.value, False, span)
        return None


class _Slice:
    """A word-like view of part of an assignment (its value)."""

    kind = "word"

    def __init__(self, start: int, end: int, parts: list[Any]) -> None:
        self.pos = (start, end)
        self.parts = [part for part in parts if part.pos[0] >= start]
