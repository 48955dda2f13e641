"""Node kinds of tree-sitter-bash as sets of kind ids, looked up once from the grammar.

The builder tests the kind of nearly every node it reads: `node.kind_id` is an
int read without allocation, where `node.type` makes a new string on every
call, which a set lookup then hashes. A name can stand for several ids (the
grammar's aliases: four kinds are called `word`), so each name maps to all of
its ids, and `kind_id in kinds("word")` means exactly `type == "word"`.
"""

from __future__ import annotations

from ._parser import LANGUAGE


def _ids_by_name() -> dict[str, frozenset[int]]:
    found: dict[str, set[int]] = {}
    for kind in range(LANGUAGE.node_kind_count):
        name = LANGUAGE.node_kind_for_id(kind)
        if name is not None:
            found.setdefault(name, set()).add(kind)
    # tree-sitter's own error symbol sits outside the grammar's numbered kinds.
    error = LANGUAGE.id_for_node_kind("ERROR", True)
    if error is not None:
        found.setdefault("ERROR", set()).add(error)
    return {name: frozenset(ids) for name, ids in found.items()}


_IDS_BY_NAME = _ids_by_name()


def kinds(*names: str) -> frozenset[int]:
    """Every kind id whose name is one of `names` (a name the grammar lacks adds none)."""
    return frozenset(kind for name in names for kind in _IDS_BY_NAME.get(name, ()))


# Kinds more than one part of the builder tests.
ERROR = kinds("ERROR")
COMMENT = kinds("comment")
WORD = kinds("word")
SUBSCRIPT = kinds("subscript")
ARRAY = kinds("array")
VARIABLE_ASSIGNMENT = kinds("variable_assignment")
