"""The Redis commands a Lua script calls: what `EVAL "return redis.call('FLUSHALL')" 0` runs on the server.

The script is parsed with tree-sitter's Lua grammar (the `tree-sitter-lua`
wheel, loaded on first use by the grammar loader `audit/languages` uses);
tree-sitter objects never leave this module. A call is `redis.call(...)` or
`redis.pcall(...)`; its string and number arguments are the command's words,
and any other argument (`KEYS[1]`, `ARGV[1]`, a variable) stands for an
unknown value (`UNKNOWN`): `redis.call('DEL', KEYS[1])` deletes the key it is
given, `redis.call('FLUSHALL')` empties the server.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._model import UNKNOWN

if TYPE_CHECKING:
    from tree_sitter import Node

_CALLS = frozenset({"call", "pcall"})


def lua_commands(script: str) -> list[tuple[str, ...]]:
    """The argv of each `redis.call`/`redis.pcall` in the script, in text order."""
    from ..languages._grammars import parse

    source = script.encode("utf-8", "surrogatepass")
    root = parse("lua", source, None).root_node
    commands: list[tuple[str, ...]] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "function_call":
            argv = _redis_call(node, source)
            if argv:
                commands.append(argv)
        stack.extend(reversed(node.children))
    return commands


def _redis_call(call: Node, source: bytes) -> tuple[str, ...] | None:
    function = call.child_by_field_name("name")
    arguments = call.child_by_field_name("arguments")
    if function is None or arguments is None or function.type != "dot_index_expression":
        return None
    words = [_text(child, source) for child in function.children]
    if len(words) != 3 or words[0] != "redis" or words[2] not in _CALLS:
        return None
    return tuple(_word(argument, source) for argument in arguments.named_children if argument.type != "comment")


def _word(argument: Node, source: bytes) -> str:
    """A call argument as a command word: a literal's value, else an unknown value."""
    if argument.type == "number":
        return _text(argument, source)
    if argument.type != "string":
        return UNKNOWN
    from ..languages._strings import decode_lua_string

    content = argument.child_by_field_name("content")
    raw = _text(content, source) if content is not None else ""
    decoded = decode_lua_string(raw, long_bracket=_text(argument, source).startswith("["))
    return UNKNOWN if decoded is None else decoded


def _text(node: Node, source: bytes) -> str:
    return source[node.start_byte : node.end_byte].decode("utf-8", "replace")
