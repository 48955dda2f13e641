"""The statements a database client's command line gives it, and what they do.

Where a client takes its statements is data (`audit.databases.CLIENTS`):
options (`psql -c`, `mysql -e`, `mongosh --eval`), operands (`sqlite3 app.db
'DELETE ...'`, `redis-cli FLUSHALL`, `bq query 'SQL'`), standard input (a
heredoc, a here-string, or a pipe or `< <(...)` from `echo`/`printf` whose
output is known), and files (`psql -f x.sql`, `mysql shop < x.sql`) that an
earlier command of the same string wrote with known text or that `<(echo ...)`
names. A shell expansion in the text stands for an unknown value
(`databases.UNKNOWN`), so the literal statements around it are still judged.

Two readers share this: the database packs judge the statements that destroy
data, and the walk audits the shell commands a client's statements run (`psql
-c '\\! CMD'`, mysql's `system CMD`, sqlite3's `.shell CMD`) one level deeper
(`_contexts/_database_clients.py`). The texts are read by `audit.databases`,
once per text for both.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator

from .. import databases
from .._caches import STATEMENT_READINGS, Memo
from .._model import Span
from .._named_tuple import NamedTuple
from .._syntax import ast
from ..databases import DatabaseClient, OperandRole, Reads, SqlDialect, StatementFinding
from ..programs import Arg, Reading
from ._resolve import substitution_producer
from ._static_output import static_output
from ._subjects import Stdin, StdinKind

WrittenText = Callable[[str], str | None]
"""What an earlier command of the same string wrote to the file a word names, when known."""


class Statements(NamedTuple):
    """A text (or a Redis argv) a client runs, and where the command line gives it."""

    text: str | tuple[str, ...]
    span: Span


def client_statements(
    client: DatabaseClient, read: Reading, stdin: Stdin | None, written: WrittenText
) -> list[Statements]:
    """Every text the client's command line (`read`) makes it run, in order; none under a dry run, nor
    on a local development copy (a client with `live_options`, none of them given)."""
    if client.dry_run_options and read.has(*client.dry_run_options):
        return []
    if client.live_options and not read.has(*client.live_options):
        return []
    given = list(_given(client, read))
    given.extend(_from_files(client, read, written))
    if _reads_stdin(client, read, bool(given)):
        from_stdin = _from_stdin(stdin, written)
        if from_stdin is not None:
            given.append(from_stdin)
    return given


_READINGS: Memo[tuple[str | tuple[str, ...], Reads, SqlDialect | None], tuple[StatementFinding, ...]] = Memo(
    STATEMENT_READINGS
)


def classified(client: DatabaseClient, text: str | tuple[str, ...]) -> tuple[StatementFinding, ...]:
    """What `audit.databases` reports of a text the client runs (a Redis argv only for redis-cli)."""
    key = (text, client.reads, client.dialect)
    known = _READINGS.get(key)
    if known is not None:
        return known
    # The classifiers are imported here, on the first command that carries statements.
    if client.reads is Reads.REDIS:
        found = databases.classify_redis(text)
    elif isinstance(text, tuple):
        found = ()
    elif client.reads is Reads.MONGO:
        found = databases.classify_mongo(text)
    elif client.reads is Reads.CYPHER:
        found = databases.classify_cypher(text)
    else:
        found = databases.classify_sql(text, client.dialect)
    return _READINGS.remember(key, found)


def client_databases(client: DatabaseClient, read: Reading) -> tuple[Arg, ...]:
    """The words that name the database the client connects to: its database options' values
    (`psql -d NAME`) and its database operand (`sqlite3 FILE`, a connection string)."""
    named = [use.value for use in read.options if use.value is not None and use.named(*client.database_options)]
    named.extend(
        operand for index, operand in enumerate(read.operands) if client.operand_role(index) is OperandRole.DATABASE
    )
    return tuple(named)


def _given(client: DatabaseClient, read: Reading) -> Iterator[Statements]:
    """The statements given by options and operands, in order."""
    for use in read.options:
        if use.value is not None and use.named(*client.statement_options):
            yield from _texts(use.value)
    for index, operand in enumerate(read.operands):
        role = client.operand_role(index)
        if role is OperandRole.STATEMENT:
            yield from _texts(operand)
        elif role is OperandRole.COMMAND_WORD or role is OperandRole.STATEMENT_WORDS:
            words = read.operands[index:]
            span = Span(words[0].span.start, words[-1].span.end)
            vanishing = 0
            while vanishing < len(words) - 1 and _may_vanish(words[vanishing]):
                vanishing += 1
            # `redis-cli $OPTS FLUSHALL`: the expansions before the command may be options or nothing.
            for given in (words, words[vanishing:]) if vanishing else (words,):
                # A word with several literal values gives a reading per value (a bounded number of them).
                combinations = itertools.product(*(_word_values(word) for word in given))
                for argv in itertools.islice(combinations, _MAX_READINGS):
                    yield Statements(argv if role is OperandRole.COMMAND_WORD else " ".join(argv), span)
            return


# How many readings the operands of one command give, when variables have several values.
_MAX_READINGS = 16


def _may_vanish(word: Arg) -> bool:
    """An unquoted expansion alone (`$OPTS`, `$(flags)`): bash splits it into any number of
    words, none included, so the word after it may be the first the client reads."""
    if word.values or word.word is None:
        return False
    return all(
        (type(part) is ast.ParamExpansion or type(part) is ast.CommandSubstitution) and not part.quoted
        for part in word.word.parts
    )


def _texts(word: Arg) -> Iterator[Statements]:
    """A word's possible values (several when a variable has several literal assignments)."""
    for value in _word_values(word):
        yield Statements(value, word.span)


def _word_values(word: Arg) -> tuple[str, ...]:
    """A word's possible values; a word built at run time is its text with each expansion standing
    for an unknown value, so that the literal statements around it are still judged."""
    if word.values or word.word is None:
        return word.values
    return (_with_unknowns(word.word.parts),)


def _with_unknowns(parts: Iterable[ast.WordPart]) -> str:
    """The literal text of a word or document, each run-time part (`$T`, `$(date)`) standing for an
    unknown value (`databases.UNKNOWN`): read as a name where it stands alone (`DROP TABLE $T` drops
    a table), as text inside a string literal (`'$X'`) or a comment it sits in."""
    return "".join(part.text if type(part) is ast.Literal else databases.UNKNOWN for part in parts)


def _from_stdin(stdin: Stdin | None, written: WrittenText) -> Statements | None:
    """What a heredoc or here-string holds, what `echo`/`printf` with literal arguments print into a
    pipe or a `< <(...)`, or what an earlier command wrote to the `< FILE` it reads."""
    if stdin is None:
        return None
    if stdin.kind in (StdinKind.HEREDOC, StdinKind.HERESTRING):
        return Statements(_with_unknowns(stdin.parts), stdin.span)
    if stdin.kind is StdinKind.FILE and stdin.file is not None:
        text = written(stdin.file)
        return Statements(text, stdin.span) if text is not None else None
    output = _printed(stdin.writer)
    return Statements(output, stdin.span) if output is not None else None


def _from_files(client: DatabaseClient, read: Reading, written: WrittenText) -> Iterator[Statements]:
    """The text of the statement files (`-f x.sql`, a script operand) that an earlier command of the
    same string wrote with known text, or that `<(echo ...)` prints."""
    files = list(read.values(*client.file_options))
    files.extend(
        operand for index, operand in enumerate(read.operands) if client.operand_role(index) is OperandRole.SCRIPT
    )
    for word in files:
        for value in word.values:
            text = written(value)
            if text is not None:
                yield Statements(text, word.span)
        if word.is_dynamic and word.word is not None:
            output = _printed(substitution_producer(word.word.parts))
            if output is not None:
                yield Statements(output, word.span)


def _printed(command: ast.Command | None) -> str | None:
    """What `echo`/`printf` with literal arguments print (None for any other command)."""
    if type(command) is not ast.SimpleCommand:
        return None
    argv = _literal_argv(command)
    return static_output(argv) if argv else None


def _literal_argv(command: ast.SimpleCommand) -> list[str] | None:
    argv: list[str] = []
    for word in command.words:
        literals = [part for part in word.parts if type(part) is ast.Literal]
        if len(literals) != len(word.parts):
            return None
        argv.append("".join(literal.text for literal in literals))
    return argv


def _reads_stdin(client: DatabaseClient, read: Reading, statements_given: bool) -> bool:
    """`psql -f -` reads its statements from standard input; otherwise a client does when no
    option, operand or file gives it any."""
    files = read.values(*client.file_options)
    if any(value.value == "-" for value in files):
        return True
    scripts = any(client.operand_role(index) is OperandRole.SCRIPT for index in range(len(read.operands)))
    return client.reads_stdin and not statements_given and not files and not scripts
