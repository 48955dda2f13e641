"""classify_cypher: Neo4j's Cypher, read for what deletes the graph (the texts are only read, never run)."""

from __future__ import annotations

import pytest

from audit.databases import DatabaseInputError, StatementKind, classify_cypher


@pytest.mark.parametrize(
    ("text", "kind", "irreversible"),
    [
        ("MATCH (n) DETACH DELETE n", StatementKind.DELETE_WITHOUT_WHERE, True),
        ("match (n:Session) delete n", StatementKind.DELETE_WITHOUT_WHERE, True),
        ("MATCH ()-[r:FOLLOWS]->() DELETE r", StatementKind.DELETE_WITHOUT_WHERE, True),
        ("DROP DATABASE shop IF EXISTS", StatementKind.DROP_DATABASE, True),
        ("CREATE OR REPLACE DATABASE shop", StatementKind.DROP_DATABASE, True),
        ("DROP CONSTRAINT user_email_unique", StatementKind.DROP_OTHER, False),
        ("STOP DATABASE shop", StatementKind.SHUTDOWN, False),
    ],
)
def test_a_statement_that_deletes_drops_or_stops_is_found(text: str, kind: StatementKind, irreversible: bool) -> None:
    (finding,) = classify_cypher(text)
    assert (finding.kind, finding.irreversible) == (kind, irreversible)


@pytest.mark.parametrize(
    "text",
    [
        "MATCH (n:User {id: 7}) DETACH DELETE n",
        "MATCH (n:User) WHERE n.last_seen < date('2020-01-01') DETACH DELETE n",
        "MATCH (n:Temp) WITH n LIMIT 1000 DETACH DELETE n",
        "MATCH (n) RETURN count(n)",
        "CREATE (n:Note {text: 'DELETE everything'})",
        "MATCH (n) RETURN n // DETACH DELETE n",
        "RETURN `DELETE`",
        "",
    ],
)
def test_a_filtered_delete_a_read_and_quoted_or_commented_words_are_not_found(text: str) -> None:
    assert classify_cypher(text) == ()


def test_statements_are_split_at_semicolons_outside_strings_and_each_is_spanned() -> None:
    text = "MATCH (n {name: 'a;b'}) RETURN n; MATCH (n) DETACH DELETE n;"
    (finding,) = classify_cypher(text)
    assert text[finding.span.start : finding.span.end].strip() == "MATCH (n) DETACH DELETE n"


def test_text_of_another_type_is_refused() -> None:
    with pytest.raises(DatabaseInputError):
        classify_cypher(["MATCH (n) DELETE n"])  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]
