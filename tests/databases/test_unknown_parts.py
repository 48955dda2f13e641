"""UNKNOWN: a part of the text known only at run time (a shell expansion) read by every classifier.

Regression (the second red-team round, M1): an expansion anywhere in a statement string hid every
statement in it. The caller now writes UNKNOWN where the expansion stands.
"""

from __future__ import annotations

import pytest

from audit.databases import UNKNOWN, StatementFinding, StatementKind, classify_mongo, classify_redis, classify_sql


def _kinds(findings: tuple[StatementFinding, ...]) -> list[str]:
    return [finding.kind.value for finding in findings]


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        (f"DROP TABLE users; -- requested by {UNKNOWN}", ["drop-table"]),
        (f"SELECT '{UNKNOWN}'; DROP TABLE users", ["drop-table"]),
        (f"DROP TABLE {UNKNOWN}", ["drop-table"]),
        (f"TRUNCATE logs_{UNKNOWN}", ["truncate"]),
        (f"DELETE FROM {UNKNOWN}", ["delete-without-where"]),
        (f"SELECT * FROM {UNKNOWN} LIMIT 5", []),
        (f"INSERT INTO log VALUES ('{UNKNOWN}')", []),
        (f"DELETE FROM {UNKNOWN} WHERE id = {UNKNOWN}", []),
        (f"SELECT 'DROP TABLE {UNKNOWN}'", []),
        (UNKNOWN, []),
    ],
)
def test_sql_around_an_unknown_part_is_still_judged(text: str, kinds: list[str]) -> None:
    assert _kinds(classify_sql(text, "postgres")) == kinds


def test_a_target_with_an_unknown_part_is_not_known_and_the_evidence_shows_an_ellipsis() -> None:
    (finding,) = classify_sql(f"DROP TABLE users_{UNKNOWN}", "postgres")
    assert finding.kind is StatementKind.DROP_TABLE and finding.irreversible
    assert finding.target is None
    assert finding.evidence == "DROP TABLE users_…"


def test_a_known_target_beside_an_unknown_statement_part_is_kept() -> None:
    (finding,) = classify_sql(f"DROP TABLE users; -- {UNKNOWN}", "postgres")
    assert finding.target == "users"


def test_mongo_reads_an_unknown_collection_as_a_collection() -> None:
    (finding,) = classify_mongo(f"db.{UNKNOWN}.drop()")
    assert (finding.kind, finding.target, finding.evidence) == (StatementKind.DROP_COLLECTION, None, "db.….drop()")
    assert classify_mongo(f"db.users.deleteMany({{tenant: '{UNKNOWN}'}})") == ()


def test_redis_reads_an_unknown_argument_as_a_word() -> None:
    (finding,) = classify_redis(["FLUSHALL", UNKNOWN])
    assert finding.kind is StatementKind.FLUSHALL
    (config,) = classify_redis(["CONFIG", "SET", "dir", UNKNOWN])
    assert config.target is None
    assert classify_redis([UNKNOWN, "users"]) == ()
