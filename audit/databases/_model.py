"""The interface of the database classifiers: what a finding is, the dialects, the error.

A classifier reads the statements a database client would run (SQL, Redis
commands, MongoDB shell JavaScript) and reports the destructive ones. It only
reads text: nothing here connects to a database or runs anything.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, replace
from enum import Enum

from .._model import Span


class StatementKind(str, Enum):
    """What a destructive statement does. The pack writer maps kinds to rules."""

    DROP_DATABASE = "drop-database"
    """`DROP DATABASE`, CQL `DROP KEYSPACE`, MongoDB `dropDatabase()`."""
    DROP_SCHEMA = "drop-schema"
    DROP_TABLE = "drop-table"
    """`DROP TABLE`, and `CREATE OR REPLACE TABLE`, which drops the table it replaces."""
    DROP_OTHER = "drop-other"
    """Views, indexes, functions, roles, ...: rebuilt from their definition, unless CASCADE reaches data."""
    TRUNCATE = "truncate"
    DELETE_WITHOUT_WHERE = "delete-without-where"
    """A DELETE with no WHERE clause, or a WHERE that names no column or ORs a constant (`WHERE id = 5 OR 1=1`)."""
    UPDATE_WITHOUT_WHERE = "update-without-where"
    ALTER_DROP = "alter-drop"
    """`ALTER TABLE ... DROP COLUMN/PARTITION/CONSTRAINT ...`."""
    SHUTDOWN = "shutdown"
    SHELL_OUT = "shell-out"
    """The client or the server runs a shell command: psql `\\!`, sqlite3 `.shell`, `COPY ... PROGRAM`,
    `xp_cmdshell`; the target is the command text (None: an interactive shell)."""
    GRANT_SUPERUSER = "grant-superuser"
    """An account given the run of the server: PostgreSQL `CREATE/ALTER ROLE ... SUPERUSER` or
    membership of a role that reads, writes or runs anything on it (`GRANT pg_execute_server_program
    TO x`), MySQL `GRANT ALL|SUPER|FILE ON *.*` or a global `WITH GRANT OPTION`; the target is the account."""
    GRANT_APP_ADMIN = "grant-app-admin"
    """An UPDATE that makes rows of an application's accounts administrators: a role or permission column
    set to an admin value (`SET role = 'admin'`), or an admin flag set (`SET is_admin = true`); the target
    is the table. The application's own privileges, not the server's (GRANT_SUPERUSER)."""
    SET_PASSWORD = "set-password"
    """An existing account's password or authentication changed (`ALTER USER ... PASSWORD`, `ALTER USER
    ... IDENTIFIED BY`, MySQL `SET PASSWORD`): whoever used it is locked out; the target is the account."""
    INCLUDE_FILE = "include-file"
    """Statements read from a file the text names (psql `\\i`, mysql `source`, sqlite3 `.read`):
    the target is the file; its statements are not seen."""
    DYNAMIC_SQL = "dynamic-sql"
    """Statements built while running (psql `\\gexec`, `EXECUTE` of an expression): what the text
    shows of them is classified as well, this finding says there may be more."""
    FLUSHALL = "flushall"
    FLUSHDB = "flushdb"
    SCRIPT_FLUSH = "script-flush"
    FUNCTION_FLUSH = "function-flush"
    CONFIG_WRITE_PATH = "config-write-path"
    """Redis `CONFIG SET dir|dbfilename|...`: where the server writes its dump; with a SAVE in the same
    input, the classic way to write a file anywhere the server may."""
    MODULE_LOAD = "module-load"
    """Redis `MODULE LOAD`: native code loaded into the server."""
    REPLICATE_FROM = "replicate-from"
    """Redis `REPLICAOF host port`: the dataset is discarded and replaced by the other server's."""
    DROP_COLLECTION = "drop-collection"
    DELETE_ALL_DOCUMENTS = "delete-all-documents"
    UPDATE_ALL_DOCUMENTS = "update-all-documents"
    UNREADABLE = "unreadable"
    """Text the classifier could not read (an unterminated quote, a line the client would reject
    as written): nothing in it is known to be safe."""


class SqlDialect(str, Enum):
    """A SQL dialect together with the client program that reads it.

    The dialect decides how the text is tokenised (comments, quotes, escapes);
    the client decides its own commands (psql `\\!`, sqlite3 `.shell`, sqlcmd `GO`).
    """

    POSTGRES = "postgres"
    """PostgreSQL read by psql."""
    MYSQL = "mysql"
    """MySQL and MariaDB read by the mysql/mariadb client."""
    SQLITE = "sqlite"
    """SQLite read by sqlite3."""
    TSQL = "tsql"
    """SQL Server read by sqlcmd."""
    CLICKHOUSE = "clickhouse"
    """ClickHouse read by clickhouse-client."""
    DUCKDB = "duckdb"
    """DuckDB read by its CLI (sqlite3's dot commands)."""
    COCKROACH = "cockroach"
    """CockroachDB read by `cockroach sql` (PostgreSQL's syntax, its own client commands)."""
    CQL = "cql"
    """Cassandra's CQL read by cqlsh."""
    BIGQUERY = "bigquery"
    """BigQuery's GoogleSQL read by `bq query` (no client commands of its own)."""
    SNOWFLAKE = "snowflake"
    """Snowflake's SQL read by snowsql (its `!` commands are not read)."""


class DatabaseInputError(ValueError):
    """A classifier was called with an argument it does not know (never raised for the text itself)."""


def dialect_named(name: SqlDialect | str) -> SqlDialect:
    """The dialect called `name`; an unknown name is an error naming the closest ones."""
    if isinstance(name, SqlDialect):
        return name
    try:
        return SqlDialect(name.lower())
    except ValueError:
        known = [dialect.value for dialect in SqlDialect]
        closest = difflib.get_close_matches(name.lower(), known, n=3)
        hint = f"; did you mean {', '.join(closest)}?" if closest else f"; known: {', '.join(known)}"
        raise DatabaseInputError(f"unknown SQL dialect {name!r}{hint}") from None


@dataclass(frozen=True, slots=True)
class StatementFinding:
    """One destructive statement (or client command) found in the text.

    `span` is in the units of the input: character offsets into a text, or
    positions in an argv for a Redis command given as argv.
    """

    kind: StatementKind
    irreversible: bool
    """The damage cannot be undone from the database itself (so a pack blocks rather than warns)."""
    span: Span
    target: str | None
    """What it acts on when the text says: a table, database or collection name, a shell command, a file."""
    evidence: str
    """The statement as written, shortened."""

    def to_dict(self) -> dict[str, object]:
        return {
            "kind": self.kind.value,
            "irreversible": self.irreversible,
            "span": [self.span.start, self.span.end],
            "target": self.target,
            "evidence": self.evidence,
        }


UNKNOWN = "__dynamic__"
"""Stands for a part of the text known only at run time (a shell expansion in the statements a
command line gives, a value a statement builds): the classifiers read it as a name, or as text inside
the string literal it sits in, so the statements around it are still judged. A target that holds it
is not known (None); evidence shows it as `…`."""

_EVIDENCE_LENGTH = 120


def evidence_of(text: str) -> str:
    """A statement's text on one line, shortened for a report (a run-time part shown as `…`)."""
    flat = " ".join(text.replace(UNKNOWN, "…").split())
    return flat if len(flat) <= _EVIDENCE_LENGTH else flat[: _EVIDENCE_LENGTH - 1] + "…"


def merged(findings: list[StatementFinding]) -> tuple[StatementFinding, ...]:
    """Findings in text order, one per (kind, span, target); irreversible if any reading says so.

    Several readings of one text (every dialect when the dialect is unknown)
    may find the same statement; the strictest reading wins. A target with a
    run-time part (`UNKNOWN`) is not known: it becomes None.
    """
    by_key: dict[tuple[StatementKind, Span, str | None], StatementFinding] = {}
    for finding in findings:
        if finding.target is not None and UNKNOWN in finding.target:
            finding = replace(finding, target=None)
        key = (finding.kind, finding.span, finding.target)
        known = by_key.get(key)
        if known is None or (finding.irreversible and not known.irreversible):
            by_key[key] = finding
    return tuple(sorted(by_key.values(), key=lambda found: (found.span.start, found.span.end, found.kind.value)))
