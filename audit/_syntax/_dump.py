"""A readable rendering of syntax nodes, for debugging and test failures."""

from __future__ import annotations

from typing import Any

from .._model import Span
from ._walk import is_node


def dump(node: Any, indent: int = 0) -> str:
    """Render `node` one field per line; spans are shown as `[start,end)`."""
    pad = "  " * indent
    if isinstance(node, Span):
        return f"[{node.start},{node.end})"
    if is_node(node):
        lines = [type(node).__name__]
        for name, value in zip(node._fields, node, strict=True):
            lines.append(f"{pad}  {name}: {dump(value, indent + 1)}")
        return "\n".join(lines)
    if isinstance(node, tuple):
        if not node:
            return "()"
        return "\n" + "\n".join(f"{pad}  - {dump(item, indent + 2).lstrip()}" for item in node)
    return repr(node)
