"""The statements a database client's command line carries, and the rules over them.

Where a client takes its statements is data (`audit.databases.CLIENTS`):
options (`psql -c`, `mysql -e`, `mongosh --eval`), operands (`sqlite3 app.db
'DELETE ...'`, `redis-cli FLUSHALL`, `bq query 'SQL'`), standard input (a
heredoc, a here-string, or a pipe or `< <(...)` from `echo`/`printf` whose
output is known), and files (`psql -f x.sql`, `mysql shop < x.sql`) that an
earlier command of the same string wrote with known text (`echo 'DROP TABLE
t;' > x.sql`, `cat > x.sql <<EOF`) or that `<(echo ...)` names. A shell
expansion in the text stands for an unknown value (`databases.UNKNOWN`), so
the literal statements around it are still judged. Each text is read by
`audit.databases` (a real SQL tokenizer per dialect, redis-cli's line
splitting, MongoDB's JavaScript grammar); what it reports becomes the
findings of two rules per database: the irreversible statements block, the
others warn.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator

from ... import databases
from ..._analysis import CommandSubject, StdinKind, resolve_path, static_output, substitution_producer
from ..._model import Severity, Span
from ..._named_tuple import NamedTuple
from ..._syntax import ast
from ..._tables import Tables
from ...databases import CLIENTS, DatabaseClient, OperandRole, Reads, StatementFinding, StatementKind
from ...programs import Arg, Reading
from ...rules._paths import per_subject, reading
from ...rules._rule import Example, Hit, Inspects, Rule, rule

DEFAULT_REASON = "A dropped or emptied table cannot be restored by the agent, and the connection may be production."

# What a client may do that is no destruction the packs judge: reading a file the text names,
# building statements at run time, text the reader could not finish. (Nothing in them is known
# to be safe, but nothing is known to destroy either; reporting them would flag every `psql -f`.)
_NOT_JUDGED = frozenset({StatementKind.INCLUDE_FILE, StatementKind.DYNAMIC_SQL, StatementKind.UNREADABLE})


class Statements(NamedTuple):
    """A text (or a Redis argv) a client runs, and where the command line gives it."""

    text: str | tuple[str, ...]
    span: Span


class Found(NamedTuple):
    """A destructive statement and where the command line gives it."""

    finding: StatementFinding
    span: Span


def _clients_by_program() -> dict[str, tuple[DatabaseClient, ...]]:
    by_program: dict[str, list[DatabaseClient]] = {}
    for client in CLIENTS:
        for invocation in client.invocations:
            by_program.setdefault(invocation[0], []).append(client)
    return {name: tuple(clients) for name, clients in by_program.items()}


_CLIENTS_BY_PROGRAM = _clients_by_program()


def _client(subject: CommandSubject, read: Reading) -> DatabaseClient | None:
    """The client the command starts: by program name, and by subcommand where it has one."""
    for client in _CLIENTS_BY_PROGRAM.get(subject.name or "", ()):
        for invocation in client.invocations:
            if invocation[0] == subject.name and invocation[1:] == read.path:
                return client
    return None


def _given(client: DatabaseClient, read: Reading) -> Iterator[Statements]:
    """The statements given by options and operands, in order."""
    for use in read.options:
        if use.value is not None and use.named(*client.statement_options):
            yield from _texts(use.value)
    for index, operand in enumerate(read.operands):
        role = _role(client, index)
        if role is OperandRole.STATEMENT:
            yield from _texts(operand)
        elif role is OperandRole.COMMAND_WORD or role is OperandRole.STATEMENT_WORDS:
            words = read.operands[index:]
            span = Span(words[0].span.start, words[-1].span.end)
            # A word with several literal values gives a reading per value (a bounded number of them).
            combinations = itertools.product(*(_word_values(word) for word in words))
            for argv in itertools.islice(combinations, _MAX_READINGS):
                yield Statements(argv if role is OperandRole.COMMAND_WORD else " ".join(argv), span)
            return


# How many readings the operands of one command give, when variables have several values.
_MAX_READINGS = 16


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


def _from_stdin(subject: CommandSubject) -> Statements | None:
    """What a heredoc or here-string holds, what `echo`/`printf` with literal arguments print into a
    pipe or a `< <(...)`, or what an earlier command wrote to the `< FILE` it reads."""
    stdin = subject.stdin
    if stdin is None:
        return None
    if stdin.kind in (StdinKind.HEREDOC, StdinKind.HERESTRING):
        return Statements(_with_unknowns(stdin.parts), stdin.span)
    if stdin.kind is StdinKind.FILE and stdin.file is not None:
        text = dict(subject.written).get(resolve_path(subject.cwd, stdin.file))
        return Statements(text, stdin.span) if text is not None else None
    output = _printed(stdin.writer)
    return Statements(output, stdin.span) if output is not None else None


def _from_files(client: DatabaseClient, read: Reading, subject: CommandSubject) -> Iterator[Statements]:
    """The text of the statement files (`-f x.sql`, a script operand) that an earlier command of the
    same string wrote with known text, or that `<(echo ...)` prints."""
    written = dict(subject.written)
    files = list(read.values(*client.file_options))
    files.extend(operand for index, operand in enumerate(read.operands) if _role(client, index) is OperandRole.SCRIPT)
    for word in files:
        for value in word.values:
            text = written.get(resolve_path(subject.cwd, value))
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


def _classify(client: DatabaseClient, statements: Statements) -> Iterator[Found]:
    text = statements.text
    if client.reads is Reads.REDIS:
        found = databases.classify_redis(text)
    elif isinstance(text, tuple):
        return
    elif client.reads is Reads.MONGO:
        found = databases.classify_mongo(text)
    else:
        found = databases.classify_sql(text, client.dialect)
    # The classifiers are imported here, on the first command that carries statements.
    for finding in found:
        if finding.kind not in _NOT_JUDGED:
            yield Found(finding, statements.span)


@per_subject
def destructive_statements(subject: CommandSubject) -> tuple[Found, ...]:
    """Every destructive statement the command runs (worked out once: two rules ask)."""
    read = reading(subject)
    client = _client(subject, read)
    if client is None or (client.dry_run_options and read.has(*client.dry_run_options)):
        return ()
    given = list(_given(client, read))
    given.extend(_from_files(client, read, subject))
    if _reads_stdin(client, read, bool(given)):
        from_stdin = _from_stdin(subject)
        if from_stdin is not None:
            given.append(from_stdin)
    return tuple(found for statements in given for found in _classify(client, statements))


def _reads_stdin(client: DatabaseClient, read: Reading, statements_given: bool) -> bool:
    """`psql -f -` reads its statements from standard input; otherwise a client does when no
    option, operand or file gives it any."""
    files = read.values(*client.file_options)
    if any(value.value == "-" for value in files):
        return True
    scripts = any(_role(client, index) is OperandRole.SCRIPT for index in range(len(read.operands)))
    return client.reads_stdin and not statements_given and not files and not scripts


def _role(client: DatabaseClient, index: int) -> OperandRole | None:
    return client.operands[index] if index < len(client.operands) else client.more_operands


def _describe(finding: StatementFinding) -> str:
    kind = finding.kind.value.replace("-", " ")
    return f"runs `{finding.evidence}` ({kind})"


def statement_rules(
    *,
    ids: tuple[str, str],
    label: str,
    database: str,
    programs: tuple[str, ...],
    destroying: tuple[str | Example, ...],
    not_destroying: tuple[str | Example, ...],
    risky: tuple[str | Example, ...],
    not_risky: tuple[str | Example, ...],
) -> tuple[Rule, Rule]:
    """A database's two statement rules: what cannot be undone blocks, the rest warns."""
    high, medium = ids
    programs_run = frozenset(programs)

    def checking(irreversible: bool) -> Callable[[CommandSubject, Tables], tuple[Hit, ...]]:
        def check(subject: CommandSubject, tables: Tables) -> tuple[Hit, ...]:
            return tuple(
                Hit(found.span, _describe(found.finding))
                for found in destructive_statements(subject)
                if found.finding.irreversible is irreversible
            )

        return check

    destroys = rule(
        id=high,
        name=f"{label}-destroys-data",
        severity=Severity.HIGH,
        summary=f"A {database} statement that destroys data with no undo: DROP of a database, schema or table, TRUNCATE, DELETE or UPDATE of every row, dropping columns.",
        rationale="The database keeps no copy of what these statements remove; only a backup taken before brings it back, and an agent's connection may well be production.",
        safer_alternative="Run it on a disposable copy, take a backup first, or narrow it (`WHERE`, one named object) and run it in a transaction you can roll back.",
        inspects=Inspects.COMMAND,
        must_match=destroying,
        must_not_match=not_destroying,
        commands=programs_run,
    )(checking(True))
    risky_rule = rule(
        id=medium,
        name=f"{label}-risky-statement",
        severity=Severity.MEDIUM,
        summary=f"A {database} statement that removes something rebuilt from its definition (a view, an index, a function, a role), stops the server, or runs a shell command from the client.",
        rationale="These can be undone by recreating what was dropped or restarting what stopped, but they break whatever depends on it meanwhile; a shell command from the client is not audited as a command.",
        safer_alternative="Check the target first (`\\d name`, `SHOW CREATE`), and run shell commands directly rather than through the database client.",
        inspects=Inspects.COMMAND,
        must_match=risky,
        must_not_match=not_risky,
        commands=programs_run,
    )(checking(False))
    return destroys, risky_rule
