"""database.redis: Redis and Valkey: commands run through redis-cli and valkey-cli."""

from __future__ import annotations

from ...rules._pack import Pack
from ._statements import statement_rules

REDIS_STATEMENTS = statement_rules(
    ids=("DB401", "DB402"),
    label="redis",
    database="Redis or Valkey",
    programs=("redis-cli", "valkey-cli"),
    destroying=("redis-cli -n 0 FLUSHDB", "redis-cli -h cache.internal FLUSHALL ASYNC", "echo FLUSHALL | redis-cli"),
    not_destroying=("redis-cli GET session:42", "redis-cli -n 2 KEYS 'user:*'"),
    risky=("redis-cli SCRIPT FLUSH", "redis-cli CONFIG SET dir /tmp"),
    not_risky=("redis-cli PING", "redis-cli INFO memory"),
)

PACK = Pack(
    name="database.redis",
    summary="Redis and Valkey: commands given to redis-cli/valkey-cli as arguments, in heredocs or through pipes.",
    default=True,
    reason="FLUSHALL and FLUSHDB empty the server at once; there is no undo but a backup.",
    rules=REDIS_STATEMENTS,
)
