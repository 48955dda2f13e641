"""Python: `python -c`, scripts fed on standard input or written then run."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import ClassVar

from tree_sitter import Node

from ._catalogue import (
    argv_args,
    argv_list,
    changes,
    changes_mode,
    changes_owner,
    changes_receiver,
    converts_receiver,
    decodes,
    fetches,
    gets_member,
    home,
    imports,
    joined_path,
    joins_paths,
    moves,
    opens,
    passes,
    passes_receiver,
    path_at,
    produces,
    receiver_path,
    runs_code,
    shell,
    socket,
    words_of,
)
from ._databases import database_entries
from ._facts import DataSource, FileOperation, SourceKind
from ._formatting import brace_formatted, joined_items, percent_formatted
from ._interpreter import Interpreter
from ._processes import exec_list, exec_vector, signals
from ._python_listings import listings, unpacked
from ._strings import decode_escapes
from ._transfers import copies, saves, saves_through_handle
from ._values import HOME, UNKNOWN, Call, Command, Entry, Value, element, interpolated, joined, opaque

_UPLOAD_METHODS = frozenset({"POST", "PUT", "PATCH"})
# The `stat` module's mode bits, for a mode spelled with them (`os.chmod(p, stat.S_ISUID | 0o755)`).
_MODE_BITS = {
    "S_ISUID": 0o4000, "S_ISGID": 0o2000, "S_ISVTX": 0o1000,
    "S_IRWXU": 0o700, "S_IRUSR": 0o400, "S_IWUSR": 0o200, "S_IXUSR": 0o100,
    "S_IRWXG": 0o070, "S_IRGRP": 0o040, "S_IWGRP": 0o020, "S_IXGRP": 0o010,
    "S_IRWXO": 0o007, "S_IROTH": 0o004, "S_IWOTH": 0o002, "S_IXOTH": 0o001,
}  # fmt: skip
# What `pathlib.Path(...)` makes: its methods are catalogued under this name.
_PATH = "pathlib.Path()"


def _subprocess() -> Entry:
    """subprocess.run & co: a list is an argument vector; a string goes through
    the shell with shell=True, and is the program's name without it."""

    def command(call: Call) -> Command | None:
        program = call.arg(0, "args")
        if program is None:
            return None
        shell_flag = call.arg(None, "shell")
        if shell_flag is not None and shell_flag.truthy() is not False:
            # On POSIX the first item of a list is the shell string, the rest its $0, $1...
            return Command.shell(program.items[0] if program.items else program)
        return Command.argv(words_of(program))

    return Entry(command=command)


def _requests_method(method: str) -> Entry:
    return fetches((0, "url"), [(None, "data"), (None, "json"), (None, "files")], sends=method in _UPLOAD_METHODS)


def _uploads_by_method(position: int) -> Entry:
    """requests.request(method, url, ...) and http.client's request(method, url, body)."""

    def sends(call: Call) -> bool:
        method = call.arg(position, "method")
        return method is None or method.text is None or method.text.upper() in _UPLOAD_METHODS

    return fetches(
        (position + 1, "url"), [(None, "data"), (None, "json"), (None, "files"), (position + 2, "body")], sends=sends
    )


def _pip_main() -> Entry:
    """`pip.main(['install', PKG])`: pip run in the process, as `pip install PKG` from the shell."""

    def command(call: Call) -> Command | None:
        arguments = call.arg(0, "args")
        if arguments is None:
            return None
        return Command.argv(None if arguments.items is None else (Value(text="pip"), *arguments.items))

    return Entry(command=command)


def _path_read() -> Entry:
    def returns(call: Call) -> Value:
        path = call.receiver or UNKNOWN
        return Value(sources=path.sources | {DataSource(SourceKind.FILE, path.text)})

    return Entry(returns=returns)


def _joins_path() -> Entry:
    """`Path(p).joinpath(a, b)`: the path with the arguments joined to it."""

    def returns(call: Call) -> Value:
        if not call.complete:
            return opaque(call.all_values())
        return joined_path((call.receiver or UNKNOWN, *call.args), restarts_at_absolute=True, name=_PATH)

    return Entry(returns=returns)


def _dup2() -> Entry:
    """`os.dup2(fd, 0)`: the descriptor becomes the standard input."""

    def rebinds(call: Call) -> Value | None:
        target = call.arg(1, "fd2")
        return call.arg(0, "fd") if target is not None and target.number == 0 else None

    return Entry(rebinds_stdin=rebinds)


# long: one table literal, one row per call the analyser knows: long as data, not as logic.
def _build_catalogue() -> dict[str, Entry]:
    catalogue: dict[str, Entry] = {
        "os.system": shell(0, "command"),
        "os.popen": shell(0, "cmd"),
        "subprocess.getoutput": shell(0, "cmd"),
        "subprocess.getstatusoutput": shell(0, "cmd"),
        "commands.getoutput": shell(0),
        "commands.getstatusoutput": shell(0),
        "asyncio.create_subprocess_shell": shell(0, "cmd"),
        "asyncio.create_subprocess_exec": argv_args(0),
        "pty.spawn": argv_list(0, "argv"),
        "os.posix_spawn": exec_vector(0),
        "os.posix_spawnp": exec_vector(0),
        "shutil.rmtree": changes(FileOperation.DELETE_TREE, 0, "path"),
        "os.remove": changes(FileOperation.DELETE_FILE, 0, "path"),
        "os.unlink": changes(FileOperation.DELETE_FILE, 0, "path"),
        "os.rmdir": changes(FileOperation.DELETE_DIR, 0, "path"),
        "os.removedirs": changes(FileOperation.DELETE_DIR, 0, "name"),
        "pip.main": _pip_main(),
        "pip._internal.main": _pip_main(),
        "pip._internal.cli.main.main": _pip_main(),
        "os.kill": signals((0, "pid"), (1, "sig")),
        "os.killpg": signals((0, "pgid"), (1, "sig")),
        "shutil.copy": copies(1, "dst", "src"),
        "shutil.copy2": copies(1, "dst", "src"),
        "shutil.copyfile": copies(1, "dst", "src"),
        "os.truncate": changes(FileOperation.WRITE_FILE, 0, "path"),
        "os.chmod": changes_mode((1, "mode"), path_at(0, "path")),
        "os.lchmod": changes_mode((1, "mode"), path_at(0, "path")),
        "os.chown": changes_owner((1, "uid"), (2, "gid"), path_at(0, "path")),
        "os.lchown": changes_owner((1, "uid"), (2, "gid"), path_at(0, "path")),
        "shutil.chown": changes_owner((1, "user"), (2, "group"), path_at(0, "path")),
        "os.rename": moves(path_at(0, "src"), (1, "dst")),
        "os.renames": moves(path_at(0, "old"), (1, "new")),
        "os.replace": moves(path_at(0, "src"), (1, "dst")),
        "shutil.move": moves(path_at(0, "src"), (1, "dst")),
        "pathlib.Path": passes(0, name=_PATH),
        "pathlib.Path.home": home(_PATH),
        "pathlib.Path().expanduser": passes_receiver(_PATH),
        "pathlib.Path().resolve": passes_receiver(_PATH),
        "pathlib.Path().absolute": passes_receiver(_PATH),
        "pathlib.Path().joinpath": _joins_path(),
        "pathlib.Path().unlink": changes_receiver(FileOperation.DELETE_FILE),
        "pathlib.Path().rmdir": changes_receiver(FileOperation.DELETE_DIR),
        "pathlib.Path().write_text": changes_receiver(FileOperation.WRITE_FILE, (0, "data")),
        "pathlib.Path().write_bytes": changes_receiver(FileOperation.WRITE_FILE, (0, "data")),
        "pathlib.Path().chmod": changes_mode((0, "mode"), receiver_path),
        "pathlib.Path().lchmod": changes_mode((0, "mode"), receiver_path),
        "pathlib.Path().rename": moves(receiver_path, (0, "target")),
        "pathlib.Path().replace": moves(receiver_path, (0, "target")),
        **listings(_PATH),
        "pathlib.Path().read_text": _path_read(),
        "pathlib.Path().read_bytes": _path_read(),
        "open": opens((0, "file"), (1, "mode")),
        "open().write": saves_through_handle(),
        "io.open": opens((0, "file"), (1, "mode")),
        "codecs.open": opens((0, "filename"), (1, "mode")),
        "exec": runs_code(0, "source"),
        "eval": runs_code(0, "source"),
        "compile": passes(0),
        "str": passes(0),
        "os.path.join": joins_paths(restarts_at_absolute=True),
        "os.path.expanduser": passes(0),
        "os.path.expandvars": passes(0),
        "os.path.abspath": passes(0),
        "os.path.realpath": passes(0),
        "os.path.normpath": passes(0),
        "__import__": imports(0, "name"),
        "importlib.import_module": imports(0, "name"),
        "getattr": gets_member(0, 1),
        "os.getenv": produces(SourceKind.ENVIRONMENT, 0, "key"),
        "os.environ.get": produces(SourceKind.ENVIRONMENT, 0, "key"),
        "socket.socket": socket(),
        "socket.create_connection": socket(),
        "os.dup2": _dup2(),
        "urllib.request.urlopen": fetches((0, "url"), [(1, "data")]),
        "urllib.request.Request": fetches((0, "url"), [(1, "data")]),
        "urllib.request.urlretrieve": saves((0, "url"), (1, "filename")),
        "urllib.urlopen": fetches((0, "url"), [(1, "data")]),
        "urllib2.urlopen": fetches((0, "url"), [(1, "data")]),
        "requests.request": _uploads_by_method(0),
        "http.client.HTTPConnection().request": _uploads_by_method(0),
        "http.client.HTTPSConnection().request": _uploads_by_method(0),
    }
    for module in ("subprocess.run", "subprocess.call", "subprocess.check_call", "subprocess.check_output"):
        catalogue[module] = _subprocess()
    catalogue["subprocess.Popen"] = _subprocess()
    for suffix, drop_last in (("l", False), ("le", True), ("lp", False), ("lpe", True)):
        catalogue[f"os.exec{suffix}"] = exec_list(0, drop_last=drop_last)
        catalogue[f"os.spawn{suffix}"] = exec_list(1, drop_last=drop_last)
    for suffix in ("v", "ve", "vp", "vpe"):
        catalogue[f"os.exec{suffix}"] = exec_vector(0)
        catalogue[f"os.spawn{suffix}"] = exec_vector(1)
    for client in ("requests", "requests.Session()", "httpx", "httpx.Client()"):
        for method in ("get", "head", "options", "delete", "post", "put", "patch"):
            catalogue[f"{client}.{method}"] = _requests_method(method.upper())
    for decoder, codec in (
        ("base64.b64decode", "base64"),
        ("base64.standard_b64decode", "base64"),
        ("base64.decodebytes", "base64"),
        ("base64.decodestring", "base64"),
        ("binascii.a2b_base64", "base64"),
        ("base64.urlsafe_b64decode", "base64url"),
        ("base64.b32decode", "base32"),
        ("base64.b16decode", "hex"),
        ("binascii.unhexlify", "hex"),
        ("binascii.a2b_hex", "hex"),
        ("bytes.fromhex", "hex"),
    ):
        catalogue[decoder] = decodes(codec)
    catalogue.update(database_entries())
    catalogue["*.decode"] = converts_receiver()
    catalogue["*.join"] = Entry(returns=lambda call: joined_items(call.receiver or UNKNOWN, call.arg(0) or UNKNOWN))
    catalogue["*.format"] = Entry(
        returns=lambda call: brace_formatted(call.receiver or UNKNOWN, call.args, call.keywords)
    )
    for decoder in (
        "base64.b85decode",
        "base64.a85decode",
        "codecs.decode",
        "zlib.decompress",
        "gzip.decompress",
        "bz2.decompress",
        "lzma.decompress",
        "marshal.loads",
    ):
        catalogue[decoder] = produces(SourceKind.DECODED)
    for alias in ("builtins", "__builtins__"):
        for name in ("exec", "eval", "compile", "__import__", "getattr", "open"):
            catalogue[f"{alias}.{name}"] = catalogue[name]
    return catalogue


_STRING_QUOTES = "'\""
_PATTERNS = frozenset({"pattern_list", "tuple_pattern", "list_pattern", "tuple", "list", "expression_list"})
_PARAMETER_LISTS = frozenset({"parameters", "lambda_parameters"})
_LOOP_TARGETS = frozenset({"for_statement", "for_in_clause"})
_SPREADS = frozenset({"list_splat", "dictionary_splat"})


class PythonInterpreter(Interpreter):
    language = "python"
    grammars = ("python",)
    catalogue = _build_catalogue()
    named_sources: ClassVar[Mapping[str, DataSource]] = {"os.environ": DataSource(SourceKind.ENVIRONMENT)}
    named_values: ClassVar[Mapping[str, Value]] = {
        "pwd.getpwuid().pw_dir": HOME,
        **{f"stat.{name}": Value(number=bits) for name, bits in _MODE_BITS.items()},
    }
    argument_vectors: ClassVar[Mapping[str, int]] = {"sys.argv": 1}

    # ----- names

    def bind(self, node: Node) -> None:
        kind = node.type
        if kind == "import_statement":
            for name in node.children_by_field_name("name"):
                self._bind_import(name, None)
        elif kind == "import_from_statement":
            module = node.child_by_field_name("module_name")
            module_text = self.text(module) if module is not None and module.type == "dotted_name" else None
            if any(child.type == "wildcard_import" for child in node.named_children) and module_text:
                self.import_all(module_text)
            for name in node.children_by_field_name("name"):
                self._bind_import(name, module_text)
        elif kind in ("assignment", "named_expression"):
            left = node.child_by_field_name("left") or node.child_by_field_name("name")
            right = node.child_by_field_name("right") or node.child_by_field_name("value")
            if left is not None:
                self._bind_target(left, right)
        elif kind == "augmented_assignment":
            left = node.child_by_field_name("left")
            right = node.child_by_field_name("right")
            if left is not None and left.type == "identifier":
                self.assign(self.text(left), lambda: opaque((self.value(right),)))
        elif kind in _LOOP_TARGETS:
            target, iterable = node.child_by_field_name("left"), node.child_by_field_name("right")
            if target is not None:  # `for f in glob.glob(p)`: what each step of the iteration yields
                self._bind_yielded(target, lambda: element(self.value(iterable)))
        elif kind == "as_pattern":
            target = node.child_by_field_name("alias")
            if target is not None and target.type == "as_pattern_target" and target.named_children:
                target = target.named_children[0]
            value = node.named_children[0] if node.named_children else None
            self._bind_target(
                target, value if value is not None and target is not None and value.id != target.id else None
            )
        elif kind in ("function_definition", "class_definition"):
            self._bind_target(node.child_by_field_name("name"), None)
        elif kind in _PARAMETER_LISTS:
            for parameter in node.named_children:
                self._bind_target(parameter, None)

    def _bind_import(self, name: Node, module: str | None) -> None:
        if name.type == "aliased_import":
            original = name.child_by_field_name("name")
            alias = name.child_by_field_name("alias")
            if original is not None and alias is not None:
                qualified = self.text(original) if module is None else f"{module}.{self.text(original)}"
                self.assign(self.text(alias), Value(name=qualified))
        elif name.type == "dotted_name":
            if module is None:
                # `import os.path` binds `os`.
                first = self.text(name).split(".", 1)[0]
                self.assign(first, Value(name=first))
            else:
                qualified = f"{module}.{self.text(name)}"
                self.assign(self.text(name), self.named_values.get(qualified) or Value(name=qualified))

    def _bind_target(self, target: Node | None, value: Node | None) -> None:
        if target is None:
            return
        if target.type == "identifier":
            self.assign(self.text(target), value if value is not None else UNKNOWN)
            return
        if target.type in _PATTERNS:
            targets = [child for child in target.named_children if child.type != "comment"]
            values = (
                [child for child in value.named_children if child.type != "comment"]
                if value is not None and value.type in _PATTERNS
                else []
            )
            pairwise = len(values) == len(targets)
            for index, element in enumerate(targets):
                if pairwise:
                    self._bind_target(element, values[index])
                elif value is not None and element.type == "identifier":
                    # `out, err = proc.communicate()`: each name carries what the whole value carries.
                    self.assign(self.text(element), lambda whole=value: opaque((self.value(whole),)))
                else:
                    self._bind_target(element, None)
            return
        # Parameters with defaults or annotations, splats, keyword separators...
        for child in target.named_children:
            if child.type == "identifier":
                self.assign(self.text(child), UNKNOWN)
                break

    def _bind_yielded(self, target: Node, value: Callable[[], Value]) -> None:
        if target.type == "identifier":
            self.assign(self.text(target), value)
        elif target.type in _PATTERNS:
            # `for root, dirs, files in os.walk(top)`: each name is its part of the step's tuple.
            targets = [child for child in target.named_children if child.type != "comment"]
            for index, part in enumerate(targets):
                self._bind_yielded(part, lambda index=index: unpacked(value(), index, len(targets)))
        else:
            self._bind_target(target, None)

    # ----- values

    def evaluate(self, node: Node) -> Value:
        kind = node.type
        if kind == "string":
            return self._string(node)
        if kind == "concatenated_string":
            return joined(self.value(child) for child in node.named_children if child.type == "string")
        if kind == "identifier":
            return self.lookup(self.text(node))
        if kind == "attribute":
            attribute = node.child_by_field_name("attribute")
            owner = self.value(node.child_by_field_name("object"))
            return self.member(owner, self.text(attribute)) if attribute is not None else opaque((owner,))
        if kind == "binary_operator":
            left = self.value(node.child_by_field_name("left"))
            right = self.value(node.child_by_field_name("right"))
            operator = node.child_by_field_name("operator")
            if operator is not None and operator.type == "+":
                return joined((left, right))
            if operator is not None and operator.type == "%" and left.text is not None:
                return percent_formatted(left, right)  # `'rm -rf %s' % path`
            if operator is not None and operator.type == "|" and left.number is not None and right.number is not None:
                return Value(number=left.number | right.number)  # `stat.S_ISUID | 0o755`
            if operator is not None and operator.type == "/" and left.name == _PATH:
                return joined_path((left, right), restarts_at_absolute=True, name=_PATH)  # `Path.home() / ".ssh"`
            return opaque((left, right))
        if kind in ("list", "tuple", "expression_list"):
            if any(child.type in ("list_splat", "parenthesized_list_splat") for child in node.named_children):
                return opaque(self.value(child) for child in node.named_children)
            items = tuple(self.value(child) for child in node.named_children if child.type != "comment")
            return Value(items=items, sources=opaque(items).sources)
        if kind == "dictionary":
            return self._dictionary(node)
        if kind in ("parenthesized_expression", "await"):
            inner = [child for child in node.named_children if child.type != "comment"]
            return self.value(inner[0]) if len(inner) == 1 else opaque(self.value(child) for child in inner)
        if kind in ("true", "false"):
            return Value(flag=kind == "true")
        if kind in ("lambda", "function_definition", "class_definition"):
            return UNKNOWN  # their bodies are walked on their own; a function is no data
        if kind == "subscript":
            owner = self.value(node.child_by_field_name("value"))
            keys = node.children_by_field_name("subscript")
            return self.subscript(owner, self.index(keys[0])) if len(keys) == 1 else opaque((owner,))
        if kind in ("assignment", "named_expression"):
            return self.value(node.child_by_field_name("right") or node.child_by_field_name("value"))
        return super().evaluate(node)

    def _string(self, node: Node) -> Value:
        prefix = self.text(node.children[0]).rstrip(_STRING_QUOTES).lower() if node.children else ""
        parts: list[Value] = []
        for child in node.named_children:
            if child.type == "string_content":
                raw = self.text(child)
                decoded = raw if "r" in prefix else decode_escapes(raw, keeps_unknown_backslash=True)
                if decoded is not None and "f" in prefix:
                    decoded = decoded.replace("{{", "{").replace("}}", "}")
                literal = self.span(child) if decoded == raw else None
                parts.append(Value(text=decoded, literal=literal) if decoded is not None else UNKNOWN)
            elif child.type == "interpolation":
                # `{x}` is x's text; a conversion or format spec (`{x!r}`, `{x:>4}`) changes it.
                inner = [part for part in child.named_children if part.type != "comment"]
                plain = len(inner) == 1
                parts.append(
                    interpolated(self.value(inner[0])) if plain else opaque(self.value(part) for part in inner)
                )
        if not parts:
            return Value(text="")
        return joined(parts)

    def _dictionary(self, node: Node) -> Value:
        entries: list[tuple[str, Value]] = []
        values: list[Value] = []
        for pair in node.named_children:
            if pair.type != "pair":
                values.append(self.value(pair))
                continue
            key = self.value(pair.child_by_field_name("key"))
            value = self.value(pair.child_by_field_name("value"))
            values.append(value)
            if key.text is not None:
                entries.append((key.text, value))
        return Value(entries=tuple(entries), sources=opaque(values).sources)

    # ----- calls

    def make_call(self, node: Node) -> Call | None:
        if node.type != "call":
            return None
        function = node.child_by_field_name("function")
        arguments = node.child_by_field_name("arguments")
        if function is None:
            return None
        receiver: Value | None = None
        if function.type == "attribute":
            attribute = function.child_by_field_name("attribute")
            receiver = self.value(function.child_by_field_name("object"))
            callee = self.callee_of(receiver, self.text(attribute) if attribute is not None else "")
        else:
            callee = self.callee_of(self.value(function))
        args: list[Value] = []
        keywords: dict[str, Value] = {}
        complete = True
        if arguments is not None and arguments.type == "argument_list":
            for argument in arguments.named_children:
                name = argument.child_by_field_name("name") if argument.type == "keyword_argument" else None
                if name is not None:
                    keywords[self.text(name)] = self.value(argument.child_by_field_name("value"))
            positional = (child for child in arguments.named_children if child.type != "keyword_argument")
            args, complete = self.positional(positional, _SPREADS)
        elif arguments is not None:
            args.append(self.value(arguments))
        return Call(callee, tuple(args), keywords, receiver, self.span(node), complete)
