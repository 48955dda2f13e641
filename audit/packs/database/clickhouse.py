"""database.clickhouse: ClickHouse: statements run through clickhouse-client."""

from __future__ import annotations

from ...rules._pack import Pack
from ._statements import DEFAULT_REASON, statement_rules

PACK = Pack(
    name="database.clickhouse",
    summary="ClickHouse: statements run through clickhouse-client (and `clickhouse client`).",
    default=True,
    reason=DEFAULT_REASON,
    rules=statement_rules(
        ids=("DB701", "DB702"),
        label="clickhouse",
        database="ClickHouse",
        programs=("clickhouse-client", "clickhouse"),
        destroying=("clickhouse-client -q 'DROP TABLE events'", "clickhouse client --query 'TRUNCATE TABLE logs'"),
        not_destroying=("clickhouse-client -q 'SELECT count() FROM events'", "clickhouse client -q 'SHOW TABLES'"),
        risky=("clickhouse-client -q 'DROP VIEW daily'", "clickhouse-client -q 'DROP USER reporter'"),
        not_risky=("clickhouse-client -q 'SELECT 1'", "clickhouse-client -q 'OPTIMIZE TABLE events FINAL'"),
    ),
)
