"""Python's database clients: a statement a connection or its cursor executes is judged as the
client's command line that runs it (`sqlite3.connect(p).execute(SQL)` as `sqlite3 p SQL`,
psycopg's as `psql -c SQL`, PyMySQL's and mysql-connector's as `mysql -e SQL`), so the database
packs' rules read the statement as they read the shell's."""

from __future__ import annotations

from collections.abc import Callable

from ._facts import FileOperation
from ._values import UNKNOWN, Call, Command, Entry, FileChange, Value, sources_of

# Each driver's connect call and the client command whose statement option runs what it executes.
_DRIVERS: dict[str, Callable[[Value, Value], tuple[Value, ...]]] = {
    "sqlite3.connect": lambda database, statement: (Value(text="sqlite3"), database, statement),
    "psycopg2.connect": lambda _, statement: (Value(text="psql"), Value(text="-c"), statement),
    "psycopg.connect": lambda _, statement: (Value(text="psql"), Value(text="-c"), statement),
    "pymysql.connect": lambda _, statement: (Value(text="mysql"), Value(text="-e"), statement),
    "mysql.connector.connect": lambda _, statement: (Value(text="mysql"), Value(text="-e"), statement),
}
_EXECUTES = ("execute", "executescript", "executemany")


def _connects(driver: str) -> Entry:
    """The connection, keeping the database it opens (sqlite3's file is read, as `sqlite3 FILE` reads it)."""

    def returns(call: Call) -> Value:
        database = call.arg(0, "database") or UNKNOWN
        return Value(name=f"{driver}()", entries=(("database", database),), sources=sources_of(call.all_values()))

    def file_changes(call: Call) -> tuple[FileChange, ...]:
        database = call.arg(0, "database")
        if driver != "sqlite3.connect" or database is None:
            return ()
        return (FileChange(FileOperation.READ_FILE, database),)

    return Entry(returns=returns, file_changes=file_changes)


def _cursor(owner: str) -> Entry:
    """`connection.cursor()`: a cursor on the same database."""

    def returns(call: Call) -> Value:
        database = call.receiver.entry("database") if call.receiver is not None else None
        return Value(name=f"{owner}.cursor()", entries=(("database", database or UNKNOWN),))

    return Entry(returns=returns)


def _executes(client: Callable[[Value, Value], tuple[Value, ...]]) -> Entry:
    def command(call: Call) -> Command | None:
        statement = call.arg(0)
        if statement is None:
            return None
        database = call.receiver.entry("database") if call.receiver is not None else None
        return Command.argv(client(database or UNKNOWN, statement))

    return Entry(command=command)


def database_entries() -> dict[str, Entry]:
    """The catalogue rows of the drivers: connect, cursor, and the executes of both."""
    entries: dict[str, Entry] = {}
    for driver, client in _DRIVERS.items():
        connection = f"{driver}()"
        entries[driver] = _connects(driver)
        entries[f"{connection}.cursor"] = _cursor(connection)
        for owner in (connection, f"{connection}.cursor()"):
            for method in _EXECUTES:
                entries[f"{owner}.{method}"] = _executes(client)
    return entries
