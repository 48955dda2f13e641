"""The parse driver: prepare the text, read it with tree-sitter, and when that
reports errors ask bashlex for a second opinion (the quote-aware lexical
splitter is the last fallback). The readings are returned side by side, with
the troubles, so the engine judges each and keeps the worst.

A text of plain words needs no parser (`_plain`); most commands an agent runs
are such texts, so the parsers' modules (tree-sitter and its builder, bashlex,
the lexical reading) are imported by the first text that needs them.
"""

from __future__ import annotations

import re
import sys
from contextlib import AbstractContextManager, nullcontext

from .._budget import Budget
from .._named_tuple import NamedTuple
from ..errors import ParserUnavailable
from . import _ast as ast
from ._origin import VERBATIM, Origin
from ._plain import plain_script
from ._session import ParseSession, ParseTrouble, PreparedText

_DANGLING_PIPE = re.compile(r"\|&?\s*\Z")
# Text this long can stall tree-sitter's error recovery for over 10 ms.
_LONG_ENOUGH_TO_STALL = 1024
# A word that starts with `[` and goes on (`[l]s`), and what may come before a word.
_BRACKET_WORD = re.compile(r"\[[^\s\[]")
_WORD_STARTS = frozenset({"", " ", "\t", "\n", ";", "&", "|", "(", ")", "{", "}", "!", "`"})


class ParseResult(NamedTuple):
    """The primary script, any alternative readings, and what went wrong (one per parse)."""

    script: ast.Script
    alternatives: tuple[ast.Script, ...]
    troubles: tuple[ParseTrouble, ...]


_TREE_SITTER = f"{__package__}._treesitter"
_BASHLEX = f"{__package__}._bashlex"
_FALLBACK = f"{__package__}._fallback"


def _first_load(budget: Budget, module: str) -> AbstractContextManager[None]:
    """Importing a parser the first time is the process's one-time work, not the audit's that
    happens to need it first: the budget is paused for it (and only then: a pause costs more
    than the import of a loaded module)."""
    return nullcontext() if module in sys.modules else budget.paused()


def _beyond_error_recovery(text: str) -> str | None:
    """Why tree-sitter must not read `text`, if it must not: its error recovery would run for
    tens of milliseconds past its last progress call, where it cannot be cancelled (or, for a
    text too short to be read through a progress callback, with no call at all). bash rejects
    such text anyway.

    - hundreds of stages and a final `|` (400 of them: 44 ms);
    - text made mostly of `<<` (more than one in four characters; a script of real heredocs
      has about one in ten: `<<<<<<` is 27 ms at 2,000 characters, 400 ms at 10,000).
    """
    if len(text) >= _LONG_ENOUGH_TO_STALL and text.count("<<") * 4 > len(text):
        return "the input is mostly heredoc operators"
    if len(text) >= _LONG_ENOUGH_TO_STALL and _DANGLING_PIPE.search(text):
        return "the input ends with a dangling pipe"
    return None


def _mostly_parameter_openers(text: str) -> bool:
    """More than one `${` in four characters: no script is written like that (a long one full
    of `${VAR}` has one in fifteen), text built to nest expansions is."""
    return text.count("${") * 4 > len(text)


def parse(source: str, *, budget: Budget, origin: Origin | None = None) -> ParseResult:
    """Parse `source` (or a code string inside it, located by `origin`)."""
    session = ParseSession(budget, _tree_sitter_fragment)
    origin = origin or VERBATIM
    ready = session.prepare(source, origin)
    script = plain_script(ready, session)
    if script is not None:
        has_error = False
    else:
        with _first_load(budget, _TREE_SITTER):
            from ._treesitter import parse_tree_sitter

        unparseable = _beyond_error_recovery(ready.text)
        if unparseable is not None:
            with _first_load(budget, _FALLBACK):
                from ._fallback import parse_fallback

            fallback = parse_fallback(ready, session)
            trouble = ParseTrouble(
                "fallback", f"{unparseable}; a lexical reading is judged", origin.span(0, len(source))
            )
            return ParseResult(fallback, (), (*session.troubles, trouble))
        if len(ready.text) >= _LONG_ENOUGH_TO_STALL and _mostly_parameter_openers(ready.text):
            # Thousands of `${` cost tree-sitter's error recovery tens of milliseconds after
            # its last progress call, and its error region thousands of loose commands. The
            # lexical reading, which the full path ends in for such text anyway, comes first:
            # nesting past what it can follow stops the audit there (IN005), in a few ms.
            with _first_load(budget, _FALLBACK):
                from ._fallback import parse_fallback

            parse_fallback(ready, ParseSession(budget, _tree_sitter_fragment))  # read only to stop here
        script, has_error = parse_tree_sitter(ready, session)
    if not has_error and not session.troubles:
        return ParseResult(script, (), ())
    with _first_load(budget, _BASHLEX), _first_load(budget, _FALLBACK):
        from ._bashlex import parse_bashlex
        from ._fallback import parse_fallback

    whole = origin.span(0, len(source))
    tree_sitter_troubles = len(session.troubles)
    try:
        second = parse_bashlex(ready, session)
        if _bracket_words_explain_errors(ready, budget):
            # `[l]s -la`, `[r]m -rf /`: bash reads one word (its name from pathname expansion);
            # tree-sitter-bash opens a test command at the `[` and fails. bashlex reads bash's way.
            return ParseResult(second, (), tuple(session.troubles[tree_sitter_troubles:]))
        note = ParseTrouble(
            "bashlex", "tree-sitter reported errors that bashlex did not; both readings are judged", whole
        )
    except ParserUnavailable as reason:
        second = parse_fallback(ready, session)
        note = ParseTrouble(
            "fallback", f"bashlex could not read it either ({reason}); a lexical reading is judged too", whole
        )
    return ParseResult(script, (second,), (*session.troubles, note))


def _bracket_words_explain_errors(ready: PreparedText, budget: Budget) -> bool:
    """Whether tree-sitter's errors come from words that start with `[` and go on (`[l]s`; not the
    test command `[ -f x ]`): read with a neutral character for each such `[`, the text has none."""
    from ._treesitter import parse_tree_sitter

    text = ready.text
    starts = [
        match.start()
        for match in _BRACKET_WORD.finditer(text)
        if text[match.start() - 1 : match.start()] in _WORD_STARTS
    ]
    if not starts:
        return False
    neutral = list(text)
    for start in starts:
        neutral[start] = "_"
    session = ParseSession(budget, _tree_sitter_fragment)
    _, has_error = parse_tree_sitter(ready._replace(text="".join(neutral)), session)
    return not has_error and not session.troubles


def _tree_sitter_fragment(session: ParseSession, ready: PreparedText) -> ast.Script:
    """The session's parser of nested code: tree-sitter's, loaded when first needed."""
    with _first_load(session.budget, _TREE_SITTER):
        from ._treesitter import tree_sitter_fragment

    return tree_sitter_fragment(session, ready)
