"""database.cassandra: Cassandra: CQL statements run through cqlsh."""

from __future__ import annotations

from ...rules._pack import Pack
from ._statements import DEFAULT_REASON, statement_rules

PACK = Pack(
    name="database.cassandra",
    summary="Cassandra: CQL statements run through cqlsh.",
    default=True,
    reason=DEFAULT_REASON,
    rules=statement_rules(
        ids=("DB901", "DB902"),
        label="cassandra",
        database="Cassandra",
        programs=("cqlsh",),
        destroying=("cqlsh -e 'DROP KEYSPACE shop'", "cqlsh db1 9042 -e 'TRUNCATE shop.carts'"),
        not_destroying=("cqlsh -e 'DESCRIBE KEYSPACES'", "cqlsh -e 'SELECT * FROM shop.carts LIMIT 1'"),
        risky=("cqlsh -e 'DROP INDEX shop.carts_user'", "cqlsh -e 'DROP ROLE reporter'"),
        not_risky=("cqlsh -e 'SELECT now() FROM system.local'", "cqlsh -f schema.cql"),
    ),
)
