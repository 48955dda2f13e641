"""docs/databases-draft.md stays in step with the code: every kind and every client's statement options."""

from __future__ import annotations

from pathlib import Path

import pytest

from audit.databases import CLIENTS, DatabaseClient, StatementKind

DOC = (Path(__file__).resolve().parents[2] / "docs" / "databases-draft.md").read_text(encoding="utf-8")
TABLE_ROWS = [line for line in DOC.splitlines() if line.startswith("| ")]


@pytest.mark.parametrize("kind", list(StatementKind), ids=[kind.value for kind in StatementKind])
def test_every_kind_is_documented(kind: StatementKind) -> None:
    assert any(f"`{kind.value}`" in row.split("|")[1] for row in TABLE_ROWS), kind.value


@pytest.mark.parametrize("client", CLIENTS, ids=[client.name for client in CLIENTS])
def test_every_client_row_lists_its_statement_and_file_options(client: DatabaseClient) -> None:
    # The first cell names the clients of the row, comma-separated (`heroku pg:psql` is not `psql`'s row).
    rows = [row for row in TABLE_ROWS if client.name in (name.strip() for name in row.split("|")[1].split(","))]
    assert len(rows) == 1, f"{client.name}: one row in the clients table"
    for option in (*client.statement_options, *client.file_options):
        assert f"`{option}`" in rows[0], f"{client.name}: {option} missing from its row"
