"""Perl: `perl -e/-E`, scripts fed or written then run.

The grammar is tree-sitter-perl (the `tree-sitter-perl` wheel, 2.x), a
grammar for Perl 5 that reads the idioms one-liners use; like every static
reading of Perl it guesses where Perl itself decides at run time (prototypes,
barewords), and says so with an Unresolved SYNTAX fact when it cannot read.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from tree_sitter import Node

from .._model import Span
from ._catalogue import (
    changes,
    changes_each,
    changes_mode,
    changes_owner,
    decodes,
    fetches,
    home,
    joins_paths,
    moves,
    path_at,
    paths_from,
    perl_style,
    piped_command,
    posts,
    produces,
    reopens_stdin,
    runs_code,
    shell,
    socket,
)
from ._facts import DataSource, FileOperation, SourceKind
from ._interpreter import Interpreter
from ._patterns import wildcard_pattern
from ._strings import decode_escapes
from ._transfers import copies
from ._values import UNKNOWN, Call, Command, Entry, FileChange, Value, interpolated, joined, opaque

_CALLS = frozenset(
    {
        "function_call_expression",
        "ambiguous_function_call_expression",
        "func1op_call_expression",
        "func0op_call_expression",
        "method_call_expression",
    }
)
# What `use Module` (or `perl -MModule`, which the code does not show) exports
# by default: such a name called bare means the module's function.
_DEFAULT_EXPORTS = {
    "get": "LWP::Simple::get",
    "getstore": "LWP::Simple::getstore",
    "getprint": "LWP::Simple::getprint",
    "mirror": "LWP::Simple::mirror",
    "rmtree": "File::Path::rmtree",
    "copy": "File::Copy::copy",
    "move": "File::Copy::move",
    "remove_tree": "File::Path::remove_tree",
    "decode_base64": "MIME::Base64::decode_base64",
    "decode_base64url": "MIME::Base64::decode_base64url",
    "uncompress": "Compress::Zlib::uncompress",
    "memGunzip": "Compress::Zlib::memGunzip",
}
_READ_MODES = ("<",)


def _open() -> Entry:
    """open(FH, "cmd |"), open(FH, "-|", cmd...), open(FH, ">", path), open(FH, ">>path")..."""

    def command(call: Call) -> Command | None:
        if len(call.args) == 2:
            piped = piped_command(call.args[1], trailing=True)
            return None if piped is None else Command.shell(piped)
        mode = call.arg(1)
        if mode is None or mode.text is None or mode.text.strip() not in ("-|", "|-"):
            return None
        rest = call.args[2:]
        if not call.complete:
            return Command.argv(None)
        if len(rest) == 1:
            only = rest[0]
            return Command.argv(only.items) if only.items is not None else Command.shell(only)
        return Command.argv(rest) if rest else None

    def file_changes(call: Call) -> tuple[FileChange, ...]:
        if len(call.args) == 2:
            spec = call.args[1].text
            if spec is None:
                return ()
            spec = spec.strip()
            for prefix, operation in ((">>", FileOperation.APPEND_FILE), ("+>", FileOperation.WRITE_FILE)):
                if spec.startswith(prefix):
                    return (FileChange(operation, Value(text=spec[len(prefix) :].strip())),)
            if spec.startswith((">", "+<")) and not spec.startswith(">&"):
                return (FileChange(FileOperation.WRITE_FILE, Value(text=spec[1:].strip())),)
            if "|" in spec or "&" in spec[:3] or spec.startswith((">", "+", "-")):
                return ()  # a command's pipe, a duplicated handle, standard input or output
            return (FileChange(FileOperation.READ_FILE, Value(text=spec.removeprefix("<").strip())),)
        mode = call.arg(1)
        target = call.arg(2)
        if mode is None or target is None:
            return ()
        if mode.text is None:
            return (FileChange(FileOperation.WRITE_FILE, target),)
        mode_text = mode.text.strip()
        if mode_text.startswith(">>"):
            return (FileChange(FileOperation.APPEND_FILE, target),)
        if mode_text.startswith((">", "+<", "+>")) and not mode_text.startswith(">&"):
            return (FileChange(FileOperation.WRITE_FILE, target),)
        return (
            (FileChange(FileOperation.READ_FILE, target),) if mode_text.startswith("<") and "&" not in mode_text else ()
        )

    def rebinds_stdin(call: Call) -> Value | None:
        """`open(STDIN, "<&", $socket)`: the handle duplicated becomes the standard input."""
        handle, mode = call.arg(0), call.arg(1)
        if handle is None or handle.name != "STDIN" or mode is None or not (mode.text or "").startswith("<&"):
            return None
        return call.arg(2)

    return Entry(command=command, file_changes=file_changes, rebinds_stdin=rebinds_stdin)


def _glob() -> Entry:
    """glob("~"), glob("~/x"): a path that starts at the home and has no wildcard is the one path
    it returns; a pattern stands for the paths it matches (`glob("$ENV{HOME}/.ssh/*")`)."""

    def returns(call: Call) -> Value:
        pattern = call.arg(0) or UNKNOWN
        text = pattern.text
        if text is not None and text.startswith("~") and not any(char in text for char in "*?[{ "):
            return Value(text=text, sources=pattern.sources)
        return wildcard_pattern(pattern, call.all_values())

    return Entry(returns=returns)


# long: one table literal, one row per call the analyser knows: long as data, not as logic.
def _build_catalogue() -> dict[str, Entry]:
    catalogue: dict[str, Entry] = {
        "system": perl_style(),
        "exec": perl_style(),
        "CORE::system": perl_style(),
        "CORE::exec": perl_style(),
        "readpipe": shell(0),
        "qx": shell(0),
        "open": _open(),
        "unlink": changes_each(FileOperation.DELETE_FILE),
        "rmdir": changes(FileOperation.DELETE_DIR),
        "truncate": changes(FileOperation.WRITE_FILE),
        "chmod": changes_mode((0, None), paths_from(1)),
        "chown": changes_owner((0, None), (1, None), paths_from(2)),
        "rename": moves(path_at(0), (1, None)),
        "File::Copy::move": moves(path_at(0), (1, None)),
        "File::Copy::copy": copies(),
        "File::Copy::cp": copies(),
        "File::Copy::mv": moves(path_at(0), (1, None)),
        "File::Path::rmtree": changes_each(FileOperation.DELETE_TREE),
        "File::Path::remove_tree": changes_each(FileOperation.DELETE_TREE),
        "eval": runs_code(0),
        "glob": _glob(),
        "File::HomeDir.my_home": home(),
        "File::Spec.catfile": joins_paths(restarts_at_absolute=False),
        "File::Spec.catdir": joins_paths(restarts_at_absolute=False),
        "LWP::Simple::get": fetches(),
        "LWP::Simple::getprint": fetches(),
        "LWP::Simple::getstore": fetches(),
        "LWP::Simple::mirror": fetches(),
        "LWP::UserAgent.new().get": fetches(),
        "LWP::UserAgent.new().post": posts(),
        "LWP::UserAgent.new().put": posts(),
        "HTTP::Tiny.new().get": fetches(),
        "HTTP::Tiny.new().post": posts(),
        "HTTP::Tiny.new().post_form": posts(),
        "HTTP::Tiny.new().put": posts(),
        "socket": socket(),
        "STDIN.fdopen": reopens_stdin(),
    }
    # `new IO::Socket::INET(...)`, the indirect-object constructor, reads as a call of the class.
    for module in ("IO::Socket::INET", "IO::Socket::IP", "IO::Socket::SSL"):
        catalogue[module] = catalogue[f"{module}.new"] = socket()
    for writer in ("LWP::Simple::getstore", "LWP::Simple::mirror"):
        catalogue[writer] = Entry(
            request=catalogue[writer].request,
            file_changes=changes(FileOperation.WRITE_FILE, 1).file_changes,
        )
    for decoder, codec in (
        ("MIME::Base64::decode_base64", "base64"),
        ("MIME::Base64::decode", "base64"),
        ("MIME::Base64::decode_base64url", "base64url"),
    ):
        catalogue[decoder] = decodes(codec)
    for decoder in (
        "Compress::Zlib::uncompress",
        "Compress::Zlib::memGunzip",
        "pack",
        "unpack",
    ):
        catalogue[decoder] = produces(SourceKind.DECODED)
    return catalogue


class PerlInterpreter(Interpreter):
    language = "perl"
    grammars = ("perl",)
    catalogue = _build_catalogue()
    named_sources: ClassVar[Mapping[str, DataSource]] = {"%ENV": DataSource(SourceKind.ENVIRONMENT)}
    argument_vectors: ClassVar[Mapping[str, int]] = {"@ARGV": 0}
    integer_types = frozenset({"number"})
    package_separator = "::"

    def free(self, name: str) -> Value:
        if name.startswith(("$", "@", "%")):
            known = name in self.named_sources or name in self.argument_vectors
            return self.named(Value(name=name)) if known else UNKNOWN
        found = super().free(name)
        exported = _DEFAULT_EXPORTS.get(name)
        return Value(name=exported) if found.name == name and exported is not None else found

    # ----- names

    def bind(self, node: Node) -> None:
        kind = node.type
        if kind == "use_statement":
            module = node.child_by_field_name("module")
            if module is not None:
                self.import_all(self.text(module))
        elif kind == "assignment_expression":
            left = node.child_by_field_name("left")
            right = node.child_by_field_name("right")
            operator = node.child_by_field_name("operator")
            variable = self._declared(left)
            if variable is None:
                for name in self._variables(left):
                    self.assign(name, UNKNOWN)
            elif operator is not None and operator.type == "=":
                self.assign(variable, right if right is not None else UNKNOWN)
            else:
                self.assign(variable, lambda: opaque((self.value(right),)))
        elif kind == "for_statement":
            for name in self._variables(node.child_by_field_name("variable")):
                self.assign(name, UNKNOWN)
        elif kind in ("loop_statement", "postfix_loop_expression"):
            condition = node.child_by_field_name("condition")
            if condition is not None and condition.type == "readline_expression":
                # `while (<$socket>) {...}`, `... while <>`: each line read is `$_`.
                self.assign("$_", condition)

    def _declared(self, left: Node | None) -> str | None:
        """The one variable an assignment sets (`$x = ...`, `my @a = ...`)."""
        if left is None:
            return None
        if left.type == "variable_declaration":
            single = left.child_by_field_name("variable")
            return self.text(single) if single is not None else None
        if left.type in ("scalar", "array", "hash"):
            return self.text(left)
        return None

    def _variables(self, node: Node | None) -> list[str]:
        if node is None:
            return []
        if node.type in ("scalar", "array", "hash"):
            return [self.text(node)]
        return [name for child in node.named_children for name in self._variables(child)]

    # ----- values

    def evaluate(self, node: Node) -> Value:
        kind = node.type
        if kind in ("interpolated_string_literal", "string_literal", "command_string"):
            return self._string(node)
        if kind in ("scalar", "array", "hash"):
            return self.lookup(self.text(node))
        if kind in ("bareword", "autoquoted_bareword", "package"):
            return self.lookup(self.text(node))
        if kind == "filehandle":
            return self.lookup(self.text(node))  # `STDIN`, or a handle in a variable (`$socket`)
        if kind == "readline_expression":
            # A line read carries where its handle reads from (a socket); `<>` reads what nothing here shows.
            handle = node.named_children
            return opaque((self.value(handle[0]),)) if handle else UNKNOWN
        if kind == "quoted_word_list":
            content = [child for child in node.named_children if child.type == "string_content"]
            words = self.text(content[0]).split() if content else []
            return Value(items=tuple(Value(text=word) for word in words))
        if kind == "binary_expression":
            left = self.value(node.child_by_field_name("left"))
            right = self.value(node.child_by_field_name("right"))
            operator = node.child_by_field_name("operator")
            return joined((left, right)) if operator is not None and operator.type == "." else opaque((left, right))
        if kind in ("list_expression", "anonymous_array_expression"):
            items = tuple(self.value(child) for child in node.named_children if child.type != "comment")
            if any(item.items is not None for item in items):
                # A list flattens the arrays in it: ("ls", @args).
                flat: list[Value] = []
                for item in items:
                    flat.extend(item.items if item.items is not None else (item,))
                items = tuple(flat)
            return Value(items=items, sources=opaque(items).sources)
        if kind == "parenthesized_expression":
            inner = [child for child in node.named_children if child.type != "comment"]
            return self.value(inner[0]) if len(inner) == 1 else Value(items=())
        if kind == "hash_element_expression":
            container = node.child_by_field_name("hash")
            key_node = node.child_by_field_name("key")
            owner = self.lookup("%" + self.text(container)[1:]) if container is not None else UNKNOWN
            key = (
                Value(text=self.text(key_node))
                if key_node is not None and key_node.type == "autoquoted_bareword"
                else self.value(key_node)
            )
            return self.subscript(owner, key)
        if kind == "array_element_expression":
            container = node.child_by_field_name("array")
            owner = self.lookup("@" + self.text(container)[1:]) if container is not None else UNKNOWN
            return self.subscript(owner, self.index(node.child_by_field_name("index")))
        if kind in ("anonymous_subroutine_expression", "subroutine_declaration_statement", "block"):
            return UNKNOWN  # their bodies are walked on their own; a function is no data
        if kind == "variable_declaration":
            single = node.child_by_field_name("variable")
            return self.value(single) if single is not None else UNKNOWN
        if kind == "assignment_expression":
            return self.value(node.child_by_field_name("right"))
        return super().evaluate(node)

    def _string(self, node: Node) -> Value:
        content = node.child_by_field_name("content")
        body = self._body(node)
        interpolates = node.type != "string_literal" and not self.text(node).startswith("qx'")
        raw = self.source[body.start : body.end]
        inserted = (
            []
            if content is None or not interpolates
            else [
                child for child in content.named_children if child.type not in ("escape_sequence", "not-interpolated")
            ]
        )
        if inserted:
            return self._interpolating(body, inserted)
        if interpolates:
            decoded = decode_escapes(raw, keeps_unknown_backslash=False)
        else:
            decoded = raw.replace("\\\\", "\\").replace("\\'", "'")
        if decoded is None:
            return UNKNOWN
        return Value(text=decoded, literal=body if decoded == raw else None)

    def _interpolating(self, body: Span, inserted: list[Node]) -> Value:
        """`"rm -rf $dir/x"`: the text around each interpolated expression, with its value's text."""
        parts: list[Value] = []
        position = body.start
        for child in inserted:
            span = self.span(child)
            if span.start < position:
                continue  # inside a subscript read below
            value, end = self._bracketed_subscript(child, span.end, body.end)
            parts.extend((self._text(self.source[position : span.start]), interpolated(value)))
            position = end
        parts.append(self._text(self.source[position : body.end]))
        return joined(parts)

    def _bracketed_subscript(self, child: Node, after: int, body_end: int) -> tuple[Value, int]:
        """`qq{rm -rf $ENV{HOME}}`: in a string delimited by braces or brackets the grammar stops a
        scalar before its subscript; Perl reads `$ENV{HOME}` and `$ARGV[0]` there as in `"..."`.
        The value and where it ends."""
        opener = self.source[after : after + 1]
        if child.type != "scalar" or opener not in ("{", "["):
            return self.value(child), after
        closer = self.source.find("}" if opener == "{" else "]", after, body_end)
        key = self.source[after + 1 : closer].strip().strip("'\"") if closer > after else ""
        name = self.text(child)[1:]
        if opener == "{" and key.isidentifier():
            return self.subscript(self.lookup("%" + name), Value(text=key)), closer + 1
        if opener == "[" and key.lstrip("-").isdigit():
            return self.subscript(self.lookup("@" + name), Value(text=key)), closer + 1
        return self.value(child), after

    @staticmethod
    def _text(raw: str) -> Value:
        decoded = decode_escapes(raw, keeps_unknown_backslash=False)
        return UNKNOWN if decoded is None else Value(text=decoded)

    def _body(self, node: Node) -> Span:
        """Where the text between a string's delimiters stands: the grammar's content node
        leaves out the blanks the text starts with (`" -rf "` is ` -rf `, not `-rf `)."""
        delimiters = [child for child in node.children if child.type == "'"]
        if len(delimiters) >= 2:
            return Span(self.span(delimiters[0]).end, self.span(delimiters[-1]).start)
        content = node.child_by_field_name("content")
        return self.span(content) if content is not None else Span(self.span(node).end, self.span(node).end)

    # ----- calls

    def make_call(self, node: Node) -> Call | None:
        kind = node.type
        if kind == "command_string":
            return Call("qx", (self._string(node),), {}, None, self.span(node))
        if kind == "eval_expression":
            argument = [child for child in node.named_children if child.type != "comment"]
            if not argument or argument[0].type == "block":
                return None  # eval BLOCK is exception handling, not code from a string
            return Call("eval", (self.value(argument[0]),), {}, None, self.span(node))
        if kind not in _CALLS:
            return None
        receiver: Value | None = None
        if kind == "method_call_expression":
            receiver = self.value(node.child_by_field_name("invocant"))
            method = node.child_by_field_name("method")
            callee = self.callee_of(receiver, self.text(method) if method is not None else "")
        else:
            function = node.child_by_field_name("function")
            if function is None:
                return None
            callee = self.callee_of(self.lookup(self.text(function)))
        arguments = node.child_by_field_name("arguments")
        if arguments is None and kind == "func1op_call_expression":
            operands = [child for child in node.named_children if child.type != "comment"]
            arguments = operands[0] if operands else None
        args: tuple[Value, ...] = ()
        if arguments is not None:
            value = self.value(arguments)
            args = value.items if arguments.type == "list_expression" and value.items is not None else (value,)
        return Call(callee, args, {}, receiver, self.span(node))
