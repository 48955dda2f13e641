"""database.others: Snowflake (snowsql) and Neo4j (cypher-shell) statements, InfluxDB deletes, and
the hosted databases' CLIs deleting a database (Neon, PlanetScale, Turso)."""

from __future__ import annotations

from ..._model import Severity
from ...rules._pack import Pack
from .._invocation import command, pack_rule
from ._statements import DEFAULT_REASON, statement_rules

SNOWFLAKE_STATEMENTS = statement_rules(
    ids=("DB003", "DB004"),
    label="snowflake",
    database="Snowflake",
    programs=("snowsql",),
    destroying=("snowsql -q 'DROP DATABASE prod'", "snowsql -c prod --query 'TRUNCATE TABLE events'"),
    not_destroying=("snowsql -q 'SELECT CURRENT_VERSION()'", "snowsql -f load.sql"),
    risky=("snowsql -q 'DROP VIEW daily_rollup'", "snowsql -q \"ALTER USER etl SET PASSWORD = 'x'\""),
    not_risky=("snowsql -q 'SHOW WAREHOUSES'", "snowsql -q 'CREATE VIEW v AS SELECT 1'"),
)

NEO4J_STATEMENTS = statement_rules(
    ids=("DB005", "DB006"),
    label="neo4j",
    database="Neo4j (Cypher)",
    programs=("cypher-shell",),
    destroying=("cypher-shell 'MATCH (n) DETACH DELETE n'", "cypher-shell -d system 'DROP DATABASE shop'"),
    not_destroying=(
        "cypher-shell 'MATCH (n:User {id: 7}) DETACH DELETE n'",
        "cypher-shell 'MATCH (n) RETURN count(n)'",
    ),
    risky=("cypher-shell 'DROP INDEX user_email'", "cypher-shell -d system 'STOP DATABASE shop'"),
    not_risky=(
        "cypher-shell 'CREATE INDEX user_email FOR (u:User) ON (u.email)'",
        "cypher-shell 'SHOW DATABASES'",
    ),
)

INFLUXDB_DELETE = pack_rule(
    id="DB007",
    name="influxdb-deletes-data",
    severity=Severity.HIGH,
    summary="Deletes an InfluxDB bucket or organisation, or the points of a time range (`influx bucket delete`, `influx org delete`, `influx delete`).",
    rationale="InfluxDB keeps no copy of a deleted bucket or of deleted points; only a backup taken before brings them back.",
    safer_alternative="Back it up first (`influx backup`), and delete from a bucket made for the task.",
    matches=(command("influx", "bucket delete"), command("influx", "org delete"), command("influx", "delete")),
    message="deletes InfluxDB data",
    must_match=(
        "influx bucket delete -n prod",
        "influx delete --bucket prod --start 1970-01-01T00:00:00Z --stop 2100-01-01T00:00:00Z",
    ),
    must_not_match=("influx bucket list", "influx query 'from(bucket:\"prod\") |> range(start: -1h)'"),
)

HOSTED_DATABASE_DELETE = pack_rule(
    id="DB008",
    name="hosted-database-deleted",
    severity=Severity.HIGH,
    summary="Deletes a hosted database, project or branch with its CLI (`neonctl projects delete`, `pscale database delete`, `turso db destroy`).",
    rationale="The service deletes the database with its data; a deleted project or database is not kept to restore.",
    safer_alternative="Take a dump first, and delete only databases and branches made for the task.",
    matches=(
        command(("neonctl", "neon"), "projects delete"),
        command(("neonctl", "neon"), "branches delete"),
        command(("neonctl", "neon"), "databases delete"),
        command("pscale", "database delete"),
        command("pscale", "branch delete"),
        command("turso", "db destroy"),
        command("turso", "group destroy"),
    ),
    message="deletes a hosted database",
    must_match=(
        "neonctl projects delete my-project",
        "pscale database delete prod --force",
        "turso db destroy prod --yes",
    ),
    must_not_match=("neonctl projects list", "pscale branch list prod", "turso db shell prod"),
)

PACK = Pack(
    name="database.others",
    summary="Snowflake and Neo4j statements (snowsql, cypher-shell), InfluxDB deletes, and the hosted databases' CLIs (Neon, PlanetScale, Turso).",
    default=True,
    reason=DEFAULT_REASON,
    rules=(
        *SNOWFLAKE_STATEMENTS,
        *NEO4J_STATEMENTS,
        INFLUXDB_DELETE,
        HOSTED_DATABASE_DELETE,
    ),
)
