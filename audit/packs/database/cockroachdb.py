"""database.cockroachdb: CockroachDB: statements run through cockroach sql."""

from __future__ import annotations

from ...rules._pack import Pack
from ._statements import DEFAULT_REASON, statement_rules

PACK = Pack(
    name="database.cockroachdb",
    summary="CockroachDB: statements run through `cockroach sql` and `cockroach demo`.",
    default=True,
    reason=DEFAULT_REASON,
    rules=statement_rules(
        ids=("DB801", "DB802"),
        label="cockroachdb",
        database="CockroachDB",
        programs=("cockroach", "cockroach-sql"),
        destroying=(
            "cockroach sql --insecure -e 'DROP DATABASE bank CASCADE'",
            "cockroach sql -e 'DELETE FROM accounts'",
        ),
        not_destroying=("cockroach sql -e 'SHOW DATABASES'", "cockroach node status"),
        risky=("cockroach sql -e 'DROP VIEW v'", "cockroach sql -e 'DROP ROLE analyst'"),
        not_risky=("cockroach sql -e 'SELECT 1'", "cockroach sql -e 'SHOW TABLES'"),
    ),
)
