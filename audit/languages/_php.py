"""PHP: `php -r` code (no `<?php` tag), and scripts with tags fed or written then run."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from tree_sitter import Node

from ._catalogue import (
    calls_named,
    changes,
    changes_mode,
    changes_owner,
    decodes,
    fetches,
    is_url,
    moves,
    opens,
    path_at,
    produces,
    runs_code,
    shell,
    socket,
)
from ._facts import DataSource, FileOperation, SourceKind
from ._interpreter import Interpreter
from ._strings import decode_escapes
from ._transfers import copies
from ._values import UNKNOWN, Call, Command, Entry, FileChange, Request, Value, joined, opaque

_CALLS = frozenset(
    {"function_call_expression", "member_call_expression", "scoped_call_expression", "object_creation_expression"}
)
_INCLUDES = frozenset(
    {"include_expression", "include_once_expression", "require_expression", "require_once_expression"}
)
_TEXT_PIECES = frozenset({"string_content", "nowdoc_string", "string_value"})
_FUNCTIONS = frozenset({"anonymous_function", "arrow_function", "function_definition", "method_declaration"})


def _proc_open() -> Entry:
    """proc_open(cmd, ...): a string goes through the shell, an array (PHP 7.4+) is an argument vector."""

    def command(call: Call) -> Command | None:
        first = call.arg(0, "command")
        if first is None:
            return None
        return Command.argv(first.items) if first.items is not None else Command.shell(first)

    return Entry(command=command)


def _pcntl_exec() -> Entry:
    def command(call: Call) -> Command | None:
        path = call.arg(0, "path")
        if path is None:
            return None
        listed = call.arg(1, "args")
        if listed is None:
            return Command.argv((path,))
        return Command.argv(None if listed.items is None else (path, *listed.items))

    return Entry(command=command)


def _put_contents() -> Entry:
    """file_put_contents(path, data, FILE_APPEND)."""

    def file_changes(call: Call) -> tuple[FileChange, ...]:
        path = call.arg(0, "filename")
        if path is None:
            return ()
        flags = call.arg(2, "flags")
        appends = flags is not None and "FILE_APPEND" in (flags.name or "")
        operation = FileOperation.APPEND_FILE if appends else FileOperation.WRITE_FILE
        return (FileChange(operation, path, data=call.arg(1, "data")),)

    return Entry(file_changes=file_changes)


def _get_contents() -> Entry:
    """file_get_contents/fopen/file: a URL is fetched, anything else is a local file."""

    def request(call: Call) -> Request | None:
        target = call.arg(0, "filename")
        return Request(target) if target is not None and is_url(target) else None

    def returns(call: Call) -> Value:
        target = call.arg(0, "filename") or UNKNOWN
        if is_url(target):
            return opaque(call.all_values())
        return opaque(call.all_values()).with_sources((DataSource(SourceKind.FILE, target.text),))

    return Entry(request=request, returns=returns)


def _fopen() -> Entry:
    local = opens((0, "filename"), (1, "mode"))
    remote = _get_contents()

    def file_changes(call: Call) -> tuple[FileChange, ...]:
        target = call.arg(0, "filename")
        if (target is not None and is_url(target)) or local.file_changes is None:
            return ()
        return local.file_changes(call)

    return Entry(file_changes=file_changes, request=remote.request, returns=local.returns)


def _include() -> Entry:
    """include/require of a URL runs downloaded code; of a local file, code not in the command."""

    def code(call: Call) -> Value | None:
        target = call.arg(0) or UNKNOWN
        if is_url(target):
            return Value(sources=frozenset({DataSource(SourceKind.NETWORK, target.text)}))
        if target.text is None and target.sources:
            return target
        return None

    return Entry(code=code)


def _post_fields() -> Entry:
    """curl_setopt($ch, CURLOPT_POSTFIELDS, $data): an upload."""

    def request(call: Call) -> Request | None:
        option = call.arg(1)
        if option is None or option.name != "CURLOPT_POSTFIELDS":
            return None
        return Request(UNKNOWN, tuple(value for value in (call.arg(2),) if value is not None), sends=True)

    return Entry(request=request)


def _build_catalogue() -> dict[str, Entry]:
    catalogue: dict[str, Entry] = {
        "`": shell(0),
        "proc_open": _proc_open(),
        "pcntl_exec": _pcntl_exec(),
        "unlink": changes(FileOperation.DELETE_FILE, 0, "filename"),
        "rmdir": changes(FileOperation.DELETE_DIR, 0, "directory"),
        "chmod": changes_mode((1, "permissions"), path_at(0, "filename")),
        "chown": changes_owner((1, "user"), None, path_at(0, "filename")),
        "lchown": changes_owner((1, "user"), None, path_at(0, "filename")),
        "chgrp": changes_owner(None, (1, "group"), path_at(0, "filename")),
        "lchgrp": changes_owner(None, (1, "group"), path_at(0, "filename")),
        "rename": moves(path_at(0, "from"), (1, "to")),
        "file_put_contents": _put_contents(),
        "copy": copies(1, "to", "from"),
        "fopen": _fopen(),
        "file_get_contents": _get_contents(),
        "file": _get_contents(),
        "readfile": _get_contents(),
        "eval": runs_code(0),
        "assert": runs_code(0, strings_only=True),
        "create_function": runs_code(1),
        "include": _include(),
        "call_user_func": calls_named(0, 1),
        "call_user_func_array": calls_named(0, spread=1),
        "forward_static_call": calls_named(0, 1),
        "getenv": produces(SourceKind.ENVIRONMENT, 0, "name"),
        "curl_exec": fetches((None, None)),
        "curl_setopt": _post_fields(),
        "fsockopen": socket(),
        "pfsockopen": socket(),
        "socket_create": socket(),
        "stream_socket_client": socket(),
    }
    for runner in ("system", "exec", "shell_exec", "passthru", "popen"):
        catalogue[runner] = shell(0, "command")
    catalogue["base64_decode"] = decodes("base64")
    catalogue["hex2bin"] = decodes("hex")
    for decoder in (
        "gzinflate",
        "gzuncompress",
        "gzdecode",
        "str_rot13",
        "convert_uudecode",
        "rawurldecode",
        "urldecode",
        "pack",
    ):
        catalogue[decoder] = produces(SourceKind.DECODED)
    return catalogue


class PhpInterpreter(Interpreter):
    language = "php"
    grammars = ("php",)
    catalogue = _build_catalogue()
    # `php -r CODE ARG...`: $argv[0] is "Standard input code", then the arguments.
    argument_vectors: ClassVar[Mapping[str, int]] = {"$argv": 1}
    named_sources: ClassVar[Mapping[str, DataSource]] = {
        "$_ENV": DataSource(SourceKind.ENVIRONMENT),
        "$_SERVER": DataSource(SourceKind.ENVIRONMENT),
    }
    callable_strings = True

    def grammars_for(self, source: str) -> tuple[str, ...]:
        # `php -r` code has no tag; a script fed or written then run starts in
        # template mode, where anything before `<?php` is text to print.
        return ("php", "php-template") if "<?" in source else ("php",)

    def module_name(self, text: str) -> str:
        # Function names are case-insensitive and may be written fully qualified (\system).
        return text.lstrip("\\").lower()

    # ----- names

    def bind(self, node: Node) -> None:
        kind = node.type
        if kind == "assignment_expression":
            left = node.child_by_field_name("left")
            right = node.child_by_field_name("right")
            if left is not None and left.type == "variable_name":
                self.assign(self.text(left), right if right is not None else UNKNOWN)
        elif kind == "augmented_assignment_expression":
            left = node.child_by_field_name("left")
            right = node.child_by_field_name("right")
            if left is not None and left.type == "variable_name":
                self.assign(self.text(left), lambda: opaque((self.value(right),)))
        elif kind in ("simple_parameter", "variadic_parameter", "foreach_statement", "catch_clause"):
            for child in node.named_children:
                if child.type == "variable_name":
                    self.assign(self.text(child), UNKNOWN)
                elif child.type == "pair":
                    for variable in child.named_children:
                        if variable.type == "variable_name":
                            self.assign(self.text(variable), UNKNOWN)

    # ----- values

    def evaluate(self, node: Node) -> Value:
        kind = node.type
        if kind in ("string", "encapsed_string", "shell_command_expression", "heredoc", "nowdoc"):
            return self._string(node)
        if kind == "variable_name":
            return self.lookup(self.text(node))
        if kind in ("name", "qualified_name"):
            return Value(name=self.text(node).lstrip("\\"))
        if kind == "binary_expression":
            left = self.value(node.child_by_field_name("left"))
            right = self.value(node.child_by_field_name("right"))
            operator = node.child_by_field_name("operator")
            return joined((left, right)) if operator is not None and operator.type == "." else opaque((left, right))
        if kind == "array_creation_expression":
            return self._array(node)
        if kind == "boolean":
            return Value(flag=self.text(node).lower() == "true")
        if kind in ("argument", "parenthesized_expression"):
            inner = [child for child in node.named_children if child.type not in ("comment", "name")]
            if kind == "argument" and len(node.named_children) == 1:
                inner = node.named_children
            return self.value(inner[-1]) if inner else UNKNOWN
        if kind == "subscript_expression":
            parts = [child for child in node.named_children if child.type != "comment"]
            owner = self.value(parts[0]) if parts else UNKNOWN
            return self.subscript(owner, self.index(parts[1])) if len(parts) == 2 else opaque((owner,))
        if kind in _FUNCTIONS:
            return UNKNOWN  # their bodies are walked on their own; a function is no data
        if kind == "assignment_expression":
            return self.value(node.child_by_field_name("right"))
        return super().evaluate(node)

    def _string(self, node: Node) -> Value:
        double = node.type in ("encapsed_string", "shell_command_expression", "heredoc")
        pieces = [
            child for child in node.named_children if child.type not in ("comment", "heredoc_start", "heredoc_end")
        ]
        if node.type in ("heredoc", "nowdoc"):
            bodies = [child for child in pieces if child.type in ("heredoc_body", "nowdoc_body")]
            pieces = [part for body in bodies for part in body.named_children] if bodies else pieces
        return self.string_value(pieces, _TEXT_PIECES, lambda raw: self._decode(raw, double))

    @staticmethod
    def _decode(raw: str, double: bool) -> str | None:
        if double:
            return decode_escapes(raw, keeps_unknown_backslash=True)
        return raw.replace("\\\\", "\\").replace("\\'", "'")

    def _array(self, node: Node) -> Value:
        items: list[Value] = []
        entries: list[tuple[str, Value]] = []
        keyed = False
        for element in node.named_children:
            if element.type != "array_element_initializer":
                continue
            parts = [child for child in element.named_children if child.type != "comment"]
            if len(parts) == 2:
                keyed = True
                key = self.value(parts[0])
                value = self.value(parts[1])
                if key.text is not None:
                    entries.append((key.text, value))
                items.append(value)
            elif parts:
                items.append(self.value(parts[0]))
        sources = opaque(items).sources
        if keyed:
            return Value(entries=tuple(entries), sources=sources)
        return Value(items=tuple(items), sources=sources)

    # ----- calls

    def make_call(self, node: Node) -> Call | None:
        kind = node.type
        if kind == "shell_command_expression":
            return Call("`", (self._string(node),), {}, None, self.span(node))
        if kind in _INCLUDES:
            inner = [child for child in node.named_children if child.type != "comment"]
            return Call("include", (self.value(inner[0]) if inner else UNKNOWN,), {}, None, self.span(node))
        if kind not in _CALLS:
            return None
        receiver: Value | None = None
        if kind == "function_call_expression":
            function = node.child_by_field_name("function")
            function_value = self.value(function)
            if function is not None and function.type in ("name", "qualified_name"):
                callee = self.module_name(self.text(function))
            else:
                callee = self.callee_of(function_value)
        elif kind == "object_creation_expression":
            classes = [child for child in node.named_children if child.type in ("name", "qualified_name")]
            callee = f"{self.text(classes[0]).lstrip(chr(92))}" if classes else ""
        else:
            owner = node.child_by_field_name("object") or node.child_by_field_name("scope")
            receiver = self.value(owner)
            method = node.child_by_field_name("name")
            callee = self.callee_of(receiver, self.text(method) if method is not None else "")
        args: list[Value] = []
        keywords: dict[str, Value] = {}
        complete = True
        arguments = node.child_by_field_name("arguments")
        for argument in arguments.named_children if arguments is not None else ():
            if argument.type != "argument":
                continue
            name = argument.child_by_field_name("name")
            if any(child.type == "variadic_unpacking" for child in argument.children):
                complete = False
            if name is not None:
                keywords[self.text(name)] = self.value(argument)
            else:
                args.append(self.value(argument))
        return Call(callee, tuple(args), keywords, receiver, self.span(node), complete)
