"""Shared by the language tests: one-line descriptions of facts, and the fact tables."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from audit.languages import (
    DestructiveCall,
    DownloadExecute,
    Fact,
    FileRead,
    NetworkSend,
    ReverseShell,
    ShellOut,
    Unresolved,
)

TABLES = Path(__file__).parent / "tables"


# File operations whose facts have no mode, owner or destination.
_TAKE_NO_OPERAND = frozenset({"delete-tree", "delete-file", "delete-dir", "write-file", "append-file"})


def describe(fact: Fact) -> str:
    """A fact without its spans, as the tables spell it."""
    match fact:
        case ShellOut():
            return f"shell {fact.kind.value} {fact.command!r} via {fact.via}"
        case DestructiveCall():
            operand = "" if fact.operation.value in _TAKE_NO_OPERAND else f" {fact.operand!r}"
            return f"{fact.operation.value} {fact.path!r}{operand} via {fact.via}"
        case FileRead():
            return f"read-file {fact.path!r} via {fact.via}"
        case DownloadExecute():
            return f"download-execute {fact.source} via {fact.via}"
        case ReverseShell():
            return f"reverse-shell via {fact.via}"
        case NetworkSend():
            sources = ", ".join(str(source) for source in fact.data_from)
            return f"network-send {fact.url!r} from [{sources}] via {fact.via}"
        case Unresolved():
            return f"unresolved {fact.kind.value}"


@dataclass(frozen=True)
class TableCase:
    language: str
    name: str
    code: str
    facts: frozenset[str]

    @property
    def id(self) -> str:
        return f"{self.language}: {self.name}"


def load_tables() -> list[TableCase]:
    cases: list[TableCase] = []
    for path in sorted(TABLES.glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        language = data["language"]
        for entry in data["case"]:
            unknown = set(entry) - {"name", "code", "facts"}
            if unknown:
                raise ValueError(f"{path.name}: case {entry.get('name')!r} has unknown keys {sorted(unknown)}")
            cases.append(TableCase(language, entry["name"], entry["code"], frozenset(entry["facts"])))
    return cases
