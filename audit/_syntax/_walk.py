"""Generic traversal of the frozen syntax nodes (for tests and tooling)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .._model import Span


def is_node(value: object) -> bool:
    """Syntax nodes are NamedTuples; plain tuples are sequences of nodes."""
    return isinstance(value, tuple) and hasattr(value, "_fields") and not isinstance(value, Span)


def walk(node: Any) -> Iterator[Any]:
    """Every node under `node` (itself included), depth first, in source order."""
    stack = [node]
    while stack:
        current = stack.pop()
        if is_node(current):
            yield current
            stack.extend(reversed([child for child in current if isinstance(child, tuple)]))
        elif isinstance(current, tuple) and not isinstance(current, Span):
            stack.extend(reversed(current))
