"""The syntax layer: bash source in, frozen nodes out.

`parse(source, deadline=...)` is the only entry point the engine uses. The
primary tree comes from tree-sitter-bash (after the pre-pass); when it reports
errors, bashlex gives a second opinion and a quote-aware lexical splitter is
the last fallback. Their trees are returned side by side, with the troubles,
so the engine can judge each and keep the worst.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import _ast as ast
from ._dump import dump
from ._errors import BudgetExceeded, ParseTrouble, SyntaxLayerError
from ._origin import Origin
from ._session import ParseSession
from ._walk import walk

__all__ = [
    "BudgetExceeded",
    "Origin",
    "ParseResult",
    "ParseTrouble",
    "SyntaxLayerError",
    "ast",
    "dump",
    "parse",
    "walk",
]


@dataclass(frozen=True, slots=True)
class ParseResult:
    """The primary script, any alternative readings, and what went wrong."""

    script: ast.Script
    alternatives: tuple[ast.Script, ...]
    troubles: tuple[ParseTrouble, ...]


def parse(source: str, *, deadline: float, origin: Origin | None = None) -> ParseResult:
    """Parse `source` (or a code string inside it, located by `origin`)."""
    session = ParseSession(deadline)
    origin = origin or Origin()
    script, has_error, _ = session.parse_tree_sitter(source, origin)
    if has_error and not session.troubles:
        session.troubles.append(ParseTrouble("tree-sitter", "tree-sitter reported a syntax error", origin.span(0, len(source))))
    return ParseResult(script, (), tuple(session.troubles))
