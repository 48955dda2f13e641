"""Lua: `lua -e`, `luajit -e`, scripts fed or written then run."""

from __future__ import annotations

from tree_sitter import Node

from ._catalogue import (
    argv_list,
    changes,
    fetches,
    imports,
    moves,
    opens,
    path_at,
    produces,
    runs_code,
    shell,
    shell_or_argv,
    socket,
)
from ._facts import FileOperation, SourceKind
from ._interpreter import Interpreter
from ._strings import decode_lua_string
from ._values import UNKNOWN, Call, Entry, Value, joined, opaque

_SPREADS = frozenset({"vararg_expression"})


def _build_catalogue() -> dict[str, Entry]:
    catalogue: dict[str, Entry] = {
        "os.execute": shell(0),
        "io.popen": shell(0),
        "os.remove": changes(FileOperation.DELETE_FILE),
        "os.rename": moves(path_at(0), (1, None)),
        "io.open": opens((0, None), (1, None)),
        "load": runs_code(0, strings_only=True),
        "loadstring": runs_code(0),
        "require": imports(0),
        "os.getenv": produces(SourceKind.ENVIRONMENT, 0),
        "socket.tcp": socket(),
        "socket.tcp4": socket(),
        "socket.tcp6": socket(),
        "socket.connect": socket(),
        "socket.http.request": fetches((0, None), [(1, None)]),
        "http.request": fetches((0, None), [(1, None)]),
        # neovim's API, for its init.lua and plugins: a command string goes through the shell, a list does not.
        "vim.fn.system": shell_or_argv(0),
        "vim.fn.systemlist": shell_or_argv(0),
        "vim.fn.jobstart": shell_or_argv(0),
        "vim.fn.termopen": shell_or_argv(0),
        "vim.system": argv_list(0),
    }
    return catalogue


class LuaInterpreter(Interpreter):
    language = "lua"
    grammars = ("lua",)
    catalogue = _build_catalogue()

    # ----- names

    def bind(self, node: Node) -> None:
        kind = node.type
        if kind == "assignment_statement":
            names = node.named_children[0] if node.named_children else None
            values = node.named_children[-1] if len(node.named_children) > 1 else None
            targets = list(names.named_children) if names is not None else []
            expressions = list(values.named_children) if values is not None else []
            for index, target in enumerate(targets):
                if target.type != "identifier":
                    continue
                if index < len(expressions) and (index < len(expressions) - 1 or len(targets) == len(expressions)):
                    self.assign(self.text(target), expressions[index])
                elif expressions:
                    # `local r, err = t:receive()`: the last call's results spread over the rest.
                    last = expressions[-1]
                    self.assign(self.text(target), lambda last=last: opaque((self.value(last),)))
                else:
                    self.assign(self.text(target), UNKNOWN)
        elif kind == "variable_declaration":
            # `local x` without a value.
            for child in node.named_children:
                if child.type == "identifier":
                    self.assign(self.text(child), UNKNOWN)
        elif kind in ("parameters", "for_generic_clause", "for_numeric_clause"):
            for child in node.named_children:
                if child.type == "identifier":
                    self.assign(self.text(child), UNKNOWN)
                elif child.type == "variable_list":
                    for name in child.named_children:
                        self.assign(self.text(name), UNKNOWN)
        elif kind in ("function_declaration",):
            name = node.child_by_field_name("name")
            if name is not None and name.type == "identifier":
                self.assign(self.text(name), UNKNOWN)

    # ----- values

    def evaluate(self, node: Node) -> Value:
        kind = node.type
        if kind == "string":
            return self._string(node)
        if kind == "identifier":
            return self.lookup(self.text(node))
        if kind in ("dot_index_expression", "method_index_expression"):
            owner = self.value(node.child_by_field_name("table"))
            field = node.child_by_field_name("field") or node.child_by_field_name("method")
            return self.member(owner, self.text(field)) if field is not None else opaque((owner,))
        if kind == "bracket_index_expression":
            owner = self.value(node.child_by_field_name("table"))
            key = self.value(node.child_by_field_name("field"))
            return self.member(owner, key.text) if key.text is not None and owner.name else self.subscript(owner, key)
        if kind == "binary_expression":
            left = self.value(node.child_by_field_name("left"))
            right = self.value(node.child_by_field_name("right"))
            operator = node.child_by_field_name("operator")
            return joined((left, right)) if operator is not None and operator.type == ".." else opaque((left, right))
        if kind == "table_constructor":
            return self._table(node)
        if kind in ("true", "false"):
            return Value(flag=kind == "true")
        if kind == "parenthesized_expression":
            inner = [child for child in node.named_children if child.type != "comment"]
            return self.value(inner[0]) if inner else UNKNOWN
        if kind in ("function_definition", "function_declaration"):
            return UNKNOWN  # their bodies are walked on their own; a function is no data
        return super().evaluate(node)

    def _string(self, node: Node) -> Value:
        content = node.child_by_field_name("content")
        if content is None:
            return Value(text="")
        raw = self.text(content)
        decoded = decode_lua_string(raw, long_bracket=self.text(node).startswith("["))
        if decoded is None:
            return UNKNOWN
        return Value(text=decoded, literal=self.span(content) if decoded == raw else None)

    def _table(self, node: Node) -> Value:
        items: list[Value] = []
        entries: list[tuple[str, Value]] = []
        for field in node.named_children:
            if field.type != "field":
                continue
            name = field.child_by_field_name("name")
            value = self.value(field.child_by_field_name("value"))
            if name is None:
                items.append(value)
            elif name.type == "identifier":
                entries.append((self.text(name), value))
            else:
                key = self.value(name)
                if key.text is not None:
                    entries.append((key.text, value))
        sources = opaque((*items, *(value for _, value in entries))).sources
        if entries:
            return Value(entries=tuple(entries), sources=sources)
        return Value(items=tuple(items), sources=sources)

    # ----- calls

    def make_call(self, node: Node) -> Call | None:
        if node.type != "function_call":
            return None
        function = node.child_by_field_name("name")
        if function is None:
            return None
        receiver: Value | None = None
        if function.type == "method_index_expression":
            receiver = self.value(function.child_by_field_name("table"))
            method = function.child_by_field_name("method")
            callee = self.callee_of(receiver, self.text(method) if method is not None else "")
        else:
            callee = self.callee_of(self.value(function))
        args, complete = self.arguments_in(node.child_by_field_name("arguments"), "arguments", _SPREADS)
        return Call(callee, tuple(args), {}, receiver, self.span(node), complete)
