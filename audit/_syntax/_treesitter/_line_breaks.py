"""A newline tree-sitter-bash reads as a blank inside a pipeline or and-or list.

After a pipeline of three or more stages, tree-sitter-bash may run the next
line into the pipeline's last command, with no error: `a | b | c <newline>
d > f` as `c d > f`, and `a | b | c <newline> d && e` as `a | (b | c d) && e`
(a list inside a pipeline, which bash's grammar cannot build). bash ends a
command at an unquoted newline, and the pre-pass has removed every
backslash-newline, so a newline between two tokens of one command is always
such a misreading, wherever the command sits in the chain. The builder splits
the statement at the line and parses each part again.
"""

from __future__ import annotations

import itertools

from tree_sitter import Node

from ._elements import REDIRECT_NODES
from ._kinds import kinds

_CHAINS = kinds("list", "pipeline", "redirected_statement", "negated_command")
# Commands whose tokens a newline always separates into two commands.
_LINE_COMMANDS = kinds("command", "declaration_command", "unset_command")


def token_after_line_break(data: bytes, statement: Node) -> Node | None:
    """The earliest token of a command in `statement` that follows a newline inside that command.
    `data` is the text the tree was parsed from; only a text with a newline can hold one."""
    found: Node | None = None
    stack = [statement]
    while stack:
        node = stack.pop()
        kind = node.kind_id
        if kind in _CHAINS:
            stack.extend(child for child in node.children if child.is_named)
        elif kind in _LINE_COMMANDS:
            token = _first_token_on_a_new_line(data, node)
            if token is not None and (found is None or token.start_byte < found.start_byte):
                found = token
    return found


def _first_token_on_a_new_line(data: bytes, command: Node) -> Node | None:
    tokens = [
        token
        for child in command.children
        for token in (child.children if child.kind_id in REDIRECT_NODES else [child])
    ]
    for previous, token in itertools.pairwise(tokens):
        if b"\n" in data[previous.end_byte : token.start_byte]:
            return token
    return None
