"""State shared by one parse: the deadline and the troubles found so far."""

from __future__ import annotations

import time

from . import _ast as ast
from ._errors import BudgetExceeded, ParseTrouble
from ._origin import Origin
from ._prepass import needs_prepass, prepare
from ._treesitter import parse_tree_sitter


class ParseSession:
    """One audit's parsing: nested fragments share its budget and troubles."""

    def __init__(self, deadline: float) -> None:
        self.deadline = deadline
        self.troubles: list[ParseTrouble] = []

    def check_time(self) -> None:
        if time.perf_counter() > self.deadline:
            raise BudgetExceeded("parsing exceeded the time budget")

    def parse_tree_sitter(self, text: str, origin: Origin) -> tuple[ast.Script, bool, bool]:
        """Pre-pass and tree-sitter on `text`.

        Returns the script, whether tree-sitter reported errors, and whether a
        heredoc ran to the end of input.
        """
        self.check_time()
        if not needs_prepass(text):
            script, has_error = parse_tree_sitter(text, origin, self, None, origin)
            return script, has_error, False
        prepared = prepare(text)
        parse_origin = origin.compose(prepared.offsets)
        script, has_error = parse_tree_sitter(prepared.text, parse_origin, self, prepared, origin)
        return script, has_error, prepared.unterminated_heredoc

    def parse_fragment(self, text: str, origin: Origin) -> ast.Script:
        """A nested piece of shell code (a backquoted command, a heredoc's `$(...)`)."""
        script, _, _ = self.parse_tree_sitter(text, origin)
        return script
