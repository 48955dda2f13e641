"""Assignments and redirects of the tree-sitter tree (the parts of a command
that are neither words nor statements)."""

from __future__ import annotations

from collections.abc import Sequence

from tree_sitter import Node

from ..._model import Span
from .. import _ast as ast
from .._words import heredoc_node
from ._kinds import ARRAY, COMMENT, ERROR, SUBSCRIPT, kinds
from ._words import WORD_NODES, WordBuilder

REDIRECT_NODES = kinds("file_redirect", "heredoc_redirect", "herestring_redirect")
_APPEND = kinds("+=")
_HERESTRING_REDIRECT = kinds("herestring_redirect")
_HEREDOC_REDIRECT = kinds("heredoc_redirect")
_FILE_REDIRECT = kinds("file_redirect")
_HEREDOC_START = kinds("<<")
_INPUT = kinds("<")


class ElementBuilder(WordBuilder):
    """Assignments and redirects, on top of the words."""

    __slots__ = ()

    def assignment(self, node: Node, glued: Sequence[Node] = ()) -> ast.Assignment:
        """`NAME=value`; `glued`: the rest of the value, split off after the assignment (`glued_to`)."""
        name_node = node.child_by_field_name("name")
        value_node = node.child_by_field_name("value")
        index: ast.Word | None = None
        name = ""
        if name_node is not None:
            if name_node.kind_id in SUBSCRIPT:
                inner_name = name_node.child_by_field_name("name")
                index_node = name_node.child_by_field_name("index")
                name = self.source(inner_name) if inner_name is not None else self.source(name_node)
                if index_node is not None:
                    index = self.word([index_node])
            else:
                name = self.source(name_node)
        append = any(c.kind_id in _APPEND for c in node.children)
        value: ast.Word | None = None
        items: tuple[ast.Word, ...] | None = None
        if value_node is not None and value_node.kind_id in ARRAY:
            items = self.words([c for c in value_node.children if c.is_named and c.kind_id not in COMMENT])
        elif value_node is not None:
            value = self.word([*self._value_nodes(node, value_node), *glued])
        else:
            value = ast.Word((), self.span(node), "")
        return ast.Assignment(name, index, value, items, append, self.span(node))

    def _value_nodes(self, node: Node, value_node: Node) -> list[Node]:
        """The value and any node glued to it (tree-sitter splits some words)."""
        nodes = [value_node]
        siblings = node.children
        position = [c.id for c in siblings].index(value_node.id)
        for sibling in siblings[position + 1 :]:
            if sibling.start_byte != nodes[-1].end_byte or sibling.kind_id not in WORD_NODES:
                break
            nodes.append(sibling)
        return nodes

    def assignment_word(self, node: Node, glued: Sequence[Node] = ()) -> ast.Word:
        """`NAME=value` as one argv word (for `export NAME=value`)."""
        return self.word([*node.children, *glued])

    def redirect_and_words(self, node: Node) -> tuple[ast.Redirect, tuple[ast.Word, ...]]:
        """A redirect, and the command's words tree-sitter filed under it."""
        kind = node.kind_id
        span = self.span(node)
        fd_node = node.child_by_field_name("descriptor")
        fd = self.source(fd_node) if fd_node is not None else self.touching_digits(node)
        if kind in _HERESTRING_REDIRECT:
            operands = [c for c in node.children if c.kind_id in WORD_NODES]
            return ast.Redirect("<<<", fd, self.word(operands) if operands else None, None, span), ()
        operator_node = next((c for c in node.children if not c.is_named and c.kind_id not in ERROR), None)
        operator = operator_node.type if operator_node is not None else ">"
        operator_offset = self.chars(operator_node)[0] + self.base if operator_node is not None else -1
        prepared = self.prepared
        if prepared is not None and operator_offset in prepared.heredocs:
            body = prepared.heredocs[operator_offset]
            return ast.Redirect(body.operator, fd, None, heredoc_node(body, self.source_origin, self.session), span), ()
        if prepared is not None and operator_offset in prepared.read_write:
            operator = "<>"
        destinations = self.words(node.children_by_field_name("destination"))
        if kind in _HEREDOC_REDIRECT:
            self.trouble(node, "heredoc not seen by the pre-pass")
        if len(destinations) > 1:
            # `rm 2>/dev/null -rf /`: tree-sitter gives the redirect three
            # destinations; bash redirects to the first and passes the rest to rm.
            span = Span(span.start, destinations[0].span.end)
        return ast.Redirect(operator, fd, destinations[0] if destinations else None, None, span), destinations[1:]

    def redirect(self, node: Node) -> ast.Redirect:
        return self.redirect_and_words(node)[0]

    def touching_digits(self, node: Node) -> str | None:
        """Digits written right before a redirect are its descriptor (`0</dev/null`).

        tree-sitter misses some (`0<` at the start of a command) and makes
        them a word of the command instead.
        """
        start = self.chars(node)[0]
        cursor = start
        while cursor > 0 and self.text[cursor - 1].isdigit():
            cursor -= 1
        if cursor == start or (cursor > 0 and self.text[cursor - 1] not in " \t\n;&|("):
            return None
        return self.text[cursor:start]

    def split_here_string(self, error: Node, redirect: Node) -> tuple[ast.Redirect, tuple[ast.Word, ...]]:
        """`cmd >f <<< word`: the here-string tree-sitter split into ERROR `<<` and `< word`."""
        self.repaired_errors.add(error.id)
        destinations = self.words(redirect.children_by_field_name("destination"))
        start = self.span(error).start
        end = destinations[0].span.end if destinations else self.span(redirect).end
        here_string = ast.Redirect(
            "<<<", self.touching_digits(error), destinations[0] if destinations else None, None, Span(start, end)
        )
        return here_string, destinations[1:]


def is_split_here_string(error: Node, redirect: Node) -> bool:
    """tree-sitter reads `<<<` after another redirect as ERROR `<<` then a `<` redirect."""
    return (
        error.kind_id in ERROR
        and error.child_count == 1
        and error.children[0].kind_id in _HEREDOC_START
        and redirect.kind_id in _FILE_REDIRECT
        and redirect.start_byte == error.end_byte
        and redirect.child_by_field_name("descriptor") is None
        and redirect.children[0].kind_id in _INPUT
    )


_COMMAND_NAME = kinds("command_name")


def glued_to(node: Node, following: Sequence[Node]) -> list[Node]:
    """The words tree-sitter split off the end of an assignment's value, which start where it ends
    with no blank between: `X=$A/$B/b CMD` comes out as `X=$A/$` and a command named `B/b` (a
    command name's words count). Bash reads one word, and CMD is the command."""
    tail: list[Node] = []
    end = node.end_byte
    for sibling in following:
        for part in sibling.children if sibling.kind_id in _COMMAND_NAME else (sibling,):
            if part.start_byte != end or part.kind_id not in WORD_NODES:
                return tail
            tail.append(part)
            end = part.end_byte
    return tail
