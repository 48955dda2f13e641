"""sqlglot's tokenizer behind a small interface: tokens with offsets, nothing of sqlglot leaks out.

Why sqlglot's tokenizer: it lexes each dialect as that dialect's server does
(PostgreSQL's nested comments, dollar quotes and `#` operator, MySQL's `#`
comments, backslash escapes and `--` needing a space, T-SQL's brackets), so a
quote or comment cannot hide a statement from us that the server would run.
sqlparse, the other candidate, lexes one generic SQL and gets each of those
wrong in the direction that hides a statement (see docs/databases-draft.md).
sqlglot is imported on first use only: `import audit` does not pay for it.

Two of sqlglot's conveniences for its own parser are turned off here because
they would hide statements: folding the rest of a "command" statement
(EXPLAIN, DO, CALL, ...) into one string, which also swallows the statements
after it up to a `;` glued to a word, and the Jinja `{# ... #}` comment, which
no database knows.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import Enum
from typing import Any, Protocol, cast

from .._named_tuple import NamedTuple
from ._model import SqlDialect


class TokenKind(Enum):
    WORD = "word"
    """A keyword or a bare identifier."""
    NAME = "name"
    """A quoted identifier; `text` is the name without its quotes."""
    STRING = "string"
    """A string literal of any form; `text` is its value."""
    NUMBER = "number"
    SYMBOL = "symbol"
    """Punctuation and operators."""


class SqlToken(NamedTuple):
    """A token; `start` and `end` are half-open offsets into the text that was lexed.

    A NamedTuple rather than a dataclass: one is made for every token.
    """

    kind: TokenKind
    text: str
    start: int
    end: int

    @property
    def word(self) -> str:
        """The upper-cased word of a WORD token, "" for any other kind."""
        return self.text.upper() if self.kind is TokenKind.WORD else ""

    def is_symbol(self, symbol: str) -> bool:
        return self.kind is TokenKind.SYMBOL and self.text == symbol


@dataclass(frozen=True, slots=True)
class Lexed:
    tokens: tuple[SqlToken, ...]
    unreadable_from: int | None
    """Where the tokenizer gave up (an unterminated quote); None when it read to the end."""


class _Token(Protocol):
    token_type: Any
    text: str
    start: int
    end: int


# sqlglot's names for its string literal token types; every other token is a word or a symbol.
_STRING_TYPES = frozenset(
    {
        "STRING", "BIT_STRING", "HEX_STRING", "BYTE_STRING", "NATIONAL_STRING", "NATIONAL_RAW_STRING",
        "RAW_STRING", "HEREDOC_STRING", "UNICODE_STRING",
    }
)  # fmt: skip

# The dialect whose tokenizer reads each of ours; CockroachDB speaks PostgreSQL's SQL, and CQL is
# read by the generic tokenizer with CQL's comments added.
_SQLGLOT_DIALECT = {
    SqlDialect.POSTGRES: "postgres",
    SqlDialect.MYSQL: "mysql",
    SqlDialect.SQLITE: "sqlite",
    SqlDialect.TSQL: "tsql",
    SqlDialect.CLICKHOUSE: "clickhouse",
    SqlDialect.DUCKDB: "duckdb",
    SqlDialect.COCKROACH: "postgres",
    SqlDialect.CQL: "",
    SqlDialect.BIGQUERY: "bigquery",
    SqlDialect.SNOWFLAKE: "snowflake",
}


@dataclass(frozen=True, slots=True)
class Lexer:
    """One dialect's tokenizer and its comment syntax."""

    make_tokenizer: Callable[[], Any]
    comments: dict[str, str | None]
    """Comment start -> end (None: to the end of the line)."""
    nested_comments: bool
    dash_comment_needs_space: bool

    def lex(self, text: str, start: int = 0) -> Lexed:
        """Tokens of `text[start:]` with offsets into `text`."""
        tokenizer = self.make_tokenizer()
        unreadable_from: int | None = None
        try:
            raw = cast("list[_Token]", tokenizer.tokenize(text[start:]))
        except Exception:  # sqlglot wraps every failure of its scanner in TokenError
            raw = cast("list[_Token]", tokenizer.tokens)
            unreadable_from = start + (raw[-1].end + 1 if raw else 0)
        return Lexed(tuple(_converted(raw, start)), unreadable_from)

    def comment_end(self, text: str, index: int) -> int | None:
        """Where the comment starting at `index` ends (an unterminated one: the end of the text);
        None when no comment starts there."""
        opener = max((start for start in self.comments if text.startswith(start, index)), key=len, default=None)
        if opener is None:
            return None
        after = index + len(opener)
        if opener == "--" and self.dash_comment_needs_space and after < len(text) and not _ends_dash(text[after]):
            return None
        closer = self.comments[opener]
        if closer is None:
            newline = text.find("\n", after)
            return len(text) if newline < 0 else newline
        return self._block_end(text, after, opener, closer)

    def _block_end(self, text: str, index: int, opener: str, closer: str) -> int:
        depth = 1
        while depth:
            close = text.find(closer, index)
            if close < 0:
                return len(text)
            if self.nested_comments:
                nested = text.find(opener, index, close)
                if nested >= 0:
                    depth += 1
                    index = nested + len(opener)
                    continue
            depth -= 1
            index = close + len(closer)
        return index

    def comments_in(self, text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
        """The comments in a gap between two tokens, as (start, end) offsets.

        A gap holds only white space and comments; anything else means our
        reading and the tokenizer's differ, reported as a comment reaching the
        end of the text so that the caller treats the rest as unreadable.
        """
        index = start
        while index < end:
            if text[index].isspace():
                index += 1
                continue
            comment_end = self.comment_end(text, index)
            if comment_end is None:
                yield index, len(text)
                return
            yield index, comment_end
            index = comment_end


def _ends_dash(character: str) -> bool:
    # MySQL: `--` starts a comment only before white space or a control character (`1--1` is 1 - -1).
    return character.isspace() or ord(character) < 32 or ord(character) == 127


def _converted(raw: list[_Token], offset: int) -> Iterator[SqlToken]:
    for token in raw:
        type_name: str = token.token_type.name
        start, end = offset + token.start, offset + token.end + 1
        if type_name == "HINT":
            continue
        if type_name in _STRING_TYPES:
            yield SqlToken(TokenKind.STRING, token.text, start, end)
        elif type_name == "IDENTIFIER":
            yield SqlToken(TokenKind.NAME, token.text, start, end)
        elif type_name == "NUMBER":
            yield SqlToken(TokenKind.NUMBER, token.text, start, end)
        elif type_name == "VAR" or token.text[:1].isalpha() or token.text[:1] == "_":
            # A keyword sqlglot reads as one token ("GROUP BY", "PRIMARY KEY") is its words.
            for word in token.text.split():
                yield SqlToken(TokenKind.WORD, word, start, end)
        else:
            yield SqlToken(TokenKind.SYMBOL, token.text, start, end)


@functools.cache
def lexer_for(dialect: SqlDialect) -> Lexer:
    """The dialect's lexer; the first call imports sqlglot (about 0.2 s)."""
    from sqlglot.dialects.dialect import Dialect

    name = _SQLGLOT_DIALECT[dialect]
    base: type[Any] = Dialect.get_or_raise(name).tokenizer_class
    settings: dict[str, Any] = {"COMMANDS": set()}
    if dialect is SqlDialect.CQL:
        # CQL: `--`, `//` and `/* */` comments, not nested; `$$...$$` strings.
        settings |= {"COMMENTS": ["--", "//", ("/*", "*/")], "NESTED_COMMENTS": False, "HEREDOC_STRINGS": ["$"]}
    tokenizer_class: type[Any] = type(f"Plain{base.__name__}", (base,), settings)
    # sqlglot adds Jinja's `{# #}` to every dialect; no database reads it as a comment, so text in it runs.
    comments: dict[str, str | None] = tokenizer_class._COMMENTS
    comments.pop("{#", None)
    return Lexer(
        make_tokenizer=functools.partial(tokenizer_class, dialect=name or None),
        comments=dict(comments),
        nested_comments=bool(tokenizer_class.NESTED_COMMENTS),
        dash_comment_needs_space=bool(tokenizer_class.DASH_COMMENT_REQUIRES_BOUNDARY),
    )
