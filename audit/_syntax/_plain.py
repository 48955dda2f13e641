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

from . import _ast as ast
from ._session import STEPS_PER_COMMAND_NODE, ParseSession, PreparedText

_PLAIN = re.compile(r"[A-Za-z0-9_./:,-]+(?: +[A-Za-z0-9_./:,+=-]+)*")
_WORD = re.compile(r"[^ ]+")
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
    text = ready.text
    if ready.prepared is not None or _PLAIN.fullmatch(text) is None:
        return None
    origin = ready.origin
    words: list[ast.Word] = []
    for match in _WORD.finditer(text):
        start, end = match.span()
        value = match.group()
        span = origin.span(start, end)
        words.append(ast.Word((ast.Literal(value, False, span),), span, value))
    if words[0].source in _NOT_A_PLAIN_COMMAND:
        return None
    session.charge(STEPS_PER_COMMAND_NODE)
    span = origin.span(0, len(text))
    command = ast.SimpleCommand((), tuple(words), (), span)
    return ast.Script((ast.Statement(command, False, span),), span)
