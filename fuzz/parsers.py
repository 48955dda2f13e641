"""The commands bash would run, as three independent parsers read them.

A command is identified by the offset of its name (its first word) in the
source: exact, and neutral between parsers. Only simple commands with a name
count; assignment-only and redirect-only commands run nothing by name.
`time` and `coproc` at the very start of a command are reserved words to
bash and to mvdan/sh, plain words to tree-sitter-bash and bashlex; the
adapters skip them there so all three agree on what `time make` runs (after
an assignment or a redirect `time` is an ordinary command name, as in
`FOO=1 time make`).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Iterator
from typing import Any

import bashlex  # type: ignore[import-untyped]

from audit._syntax import Budget, ast, parse, walk

# Syntax bashlex does not implement (it reads `[[` and `((` as command names).
BASHLEX_UNSUPPORTED = ("[[", "((", "<<", "$'", "|&", "coproc", "select ", "case ", ";&")
# bashlex does not look inside `${...}`: `${arr[$(ls)]}` and `${x:-$(ls)}` run ls,
# which it never reads (found by a campaign: its reading was the odd one out).
_SUBSTITUTION_IN_PARAMETER = re.compile(r"\$\{[^}]*(\$\(|`)")
_RESERVED_PREFIXES = frozenset({"time", "coproc"})
_SHFMT_TIMEOUT_SECONDS = 10
# mvdan/sh gives declaration builtins (export, declare, local, readonly,
# typeset) and `let` nodes of their own; to bash they are simple commands.
_SHFMT_BUILTIN_CLAUSES = frozenset({"DeclClause", "LetClause"})
# Generous: the differential compares readings, not speed.
_PARSE_SECONDS = 10.0


def tree_sitter_commands(source: str) -> frozenset[int]:
    """Name offsets of the simple commands in the engine's primary (tree-sitter) tree."""
    result = parse(source, budget=Budget(_PARSE_SECONDS))
    offsets = set()
    for node in walk(result.script):
        if type(node) is ast.SimpleCommand and node.words:
            names = list(node.words)
            if names[0].span.start == node.span.start:
                while names and names[0].source in _RESERVED_PREFIXES:
                    names = names[2:] if names[1:2] and names[1].source == "-p" else names[1:]  # `time -p`
            if names:
                offsets.add(names[0].span.start)
        elif type(node) is ast.TestClause and _is_single_bracket_test(source, node.span.start):
            offsets.add(node.span.start)
    return frozenset(offsets)


def _is_single_bracket_test(source: str, start: int) -> bool:
    """tree-sitter-bash reads `[ ... ]` as a test node; to bash and mvdan/sh it is the `[` builtin."""
    return source.startswith("[", start) and not source.startswith("[[", start)


def shfmt_available() -> bool:
    return shutil.which("shfmt") is not None


def shfmt_commands(source: str) -> frozenset[int] | None:
    """Name offsets of mvdan/sh's CallExpr nodes; None when it rejects the source."""
    completed = subprocess.run(
        ["shfmt", "-ln", "bash", "--to-json"],
        check=False,
        input=source.encode(),
        capture_output=True,
        timeout=_SHFMT_TIMEOUT_SECONDS,
    )
    if completed.returncode != 0:
        return None
    char_offset = _byte_to_char_offsets(source)
    return frozenset(char_offset[offset] for offset in _call_name_offsets(json.loads(completed.stdout)))


def _call_name_offsets(node: Any) -> Iterator[int]:
    if isinstance(node, list):
        for child in node:
            yield from _call_name_offsets(child)
    elif isinstance(node, dict):
        kind = node.get("Type")
        if kind == "CallExpr" and node.get("Args"):
            yield node["Args"][0]["Pos"]["Offset"]
        elif kind in _SHFMT_BUILTIN_CLAUSES:
            yield node["Pos"]["Offset"]
        for child in node.values():
            yield from _call_name_offsets(child)


def _byte_to_char_offsets(source: str) -> dict[int, int]:
    offsets: dict[int, int] = {}
    position = 0
    for index, character in enumerate(source):
        offsets[position] = index
        position += len(character.encode())
    offsets[position] = len(source)
    return offsets


def bashlex_supports(source: str) -> bool:
    return not any(marker in source for marker in BASHLEX_UNSUPPORTED) and not _SUBSTITUTION_IN_PARAMETER.search(source)


def bashlex_commands(source: str) -> frozenset[int] | None:
    """Name offsets of bashlex's command nodes; None when it rejects the source."""
    try:
        trees = bashlex.parse(source)
    except Exception:
        return None
    collector = _BashlexCommands()
    for tree in trees:
        collector.visit(tree)
    return frozenset(collector.offsets)


class _BashlexCommands(bashlex.ast.nodevisitor):  # type: ignore[misc]
    def __init__(self) -> None:
        self.offsets: set[int] = set()

    def visitcommand(self, node: Any, parts: list[Any]) -> None:
        names = [part for part in parts if part.kind == "word"]
        if names and names[0] is parts[0]:
            while names and names[0].word in _RESERVED_PREFIXES:
                names = names[2:] if names[1:2] and names[1].word == "-p" else names[1:]
        if names:
            self.offsets.add(names[0].pos[0])
