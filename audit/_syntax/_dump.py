"""A compact, readable rendering of syntax nodes, for parser tests and debugging.

One line per script, statements joined by `; `. `x=1 ls -la "$HOME"/src
2>/dev/null | wc -l` is

    (pipe (cmd (= x 1) ls -la "${HOME}"/src (2> /dev/null)) | (cmd wc -l))

Words show their parts glued together: unquoted text as is (or as a Python
string literal when it holds blanks, quotes or parentheses), quoted text in
single quotes, expansions as `${name}` (`${name OPERATOR ARGUMENT...}` with
an operator), `$(...)`, `<(...)`, `$((...))`, in double quotes when quoted. With `spans=True` every node above literal text
is followed by `@start:end`.
"""

from __future__ import annotations

import re

from . import _ast as ast
from ._traverse import Node

_PLAIN = re.compile(r"[^\s'\"()$`\\;|&<>@]+")


def dump(node: Node, *, spans: bool = False) -> str:
    """Render `node` on one line."""
    return _Dumper(spans).node(node)


class _Dumper:
    def __init__(self, spans: bool) -> None:
        self.spans = spans

    def node(self, node: Node) -> str:
        text = self._render(node)
        if self.spans and not isinstance(node, ast.Script | ast.Statement | ast.CaseArm | ast.Literal):
            return f"{text}@{node.span.start}:{node.span.end}"
        return text

    def script(self, script: ast.Script) -> str:
        return "; ".join(self.node(statement) for statement in script.statements)

    def words(self, words: tuple[ast.Word, ...]) -> str:
        return " ".join(self.node(word) for word in words)

    def _render(self, node: Node) -> str:
        if isinstance(node, ast.Script):
            return self.script(node)
        if isinstance(node, ast.Statement):
            return f"(& {self.node(node.command)})" if node.background else self.node(node.command)
        if isinstance(node, ast.Word | ast.Heredoc | ast.Redirect | ast.Assignment):
            return self._element(node)
        if isinstance(node, ast.WordPart):
            return self._part(node)
        if isinstance(node, ast.CaseArm):
            return f"(({self.words(node.patterns)}) {self.script(node.body)})"
        return self._command(node)

    def _element(self, node: ast.Word | ast.Heredoc | ast.Redirect | ast.Assignment) -> str:
        if isinstance(node, ast.Word):
            return "".join(self.node(part) for part in node.parts) or "''"
        if isinstance(node, ast.Heredoc):
            body = "".join(self.node(part) for part in node.parts)
            return f"(heredoc {'-' if node.strip_tabs else ''}{node.delimiter} {body or repr('')})"
        if isinstance(node, ast.Redirect):
            target = self.node(node.heredoc) if node.heredoc is not None else self._optional(node.target)
            return f"({node.fd or ''}{node.operator} {target})"
        name = node.name + (f"[{self.node(node.subscript)}]" if node.subscript is not None else "")
        value = f"(items {self.words(node.items)})" if node.items is not None else self._optional(node.value)
        return f"({'+=' if node.append else '='} {name} {value})"

    def _optional(self, word: ast.Word | None) -> str:
        return "-" if word is None else self.node(word)

    def _part(self, part: ast.WordPart) -> str:
        if isinstance(part, ast.Literal):
            if part.quoted:
                return "'" + part.text.encode("unicode_escape").decode("ascii").replace("'", "\\'") + "'"
            return part.text if _PLAIN.fullmatch(part.text) else repr(part.text)
        if isinstance(part, ast.ParamExpansion):
            subscript = f"[{self.node(part.subscript)}]" if part.subscript is not None else ""
            fields = [part.operator, *(self.node(word) for word in part.argument)] if part.operator else []
            text = "${" + " ".join([part.name + subscript, *fields]) + "}"
        elif isinstance(part, ast.CommandSubstitution):
            body = self.script(part.body)
            text = f"`{body}`" if part.backquoted else f"$({body})"
        elif isinstance(part, ast.ProcessSubstitution):
            return f"{part.direction}({self.script(part.body)})"
        else:
            return f"$(({' '.join(self.node(inner) for inner in part.parts)}))"
        return f'"{text}"' if part.quoted else text

    def _command(self, command: ast.Command) -> str:
        if isinstance(command, ast.SimpleCommand):
            elements = [*command.assignments, *command.words, *command.redirects]
            return "(cmd " + " ".join(self.node(element) for element in elements) + ")"
        if isinstance(command, ast.Pipeline | ast.AndOrList):
            pieces = [self.node(command.commands[0])] if command.commands else []
            for operator, stage in zip(command.operators, command.commands[1:], strict=False):
                pieces += [operator, self.node(stage)]
            if isinstance(command, ast.AndOrList):
                return "(list " + " ".join(pieces) + ")"
            return ("(! pipe " if command.negated else "(pipe ") + " ".join(pieces) + ")"
        if isinstance(command, ast.Subshell | ast.Group):
            kind = "subshell" if isinstance(command, ast.Subshell) else "group"
            return f"({kind} {self.script(command.body)})"
        if isinstance(command, ast.Redirected):
            return f"(redirected {self.node(command.command)} {' '.join(self.node(r) for r in command.redirects)})"
        return self._compound(command)

    def _compound(self, command: ast.Command) -> str:
        if isinstance(command, ast.IfClause):
            branches = " ".join(
                f"(if {self.script(test)}) (then {self.script(body)})" for test, body in command.branches
            )
            otherwise = f" (else {self.script(command.else_body)})" if command.else_body is not None else ""
            return f"(if-clause {branches}{otherwise})"
        if isinstance(command, ast.WhileLoop):
            keyword = "until" if command.until else "while"
            return f"({keyword} {self.script(command.condition)} do {self.script(command.body)})"
        if isinstance(command, ast.ForLoop):
            items = "" if command.items is None else f" in {self.words(command.items)}"
            return f"({command.keyword} {command.variable}{items} do {self.script(command.body)})"
        if isinstance(command, ast.ArithmeticFor):
            header = " ".join(self.node(part) for part in command.header)
            return f"(for (({header})) do {self.script(command.body)})"
        if isinstance(command, ast.CaseClause):
            return f"(case {self.node(command.subject)} {' '.join(self.node(arm) for arm in command.arms)})"
        if isinstance(command, ast.FunctionDefinition):
            return f"(function {command.name} {self.node(command.body)})"
        if isinstance(command, ast.ArithmeticCommand):
            return f"((( {' '.join(self.node(part) for part in command.parts)} )))"
        if isinstance(command, ast.TestClause):
            closing = {"[[": "]]", "[": "]"}.get(command.keyword, "")
            return f"({command.keyword} {self.words(command.words)} {closing})"
        return f"(? {type(command).__name__})"
