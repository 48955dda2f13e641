"""The fast path: a command that is only plain words needs no parser.

A text of words made of characters bash gives no meaning to (letters, digits
and `_ . / : , -`, and `+ =` after the first word), separated by spaces,
is one simple command whose words are exactly those characters: nothing is
quoted, expanded, globbed, redirected or split differently. Its tree is built
here directly, node for node what the tree-sitter builder makes of it (pinned
by tests/audit/test_fast_path.py against the full path on the corpus, every
rule example and generated commands).

Excluded even when their characters are plain: a first word that bash or
tree-sitter reads as a keyword or a declaration (`if`, `export`, `local`,
`unset`...), whose tree differs, and a first word with `=` or `+` (`a=1`,
`a+=1`: assignments).
"""

from __future__ import annotations

import re

from .._model import Span
from . import _ast as ast
from ._ast import new_node
from ._origin import Origin
from ._session import STEPS_PER_COMMAND_NODE, ParseSession, PreparedText

_PLAIN = re.compile(r"[A-Za-z0-9_./:,-]+(?: +[A-Za-z0-9_./:,+=-]+)*")
_NOT_A_PLAIN_COMMAND = frozenset(
    {
        # reserved words
        "case", "coproc", "do", "done", "elif", "else", "esac", "fi", "for", "function", "if", "in",
        "select", "then", "time", "until", "while",
        # declaration and unset commands, which tree-sitter-bash reads as their own nodes
        "declare", "export", "local", "readonly", "typeset", "unset", "unsetenv",
    }
)  # fmt: skip


def plain_script(ready: PreparedText, session: ParseSession) -> ast.Script | None:
    """The script of a text of plain words, or None when the text needs the parser."""
    if ready.prepared is not None:
        return None
    text = ready.text
    words = plain_words(text, ready.origin)
    if words is None:
        return None
    session.charge(STEPS_PER_COMMAND_NODE)
    span = ready.origin.span(0, len(text))
    command = new_node(ast.SimpleCommand, ((), words, (), span))
    return new_node(ast.Script, ((new_node(ast.Statement, (command, False, span)),), span))


def plain_words(text: str, origin: Origin) -> tuple[ast.Word, ...] | None:
    """The words of a text of plain words (its one simple command's), or None when the text needs the parser."""
    if _PLAIN.fullmatch(text) is None:
        return None
    values = text.split(" ")  # no blank at either end, so the first value is the first word
    if values[0] in _NOT_A_PLAIN_COMMAND:
        return None
    # A verbatim slice of the original: a span is the offsets shifted (origin.span inlined).
    shift = origin.base if origin.offsets is None and origin.pinned is None else None
    words: list[ast.Word] = []
    start = 0
    for value in values:
        if value:  # between two blanks of a run
            end = start + len(value)
            span = new_node(Span, (start + shift, end + shift)) if shift is not None else origin.span(start, end)
            words.append(new_node(ast.Word, ((new_node(ast.Literal, (value, False, span)),), span, value)))
            start = end
        start += 1
    return tuple(words)
