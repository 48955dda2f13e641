"""The last-resort reading: a quote-aware, heredoc-aware lexical splitter.

Used only when both parsers fail. It knows words, quotes, substitutions,
redirects and the command separators, but no grammar: every run of words
between separators is a simple command (after skipping reserved words), and
`|` joins commands into pipelines. That is crude, but it never loses a
command bash could run, which is what the rules need.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .._model import Span
from . import _ast as ast
from ._prepass import find_substitution_end
from ._session import STEPS_PER_COMMAND_NODE, ParseSession, PreparedText
from ._words import heredoc_node, word_parts_from_text

# Steps (see _budget) per token the lexical reading cuts out and classifies in Python.
STEPS_PER_TOKEN = 4
_SEPARATORS = ("&&", "||", ";;&", ";;", ";&", "|&", ";", "&", "|", "\n", "(", ")")
_REDIRECT_OPERATORS = ("&>>", "<<<", ">>", "&>", ">&", "<&", ">|", "<>", ">", "<")
# The operators at a position, tried in this order: a process substitution, a
# redirect, a separator; each list is longest first, so the first match is
# the longest. (A redirect's fd digits are read before, with str.isdigit.)
_REDIRECT = re.compile("|".join(map(re.escape, _REDIRECT_OPERATORS)))
_OPERATOR = re.compile(
    f"(?P<procsub>[<>]\\()|(?P<redirect>{_REDIRECT.pattern})|(?P<separator>{'|'.join(map(re.escape, _SEPARATORS))})"
)
_WORD_END = frozenset(" \t\n;&|()<>")
# Where a word may end or a quoted or nested construct begins.
_WORD_SPECIAL = re.compile("[ \t\n;&|()<>\\\\'\"`$]")
_RESERVED = frozenset(
    {
        "if",
        "then",
        "else",
        "elif",
        "fi",
        "do",
        "done",
        "while",
        "until",
        "esac",
        "{",
        "}",
        "!",
        "[[",
        "]]",
        "function",
        "time",
        "coproc",
    }
)
# Words after these are a subject or an item list, never a command.
_HEADERS = frozenset({"for", "select", "case"})


@dataclass(frozen=True, slots=True)
class _Token:
    kind: str  # "word", "separator", "redirect", "procsub"
    text: str
    start: int
    end: int


def parse_fallback(ready: PreparedText, session: ParseSession) -> ast.Script:
    """The lexical reading of the prepared text (never fails)."""
    tokens = _tokenize(ready.text, session)
    builder = _Builder(ready, session)
    return builder.script(tokens, ready.origin.span(0, len(ready.text)))


def _tokenize(text: str, session: ParseSession) -> list[_Token]:
    tokens: list[_Token] = []
    index = 0
    length = len(text)
    # The words' scans cover the text once between them: charged before they run, as one
    # quoted word can take the whole text.
    session.charge_scan(text, 0, length)
    while index < length:
        if len(tokens) % 256 == 255:
            session.charge(256 * STEPS_PER_TOKEN)
        char = text[index]
        if char in " \t":
            index += 1
            continue
        if char == "#" and (index == 0 or text[index - 1] in _WORD_END):
            newline = text.find("\n", index)
            index = length if newline < 0 else newline
            continue
        kind, end = _operator_at(text, index)
        if kind == "word":
            end = _word_end(text, index)
        elif kind == "procsub":
            end = find_substitution_end(text, index, "$(")
        tokens.append(_Token(kind, text[index:end], index, end))
        index = end
    return tokens


def _operator_at(text: str, index: int) -> tuple[str, int]:
    """The kind of token an operator at `index` starts, and the operator's end
    ("word" when there is none)."""
    if text[index].isdigit():
        digits_end = index + 1
        while digits_end < len(text) and text[digits_end].isdigit():
            digits_end += 1
        redirect = _REDIRECT.match(text, digits_end)
        return ("word", index) if redirect is None else ("redirect", redirect.end())
    operator = _OPERATOR.match(text, index)
    # Every alternative of _OPERATOR is a named group, so a match always has a lastgroup.
    return ("word", index) if operator is None else (operator.lastgroup or "word", operator.end())


def _word_end(text: str, index: int) -> int:
    length = len(text)
    find_special = _WORD_SPECIAL.search
    while True:
        special = find_special(text, index)
        if special is None:
            return length
        index = special.start()
        char = text[index]
        if char in _WORD_END:
            return index
        if char == "\\":
            index += 2
        elif char == "'":
            close = text.find("'", index + 1)
            index = length if close < 0 else close + 1
        elif char == '"':
            index = find_substitution_end(text, index, '"')
        elif char == "`":
            index = find_substitution_end(text, index, "`")
        elif text.startswith("$((", index):
            index = find_substitution_end(text, index, "$((")
        elif text.startswith("$(", index):
            index = find_substitution_end(text, index, "$(")
        elif text.startswith("${", index):
            index = find_substitution_end(text, index, "${")
        else:
            index += 1


class _Builder:
    def __init__(self, ready: PreparedText, session: ParseSession) -> None:
        self.text = ready.text
        self.origin = ready.origin
        self.prepared = ready.prepared
        self.source_origin = ready.source_origin
        self.session = session

    def script(self, tokens: list[_Token], span: Span) -> ast.Script:
        statements: list[ast.Statement] = []
        pipeline: list[ast.Command] = []
        operators: list[str] = []
        current: list[_Token] = []

        def end_command() -> None:
            command = self.command(current)
            current.clear()
            if command is not None:
                pipeline.append(command)

        def end_statement(background: bool) -> None:
            end_command()
            if pipeline:
                if len(pipeline) == 1:
                    command: ast.Command = pipeline[0]
                else:
                    command = ast.Pipeline(
                        tuple(pipeline), tuple(operators[: len(pipeline) - 1]), False, _cover(pipeline)
                    )
                statements.append(ast.Statement(command, background, command.span))
            pipeline.clear()
            operators.clear()

        for token in tokens:
            if token.kind != "separator":
                current.append(token)
            elif token.text in ("|", "|&"):
                end_command()
                operators.append(token.text)
            else:
                end_statement(token.text == "&")
        end_statement(False)
        return ast.Script(tuple(statements), span)

    def command(self, tokens: list[_Token]) -> ast.SimpleCommand | None:
        self.session.charge(STEPS_PER_COMMAND_NODE)
        words: list[ast.Word] = []
        redirects: list[ast.Redirect] = []
        position = 0
        skip_header = False
        while position < len(tokens):
            token = tokens[position]
            position += 1
            if token.kind == "redirect":
                target = tokens[position] if position < len(tokens) and tokens[position].kind == "word" else None
                if target is not None:
                    position += 1
                redirects.append(self.redirect(token, target))
                continue
            if not words and token.kind == "word":
                if token.text in _RESERVED:
                    continue
                if token.text in _HEADERS:
                    skip_header = True
                    continue
            if skip_header:
                # `case WORD in` ends at `in`; `for NAME in WORDS` at the separator.
                if token.text == "in" and tokens[0].text == "case":
                    skip_header = False
                continue
            words.append(self.word(token))
        if not words and not redirects:
            return None
        spans = [word.span for word in words] + [redirect.span for redirect in redirects]
        span = Span(min(s.start for s in spans), max(s.end for s in spans))
        return ast.SimpleCommand((), tuple(words), tuple(redirects), span)

    def word(self, token: _Token) -> ast.Word:
        origin = self.origin.shifted(token.start)
        span = self.origin.span(token.start, token.end)
        if token.kind == "procsub":
            inner_end = token.end - 1 if token.text.endswith(")") else token.end
            inner = self.text[token.start + 2 : inner_end]
            body = parse_fallback(
                PreparedText(inner, self.origin.shifted(token.start + 2), None, self.origin), self.session
            )
            part: ast.WordPart = ast.ProcessSubstitution(body, token.text[0], span)
            return ast.Word((part,), span, token.text)
        return ast.Word(word_parts_from_text(token.text, origin, self.session), span, token.text)

    def redirect(self, token: _Token, target: _Token | None) -> ast.Redirect:
        digits = len(token.text) - len(token.text.lstrip("0123456789"))
        fd = token.text[:digits] or None
        operator = token.text[digits:]
        operator_offset = token.start + digits
        span = self.origin.span(token.start, target.end if target is not None else token.end)
        prepared = self.prepared
        if prepared is not None and operator_offset in prepared.heredocs:
            body = prepared.heredocs[operator_offset]
            return ast.Redirect(body.operator, fd, None, heredoc_node(body, self.source_origin, self.session), span)
        if prepared is not None and operator_offset in prepared.read_write:
            operator = "<>"
        return ast.Redirect(operator, fd, self.word(target) if target is not None else None, None, span)


def _cover(commands: list[ast.Command]) -> Span:
    return Span(commands[0].span.start, commands[-1].span.end)
