"""Read a SQL text as its client does: statements, the client's own commands, and what is unreadable.

Each client adds commands of its own to SQL, read before the server sees
anything: psql and `cockroach sql` take a backslash command anywhere outside a
quote (`\\! rm -rf /`, `\\i file`, `\\gexec`); the mysql client takes `\\!` and
friends anywhere and `system`, `source`, `delimiter`, ... as the first word of
a line; sqlite3 and duckdb take `.shell`, `.read`, ... at the start of a line
between statements; sqlcmd takes `!!`, `:r` and `GO` at the start of a line.
The SQL around them is tokenised by the dialect's lexer; a client command's
line is then read by the client's own rules. When that line would have left
the SQL lexer inside a quote or comment, the text after it is lexed again from
there (a bounded number of times; past that the rest is unreadable).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from .._model import Span
from ._model import SqlDialect
from ._sql_commands import (
    COCKROACH,
    FAMILY,
    MYSQL_NAMED,
    PSQL,
    ClientCommand,
    Effect,
    Family,
    dot_command,
    end_of_line,
    first_on_line,
    line_command,
    mysql_backslash,
    psql_command,
    sqlcmd_command,
)
from ._sql_lexer import Lexed, Lexer, SqlToken, TokenKind, lexer_for

# Lexing the rest of the text again costs its length; hostile text could ask for it on every line.
RELEX_BUDGET = 16


@dataclass(frozen=True, slots=True)
class Statement:
    tokens: tuple[SqlToken, ...]
    span: Span
    output_runs: bool = False
    """Each value the statement returns is run as a statement (psql `\\gexec`)."""


@dataclass(frozen=True, slots=True)
class Unreadable:
    span: Span


ScriptItem = Statement | ClientCommand | Unreadable


def read_script(text: str, dialect: SqlDialect) -> tuple[ScriptItem, ...]:
    """The statements, client commands and unreadable stretches of `text`, in order."""
    lexer = lexer_for(dialect)
    if dialect is SqlDialect.MYSQL:
        text = _mysql_executable_comments_opened(text, lexer)
    return tuple(_Reader(text, lexer, FAMILY[dialect]).items())


@dataclass(slots=True)
class _Reader:
    text: str
    lexer: Lexer
    family: Family
    delimiter: str = ";"
    relexed: int = 0
    lexed_from: int = 0
    pending: list[SqlToken] = field(default_factory=list[SqlToken])
    last: Statement | None = None

    def items(self) -> Iterator[ScriptItem]:
        lexed = self.lexer.lex(self.text)
        tokens = lexed.tokens
        index = 0
        while index < len(tokens):
            token = tokens[index]
            found = self._client_command(tokens, index)
            if found is not None:
                yield from self._command(found)
            if found is not None and not found.also_sql:
                resume = self._resume(lexed, index, found.end)
                if resume is None:
                    yield from self._flush()
                    yield Unreadable(Span(found.end, len(self.text)))
                    return
                lexed, index = resume
                tokens = lexed.tokens
                continue
            delimiter_end = self._delimiter_end(token)
            if delimiter_end is not None:
                yield from self._flush()
                resume = self._resume(lexed, index, delimiter_end)
                if resume is None:
                    yield Unreadable(Span(delimiter_end, len(self.text)))
                    return
                lexed, index = resume
                tokens = lexed.tokens
                continue
            if self.family is Family.SQLCMD and self._is_go_line(tokens, index):
                yield from self._flush()
                index += 2 if index + 1 < len(tokens) and self._go_count(tokens, index) else 1
                continue
            self.pending.append(token)
            index += 1
        yield from self._flush()
        if lexed.unreadable_from is not None:
            yield Unreadable(Span(lexed.unreadable_from, len(self.text)))

    def _command(self, command: ClientCommand) -> Iterator[ScriptItem]:
        effect = command.effect
        if not command.also_sql and (command.command.ends_statement or effect is Effect.RUN_OUTPUT):
            yield from self._flush(output_runs=effect is Effect.RUN_OUTPUT)
        if not command.also_sql and effect is Effect.DELIMITER:
            yield from self._flush()
            self.delimiter = next(iter(command.argument.split()), ";")
        yield command

    def _flush(self, *, output_runs: bool = False) -> Iterator[Statement]:
        if self.pending:
            span = Span(self.pending[0].start, self.pending[-1].end)
            self.last = Statement(tuple(self.pending), span, output_runs)
            yield self.last
            self.pending.clear()
        elif output_runs and self.last is not None:
            # psql: `\gexec` with an empty query buffer runs the query sent last (`SELECT ...;` then `\gexec`).
            yield replace(self.last, output_runs=True)

    def _resume(self, lexed: Lexed, index: int, position: int) -> tuple[Lexed, int] | None:
        """Where to go on after a client command or delimiter ending at `position`.

        The tokens already lexed stay valid when no token and no comment runs
        across `position`; otherwise the rest is lexed again. None: the budget
        for lexing again is spent.
        """
        tokens = lexed.tokens
        after = index
        while after < len(tokens) and tokens[after].start < position:
            after += 1
        crossed = any(tokens[inside].end > position for inside in range(index, after))
        gap_start = max((tokens[inside].end for inside in range(index, after)), default=position)
        gap_end = tokens[after].start if after < len(tokens) else len(self.text)
        if after == len(tokens) and lexed.unreadable_from is not None:
            crossed = True
        crossed = crossed or any(
            start < position < end for start, end in self.lexer.comments_in(self.text, gap_start, gap_end)
        )
        if not crossed:
            return lexed, after
        if self.relexed >= RELEX_BUDGET:
            return None
        self.relexed += 1
        self.lexed_from = position
        return self.lexer.lex(self.text, position), 0

    def _client_command(self, tokens: tuple[SqlToken, ...], index: int) -> ClientCommand | None:
        token = tokens[index]
        family = self.family
        if token.is_symbol("\\"):
            if family is Family.PSQL or family is Family.COCKROACH:
                return psql_command(self.text, token.start, PSQL if family is Family.PSQL else COCKROACH)
            if family is Family.MYSQL:
                return mysql_backslash(self.text, token.start)
            return None
        if family is Family.MYSQL and token.kind is TokenKind.WORD:
            name = token.text.lower()
            if name in MYSQL_NAMED and self._first_on_line(tokens, index):
                found = line_command(self.text, token.start, token.end, name, MYSQL_NAMED[name])
                # A line that holds the delimiter is split into statements first (mysql's find_command
                # leaves it to add_line): `use shop; DROP TABLE t` runs the DROP.
                cut = self.text.find(self.delimiter, token.end, found.end)
                if cut != -1 and name != "delimiter":
                    found = replace(
                        found,
                        arguments=tuple(filter(None, (self.text[token.end : cut].strip(),))),
                        end=cut + len(self.delimiter),
                    )
                # The client reads a named command between statements; inside one, versions and options
                # differ, so the line is read both ways.
                return replace(found, also_sql=bool(self.pending))
        # sqlite3 reads a dot command between statements at the start of a line (white space before it is
        # accepted here: as SQL it would be a syntax error).
        if (
            family is Family.DOT
            and not self.pending
            and token.text in (".", "#")
            and self._first_on_line(tokens, index)
        ):
            return dot_command(self.text, token.start)
        if family is Family.SQLCMD and token.text[:1] in ("!", ":") and self._first_on_line(tokens, index):
            return sqlcmd_command(self.text, token.start)
        return None

    def _first_on_line(self, tokens: tuple[SqlToken, ...], index: int) -> bool:
        since = tokens[index - 1].end if index else self.lexed_from
        return first_on_line(self.text, tokens[index].start, since)

    def _delimiter_end(self, token: SqlToken) -> int | None:
        """The end of a custom mysql delimiter starting at `token`, if one does."""
        delimiter = self.delimiter
        if self.family is Family.SQLCMD:
            # sqlcmd sends a whole batch (up to GO) at once; its statements are the server's to split.
            return None
        if delimiter == ";":
            return token.end if token.is_symbol(";") else None
        if token.kind in (TokenKind.STRING, TokenKind.NAME):
            return None
        # The client looks for its delimiter character by character outside quotes and comments; a
        # delimiter inside a token is found where the token contains it.
        found = self.text.find(delimiter, token.start, max(token.end, token.start + len(delimiter)))
        return None if found < 0 else found + len(delimiter)

    def _is_go_line(self, tokens: tuple[SqlToken, ...], index: int) -> bool:
        """sqlcmd's batch separator: `GO` alone on its line, or followed by a repeat count."""
        token = tokens[index]
        if token.word != "GO" or not self._first_on_line(tokens, index):
            return False
        line_end = end_of_line(self.text, token.end)
        following = tokens[index + 1] if index + 1 < len(tokens) else None
        if following is None or following.start >= line_end:
            return True
        return self._go_count(tokens, index)

    def _go_count(self, tokens: tuple[SqlToken, ...], index: int) -> bool:
        following = tokens[index + 1]
        line_end = end_of_line(self.text, tokens[index].end)
        after = tokens[index + 2] if index + 2 < len(tokens) else None
        return (
            following.kind is TokenKind.NUMBER
            and following.start < line_end
            and (after is None or after.start >= line_end)
        )


def _mysql_executable_comments_opened(text: str, lexer: Lexer) -> str:
    """`text` with MySQL's executable comments opened: `/*!50100 DROP TABLE t */` runs its content.

    The comment's delimiters (with the version number, and MariaDB's `/*M!`)
    become spaces, so offsets stay those of the original text. A comment
    opened may reveal another one; each pass opens the outermost.
    """
    for _ in range(RELEX_BUDGET):
        lexed = lexer.lex(text)
        regions = list(_executable_comments(text, lexer, lexed))
        if not regions:
            return text
        characters = list(text)
        for start, opener_end, end in regions:
            closer_start = end - 2 if text.startswith("*/", end - 2) else end
            for position in [*range(start, opener_end), *range(closer_start, end)]:
                characters[position] = " "
        text = "".join(characters)
    return text


def _executable_comments(text: str, lexer: Lexer, lexed: Lexed) -> Iterator[tuple[int, int, int]]:
    """(start, end of the opener with its version, end) of each executable comment."""
    gaps: list[tuple[int, int]] = []
    previous_end = 0
    for token in lexed.tokens:
        gaps.append((previous_end, token.start))
        previous_end = token.end
    if lexed.unreadable_from is None:
        gaps.append((previous_end, len(text)))
    for gap_start, gap_end in gaps:
        for start, end in lexer.comments_in(text, gap_start, gap_end):
            opener = next((opener for opener in ("/*!", "/*M!") if text.startswith(opener, start)), None)
            if opener is None:
                continue
            opener_end = start + len(opener)
            while opener_end < end and text[opener_end].isdigit():
                opener_end += 1
            yield start, opener_end, end
