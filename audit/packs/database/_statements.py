"""The rules over the statements a database client's command line carries.

Which texts a client runs (options, operands, standard input, files written
earlier in the same string) is worked out by the analysis
(`audit._analysis._client_statements`, from the data in `audit.databases.CLIENTS`),
and each text is read by `audit.databases` (a real SQL tokenizer per dialect,
redis-cli's line splitting, MongoDB's JavaScript grammar); what it reports
becomes the findings of two rules per database: the irreversible statements
block, the others warn.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from fnmatch import fnmatchcase

from ..._analysis import CommandSubject, resolve_path
from ..._analysis._client_statements import Statements, classified, client_databases, client_statements
from ..._model import Severity, Span
from ..._named_tuple import NamedTuple
from ..._tables import Tables
from ...databases import DatabaseClient, SqlDialect, StatementFinding, StatementKind, client_invoked
from ...rules._paths import per_subject, reading
from ...rules._rule import Example, Hit, Inspects, Rule, rule

DEFAULT_REASON = "A dropped or emptied table cannot be restored by the agent, and the connection may be production."

# What a client may do that is no destruction the packs judge: reading a file the text names,
# building statements at run time, text the reader could not finish. (Nothing in them is known
# to be safe, but nothing is known to destroy either; reporting them would flag every `psql -f`.)
# A shell command run from the client is audited by the walk as a command of its own; the
# packs' risky-statement rules still say that the client runs one.
_NOT_JUDGED = frozenset({StatementKind.INCLUDE_FILE, StatementKind.DYNAMIC_SQL, StatementKind.UNREADABLE})
# Judged by a rule of their own (`superuser_rule`), not as a statement that destroys or risks data.
_OWN_RULE = frozenset({StatementKind.GRANT_SUPERUSER})


# What a test database's statements may destroy without a report: its own tables, rows and schemas.
_INSIDE_THE_DATABASE = frozenset({
    StatementKind.DROP_SCHEMA, StatementKind.DROP_TABLE, StatementKind.TRUNCATE, StatementKind.DELETE_WITHOUT_WHERE,
    StatementKind.UPDATE_WITHOUT_WHERE, StatementKind.ALTER_DROP, StatementKind.DROP_COLLECTION,
    StatementKind.DELETE_ALL_DOCUMENTS, StatementKind.UPDATE_ALL_DOCUMENTS,
})  # fmt: skip
_DATABASE_FILE_EXTENSIONS = frozenset({"db", "sqlite", "sqlite3", "duckdb"})
# libpq's `dbname=NAME` among the key-value pairs of a connection string.
_CONNINFO_NAME = re.compile(r"(?:^|\s)dbname=(\S+)")
# A text that moves to another database (SQL `USE`, psql `\c`, MongoDB's `use` and `getSiblingDB`,
# a new connection) leaves the database the command line names.
_SWITCHES_DATABASE = re.compile(
    r"\buse\b|\\c(?:onnect)?\b|getsiblingdb|\bconnect\s*\(|\bmongo\s*\(|getmongo", re.IGNORECASE
)


class Found(NamedTuple):
    """A destructive statement and where the command line gives it."""

    finding: StatementFinding
    span: Span


@per_subject
def _given(subject: CommandSubject) -> tuple[DatabaseClient, list[Statements]] | None:
    """The client the command runs and the texts it gives it."""
    read = reading(subject)
    client = client_invoked(subject.name or "", read.path)
    if client is None:
        return None
    written = dict(subject.written)
    given = client_statements(client, read, subject.stdin, lambda value: written.get(resolve_path(subject.cwd, value)))
    return client, given


@per_subject
def destructive_statements(subject: CommandSubject) -> tuple[Found, ...]:
    """Every destructive statement the command runs (worked out once: two rules ask)."""
    given = _given(subject)
    if given is None:
        return ()
    client, texts = given
    return tuple(
        Found(finding, statements.span)
        for statements in texts
        for finding in classified(client, statements.text)
        if finding.kind not in _NOT_JUDGED
    )


def _database_name(value: str) -> str:
    """The database a client's database word names: the word, the last segment of a URL
    (`postgres://h/app_test`), libpq's `dbname=`, or an SQLite file without its extension."""
    text = value.split("?", 1)[0]
    conninfo = _CONNINFO_NAME.search(text)
    if conninfo is not None:
        return conninfo.group(1)
    name = text.rstrip("/").rsplit("/", 1)[-1]
    stem, dot, extension = name.rpartition(".")
    return stem if dot and extension.lower() in _DATABASE_FILE_EXTENSIONS else name


def disposable_database(name: str, tables: Tables) -> bool:
    """A database named as a test one (the policy's `disposable_databases`: `*_test`, `test.db`...)."""
    return any(fnmatchcase(name.lower(), pattern) for pattern in tables.disposable_databases)


def _in_test_database(subject: CommandSubject, tables: Tables) -> Callable[[StatementFinding], bool]:
    """Whether a finding destroys only what a test database holds: the client connects to databases
    that are all named as test ones (`disposable_databases`), its texts switch to no other, and the
    statement acts inside it (a database it drops, or a MySQL database that qualifies its table, is
    named as a test one too)."""
    given = _given(subject)
    client, texts = given if given is not None else (None, [])
    words = client_databases(client, reading(subject)) if client is not None else ()
    connected = (
        bool(words)
        and all(
            word.values and all(disposable_database(_database_name(value), tables) for value in word.values)
            for word in words
        )
        and not any(isinstance(each.text, str) and _SWITCHES_DATABASE.search(each.text) for each in texts)
    )
    qualifies_databases = client is not None and client.dialect is SqlDialect.MYSQL

    def inside(finding: StatementFinding) -> bool:
        target = finding.target
        if not connected:
            return False
        if finding.kind is StatementKind.DROP_DATABASE:
            # MongoDB's `db.dropDatabase()` names none: the database connected to.
            return target is None or disposable_database(target.strip('`"'), tables)
        if target is None:
            return finding.kind in _INSIDE_THE_DATABASE
        if finding.kind not in _INSIDE_THE_DATABASE:
            return False
        qualifier, dot, _ = target.rpartition(".")
        return not dot or not qualifies_databases or disposable_database(qualifier.strip('`"'), tables)

    return inside


def _describe(finding: StatementFinding) -> str:
    kind = finding.kind.value.replace("-", " ")
    return f"runs `{finding.evidence}` ({kind})"


Spared = Callable[[CommandSubject, Tables], Callable[[StatementFinding], bool]]
"""Which findings of a command a rule does not report (`_in_test_database`)."""


def _checking(
    judged: Callable[[StatementFinding], bool], spared: Spared | None = None
) -> Callable[[CommandSubject, Tables], tuple[Hit, ...]]:
    """A rule's check: a hit for each statement the command runs that the rule judges and does not spare."""

    def check(subject: CommandSubject, tables: Tables) -> tuple[Hit, ...]:
        spares = spared(subject, tables) if spared is not None else None
        return tuple(
            Hit(found.span, _describe(found.finding))
            for found in destructive_statements(subject)
            if judged(found.finding) and (spares is None or not spares(found.finding))
        )

    return check


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

    def checking(
        irreversible: bool, spared: Spared | None = None
    ) -> Callable[[CommandSubject, Tables], tuple[Hit, ...]]:
        return _checking(lambda finding: finding.irreversible is irreversible and finding.kind not in _OWN_RULE, spared)

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
    )(checking(True, _in_test_database))  # what a test database loses, its suite rebuilds at every run
    risky_rule = rule(
        id=medium,
        name=f"{label}-risky-statement",
        severity=Severity.MEDIUM,
        summary=f"A {database} statement that removes something rebuilt from its definition (a view, an index, a function, a role), stops the server, changes an account's password, makes an application's users administrators (`UPDATE users SET role = 'admin' WHERE ...`), or runs a shell command from the client.",
        rationale="These can be undone by recreating what was dropped, restarting what stopped or setting the password back, but they break whatever depends on it meanwhile. A shell command run from the client is also audited as a command of its own (`psql -c '\\! rm -rf ~'` is judged as `rm -rf ~`).",
        safer_alternative="Check the target first (`\\d name`, `SHOW CREATE`), create a new account rather than change the password of one in use, and run shell commands directly rather than through the database client.",
        inspects=Inspects.COMMAND,
        must_match=risky,
        must_not_match=not_risky,
        commands=programs_run,
    )(checking(False))
    return destroys, risky_rule


def superuser_rule(
    *,
    id: str,
    label: str,
    database: str,
    programs: tuple[str, ...],
    granting: tuple[str | Example, ...],
    not_granting: tuple[str | Example, ...],
) -> Rule:
    """A database's rule on statements that give an account the run of the server."""
    return rule(
        id=id,
        name=f"{label}-grants-superuser",
        severity=Severity.HIGH,
        summary=f"A {database} statement that gives an account the run of the server: a superuser, or every privilege on every database.",
        rationale="Such an account reads and changes every database, and on most servers reads and writes files and runs programs as the server; made by an agent, it is a way back in that outlives the session.",
        safer_alternative="Grant the privileges the task needs on the database it needs (`GRANT SELECT ON app.* TO ...`), to an account limited to the hosts that use it.",
        inspects=Inspects.COMMAND,
        must_match=granting,
        must_not_match=not_granting,
        commands=frozenset(programs),
    )(_checking(lambda finding: finding.kind is StatementKind.GRANT_SUPERUSER))
