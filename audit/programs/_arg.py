"""One argv word as bash builds it: what programs read and rules judge."""

from __future__ import annotations

from .._model import Span
from .._named_tuple import NamedTuple
from .._syntax import ast


class Arg(NamedTuple):
    """One argv word as bash would build it.

    `values` holds the possible values (one for an ordinary word, several
    when a variable has several literal assignments); it is empty when the
    value depends on run time. `pattern` is True when the value still holds
    unquoted glob characters.
    """

    values: tuple[str, ...]
    source: str
    span: Span
    pattern: bool = False
    word: ast.Word | None = None

    @property
    def value(self) -> str | None:
        return self.values[0] if len(self.values) == 1 else None

    @property
    def is_dynamic(self) -> bool:
        return not self.values

    def display(self) -> str:
        return self.values[0] if len(self.values) == 1 else self.source

    def suffix(self, start: int) -> Arg:
        """The part of this word's value from `start` on: an option's attached value
        (`-c'rm -rf /'` gives `rm -rf /`, `--out=F` gives `F`).

        When the word is literal text written as is, the value keeps no syntax
        word but its own exact span and source (the cheap, common case); a word
        of several parts is cut too when the characters before `start` are
        literal text written as is; otherwise the value is located at the whole
        word.
        """
        # A value known only at run time stays unknown (never the empty string).
        values = tuple(each[start:] for each in self.values)
        word = self.word
        if word is not None and len(word.parts) == 1:
            part = word.parts[0]
            if (
                type(part) is ast.Literal
                and self.source == part.text
                and part.span.end - part.span.start == len(part.text)
            ):
                return Arg(
                    values, self.source[start:], Span(part.span.start + start, part.span.end), self.pattern, None
                )
        trimmed = _word_suffix(word, start) if word is not None else None
        if trimmed is None:
            return Arg(values, self.source, self.span, self.pattern, None)
        return Arg(values, trimmed.source, trimmed.span, self.pattern, trimmed)

    @property
    def written_as_is(self) -> bool:
        """Whether the value is the word's source text, character for character (`-crm` after `-c`)."""
        return self.word is None and len(self.values) == 1 and self.values[0] == self.source


def _word_suffix(word: ast.Word, start: int) -> ast.Word | None:
    """`word` without its first `start` characters, when those are literal text.

    The rest keeps its syntax, and so the substitutions a rule must see, even
    when the text before it is quoted or escaped or its spans only approximate
    the original (a code string inside a code string); it is then located at
    the literal it starts in, or at the whole word.
    """
    remaining = start
    for index, part in enumerate(word.parts):
        if remaining == 0:
            return _word_of(word.parts[index:], word)
        if type(part) is not ast.Literal:
            return None
        if len(part.text) > remaining:
            exact = part.span.end - part.span.start == len(part.text)
            span = Span(part.span.start + remaining, part.span.end) if exact else part.span
            rest = ast.Literal(part.text[remaining:], part.quoted, span)
            return _word_of((rest, *word.parts[index + 1 :]), word)
        remaining -= len(part.text)
    return _word_of((), word) if remaining == 0 else None


def _word_of(parts: tuple[ast.WordPart, ...], word: ast.Word) -> ast.Word:
    if word.span.end - word.span.start != len(word.source):
        # Spans that only approximate the original: the rest is located at the whole word.
        return ast.Word(parts, word.span, word.source)
    start = parts[0].span.start if parts else word.span.end
    cut = len(word.source) - (word.span.end - start)
    return ast.Word(parts, Span(start, word.span.end), word.source[max(cut, 0) :])
