"""A readable rendering of syntax nodes, for debugging and test failures."""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from typing import Any

from .._model import Span


def dump(node: Any, indent: int = 0) -> str:
    """Render `node` one field per line; spans are shown as `[start,end)`."""
    pad = "  " * indent
    if isinstance(node, Span):
        return f"[{node.start},{node.end})"
    if isinstance(node, tuple):
        if not node:
            return "()"
        inner = "\n".join(f"{pad}  - {dump(item, indent + 2).lstrip()}" for item in node)
        return "\n" + inner
    if not is_dataclass(node):
        return repr(node)
    lines = [f"{type(node).__name__}"]
    for field in fields(node):
        value = getattr(node, field.name)
        lines.append(f"{pad}  {field.name}: {dump(value, indent + 1)}")
    return "\n".join(lines)
