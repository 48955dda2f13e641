"""Ruby: `ruby -e`, `irb`, scripts fed or written then run."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from tree_sitter import Node

from ._catalogue import (
    calls_named,
    changes,
    changes_each,
    changes_mode,
    changes_owner,
    changes_receiver,
    decodes,
    fetches,
    home,
    is_url,
    joins_paths,
    moves,
    opens,
    passes,
    passes_receiver,
    path_at,
    paths_from,
    perl_style,
    piped_command,
    posts,
    produces,
    receiver_path,
    reopens_stdin,
    runs_code,
    shell,
    socket,
)
from ._facts import DataSource, FileOperation, SourceKind
from ._interpreter import Interpreter
from ._patterns import EACH_ELEMENT_METHODS, KEEPS_ELEMENTS_METHODS, globs, lists_names, wildcard_pattern
from ._processes import signals
from ._strings import decode_escapes
from ._transfers import copies
from ._values import UNKNOWN, Call, Command, Entry, FileChange, Request, Value, element, joined, opaque

_FILE_OPEN = opens((0, None), (1, "mode"))


def _popen() -> Entry:
    """IO.popen([env,] cmd): a string goes through the shell, an array is an argument vector."""

    def command(call: Call) -> Command | None:
        args = call.args[1:] if call.args and call.args[0].entries is not None else call.args
        if not args:
            return None if call.complete else Command.argv(None)
        first = args[0]
        return Command.argv(first.items) if first.items is not None else Command.shell(first)

    return Entry(command=command)


def _kernel_open() -> Entry:
    """Kernel#open: `"|cmd"` runs a command, a URL is fetched (open-uri), anything else is a file."""

    def command(call: Call) -> Command | None:
        target = call.arg(0)
        piped = piped_command(target, trailing=False) if target is not None else None
        return None if piped is None else Command.shell(piped)

    def request(call: Call) -> Request | None:
        target = call.arg(0)
        return Request(target) if target is not None and is_url(target) else None

    def local(call: Call) -> bool:
        target = call.arg(0)
        return target is not None and not is_url(target) and piped_command(target, trailing=False) is None

    def file_changes(call: Call) -> tuple[FileChange, ...]:
        assert _FILE_OPEN.file_changes is not None
        return _FILE_OPEN.file_changes(call) if local(call) else ()

    def returns(call: Call) -> Value:
        assert _FILE_OPEN.returns is not None
        return _FILE_OPEN.returns(call) if local(call) else opaque(call.all_values())

    return Entry(command=command, request=request, file_changes=file_changes, returns=returns)


def _method_reference() -> Entry:
    """`method(:system)`: the function itself, called later with `.call`."""

    def returns(call: Call) -> Value:
        symbol = call.arg(0)
        return Value(name=symbol.text) if symbol is not None and symbol.text else UNKNOWN

    return Entry(returns=returns)


# long: one table literal, one row per call the analyser knows: long as data, not as logic.
def _build_catalogue() -> dict[str, Entry]:
    catalogue: dict[str, Entry] = {
        "`": shell(0),
        "%x": shell(0),
        "IO.popen": _popen(),
        "open": _kernel_open(),
        "Kernel.open": _kernel_open(),
        "URI.open": _kernel_open(),
        "File.open": _FILE_OPEN,
        "File.new": _FILE_OPEN,
        "File.write": changes(FileOperation.WRITE_FILE, data=(1, None)),
        "File.binwrite": changes(FileOperation.WRITE_FILE),
        "IO.write": changes(FileOperation.WRITE_FILE),
        "File.delete": changes_each(FileOperation.DELETE_FILE),
        "File.unlink": changes_each(FileOperation.DELETE_FILE),
        "Dir.glob": globs(),
        "Dir.children": lists_names(),
        "Process.kill": signals((1, None), (0, None)),
        "Dir.entries": lists_names(),
        "Dir.each_child": lists_names(),
        "Dir.foreach": lists_names(),
        "Dir.rmdir": changes(FileOperation.DELETE_DIR),
        "Dir.delete": changes(FileOperation.DELETE_DIR),
        "Dir.unlink": changes(FileOperation.DELETE_DIR),
        "FileUtils.rmdir": changes_each(FileOperation.DELETE_DIR),
        "Pathname.new": passes(0, name="Pathname.new()"),
        "Pathname.new().rmtree": changes_receiver(FileOperation.DELETE_TREE),
        "Pathname.new().unlink": changes_receiver(FileOperation.DELETE_FILE),
        "Pathname.new().delete": changes_receiver(FileOperation.DELETE_FILE),
        "Pathname.new().write": changes_receiver(FileOperation.WRITE_FILE),
        "Pathname.new().chmod": changes_mode((0, None), receiver_path),
        "Pathname.new().rename": moves(receiver_path, (0, None)),
        "File.truncate": changes(FileOperation.WRITE_FILE),
        "File.rename": moves(path_at(0), (1, None)),
        "FileUtils.mv": moves(path_at(0), (1, None)),
        "FileUtils.cp": copies(),
        "FileUtils.copy": copies(),
        "FileUtils.copy_file": copies(),
        "FileUtils.move": moves(path_at(0), (1, None)),
        "File.read": produces(SourceKind.FILE, 0),
        "File.readlines": produces(SourceKind.FILE, 0),
        "File.binread": produces(SourceKind.FILE, 0),
        "IO.read": produces(SourceKind.FILE, 0),
        "eval": runs_code(0),
        "Kernel.eval": runs_code(0),
        "binding.eval": runs_code(0),
        "TOPLEVEL_BINDING.eval": runs_code(0),
        "*.instance_eval": runs_code(0, strings_only=True),
        "*.class_eval": runs_code(0, strings_only=True),
        "*.module_eval": runs_code(0, strings_only=True),
        "send": calls_named(0, 1),
        "__send__": calls_named(0, 1),
        "public_send": calls_named(0, 1),
        "*.send": calls_named(0, 1),
        "*.__send__": calls_named(0, 1),
        "*.public_send": calls_named(0, 1),
        "method": _method_reference(),
        "Net::HTTP.get": fetches(),
        "Net::HTTP.get_response": fetches(),
        "Net::HTTP.get_print": fetches(),
        "Net::HTTP.post": posts(),
        "Net::HTTP.post_form": posts(),
        "HTTParty.get": fetches(),
        "HTTParty.post": posts(),
        "RestClient.get": fetches(),
        "RestClient.post": posts(),
        "TCPSocket.new": socket(),
        "TCPSocket.open": socket(),
        "Socket.tcp": socket(),
        "$stdin.reopen": reopens_stdin(),
        "STDIN.reopen": reopens_stdin(),
        "ENV.fetch": produces(SourceKind.ENVIRONMENT, 0),
        "URI": passes(0),
        "File.expand_path": passes(0),
        "Dir.home": home(),
        "File.join": joins_paths(restarts_at_absolute=False),
        "Etc.getpwuid().dir": home(),
        "Gem.user_home": home(),
        "Pathname.new().expand_path": passes_receiver("Pathname.new()"),
        "Pathname.new().realpath": passes_receiver("Pathname.new()"),
        "URI.parse": passes(0),
    }
    for runner in ("system", "exec", "spawn"):
        for owner in ("", "Kernel.", "Process."):
            catalogue[owner + runner] = perl_style(skip_leading_mapping=True)
    for runner in ("popen3", "popen2", "popen2e", "capture2", "capture2e", "capture3", "pipeline_r", "pipeline_w"):
        catalogue[f"Open3.{runner}"] = perl_style(skip_leading_mapping=True)
    for remover in ("rm_rf", "rm_r", "remove_dir", "rmtree", "remove_entry", "remove_entry_secure"):
        catalogue[f"FileUtils.{remover}"] = changes_each(FileOperation.DELETE_TREE)
    for remover in ("rm", "rm_f", "remove", "safe_unlink", "remove_file"):
        catalogue[f"FileUtils.{remover}"] = changes_each(FileOperation.DELETE_FILE)
    for owner in ("File.", "File.l", "FileUtils."):
        catalogue[f"{owner}chmod"] = changes_mode((0, None), paths_from(1))
        catalogue[f"{owner}chown"] = changes_owner((0, None), (1, None), paths_from(2))
    catalogue["FileUtils.chmod_R"] = changes_mode((0, None), paths_from(1), tree=True)
    catalogue["FileUtils.chown_R"] = changes_owner((0, None), (1, None), paths_from(2), tree=True)
    for decoder, codec in (
        ("Base64.decode64", "base64"),
        ("Base64.strict_decode64", "base64"),
        ("Base64.urlsafe_decode64", "base64url"),
    ):
        catalogue[decoder] = decodes(codec)
    for decoder in (
        "Zlib::Inflate.inflate",
        "Zlib.inflate",
        "Zlib.gunzip",
        "*.unpack",
        "*.unpack1",
        "*.pack",
    ):
        catalogue[decoder] = produces(SourceKind.DECODED)
    return catalogue


_DOUBLE_QUOTED_OPENERS = ('"', "%Q", "%(", "%[", "%{", "%<", "%|", "`", "%x", "%W", "%I", ':"')
_BLOCKS = frozenset({"block", "do_block"})
_TEXT_PIECES = frozenset({"string_content"})


class RubyInterpreter(Interpreter):
    language = "ruby"
    grammars = ("ruby",)
    catalogue = _build_catalogue()
    named_sources: ClassVar[Mapping[str, DataSource]] = {"ENV": DataSource(SourceKind.ENVIRONMENT)}
    argument_vectors: ClassVar[Mapping[str, int]] = {"ARGV": 0}

    # ----- names

    def bind(self, node: Node) -> None:
        kind = node.type
        if kind == "assignment":
            left = node.child_by_field_name("left")
            right = node.child_by_field_name("right")
            if left is not None and left.type in ("identifier", "constant", "instance_variable", "global_variable"):
                self.assign(self.text(left), right if right is not None else UNKNOWN)
            elif left is not None:
                self._unknown_names(left)
        elif kind == "operator_assignment":
            left = node.child_by_field_name("left")
            right = node.child_by_field_name("right")
            if left is not None:
                self.assign(self.text(left), lambda: opaque((self.value(right),)))
        elif kind in ("method_parameters", "lambda_parameters", "exception_variable"):
            self._unknown_names(node)
        elif kind == "for":
            self._bind_loop(node)
        elif kind == "block_parameters":
            block = node.parent
            call = block.parent if block is not None and block.type in _BLOCKS else None
            if call is not None and call.type == "call":
                self._bind_block_parameters(node, call)
            else:
                self._unknown_names(node)

    def _bind_loop(self, node: Node) -> None:
        """`for f in Dir.children(d)`: the name is what each step of the iteration yields."""
        pattern = node.child_by_field_name("pattern")
        iterated = node.child_by_field_name("value")
        listed = iterated.named_children if iterated is not None else []
        if pattern is not None and pattern.type == "identifier" and len(listed) == 1:
            self.assign(self.text(pattern), lambda: element(self.value(listed[0])))
        else:
            self._unknown_names(pattern)

    def _bind_block_parameters(self, parameters: Node, call: Node) -> None:
        """`names.each { |f| ... }`: the first parameter is each element of the receiver; `Dir.glob(p) { |f| }`,
        `Dir.each_child(d) { |f| }`: each path or name the call lists; `open(url) { |f| eval f.read }`:
        the parameters carry what the call carries."""
        receiver = call.child_by_field_name("receiver")
        method = call.child_by_field_name("method")
        each_of_receiver = receiver is not None and method is not None and self.text(method) in EACH_ELEMENT_METHODS
        source = receiver if each_of_receiver else call
        for position, parameter in enumerate(parameters.named_children):
            if parameter.type != "identifier":
                continue
            if position == 0:
                self.assign(self.text(parameter), lambda source=source: element(self.value(source)))
            else:
                self.assign(self.text(parameter), lambda call=call: opaque((self.value(call),)))

    def _unknown_names(self, node: Node | None) -> None:
        if node is None:
            return
        if node.type == "identifier":
            self.assign(self.text(node), UNKNOWN)
            return
        for child in node.named_children:
            self._unknown_names(child)

    # ----- values

    def evaluate(self, node: Node) -> Value:
        kind = node.type
        if kind in ("string", "subshell"):
            return self._string(node)
        if kind == "chained_string":
            return joined(self.value(child) for child in node.named_children)
        if kind in ("simple_symbol", "hash_key_symbol"):
            return Value(text=self.text(node).strip(":"))
        if kind in ("identifier", "constant", "instance_variable", "global_variable"):
            return self.lookup(self.text(node))
        if kind == "scope_resolution":
            return self.named(Value(name=self.text(node).removeprefix("::")))
        if kind == "binary":
            left = self.value(node.child_by_field_name("left"))
            right = self.value(node.child_by_field_name("right"))
            operator = node.child_by_field_name("operator")
            return joined((left, right)) if operator is not None and operator.type == "+" else opaque((left, right))
        if kind in ("array", "string_array"):
            elements = [child for child in node.named_children if child.type != "comment"]
            if any(child.type == "splat_argument" for child in elements):
                return opaque(self.value(child) for child in elements)
            items = tuple(
                Value(text=self.text(child)) if kind == "string_array" else self.value(child) for child in elements
            )
            return Value(items=items, sources=opaque(items).sources)
        if kind == "hash":
            return self._hash(node.named_children)
        if kind in ("true", "false"):
            return Value(flag=kind == "true")
        if kind == "parenthesized_statements":
            inner = [child for child in node.named_children if child.type != "comment"]
            return self.value(inner[-1]) if inner else UNKNOWN
        if kind == "element_reference":
            owner = self.value(node.child_by_field_name("object"))
            keys = [child for child in node.named_children[1:] if child.type != "comment"]
            if owner.name == "Dir" and len(keys) == 1:  # `Dir["/etc/*"]` is `Dir.glob("/etc/*")`
                pattern = self.value(keys[0])
                return wildcard_pattern(pattern, (pattern,))
            return self.subscript(owner, self.index(keys[0])) if len(keys) == 1 else opaque((owner,))
        if kind in ("lambda", "method", "block", "do_block"):
            return UNKNOWN  # their bodies are walked on their own; a function is no data
        if kind == "assignment":
            return self.value(node.child_by_field_name("right"))
        return super().evaluate(node)

    def _string(self, node: Node) -> Value:
        opener = self.text(node)[:2]
        double = opener.startswith(_DOUBLE_QUOTED_OPENERS) or not opener.startswith(("'", "%q", "%w", "%i"))
        pieces = [child for child in node.named_children if child.type != "comment"]
        return self.string_value(pieces, _TEXT_PIECES, lambda raw: self._decode(raw, double))

    @staticmethod
    def _decode(raw: str, double: bool) -> str | None:
        if double:
            return decode_escapes(raw, keeps_unknown_backslash=False)
        return raw.replace("\\\\", "\\").replace("\\'", "'")

    def _hash(self, pairs: list[Node]) -> Value:
        entries: list[tuple[str, Value]] = []
        values: list[Value] = []
        for pair in pairs:
            if pair.type != "pair":
                values.append(self.value(pair))
                continue
            key = self.value(pair.child_by_field_name("key"))
            value = self.value(pair.child_by_field_name("value"))
            values.extend((key, value))
            if key.text is not None:
                entries.append((key.text, value))
        return Value(entries=tuple(entries), sources=opaque(values).sources)

    # ----- calls

    def elements_call(self, node: Node) -> Value | None:
        """`names.select { ... }`: some of the receiver's elements; `names.map { |f| File.join(d, f) }`:
        an array of the block's last value for each element."""
        receiver = node.child_by_field_name("receiver") if node.type == "call" else None
        method = node.child_by_field_name("method")
        if receiver is None or method is None:
            return None
        name = self.text(method)
        if name in KEEPS_ELEMENTS_METHODS:
            return Value(each=element(self.value(receiver)))
        block = node.child_by_field_name("block")
        body = block.named_children[-1] if block is not None and block.named_children else None
        if (
            name not in ("map", "collect", "flat_map")
            or body is None
            or body.type not in ("block_body", "body_statement")
        ):
            return None
        statements = [child for child in body.named_children if child.type != "comment"]
        return Value(each=self.value(statements[-1])) if statements else None

    def make_call(self, node: Node) -> Call | None:
        if node.type == "subshell":
            opener = "%x" if self.text(node).startswith("%x") else "`"
            return Call(opener, (self._string(node),), {}, None, self.span(node))
        if node.type != "call":
            return None
        method = node.child_by_field_name("method")
        receiver_node = node.child_by_field_name("receiver")
        method_name = self.text(method) if method is not None else ""
        receiver: Value | None = None
        if receiver_node is not None:
            receiver = self.value(receiver_node)
            if method_name == "call" and receiver.name is not None:
                callee, receiver = receiver.name, None  # method(:system).call(...)
            else:
                callee = self.callee_of(receiver, method_name)
        else:
            callee = self.callee_of(self.lookup(method_name)) if method is not None else ""
        args: list[Value] = []
        keywords: dict[str, Value] = {}
        complete = True
        arguments = node.child_by_field_name("arguments")
        for argument in arguments.named_children if arguments is not None else ():
            if argument.type == "pair":
                key = self.value(argument.child_by_field_name("key"))
                keywords[key.text or self.text(argument)] = self.value(argument.child_by_field_name("value"))
            elif argument.type in ("splat_argument", "hash_splat_argument"):
                complete = False
                args.append(opaque((self.value(argument),)))
            elif argument.type not in ("comment", "block_argument"):
                args.append(self.value(argument))
        return Call(callee, tuple(args), keywords, receiver, self.span(node), complete)
