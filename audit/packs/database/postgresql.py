"""database.postgresql: PostgreSQL: statements run through psql, dropdb and pg_dropcluster, dropuser, pg_resetwal, pg_ctl stop, restores over a live database."""

from __future__ import annotations

from ..._model import Severity
from ...rules._pack import Pack
from .._invocation import command, pack_rule
from ._statements import DEFAULT_REASON, statement_rules, superuser_rule

POSTGRESQL_STATEMENTS = statement_rules(
    ids=("DB101", "DB102"),
    label="postgresql",
    database="PostgreSQL",
    programs=("psql", "heroku"),
    destroying=(
        "psql -c 'drop schema public cascade'",
        "psql app -c 'DELETE FROM users'",
        "psql <<'SQL'\nTRUNCATE orders;\nSQL",
    ),
    not_destroying=("psql -c 'select 1'", "psql app -c 'DELETE FROM users WHERE id = 7'", "psql -f migrate.sql"),
    risky=("psql -c 'DROP VIEW active_users'", "psql -c '\\! ls /tmp'"),
    not_risky=("psql -c 'SELECT count(*) FROM users'", "psql -c 'CREATE INDEX ON t (c)'"),
)

POSTGRESQL_TOOLS = pack_rule(
    id="DB103",
    name="postgresql-drop-database-tool",
    severity=Severity.HIGH,
    summary="Drops a PostgreSQL database or cluster with its tool (`dropdb`, `pg_dropcluster`).",
    rationale="`dropdb` is `DROP DATABASE` from the shell: every table and row goes at once.",
    safer_alternative="Dump it first (`pg_dump -Fc app > app.dump`), and drop only databases made for the task.",
    matches=(command("dropdb", unless=("--help", "--version")), command("pg_dropcluster", unless=("--help",))),
    message="drops a PostgreSQL database",
    must_match=("dropdb app_production", "dropdb -h db.internal -U admin --if-exists shop"),
    must_not_match=("createdb app_test", "pg_dump app > app.sql"),
)

POSTGRESQL_RESTORE = pack_rule(
    id="DB104",
    name="postgresql-restore-over-database",
    severity=Severity.MEDIUM,
    summary="`pg_restore --clean` drops the database objects it restores before recreating them.",
    rationale="What the dump holds replaces what the database holds: rows written since the dump are lost.",
    safer_alternative="Restore into a new database (`createdb app_restore && pg_restore -d app_restore ...`) and switch over.",
    matches=(command("pg_restore", requires=("--clean",), unless=("--list",)),),
    message="drops database objects before restoring them",
    must_match=("pg_restore --clean -d app app.dump", "pg_restore -c --if-exists -d app app.dump"),
    must_not_match=("pg_restore -d app_restore app.dump", "pg_restore -l app.dump"),
)

POSTGRESQL_DROP_ROLE = pack_rule(
    id="DB106",
    name="postgresql-drop-role-tool",
    severity=Severity.MEDIUM,
    summary="`dropuser` drops a PostgreSQL role.",
    rationale="It is `DROP ROLE` from the shell: whatever logs in as the role stops working until it is recreated with its grants.",
    safer_alternative="Check what uses the role first (`\\du`, the applications' settings), or `ALTER ROLE ... NOLOGIN` to disable it.",
    matches=(command("dropuser", unless=("--help", "--version")),),
    message="drops a PostgreSQL role",
    must_match=("dropuser app", "dropuser -h db.internal -U postgres --if-exists reporting"),
    must_not_match=("dropuser --help", "createuser --no-superuser app"),
)

POSTGRESQL_RESET_WAL = pack_rule(
    id="DB107",
    name="postgresql-reset-wal",
    severity=Severity.HIGH,
    summary="`pg_resetwal` (formerly `pg_resetxlog`) clears a PostgreSQL cluster's write-ahead log.",
    rationale="Transactions only the log held are lost and the cluster may be left inconsistent; it is the last resort of a server that cannot start, and cannot be undone.",
    safer_alternative="Copy the data directory first, and try `pg_resetwal -n` (dry run) to see what it would change.",
    matches=(command(("pg_resetwal", "pg_resetxlog"), unless=("--dry-run", "--help", "--version")),),
    message="clears the write-ahead log of a PostgreSQL cluster",
    must_match=("pg_resetwal -f /var/lib/postgresql/data", "pg_resetxlog -D /srv/pg/14/main"),
    must_not_match=("pg_resetwal -n /var/lib/postgresql/data", "pg_resetwal --dry-run -D /srv/pg/14/main"),
)

POSTGRESQL_STOP = pack_rule(
    id="DB108",
    name="postgresql-server-stopped",
    severity=Severity.MEDIUM,
    summary="Stops a PostgreSQL server with `pg_ctl stop` (or `restart`, or `kill` of its process).",
    rationale="Every connection is cut and the applications using it fail until it is started again; in `immediate` mode the server stops without a checkpoint and recovers on the next start.",
    safer_alternative="Stop only a server made for the task, and prefer `-m smart` (the default waits for sessions to end).",
    matches=(command("pg_ctl", "stop"), command("pg_ctl", "restart"), command("pg_ctl", "kill")),
    message="stops a PostgreSQL server",
    must_match=("pg_ctl -D /var/lib/postgresql/data stop -m immediate", "pg_ctl restart -D /srv/pg"),
    must_not_match=("pg_ctl -D /var/lib/postgresql/data status", "pg_ctl start -D /srv/pg -l logfile"),
)

POSTGRESQL_SUPERUSER = superuser_rule(
    id="DB105",
    label="postgresql",
    database="PostgreSQL",
    programs=("psql",),
    granting=(
        "psql -c \"CREATE ROLE admin2 SUPERUSER LOGIN PASSWORD 'pw'\"",
        "psql -U postgres -c 'ALTER USER app WITH SUPERUSER'",
        "psql app -c 'GRANT pg_execute_server_program TO app'",
    ),
    not_granting=(
        "psql -c \"CREATE USER app WITH PASSWORD 'pw'\"",
        "psql -c 'GRANT SELECT ON ALL TABLES IN SCHEMA public TO readonly'",
        "psql -c 'ALTER ROLE app NOSUPERUSER'",
    ),
)

PACK = Pack(
    name="database.postgresql",
    summary="PostgreSQL: statements run through psql, dropdb and pg_dropcluster, dropuser, pg_resetwal, pg_ctl stop, restores over a live database.",
    default=True,
    reason=DEFAULT_REASON,
    rules=(
        *POSTGRESQL_STATEMENTS,
        POSTGRESQL_TOOLS,
        POSTGRESQL_RESTORE,
        POSTGRESQL_SUPERUSER,
        POSTGRESQL_DROP_ROLE,
        POSTGRESQL_RESET_WAL,
        POSTGRESQL_STOP,
    ),
)
