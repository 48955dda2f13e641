"""The tree-sitter-bash parser itself: one per thread, cancellable within the budget."""

from __future__ import annotations

import threading

import tree_sitter_bash
from tree_sitter import Language, Parser, Tree

from ..._budget import Budget
from ...errors import BudgetExceeded

LANGUAGE = Language(tree_sitter_bash.language())
# A Parser is not thread-safe; each thread keeps its own.
_LOCAL = threading.local()

# Below this size a parse cannot approach the time budget, so the plain bytes
# call (cheapest) is used; above it a read callable makes cancellation work
# (py-tree-sitter ignores progress_callback for a bytes source).
CANCELLABLE_FROM_BYTES = 2048
# Steps charged per progress call of a cancellable parse (one call per 100
# parse operations; see _budget).
STEPS_PER_PROGRESS_CALL = 16
# tree-sitter-bash is slow to finish a pipeline of three or more commands at the very end of
# its input: `a | b | c` takes ten times what `a | b | c` and a line break take (55 against
# 5.5 µs; an everyday five-command pipeline 250 against 35 µs). bash runs a text the same with a
# line break after it, so a short text with a `|` is parsed with one, unless that could change
# its reading: a final backslash would join the break, and a heredoc body ends at a line. A tree
# with errors is parsed again as given, so a text bash rejects is read as before (error recovery
# costs more with the break, so texts without a pipe, which gain nothing, are parsed as given).
_LINE_END = b"\n"


def _parser() -> Parser:
    parser: Parser | None = getattr(_LOCAL, "parser", None)
    if parser is None:
        parser = Parser(LANGUAGE)
        _LOCAL.parser = parser
    return parser


def _may_end_the_line(data: bytes) -> bool:
    # A text that ends in an operator (`a |`, `a &&`) is rejected either way: parsed once, as given.
    return (
        b"|" in data
        and not data.endswith((b"\\", b"\n"))
        and not data.rstrip().endswith((b"|", b"&"))
        and b"<<" not in data
    )


def run_parser(data: bytes, budget: Budget) -> Tree:
    """The tree of `data` (UTF-8 bytes); BudgetExceeded when the parse had to be cancelled.
    Its root may end one byte past `data` (see `_LINE_END`)."""
    parser = _parser()
    if len(data) < CANCELLABLE_FROM_BYTES:
        if _may_end_the_line(data):
            tree = parser.parse(data + _LINE_END)
            if not tree.root_node.has_error:
                return tree
        return parser.parse(data)

    def read(byte_offset: int, _point: object) -> bytes:
        return data[byte_offset : byte_offset + 4096]

    stopped: list[BudgetExceeded] = []
    previous = budget.spent()

    def cancel(*_state: object) -> bool:
        # tree-sitter calls this after every 100 parse operations: a count of
        # its work, the same on every machine, charged as steps.
        nonlocal previous
        try:
            budget.charge(STEPS_PER_PROGRESS_CALL, "the tree-sitter parse")
        except BudgetExceeded as exceeded:
            stopped.append(exceeded)
            return True
        # An operation of error recovery can cost a hundred times one of a
        # clean parse, which steps cannot see: the CPU-time backstop is read
        # at every call, and the parse is cancelled at the last call before
        # it (the next is taken to be as far as the last two were apart).
        spent = budget.spent()
        next_call = spent + (spent - previous)
        previous = spent
        if next_call > budget.seconds:
            stopped.append(budget.backstop_exceeded("the tree-sitter parse"))
            return True
        return False

    try:
        return parser.parse(read, progress_callback=cancel)
    except ValueError as error:  # py-tree-sitter's way of reporting a cancelled parse
        # A cancelled parser resumes the old input on its next call unless reset.
        parser.reset()
        raise (stopped[0] if stopped else BudgetExceeded("the tree-sitter parse was cancelled")) from error
