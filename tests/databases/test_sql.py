"""classify_sql: the case tables (both ways, every dialect named), then behaviour the tables cannot show."""

from __future__ import annotations

import pytest
from database_cases import Case, load_cases, triples

from audit.databases import DatabaseInputError, SqlDialect, StatementKind, classify_sql

SQL_CASES = load_cases("sql_*.toml")


@pytest.mark.parametrize("case", SQL_CASES, ids=[case.id for case in SQL_CASES])
def test_sql_case_gives_exactly_its_findings(case: Case) -> None:
    assert case.text is not None
    assert triples(classify_sql(case.text, case.dialect)) == list(case.expect)


def test_every_sql_kind_appears_in_the_tables_both_ways() -> None:
    sql_kinds = {
        StatementKind.DROP_DATABASE, StatementKind.DROP_SCHEMA, StatementKind.DROP_TABLE, StatementKind.DROP_OTHER,
        StatementKind.TRUNCATE, StatementKind.DELETE_WITHOUT_WHERE, StatementKind.UPDATE_WITHOUT_WHERE,
        StatementKind.ALTER_DROP, StatementKind.SHUTDOWN, StatementKind.SHELL_OUT, StatementKind.INCLUDE_FILE,
        StatementKind.DYNAMIC_SQL, StatementKind.MODULE_LOAD, StatementKind.UNREADABLE,
        StatementKind.GRANT_SUPERUSER, StatementKind.SET_PASSWORD, StatementKind.GRANT_APP_ADMIN,
    }  # fmt: skip
    found = {kind for case in SQL_CASES for kind, _, _ in case.expect}
    assert {kind.value for kind in sql_kinds} <= found
    assert any(not case.expect for case in SQL_CASES)
    assert {case.dialect for case in SQL_CASES} == {*SqlDialect, None}


def test_a_finding_spans_its_statement_and_quotes_it() -> None:
    text = "SELECT 1;\n  DELETE   FROM  users ;\nSELECT 2;"
    (finding,) = classify_sql(text, "postgres")
    assert text[finding.span.start : finding.span.end] == "DELETE   FROM  users"
    assert finding.evidence == "DELETE FROM users"


def test_findings_come_in_text_order() -> None:
    findings = classify_sql("TRUNCATE a; DROP TABLE b; DELETE FROM c", "sqlite")
    assert [finding.kind for finding in findings] == [
        StatementKind.TRUNCATE,
        StatementKind.DROP_TABLE,
        StatementKind.DELETE_WITHOUT_WHERE,
    ]


def test_a_long_statement_is_quoted_shortened() -> None:
    text = "DELETE FROM t -- " + "x" * 500
    (finding,) = classify_sql(text, "postgres")
    assert len(finding.evidence) <= 120
    assert finding.evidence.startswith("DELETE FROM t")


def test_sql_built_at_run_time_is_reported_at_the_statement_that_runs_it() -> None:
    text = "SELECT 1; EXEC('DROP TABLE ' + @t)"
    (finding,) = classify_sql(text, "tsql")
    assert text[finding.span.start : finding.span.end] == "EXEC('DROP TABLE ' + @t)"
    assert finding.evidence == "DROP TABLE …"


def test_dialect_names_are_read_in_any_case() -> None:
    assert classify_sql("DROP TABLE t", "PostgreS") == classify_sql("DROP TABLE t", SqlDialect.POSTGRES)


def test_an_unknown_dialect_is_an_error_naming_the_closest() -> None:
    with pytest.raises(DatabaseInputError, match="postgres"):
        classify_sql("SELECT 1", "postgre")


def test_text_that_is_not_a_string_is_an_error() -> None:
    with pytest.raises(DatabaseInputError, match="text"):
        classify_sql(b"DROP TABLE t", "postgres")  # pyright: ignore[reportArgumentType]


def test_to_dict_holds_every_field() -> None:
    (finding,) = classify_sql("DROP TABLE t", "sqlite")
    assert finding.to_dict() == {
        "kind": "drop-table",
        "irreversible": True,
        "span": [0, 12],
        "target": "t",
        "evidence": "DROP TABLE t",
    }
