"""Strict reading of a policy document's TOML tables: each value checked for its type and range,
and every error naming the document and the dotted key (`names.credential_files[3]`)."""

from __future__ import annotations

from collections.abc import Mapping, Set
from typing import Any, cast

from .errors import PolicyError


class TableReader:
    """Strict access to one TOML table, recording the dotted key for errors."""

    def __init__(self, table: Mapping[str, Any], path: str, origin: str) -> None:
        self.table = table
        self.path = path
        self.origin = origin

    def fail(self, key: str, message: str) -> PolicyError:
        where = f"{self.path}.{key}" if self.path else key
        return PolicyError(f"{self.origin}: {where}: {message}")

    def only(self, allowed: Set[str]) -> None:
        for key in self.table:
            if key not in allowed:
                hint = f" (expected one of: {', '.join(sorted(allowed))})" if allowed else ""
                raise self.fail(key, f"unknown key{hint}")

    def sub(self, key: str) -> TableReader:
        value: object = self.table.get(key, {})
        if not isinstance(value, Mapping):
            raise self.fail(key, f"must be a table, got {describe(value)}")
        return TableReader(cast("Mapping[str, Any]", value), f"{self.path}.{key}" if self.path else key, self.origin)

    def integer(self, key: str, default: int, minimum: int, maximum: int) -> int:
        value = self.table.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(key, f"must be an integer, got {describe(value)}")
        if not minimum <= value <= maximum:
            raise self.fail(key, f"must be between {minimum} and {maximum}, got {value}")
        return value

    def number(self, key: str, default: float, minimum: float, maximum: float) -> float:
        value = self.table.get(key, default)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.fail(key, f"must be a number, got {describe(value)}")
        if not minimum <= value <= maximum:
            raise self.fail(key, f"must be between {minimum} and {maximum}, got {value}")
        return float(value)

    def boolean(self, key: str, default: bool) -> bool:
        value = self.table.get(key, default)
        if not isinstance(value, bool):
            raise self.fail(key, f"must be true or false, got {describe(value)}")
        return value

    def text(self, key: str, default: str | None = None) -> str:
        value = self.table.get(key, default)
        if not isinstance(value, str) or not value:
            raise self.fail(key, f"must be a non-empty string, got {describe(value)}")
        return value

    def strings(self, key: str) -> tuple[str, ...]:
        strings: list[str] = []
        for index, item in enumerate(self._list(key, "strings")):
            if not isinstance(item, str) or not item:
                raise self.fail(f"{key}[{index}]", f"must be a non-empty string, got {describe(item)}")
            strings.append(item)
        return tuple(strings)

    def records(self, key: str) -> list[TableReader]:
        readers: list[TableReader] = []
        for index, item in enumerate(self._list(key, "tables")):
            if not isinstance(item, Mapping):
                raise self.fail(f"{key}[{index}]", f"must be a table, got {describe(item)}")
            where = f"{self.path}.{key}[{index}]" if self.path else f"{key}[{index}]"
            readers.append(TableReader(cast("Mapping[str, Any]", item), where, self.origin))
        return readers

    def _list(self, key: str, of: str) -> list[object]:
        value: object = self.table.get(key, [])
        if not isinstance(value, list):
            raise self.fail(key, f"must be a list of {of}, got {describe(value)}")
        return cast("list[object]", value)


def describe(value: object) -> str:
    return f"{type(value).__name__} {value!r}"
