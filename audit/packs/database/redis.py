"""database.redis: Redis and Valkey: commands run through redis-cli and valkey-cli."""

from __future__ import annotations

from ..._model import Severity
from ...programs import Arg
from ...rules._pack import Pack
from .._invocation import Found, command, listed_by, pack_rule
from ._statements import statement_rules

CLIENTS = ("redis-cli", "valkey-cli")

REDIS_STATEMENTS = statement_rules(
    ids=("DB401", "DB402"),
    label="redis",
    database="Redis or Valkey",
    programs=CLIENTS,
    destroying=(
        "redis-cli -n 0 FLUSHDB",
        "redis-cli -h cache.internal FLUSHALL ASYNC",
        "echo FLUSHALL | redis-cli",
        "redis-cli EVAL \"return redis.call('FLUSHALL')\" 0",
    ),
    not_destroying=(
        "redis-cli GET session:42",
        "redis-cli -n 2 KEYS 'user:*'",
        "redis-cli EVAL \"return redis.call('GET', KEYS[1])\" 1 k",
    ),
    risky=("redis-cli SCRIPT FLUSH", "redis-cli CONFIG SET dir /tmp"),
    not_risky=("redis-cli PING", "redis-cli INFO memory"),
)


def _deletes_keys(found: Found) -> Arg | None:
    """The command deletes the keys it is given (`DEL`, `UNLINK`, in any case)."""
    operands = found.reading.operands
    first = operands[0] if operands else None
    return first if first is not None and (first.value or "").upper() in ("DEL", "UNLINK") else None


def _lists_every_key(words: list[str]) -> bool:
    """A listing of every key: `redis-cli --scan` with no pattern or `*`, `redis-cli KEYS *`."""
    if "--scan" in words:
        patterns = [
            words[index + 1] for index, word in enumerate(words[:-1]) if word in ("--pattern", "--quoted-pattern")
        ]
        return all(pattern == "*" for pattern in patterns)
    upper = [word.upper() for word in words]
    return "KEYS" in upper and words[upper.index("KEYS") + 1 :][:1] == ["*"]


DELETE_EVERY_KEY = pack_rule(
    id="DB403",
    name="redis-delete-every-key",
    severity=Severity.HIGH,
    summary="Deletes every key a listing of all keys gives (`redis-cli --scan | xargs redis-cli DEL`, `DEL $(redis-cli KEYS '*')`).",
    rationale="A listing with no pattern (or `*`) names every key of the database: deleting them is FLUSHDB spelt key by key, with no undo.",
    safer_alternative="List the keys of one namespace (`--scan --pattern 'cache:*'`), check them, and delete those; or flush a database made for the task.",
    matches=(command(CLIENTS, where=(_deletes_keys, listed_by(*CLIENTS, selects_all=_lists_every_key))),),
    message="deletes every key of the database",
    must_match=(
        "redis-cli --scan --pattern '*' | xargs redis-cli DEL",
        "redis-cli KEYS '*' | xargs redis-cli UNLINK",
        "redis-cli -n 3 del $(redis-cli -n 3 keys '*')",
    ),
    must_not_match=(
        "redis-cli --scan --pattern 'cache:*' | xargs redis-cli DEL",
        "redis-cli --scan | xargs redis-cli TTL",
        "redis-cli DEL session:42",
    ),
)

PACK = Pack(
    name="database.redis",
    summary="Redis and Valkey: commands given to redis-cli/valkey-cli as arguments, in heredocs or through pipes.",
    default=True,
    reason="FLUSHALL and FLUSHDB empty the server at once; there is no undo but a backup.",
    rules=(*REDIS_STATEMENTS, DELETE_EVERY_KEY),
)
