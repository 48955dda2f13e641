"""Statements and commands of the tree-sitter tree.

Known blind spots of the grammar compensated here: redirects written after a
pipeline or list belong to its last command; a pipeline or and-or list
tree-sitter ran onto the next line is split where bash ends it; ERROR regions are converted
best-effort (their statements and words still reach the rules) and reported
as parse troubles.
"""

from __future__ import annotations

from collections.abc import Callable

from tree_sitter import Node

from ..._model import Span
from .. import _ast as ast
from .._ast import new_node
from .._session import STEPS_PER_COMMAND_NODE, PreparedText
from ._elements import REDIRECT_NODES, ElementBuilder, glued_to, is_split_here_string
from ._kinds import ERROR, VARIABLE_ASSIGNMENT, WORD, kinds
from ._line_breaks import token_after_line_break
from ._parser import run_parser
from ._words import WORD_NODES

_COMPOUND_NODES = kinds("subshell", "compound_statement", "if_statement", "while_statement", "for_statement")
_HEADER_KEYWORDS = kinds("case", "for", "select")
_CLOSING_KEYWORDS = frozenset({"esac", "fi", "done", "then", "do", "else", "elif", "in", "}"})
_SKIPPED_STATEMENT_NODES = kinds("comment", ";", ";;", "&", "\n", "heredoc_body", "heredoc_end")
_BACKGROUND = kinds("&")
_COMMAND = kinds("command")
_COMMAND_NAME = kinds("command_name")
_LIST = kinds("list")
_PIPES = kinds("|", "|&")
_AND_OR = kinds("&&", "||")
_BODY_NODES = kinds("do_group", "compound_statement", "else_clause")
_DO_GROUP = kinds("do_group")
_ARITHMETIC_OPENER = kinds("((")
_DOUBLE_BRACKET = kinds("[[")
_IF_KEYWORDS = kinds("if", "elif")
_THEN = kinds("then")
_IF_ENDS = kinds("elif_clause", "else_clause", "fi")
_ELIF_CLAUSE = kinds("elif_clause")
_ELSE_CLAUSE = kinds("else_clause")
_UNTIL = kinds("until")
_IN = kinds("in")
_CASE_ITEM = kinds("case_item")
_HEADER_ENDS = kinds(";", "\n", "do")


class StatementBuilder(ElementBuilder):
    """Converts one tree into frozen nodes with original-string spans: the whole builder."""

    __slots__ = ()

    def script(self, root: Node) -> ast.Script:
        # The root may hold the line break the parser added after the text (`run_parser`).
        start, end = root.start_byte, min(root.end_byte, len(self.data))
        if self.byte_to_char is not None:
            start, end = self.byte_to_char[start], self.byte_to_char[end]
        return new_node(ast.Script, (self.statements(root.children), self.origin.span(start, end)))

    def statements(self, children: list[Node]) -> tuple[ast.Statement, ...]:
        statements: list[ast.Statement] = []
        multiline = self.multiline
        for child in children:
            kind = child.kind_id
            if kind in _SKIPPED_STATEMENT_NODES or (not child.is_named and kind not in ERROR):
                if kind in _BACKGROUND and statements:
                    last = statements[-1]
                    statements[-1] = ast.Statement(last.command, True, last.span)
                continue
            if child.is_missing:
                self.trouble(child, f"missing {child.type}")
                continue
            next_line = token_after_line_break(self.data, child) if multiline else None
            if next_line is not None:
                start, end = self.chars(child)
                line_break = self.chars(next_line)[0]
                statements.extend(self.reparse(start, line_break))
                statements.extend(self.reparse(line_break, end))
                continue
            command = self.command(child)
            if command is not None:
                statements.append(new_node(ast.Statement, (command, False, command.span)))
        return tuple(statements)

    def reparse(self, start: int, end: int) -> tuple[ast.Statement, ...]:
        """The statements of a slice of this text, parsed on its own."""
        text = self.text[start:end]
        data = text.encode("utf-8", "surrogatepass")
        root = run_parser(data, self.session.budget).root_node
        ready = PreparedText(text, self.origin.shifted(start), self.prepared, self.source_origin)
        return StatementBuilder(ready, data, self.session, self.base + start).statements(root.children)

    def body(self, node: Node | None) -> ast.Script:
        """A compound body (do_group, compound_statement...) as a script."""
        if node is None:
            return ast.Script((), Span(0, 0))
        if node.kind_id in _BODY_NODES:
            return ast.Script(self.statements(node.children), self.span(node))
        command = self.command(node)
        statements = () if command is None else (ast.Statement(command, False, self.span(node)),)
        return ast.Script(statements, self.span(node))

    def command(self, node: Node) -> ast.Command | None:
        """The command `node` is; its span is always the node's."""
        self.session.charge(STEPS_PER_COMMAND_NODE)
        kind = node.kind_id
        handler = _COMMAND_HANDLERS.get(kind)
        if handler is not None:
            return handler(self, node)
        if kind in ERROR:
            return self.error_region(node)
        if kind in WORD_NODES:
            # A stray word in statement position: treat it as a one-word command.
            return ast.SimpleCommand((), (self.word([node]),), (), self.span(node))
        self.trouble(node, f"unexpected {node.type}")
        return self.error_region(node)

    def simple_command(self, node: Node) -> ast.Command:
        assignments: list[ast.Assignment] = []
        word_nodes: list[Node] = []
        redirects: list[ast.Redirect] = []
        trailing_words: list[ast.Word] = []
        compounds: list[ast.Command] = []
        children = node.children
        glued: set[int] = set()
        for position, child in enumerate(children):
            kind = child.kind_id
            if child.id in glued:
                continue
            if kind in WORD_NODES:
                word_nodes.append(child)
            elif kind in _COMMAND_NAME:
                word_nodes.extend(part for part in child.children if part.id not in glued)
            elif kind in REDIRECT_NODES:
                redirect, words_after = self.redirect_and_words(child)
                redirects.append(redirect)
                trailing_words.extend(words_after)
            elif kind in VARIABLE_ASSIGNMENT:
                tail = glued_to(child, children[position + 1 :])
                glued.update(part.id for part in tail)
                assignments.append(self.assignment(child, tail))
            elif kind in _COMPOUND_NODES:
                # `time (cmd)`: tree-sitter hangs the subshell on the `time` command.
                compound = self.command(child)
                if compound is not None:
                    compounds.append(compound)
            elif kind in ERROR:
                self.trouble(child, "unreadable text inside a command")
                word_nodes.extend(c for c in child.children if c.kind_id in WORD_NODES)
        words = self.words(word_nodes)
        if trailing_words:
            words += tuple(trailing_words)
        simple = new_node(ast.SimpleCommand, (tuple(assignments), words, tuple(redirects), self.span(node)))
        if not compounds:
            return simple
        statements = tuple(ast.Statement(command, False, command.span) for command in (simple, *compounds))
        return ast.Group(ast.Script(statements, simple.span), simple.span)

    def declaration(self, node: Node) -> ast.SimpleCommand:
        """`export`/`declare`/`local`/`readonly`/`typeset`/`unset` as argv."""
        word_nodes: list[Node] = []
        words: list[ast.Word] = []
        children = node.children
        glued: set[int] = set()
        for position, child in enumerate(children):
            if child.id in glued:
                continue
            if child.kind_id in VARIABLE_ASSIGNMENT:
                if word_nodes:
                    words.extend(self.words(word_nodes))
                    word_nodes = []
                tail = glued_to(child, children[position + 1 :])
                glued.update(part.id for part in tail)
                words.append(self.assignment_word(child, tail))
            elif child.kind_id in REDIRECT_NODES:
                continue
            else:
                word_nodes.append(child)
        words.extend(self.words(word_nodes))
        redirects = tuple(self.redirect(c) for c in node.children if c.kind_id in REDIRECT_NODES)
        return ast.SimpleCommand((), tuple(words), redirects, self.span(node))

    def assignments_only(self, node: Node) -> ast.SimpleCommand:
        if node.kind_id in VARIABLE_ASSIGNMENT:
            assignments = (self.assignment(node),)
        else:
            assignments = tuple(self.assignment(c) for c in node.children if c.kind_id in VARIABLE_ASSIGNMENT)
        return ast.SimpleCommand(assignments, (), (), self.span(node))

    def redirected(self, node: Node) -> ast.Command | None:
        body_node = node.child_by_field_name("body")
        redirects: list[ast.Redirect] = []
        words_after: list[ast.Word] = []
        children = node.children
        for index, child in enumerate(children):
            kind = child.kind_id
            if kind in ERROR:
                following = children[index + 1] if index + 1 < len(children) else None
                if following is None or not is_split_here_string(child, following):
                    self.trouble(child, "unreadable text after a redirect")
            elif kind in REDIRECT_NODES:
                previous = children[index - 1] if index else None
                if previous is not None and is_split_here_string(previous, child):
                    redirect, words = self.split_here_string(previous, child)
                else:
                    redirect, words = self.redirect_and_words(child)
                redirects.append(redirect)
                words_after.extend(words)
        body = self.command(body_node) if body_node is not None else None
        if body is None:
            return ast.SimpleCommand((), tuple(words_after), tuple(redirects), self.span(node))
        return _attach_redirects(body, tuple(redirects), self.span(node), tuple(words_after))

    def pipeline(self, node: Node) -> ast.Command:
        commands: list[ast.Command] = []
        operators: list[str] = []
        for child in node.children:
            if child.kind_id in _PIPES:
                operators.append(child.type)
            elif child.is_named:
                command = self.command(child)
                if type(command) is ast.Pipeline and not command.negated:
                    # `a | b 2>&1 | c` arrives as ((a | b) 2>&1) | c: one pipeline in bash.
                    commands.extend(command.commands)
                    operators.extend(command.operators)
                elif command is not None:
                    commands.append(command)
        span = self.span(node)
        operators = operators[: max(len(commands) - 1, 0)]
        if commands and type(commands[0]) is ast.AndOrList:
            return _pipeline_ends_the_list(commands[0], commands[1:], operators, span)
        return ast.Pipeline(tuple(commands), tuple(operators), False, span)

    def negated(self, node: Node) -> ast.Command:
        inner = [self.command(c) for c in node.children if c.is_named]
        commands = tuple(c for c in inner if c is not None)
        return ast.Pipeline(commands, (), True, self.span(node))

    def and_or(self, node: Node) -> ast.Command:
        commands: list[ast.Command] = []
        operators: list[str] = []
        self._flatten_list(node, commands, operators)
        return ast.AndOrList(tuple(commands), tuple(operators), self.span(node))

    def _flatten_list(self, node: Node, commands: list[ast.Command], operators: list[str]) -> None:
        """`a && b || c` nests to the left; walked without recursion (thousands of `&&` are valid)."""
        stack = [node]
        while stack:
            current = stack.pop()
            kind = current.kind_id
            if kind in _LIST:
                stack.extend(reversed(current.children))
            elif kind in _AND_OR:
                operators.append(current.type)
            elif current.is_named:
                command = self.command(current)
                if command is not None:
                    commands.append(command)

    def subshell(self, node: Node) -> ast.Command:
        return ast.Subshell(ast.Script(self.statements(node.children), self.span(node)), self.span(node))

    def compound(self, node: Node) -> ast.Command:
        children = node.children
        if children and children[0].kind_id in _ARITHMETIC_OPENER:
            return ast.ArithmeticCommand(self.expansions_within(node), self.span(node))
        return ast.Group(ast.Script(self.statements(children), self.span(node)), self.span(node))

    def if_clause(self, node: Node) -> ast.Command:
        branches: list[tuple[ast.Script, ast.Script]] = []
        else_body: ast.Script | None = None
        condition: list[Node] = []
        body: list[Node] = []
        target = condition
        for child in node.children:
            kind = child.kind_id
            if kind in _IF_KEYWORDS:
                target = condition
            elif kind in _THEN:
                target = body
            elif kind in _IF_ENDS:
                if condition or body:
                    branches.append(self._branch(node, condition, body))
                    condition, body = [], []
                if kind in _ELIF_CLAUSE:
                    nested = self.if_clause(child)
                    assert isinstance(nested, ast.IfClause)
                    branches.extend(nested.branches)
                elif kind in _ELSE_CLAUSE:
                    else_body = ast.Script(self.statements(child.children), self.span(child))
            else:
                target.append(child)
        if condition or body:
            branches.append(self._branch(node, condition, body))
        return ast.IfClause(tuple(branches), else_body, self.span(node))

    def _branch(self, node: Node, condition: list[Node], body: list[Node]) -> tuple[ast.Script, ast.Script]:
        span = self.span(node)
        return ast.Script(self.statements(condition), span), ast.Script(self.statements(body), span)

    def while_loop(self, node: Node) -> ast.Command:
        until = bool(node.children) and node.children[0].kind_id in _UNTIL
        condition = [c for c in node.children if c.is_named and c.kind_id not in _DO_GROUP]
        body = node.child_by_field_name("body")
        return ast.WhileLoop(
            ast.Script(self.statements(condition), self.span(node)), self.body(body), until, self.span(node)
        )

    def for_loop(self, node: Node) -> ast.Command:
        keyword = node.children[0].type if node.children else "for"
        variable_node = node.child_by_field_name("variable")
        variable = self.source(variable_node) if variable_node is not None else ""
        value_nodes = node.children_by_field_name("value")
        has_in = any(c.kind_id in _IN for c in node.children)
        items = self.words(value_nodes) if has_in else None
        return ast.ForLoop(keyword, variable, items, self.body(node.child_by_field_name("body")), self.span(node))

    def arithmetic_for(self, node: Node) -> ast.Command:
        header = tuple(
            part for child in node.children if child.kind_id not in _DO_GROUP for part in self.expansions_within(child)
        )
        condition = node.child_by_field_name("condition")
        condition_text = self.source(condition) if condition is not None else ""
        return ast.ArithmeticFor(header, self.body(node.child_by_field_name("body")), self.span(node), condition_text)

    def case_clause(self, node: Node) -> ast.Command:
        subject_node = node.child_by_field_name("value")
        subject = self.word([subject_node]) if subject_node is not None else ast.Word((), self.span(node), "")
        arms = tuple(self.case_arm(c) for c in node.children if c.kind_id in _CASE_ITEM)
        return ast.CaseClause(subject, arms, self.span(node))

    def case_arm(self, node: Node) -> ast.CaseArm:
        patterns = self.words(node.children_by_field_name("value"))
        body_nodes = [
            child
            for index, child in enumerate(node.children)
            if child.is_named and node.field_name_for_child(index) not in ("value", "termination", "fallthrough")
        ]
        return ast.CaseArm(patterns, ast.Script(self.statements(body_nodes), self.span(node)))

    def function(self, node: Node) -> ast.Command | None:
        name_node = node.child_by_field_name("name")
        body_node = node.child_by_field_name("body")
        body = self.command(body_node) if body_node is not None else None
        if body is None:
            return None
        name = self.source(name_node) if name_node is not None else ""
        return ast.FunctionDefinition(name, body, self.span(node))

    def test_clause(self, node: Node) -> ast.Command:
        keyword = "[[" if node.children and node.children[0].kind_id in _DOUBLE_BRACKET else "["
        return ast.TestClause(self.words(self.word_leaves(node)), self.span(node), keyword)

    def error_region(self, node: Node) -> ast.Command | None:
        """Recover what an ERROR node still holds: its statements and words.

        Words after `case`/`for`/`select` are the subject or the item list,
        which bash only expands; they are kept as values, not run.
        """
        self.trouble(node, "tree-sitter could not parse this region")
        statements: list[ast.Statement] = []
        loose_words: list[Node] = []
        value_words: list[Node] = []
        in_header = False
        for child in node.children:
            kind = child.kind_id
            if kind in _HEADER_KEYWORDS:
                in_header = True
                continue
            if kind in WORD_NODES:
                if in_header:
                    value_words.append(child)
                elif not (kind in WORD and self.source(child) in _CLOSING_KEYWORDS):
                    loose_words.append(child)
                continue
            in_header = in_header and not child.is_named and kind not in _HEADER_ENDS
            if loose_words:
                statements.append(self._loose_command(loose_words))
                loose_words = []
            if kind in _CASE_ITEM:
                statements.extend(self.case_arm(child).body.statements)
            elif kind in REDIRECT_NODES:
                redirect = self.redirect(child)
                statements.append(
                    ast.Statement(ast.SimpleCommand((), (), (redirect,), redirect.span), False, redirect.span)
                )
            elif child.is_named and kind not in _SKIPPED_STATEMENT_NODES:
                command = self.command(child)
                if command is not None:
                    statements.append(ast.Statement(command, False, self.span(child)))
        if loose_words:
            statements.append(self._loose_command(loose_words))
        if value_words:
            values = ast.TestClause(self.words(value_words), self.span(node), "")
            statements.append(ast.Statement(values, False, values.span))
        if not statements:
            return None
        return ast.Group(ast.Script(tuple(statements), self.span(node)), self.span(node))

    def _loose_command(self, nodes: list[Node]) -> ast.Statement:
        command = ast.SimpleCommand((), self.words(nodes), (), self.span(nodes[0]))
        return ast.Statement(command, False, command.span)


def _pipeline_ends_the_list(
    listed: ast.AndOrList, rest: list[ast.Command], operators: list[str], span: Span
) -> ast.Command:
    """`a && b > f | c` arrives as `(a && b > f) | c` when the command after `&&` has a redirect;
    in bash `|` binds tighter: `a && (b > f | c)`. The list's last command starts the pipeline."""
    last = listed.commands[-1]
    if type(last) is ast.Pipeline and not last.negated:
        stages, joins = (*last.commands, *rest), (*last.operators, *operators)
    else:
        stages, joins = (last, *rest), tuple(operators)
    pipeline = ast.Pipeline(tuple(stages), tuple(joins), False, Span(last.span.start, span.end))
    return ast.AndOrList((*listed.commands[:-1], pipeline), listed.operators, span)


def _attach_redirects(
    command: ast.Command, redirects: tuple[ast.Redirect, ...], span: Span, words_after: tuple[ast.Word, ...] = ()
) -> ast.Command:
    """Redirects written after a pipeline or list belong to its last command.

    tree-sitter hangs `a | b > f` and `a && b > f` on the whole pipeline or
    list; in bash only `b` is redirected. `words_after` are the words it
    filed under the redirects (`rm 2>/dev/null -rf /`): that command's
    arguments.
    """
    if type(command) is ast.SimpleCommand:
        return _simple_with_redirects(command, redirects, words_after, span)
    if (type(command) is ast.Pipeline and not command.negated) or type(command) is ast.AndOrList:
        last_span = Span(command.commands[-1].span.start, span.end)
        last = _attach_redirects(command.commands[-1], redirects, last_span, words_after)
        return command._replace(commands=(*command.commands[:-1], last), span=span)
    redirected = ast.Redirected(command, redirects, span)
    if not words_after:
        return redirected
    # `{ ls; } 2>/dev/null rm -rf /`: bash runs the group, then fails on `rm`
    # as a syntax error; judged as both so nothing is lost.
    trailing = ast.SimpleCommand((), words_after, (), Span(words_after[0].span.start, span.end))
    statements = tuple(ast.Statement(part, False, part.span) for part in (redirected, trailing))
    return ast.Group(ast.Script(statements, span), span)


def _simple_with_redirects(
    command: ast.SimpleCommand, redirects: tuple[ast.Redirect, ...], words_after: tuple[ast.Word, ...], span: Span
) -> ast.SimpleCommand:
    """In `0</dev/null rm -rf /` tree-sitter also reads the redirect's descriptor
    `0` as a word of the command: the word that is the redirect's fd goes."""
    words = command.words
    first = redirects[0] if redirects else None
    if first is not None and words and first.fd is not None and words[-1].source == first.fd:
        redirects = (first._replace(span=Span(words[-1].span.start, first.span.end)), *redirects[1:])
        words = words[:-1]
    return ast.SimpleCommand(command.assignments, words + words_after, command.redirects + redirects, span)


_HANDLERS_BY_NAME: dict[str, Callable[[StatementBuilder, Node], ast.Command | None]] = {
    "command": StatementBuilder.simple_command,
    "declaration_command": StatementBuilder.declaration,
    "unset_command": StatementBuilder.declaration,
    "variable_assignment": StatementBuilder.assignments_only,
    "variable_assignments": StatementBuilder.assignments_only,
    "redirected_statement": StatementBuilder.redirected,
    "pipeline": StatementBuilder.pipeline,
    "negated_command": StatementBuilder.negated,
    "list": StatementBuilder.and_or,
    "subshell": StatementBuilder.subshell,
    "compound_statement": StatementBuilder.compound,
    "if_statement": StatementBuilder.if_clause,
    "while_statement": StatementBuilder.while_loop,
    "for_statement": StatementBuilder.for_loop,
    "c_style_for_statement": StatementBuilder.arithmetic_for,
    "case_statement": StatementBuilder.case_clause,
    "function_definition": StatementBuilder.function,
    "test_command": StatementBuilder.test_clause,
    "program": lambda builder, node: ast.Group(builder.script(node), builder.span(node)),
}
_COMMAND_HANDLERS = {kind: handler for name, handler in _HANDLERS_BY_NAME.items() for kind in kinds(name)}
