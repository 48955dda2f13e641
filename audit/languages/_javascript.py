"""JavaScript (node/deno/bun -e, scripts fed or written then run) and TypeScript."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from tree_sitter import Node

from ._catalogue import (
    changes,
    converts_receiver,
    decodes,
    fetches,
    home,
    imports,
    joins_paths,
    moves,
    passes,
    path_at,
    posts,
    produces,
    runs_code,
    runs_last_argument,
    shell,
    socket,
    words_of,
)
from ._facts import DataSource, FileOperation, SourceKind
from ._formatting import joined_items
from ._interpreter import Binding, Interpreter
from ._javascript_runtimes import fs_entries, runtime_entries
from ._patterns import EACH_ELEMENT_METHODS, KEEPS_ELEMENTS_METHODS
from ._processes import signals
from ._strings import decode_escapes
from ._transfers import imports_url
from ._values import HOME, UNKNOWN, Call, Command, Entry, Request, Value, element, joined, opaque

_UPLOAD_METHODS = frozenset({"POST", "PUT", "PATCH"})
_TEXT_PIECES = frozenset({"string_fragment"})
_SPREADS = frozenset({"spread_element"})
# Objects whose members are the globals: `globalThis.eval` is `eval`.
_GLOBAL_OBJECTS = frozenset({"globalThis", "global", "window", "self"})
# Buffer.from's encodings that decode, each with the entry that decodes it.
_DECODERS = {encoding: decodes(encoding) for encoding in ("base64", "base64url", "hex")}
_FUNCTIONS = frozenset(
    {"arrow_function", "function_expression", "function", "function_declaration", "generator_function", "class"}
)


def _decode(raw: str) -> str | None:
    return decode_escapes(raw, keeps_unknown_backslash=False)


def _spawn() -> Entry:
    """spawn/execFile(program, [args], {shell}): an argument vector, or a shell string with shell: true."""

    def command(call: Call) -> Command | None:
        program = call.arg(0)
        if program is None:
            return None
        rest = call.arg(1)
        options = call.arg(2)
        if rest is not None and rest.entries is not None:
            rest, options = None, rest
        words: tuple[Value, ...] | None = (program,)
        if rest is not None:
            words = None if rest.items is None else (program, *rest.items)
        use_shell = options.entry("shell") if options is not None else None
        if use_shell is not None and use_shell.truthy() is not False:
            if words is None:
                return Command.shell(UNKNOWN)
            spaced: list[Value] = []
            for word in words:
                spaced.extend((Value(text=" "), word) if spaced else (word,))
            return Command.shell(joined(spaced))
        return Command.argv(words)

    return Entry(command=command)


def _options_command(key: str, program_position: int | None = None) -> Entry:
    """Bun.spawn([argv]) or ({cmd: [argv]}); Deno.run({cmd: [argv]}); new Deno.Command(program, {args})."""

    def command(call: Call) -> Command | None:
        first = call.arg(0)
        if first is None:
            return None
        if program_position is not None:
            options = call.arg(program_position + 1)
            listed = options.entry(key) if options is not None else Value(items=())
            if listed is None:
                listed = Value(items=())
            return Command.argv(None if listed.items is None else (first, *listed.items))
        if first.entries is not None:
            listed = first.entry(key)
            return Command.argv(None if listed is None else words_of(listed))
        return Command.argv(words_of(first))

    return Entry(command=command)


def _uploads(options_position: int) -> Entry:
    """fetch(url, {method, body}), http.request(url | {method}), axios(config): an upload
    when the options carry a body or an upload method."""

    def request(call: Call) -> Request | None:
        url = call.arg(0) or UNKNOWN
        options = call.arg(options_position)
        if options is None or options.entries is None:
            return Request(url)
        body = options.entry("body") or options.entry("data")
        method = options.entry("method")
        uploads = body is not None or (
            method is not None and (method.text is None or method.text.upper() in _UPLOAD_METHODS)
        )
        return Request(options.entry("url") or url, () if body is None else (body,), uploads)

    return Entry(request=request)


def _buffer_from() -> Entry:
    """Buffer.from(text, 'base64') decodes; with another encoding it only copies."""

    def returns(call: Call) -> Value:
        data = call.arg(0) or UNKNOWN
        encoding = call.arg(1)
        decoder = _DECODERS.get(encoding.text) if encoding is not None and encoding.text is not None else None
        if decoder is not None and decoder.returns is not None:
            return decoder.returns(call)
        return Value(text=data.text, sources=data.sources)

    return Entry(returns=returns)


# long: one table literal, one row per call the analyser knows: long as data, not as logic.
def _build_catalogue() -> dict[str, Entry]:
    catalogue: dict[str, Entry] = {
        "child_process.exec": shell(0),
        "child_process.execSync": shell(0),
        "child_process.spawn": _spawn(),
        "child_process.spawnSync": _spawn(),
        "child_process.execFile": _spawn(),
        "child_process.execFileSync": _spawn(),
        "Bun.spawn": _options_command("cmd"),
        "Bun.spawnSync": _options_command("cmd"),
        "Bun.$": shell(0),
        "zx.$": shell(0),
        "Deno.run": _options_command("cmd"),
        "Deno.Command": _options_command("args", program_position=0),
        "eval": runs_code(0),
        "Function": runs_last_argument(),
        "vm.runInThisContext": runs_code(0),
        "vm.runInNewContext": runs_code(0),
        "vm.runInContext": runs_code(0),
        "vm.compileFunction": runs_code(0),
        "vm.Script": runs_code(0),
        "setTimeout": runs_code(0, strings_only=True),
        "setInterval": runs_code(0, strings_only=True),
        "require": imports(0),
        "import": imports_url(0),
        "module.require": imports(0),
        "process.mainModule.require": imports(0),
        "net.connect": socket(),
        "net.createConnection": socket(),
        "net.Socket": socket(),
        "tls.connect": socket(),
        "fetch": _uploads(1),
        "http.request": _uploads(0),
        "https.request": _uploads(0),
        "http.get": fetches((0, None)),
        "https.get": fetches((0, None)),
        "axios": _uploads(0),
        "axios.request": _uploads(0),
        "Buffer.from": _buffer_from(),
        "os.homedir": home(),
        "process.kill": signals((0, None), (1, None)),
        "path.join": joins_paths(restarts_at_absolute=False),
        "path.resolve": joins_paths(restarts_at_absolute=True),
        "Deno.env.get": produces(SourceKind.ENVIRONMENT, 0),
        "String": passes(0),
        "fs-extra.removeSync": changes(FileOperation.DELETE_TREE),
        "fs-extra.remove": changes(FileOperation.DELETE_TREE),
        "fs-extra.emptyDirSync": changes(FileOperation.DELETE_TREE),
        "rimraf": changes(FileOperation.DELETE_TREE),
        "rimraf.sync": changes(FileOperation.DELETE_TREE),
        "rimraf.rimraf": changes(FileOperation.DELETE_TREE),
        "rimraf.rimrafSync": changes(FileOperation.DELETE_TREE),
        "fs-extra.moveSync": moves(path_at(0), (1, None)),
        "fs-extra.move": moves(path_at(0), (1, None)),
        **runtime_entries(),
        **fs_entries(),
    }
    for method in ("get", "delete", "head", "options"):
        catalogue[f"axios.{method}"] = fetches((0, None))
    for method in ("post", "put", "patch"):
        catalogue[f"axios.{method}"] = posts()
    catalogue["atob"] = decodes("base64")
    catalogue["*.toString"] = converts_receiver()
    catalogue["*.join"] = Entry(
        returns=lambda call: joined_items(call.arg(0) or Value(text=","), call.receiver or UNKNOWN)
    )
    for decoder in (
        "decodeURIComponent",
        "decodeURI",
        "unescape",
        "String.fromCharCode",
        "zlib.inflateSync",
        "zlib.gunzipSync",
        "zlib.unzipSync",
        "zlib.inflateRawSync",
        "zlib.brotliDecompressSync",
    ):
        catalogue[decoder] = produces(SourceKind.DECODED)
    return catalogue


class JavaScriptInterpreter(Interpreter):
    language = "javascript"
    # Deno and Bun run TypeScript too: code the JavaScript grammar cannot read is tried as TypeScript.
    grammars = ("javascript", "typescript")
    catalogue = _build_catalogue()
    named_sources: ClassVar[Mapping[str, DataSource]] = {"process.env": DataSource(SourceKind.ENVIRONMENT)}
    named_values: ClassVar[Mapping[str, Value]] = {"os.userInfo().homedir": HOME}
    # `node -e CODE ARG...`: process.argv is the node binary, then the arguments.
    argument_vectors: ClassVar[Mapping[str, int]] = {"process.argv": 1}
    integer_types = frozenset({"number"})

    def module_name(self, text: str) -> str:
        return text.removeprefix("node:").replace("/", ".")

    def member(self, owner: Value, attribute: str) -> Value:
        if owner.name in _GLOBAL_OBJECTS:
            return self.lookup(attribute)
        return super().member(owner, attribute)

    # ----- names

    def bind(self, node: Node) -> None:
        kind = node.type
        if kind == "variable_declarator":
            self._bind_pattern(node.child_by_field_name("name"), node.child_by_field_name("value"))
        elif kind == "assignment_expression":
            left = node.child_by_field_name("left")
            if left is not None and left.type == "identifier":
                self._bind_pattern(left, node.child_by_field_name("right"))
        elif kind == "augmented_assignment_expression":
            right = node.child_by_field_name("right")
            self._bind_pattern(node.child_by_field_name("left"), lambda: opaque((self.value(right),)))
        elif kind == "import_statement":
            self._bind_import(node)
        elif kind == "for_in_statement" and self._text_of(node.child_by_field_name("operator")) == "of":
            # `for (const f of fs.readdirSync(d))`: what each step of the iteration yields.
            iterable = node.child_by_field_name("right")
            self._bind_pattern(node.child_by_field_name("left"), lambda: element(self.value(iterable)))
        elif kind in ("for_in_statement", "catch_clause"):
            self._bind_pattern(node.child_by_field_name("left") or node.child_by_field_name("parameter"), None)
        elif kind in _FUNCTIONS:
            self._bind_pattern(node.child_by_field_name("name"), None)
            self._bind_parameters(node)

    def _bind_parameters(self, function: Node) -> None:
        """Parameters are unknown, except a callback's: they carry what its call carries
        (`https.get(url, res => ...)`: `res` is network data)."""
        parent = function.parent
        call = parent.parent if parent is not None and parent.type == "arguments" else None
        carried = call if call is not None and call.type in ("call_expression", "new_expression") else None
        single = function.child_by_field_name("parameter")
        parameters = [single] if single is not None else []
        listed = function.child_by_field_name("parameters")
        if listed is not None:
            parameters.extend(listed.named_children)
        receiver = self._element_callback_receiver(carried, function)
        for position, parameter in enumerate(parameters):
            if receiver is not None and position == 0:
                # `names.forEach(f => ...)`: the callback's first parameter is each element of the array.
                self._bind_pattern(parameter, lambda receiver=receiver: element(self.value(receiver)))
            elif carried is not None:
                self._bind_pattern(parameter, lambda call=carried: opaque((self.value(call),)))
            else:
                self._bind_pattern(parameter, None)

    @staticmethod
    def _element_callback_receiver(call: Node | None, function: Node) -> Node | None:
        """The array `ARRAY.forEach(function)` (or `.map`, `.filter`...) calls `function` with each element of."""
        callee = call.child_by_field_name("function") if call is not None else None
        arguments = function.parent
        if callee is None or callee.type != "member_expression" or arguments is None:
            return None
        method = callee.child_by_field_name("property")
        first = arguments.named_children[0] if arguments.named_children else None
        if method is None or method.text is None or first is None or first.id != function.id:
            return None
        return callee.child_by_field_name("object") if method.text.decode() in EACH_ELEMENT_METHODS else None

    def _text_of(self, node: Node | None) -> str | None:
        return None if node is None else self.text(node)

    def _bind_pattern(self, target: Node | None, binding: Binding | None) -> None:
        if target is None:
            return
        if target.type in ("identifier", "shorthand_property_identifier_pattern"):
            self.assign(self.text(target), binding if binding is not None else UNKNOWN)
            return
        if target.type == "object_pattern" and isinstance(binding, Node):
            for element in target.named_children:
                self._bind_destructured(element, binding)
            return
        for child in target.named_children:
            self._bind_pattern(child, None)

    def _bind_destructured(self, element: Node, source: Node) -> None:
        """`const {exec: run, spawn} = require('child_process')`."""
        if element.type == "shorthand_property_identifier_pattern":
            key = self.text(element)
            self.assign(key, lambda: self.member(self.value(source), key))
        elif element.type == "pair_pattern":
            key_node = element.child_by_field_name("key")
            target = element.child_by_field_name("value")
            if key_node is None or target is None:
                return
            key = self.value(key_node).text if key_node.type == "string" else self.text(key_node)
            if target.type == "identifier" and key is not None:
                self.assign(self.text(target), lambda: self.member(self.value(source), key))
            else:
                self._bind_pattern(target, None)
        else:
            self._bind_pattern(element, None)

    def _bind_import(self, node: Node) -> None:
        source = node.child_by_field_name("source")
        module_value = self.value(source) if source is not None else UNKNOWN
        module = self.module_name(module_value.text) if module_value.text is not None else None
        for clause in node.named_children:
            if clause.type != "import_clause":
                continue
            for part in clause.named_children:
                if part.type == "identifier":
                    self.assign(self.text(part), Value(name=module) if module else UNKNOWN)
                elif part.type == "namespace_import":
                    for name in part.named_children:
                        self.assign(self.text(name), Value(name=module) if module else UNKNOWN)
                elif part.type == "named_imports":
                    for specifier in part.named_children:
                        original = specifier.child_by_field_name("name")
                        alias = specifier.child_by_field_name("alias") or original
                        if original is not None and alias is not None:
                            qualified = f"{module}.{self.text(original)}" if module else None
                            self.assign(self.text(alias), Value(name=qualified))

    # ----- values

    def evaluate(self, node: Node) -> Value:
        kind = node.type
        if kind in ("string", "template_string"):
            return self._string(node)
        if kind in ("identifier", "shorthand_property_identifier"):
            return self.lookup(self.text(node))
        if kind == "member_expression":
            owner = self.value(node.child_by_field_name("object"))
            prop = node.child_by_field_name("property")
            return self.member(owner, self.text(prop)) if prop is not None else opaque((owner,))
        if kind == "subscript_expression":
            owner = self.value(node.child_by_field_name("object"))
            key = self.index(node.child_by_field_name("index"))
            special = owner.name in self.named_sources or owner.name in self.argument_vectors
            if key.text is not None and owner.name is not None and not special:
                return self.member(owner, key.text)
            return self.subscript(owner, key)
        if kind == "binary_expression":
            left = self.value(node.child_by_field_name("left"))
            right = self.value(node.child_by_field_name("right"))
            operator = node.child_by_field_name("operator")
            return joined((left, right)) if operator is not None and operator.type == "+" else opaque((left, right))
        if kind == "array":
            elements = [child for child in node.named_children if child.type != "comment"]
            if any(child.type == "spread_element" for child in elements):
                return opaque(self.value(child) for child in elements)
            items = tuple(self.value(child) for child in elements)
            return Value(items=items, sources=opaque(items).sources)
        if kind == "object":
            return self._object(node)
        if kind in ("true", "false"):
            return Value(flag=kind == "true")
        if kind in _FUNCTIONS:
            return UNKNOWN  # their bodies are walked on their own; a function is no data
        if kind in ("parenthesized_expression", "await_expression", "as_expression", "satisfies_expression"):
            inner = [child for child in node.named_children if child.type != "comment"]
            return self.value(inner[0]) if inner else UNKNOWN
        if kind == "non_null_expression":
            return self.value(node.named_children[0]) if node.named_children else UNKNOWN
        if kind == "assignment_expression":
            return self.value(node.child_by_field_name("right"))
        return super().evaluate(node)

    def elements_call(self, node: Node) -> Value | None:
        """`names.map(f => path.join(d, f))`: an array whose elements are the callback's value for each
        element of the receiver; `names.filter(...)`: some of the receiver's elements."""
        callee = node.child_by_field_name("function") if node.type == "call_expression" else None
        if callee is None or callee.type != "member_expression":
            return None
        method = self._text_of(callee.child_by_field_name("property"))
        receiver = callee.child_by_field_name("object")
        if method in KEEPS_ELEMENTS_METHODS:
            return Value(each=element(self.value(receiver)))
        arguments = node.child_by_field_name("arguments")
        callback = arguments.named_children[0] if arguments is not None and arguments.named_children else None
        if method not in ("map", "flatMap") or callback is None or callback.type != "arrow_function":
            return None
        body = callback.child_by_field_name("body")
        if body is None or body.type == "statement_block":
            return None
        return Value(each=self.value(body))

    def _string(self, node: Node) -> Value:
        pieces = [child for child in node.named_children if child.type != "comment"]
        return self.string_value(pieces, _TEXT_PIECES, _decode)

    def _object(self, node: Node) -> Value:
        entries: list[tuple[str, Value]] = []
        values: list[Value] = []
        for member in node.named_children:
            if member.type == "pair":
                key_node = member.child_by_field_name("key")
                value = self.value(member.child_by_field_name("value"))
                values.append(value)
                if key_node is None:
                    continue
                key = self.value(key_node).text if key_node.type == "string" else self.text(key_node)
                if key_node.type != "computed_property_name" and key is not None:
                    entries.append((key, value))
            elif member.type == "shorthand_property_identifier":
                value = self.value(member)
                values.append(value)
                entries.append((self.text(member), value))
            else:
                values.append(self.value(member))
        return Value(entries=tuple(entries), sources=opaque(values).sources)

    # ----- calls

    def make_call(self, node: Node) -> Call | None:
        if node.type == "call_expression":
            function = node.child_by_field_name("function")
        elif node.type == "new_expression":
            function = node.child_by_field_name("constructor")
        else:
            return None
        if function is None:
            return None
        receiver: Value | None = None
        if function.type == "member_expression":
            receiver = self.value(function.child_by_field_name("object"))
            prop = function.child_by_field_name("property")
            callee = self.callee_of(receiver, self.text(prop) if prop is not None else "")
            if receiver.name in _GLOBAL_OBJECTS:
                callee, receiver = self.callee_of(self.value(function)), None
        elif function.type == "import":
            callee = "import"
        else:
            callee = self.callee_of(self.value(function))
        # A template instead of a list is a tagged template: Bun.$`rm -rf ${dir}`.
        args, complete = self.arguments_in(node.child_by_field_name("arguments"), "arguments", _SPREADS)
        return Call(callee, tuple(args), {}, receiver, self.span(node), complete)


class TypeScriptInterpreter(JavaScriptInterpreter):
    language = "typescript"
    grammars = ("typescript",)
