"""database.sqlite: SQLite, DuckDB and Cloudflare D1: statements run through sqlite3, duckdb and
`wrangler d1 execute --remote` (D1 is SQLite; without `--remote` wrangler runs them on a local copy)."""

from __future__ import annotations

from ...rules._pack import Pack
from ._statements import statement_rules

PACK = Pack(
    name="database.sqlite",
    summary="SQLite, DuckDB and Cloudflare D1: statements run through sqlite3 and duckdb (operands, -cmd, -c, heredocs) and `wrangler d1 execute --remote`.",
    default=True,
    reason="The database file is the only copy of its data; a DELETE without WHERE cannot be undone by the agent.",
    rules=statement_rules(
        ids=("DB301", "DB302"),
        label="sqlite",
        database="SQLite, DuckDB or D1",
        programs=("sqlite3", "duckdb", "wrangler"),
        destroying=(
            "sqlite3 app.db 'DELETE FROM users'",
            "sqlite3 app.db 'DROP TABLE sessions'",
            "duckdb warehouse.duckdb -c 'DROP TABLE events'",
            "wrangler d1 execute prod-db --remote --command 'DROP TABLE users'",
        ),
        not_destroying=(
            "sqlite3 app.db '.tables'",
            "sqlite3 app.db 'SELECT count(*) FROM users'",
            "wrangler d1 execute prod-db --local --command 'DROP TABLE users'",
        ),
        risky=("sqlite3 app.db 'DROP INDEX idx_users_email'", "sqlite3 app.db '.shell ls'"),
        not_risky=("sqlite3 app.db '.schema users'", "sqlite3 -safe app.db 'CREATE INDEX i ON t (c)'"),
    ),
)
