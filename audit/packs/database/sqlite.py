"""database.sqlite: SQLite and DuckDB: statements run through sqlite3 and duckdb."""

from __future__ import annotations

from ...rules._pack import Pack
from ._statements import statement_rules

PACK = Pack(
    name="database.sqlite",
    summary="SQLite and DuckDB: statements run through sqlite3 and duckdb (operands, -cmd, -c, heredocs).",
    default=True,
    reason="The database file is the only copy of its data; a DELETE without WHERE cannot be undone by the agent.",
    rules=statement_rules(
        ids=("DB301", "DB302"),
        label="sqlite",
        database="SQLite or DuckDB",
        programs=("sqlite3", "duckdb"),
        destroying=(
            "sqlite3 app.db 'DELETE FROM users'",
            "sqlite3 app.db 'DROP TABLE sessions'",
            "duckdb warehouse.duckdb -c 'DROP TABLE events'",
        ),
        not_destroying=("sqlite3 app.db '.tables'", "sqlite3 app.db 'SELECT count(*) FROM users'"),
        risky=("sqlite3 app.db 'DROP INDEX idx_users_email'", "sqlite3 app.db '.shell ls'"),
        not_risky=("sqlite3 app.db '.schema users'", "sqlite3 -safe app.db 'CREATE INDEX i ON t (c)'"),
    ),
)
