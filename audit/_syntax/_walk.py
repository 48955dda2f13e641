"""Generic traversal of the frozen syntax nodes (for tests and tooling)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import fields, is_dataclass
from typing import Any

from .._model import Span


def walk(node: Any) -> Iterator[Any]:
    """Every node under `node` (itself included), depth first, in source order."""
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, tuple):
            stack.extend(reversed(current))
            continue
        if not is_dataclass(current) or isinstance(current, Span):
            continue
        yield current
        children = [getattr(current, field.name) for field in fields(current)]
        stack.extend(reversed([child for child in children if child is not None and not isinstance(child, (str, bool, int))]))
