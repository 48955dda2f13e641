"""What one parse shares: the prepared text the parsers read, the time budget,
the troubles found so far, and how a nested fragment of code is parsed."""

from __future__ import annotations

import re
from collections.abc import Callable

from .._budget import Budget
from .._model import Span
from .._named_tuple import NamedTuple
from . import _ast as ast
from ._origin import Origin
from ._prepass import Prepared, needs_prepass, prepare


class ParseTrouble(NamedTuple):
    """Something a parser could not read, or where parsers disagreed."""

    parser: str
    message: str
    span: Span


class PreparedText(NamedTuple):
    """The one input every parser reads: a text ready for the parsers, and how
    to map it back (one per parse).

    `text` is the pre-pass output when `prepared` is set; `origin` maps it to
    the user's string and `source_origin` maps the pre-pass input (where the
    heredoc bodies' offsets point).
    """

    text: str
    origin: Origin
    prepared: Prepared | None
    source_origin: Origin


FragmentParser = Callable[["ParseSession", PreparedText], ast.Script]
"""Parses a nested piece of shell code (the primary parser, wired in by the driver)."""

_BEYOND_BMP = re.compile("[\U00010000-\U0010ffff]")

# Step costs of parsing (see _budget), measured against CPU time on the
# adversarial inputs of `python -m audit.benchmark`: each piece of code
# parsed (a tree-sitter call and a tree built for it), its characters as
# tree-sitter and the text checks read them, the characters the pre-pass
# scans, and each heredoc it cuts out (a body re-attached and parsed).
STEPS_PER_FRAGMENT = 20
CHARACTERS_PER_STEP = 8
PREPASS_CHARACTERS_PER_STEP = 2
STEPS_PER_HEREDOC = 60
# What building one command node of a tree costs (the fast path charges it too).
STEPS_PER_COMMAND_NODE = 8
# What each node of a word made of several costs (its part built, its literals merged).
STEPS_PER_WORD_PART = 8
# What each node costs that a search of a subtree goes through (arithmetic, test expressions).
STEPS_PER_NODE_SEARCHED = 3
# The pre-pass's dearest work: each `$` and backquote, whose expansion it scans to its end.
PREPASS_STEPS_PER_EXPANSION = 4


class ParseSession:
    """One parse: nested fragments share its budget and troubles."""

    __slots__ = ("_parse_fragment", "budget", "troubles")

    def __init__(self, budget: Budget, parse_fragment: FragmentParser) -> None:
        self.budget = budget
        self.troubles: list[ParseTrouble] = []
        self._parse_fragment = parse_fragment

    def charge(self, steps: int) -> None:
        """Spend steps of the audit's budget on parsing (BudgetExceeded when it is spent)."""
        self.budget.charge(steps, "parsing")

    def charge_scan(self, text: str, start: int, end: int) -> None:
        """Spend what scanning text[start:end] for quotes and expansions costs, as the pre-pass does."""
        expansions = text.count("$", start, end) + text.count("`", start, end)
        self.charge((end - start) // PREPASS_CHARACTERS_PER_STEP + expansions * PREPASS_STEPS_PER_EXPANSION)

    def trouble(self, parser: str, message: str, span: Span) -> None:
        self.troubles.append(ParseTrouble(parser, message, span))

    def prepare(self, text: str, origin: Origin) -> PreparedText:
        self.charge(STEPS_PER_FRAGMENT + len(text) // CHARACTERS_PER_STEP)
        if not text.isascii() and _BEYOND_BMP.search(text):
            # tree-sitter-bash 0.25 crashes the process (SIGSEGV) on some
            # characters beyond the Basic Multilingual Plane after `{`. They
            # only ever sit inside words, so each becomes U+FFFD for the
            # parsers; offsets do not change (one character for one).
            text = _BEYOND_BMP.sub("\ufffd", text)
        if not needs_prepass(text):
            return PreparedText(text, origin, None, origin)
        self.charge_scan(text, 0, len(text))
        prepared = prepare(text)
        self.charge(len(prepared.heredocs) * STEPS_PER_HEREDOC)
        return PreparedText(prepared.text, origin.compose(prepared.offsets), prepared, origin)

    def parse_fragment(self, text: str, origin: Origin) -> ast.Script:
        """A nested piece of shell code (a backquoted command, a heredoc's `$(...)`)."""
        if not text:
            # An empty substitution (``): the empty script tree-sitter would give.
            self.charge(STEPS_PER_FRAGMENT)
            return ast.Script((), origin.span(0, 0))
        return self._parse_fragment(self, self.prepare(text, origin))
