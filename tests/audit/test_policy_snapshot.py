"""The parsed default policy shipped beside its TOML (`audit/_policy_snapshot.py`): used only
when it was made from the TOML as shipped, and kept current."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable
from importlib import resources
from pathlib import Path

import pytest

from audit import _policy_snapshot
from audit._policy_snapshot import SNAPSHOT_NAME, TOML_NAME, snapshot_document, snapshot_text


def _shipped_toml() -> str:
    return resources.files("audit").joinpath(TOML_NAME).read_text(encoding="utf-8")


def test_the_shipped_snapshot_is_the_document_tomllib_makes_of_the_shipped_toml() -> None:
    text = _shipped_toml()
    assert snapshot_document(text) == tomllib.loads(text), (
        f"{SNAPSHOT_NAME} is stale: run `python -m audit._policy_snapshot`"
    )


def test_the_snapshot_file_is_what_the_writer_writes() -> None:
    shipped = resources.files("audit").joinpath(SNAPSHOT_NAME).read_text(encoding="utf-8")
    assert shipped == snapshot_text(_shipped_toml())


@pytest.mark.parametrize(
    "edited",
    [
        lambda text: text + "\n# a comment changes nothing the document holds, but it is another text\n",
        lambda text: text.replace("max_depth = 8", "max_depth = 9"),
        lambda text: text[:-1],
    ],
    ids=["comment added", "value changed", "last character removed"],
)
def test_a_snapshot_made_from_another_text_is_not_used(edited: Callable[[str], str]) -> None:
    text = _shipped_toml()
    changed = edited(text)
    assert changed != text
    assert snapshot_document(changed) is None


def _with_snapshot(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, content: str) -> None:
    (tmp_path / SNAPSHOT_NAME).write_text(content, encoding="utf-8")
    monkeypatch.setattr(_policy_snapshot, "_files", lambda: tmp_path)


@pytest.mark.parametrize(
    "content",
    ["", "{not json", "[]", '{"source": {}, "document": {}}', '{"document": {"limits": {}}}'],
    ids=["empty", "not JSON", "not an object", "another source", "no source"],
)
def test_a_broken_or_foreign_snapshot_is_not_used(
    content: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _with_snapshot(monkeypatch, tmp_path, content)
    assert snapshot_document(_shipped_toml()) is None


def test_a_missing_snapshot_is_not_used(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(_policy_snapshot, "_files", lambda: tmp_path)
    assert snapshot_document(_shipped_toml()) is None


def test_a_snapshot_whose_document_is_not_a_table_is_not_used(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    text = _shipped_toml()
    made = json.loads(snapshot_text(text))
    made["document"] = ["limits"]
    _with_snapshot(monkeypatch, tmp_path, json.dumps(made))
    assert snapshot_document(text) is None


def test_a_toml_with_a_date_cannot_be_snapshotted() -> None:
    with pytest.raises(ValueError, match="JSON cannot keep"):
        snapshot_text("released = 2026-12-02\n")


def test_without_a_usable_snapshot_the_default_policy_is_parsed_from_its_toml(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from audit import _policy

    _with_snapshot(monkeypatch, tmp_path, "{not json")
    _policy._default_draft_document.cache_clear()
    try:
        assert _policy._default_draft_document() == tomllib.loads(_shipped_toml())
    finally:
        _policy._default_draft_document.cache_clear()


def test_with_the_shipped_snapshot_the_default_policy_is_not_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    from audit import _policy

    def no_parsing(text: str, origin: str) -> None:
        raise AssertionError(f"{origin} was parsed")

    monkeypatch.setattr(_policy, "_parse_toml", no_parsing)
    _policy._default_draft_document.cache_clear()
    try:
        assert _policy._default_draft_document() == tomllib.loads(_shipped_toml())
    finally:
        _policy._default_draft_document.cache_clear()
