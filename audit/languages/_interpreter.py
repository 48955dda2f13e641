"""The language-neutral half of a tree-sitter analyser.

A language module subclasses `Interpreter` and says three things: which
names a node binds (`bind`), what an expression node is worth (`evaluate`)
and which call a node makes (`make_call`). This module does the rest: one
post-order pass so no evaluation recurses deeply, name resolution (a name
bound once to a literal is that literal; bound twice, nothing is known),
and the catalogue lookup that resolves calls. What the calls do (shell-outs,
code run from literals, requests, reverse shells) is `_effects.CallEffects`,
which it extends. What an analysis may spend is `_run.Run`; values and their
merging are `_values`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import ClassVar

from tree_sitter import Node, Tree

from .._model import Span
from . import _grammars
from ._effects import CallEffects
from ._facts import (
    DataSource,
    Fact,
    SourceKind,
    Unresolved,
    UnresolvedKind,
)
from ._run import CharOffsets, Run
from ._values import (
    UNKNOWN,
    Call,
    Entry,
    Value,
    integer_value,
    interpolated,
    joined,
    merged,
    opaque,
    outside_value,
    sources_of,
)

# Expressions nested deeper than this are not followed (Python's own stack is
# the limit being protected); the post-order pass keeps ordinary code far below.
MAX_NESTING = 150


# Nodes that wrap the expression a string interpolates: JavaScript's `${x}`, Ruby's `#{x}`.
_INTERPOLATIONS = frozenset({"template_substitution", "interpolation"})

Binding = Node | Value | Callable[[], Value]
"""What a name is bound to: an expression node, a known value, or a value
computed when first needed (a destructured member of an expression)."""


# The grammars' node types for an operator before one operand (`-1`).
_UNARY_TYPES = frozenset({"unary_operator", "unary_expression", "unary", "unary_op_expression"})


class Interpreter(CallEffects):
    language: ClassVar[str]
    grammars: ClassVar[tuple[str, ...]]
    """Tried in order: the first that reads the snippet without error is used."""
    catalogue: ClassVar[Mapping[str, Entry]]
    named_sources: ClassVar[Mapping[str, DataSource]] = {}
    """Names whose value is outside data (`os.environ`)."""
    named_values: ClassVar[Mapping[str, Value]] = {}
    """Names whose value is known (`os.userInfo().homedir` is the home directory)."""
    argument_vectors: ClassVar[Mapping[str, int]] = {}
    """Names of the program's argument vector, each with the index the first argument has
    there when the code is given with `-c`/`-e` (`sys.argv[1]`, `$ARGV[0]`)."""
    integer_types: ClassVar[frozenset[str]] = frozenset({"integer"})
    """The grammar's node types of an integer literal (an index: `sys.argv[1]`)."""
    callable_strings: ClassVar[bool] = False
    """A string naming a function can be called (PHP's `$f = 'system'; $f(...)`)."""
    package_separator: ClassVar[str] = "."
    """Between a module and a function it exports (`os.system`, `File::Path::rmtree`)."""

    def __init__(
        self,
        source: str,
        run: Run,
        *,
        depth: int = 0,
        via: str = "",
        place: Callable[[Span], Span] | None = None,
    ) -> None:
        super().__init__(run, depth, via)
        self.source = source
        self._place = place
        self._offsets = CharOffsets(source)
        self._bindings: dict[str, list[Binding]] = {}
        self._names: dict[str, Value] = {}
        self._resolving: set[str] = set()
        self._values: dict[int, Value] = {}
        self._in_progress: set[int] = set()
        self._calls: dict[int, Call | None] = {}
        self._nesting = 0
        self._too_deep = False
        self._wildcards: list[str] = []

    # ----- what a language module provides

    def bind(self, node: Node) -> None:
        """Record the names `node` binds (assignments, imports, parameters)."""

    def evaluate(self, node: Node) -> Value:
        """The value of `node`; the default knows nothing but keeps the origins of its parts, except
        that a minus before an integer negates it (`os.kill(-1, 9)`: every process)."""
        operands = node.named_children
        if node.type in _UNARY_TYPES and len(operands) == 1 and self.text(node).startswith("-"):
            number = self.value(operands[0]).number
            if number is not None:
                return Value(number=-number)
        return opaque(self.value(child) for child in operands)

    def elements_call(self, node: Node) -> Value | None:
        """The value of a call that maps or filters the elements of what it is called on
        (`names.map(f => ...)`), which the catalogue cannot say; None for another call."""
        return None

    def make_call(self, node: Node) -> Call | None:
        """The call `node` makes, or None."""
        return None

    def grammars_for(self, source: str) -> tuple[str, ...]:
        return self.grammars

    def free(self, name: str) -> Value:
        """A name the snippet never binds: one a wildcard import brought in, a builtin, or a module used without import."""
        for module in self._wildcards:
            qualified = f"{module}{self.package_separator}{name}"
            if qualified in self.catalogue:
                return self.named(Value(name=qualified))
        return self.named(Value(name=name))

    def module_name(self, text: str) -> str:
        """The catalogue's spelling of a module named in an import."""
        return text

    # ----- the analysis

    @property
    def found(self) -> list[Fact]:
        """The facts found so far (all of them once `facts` has returned)."""
        return self._facts

    def facts(self) -> list[Fact]:
        tree = self._parse()
        root = tree.root_node
        nodes = list(self._postorder(root))
        for node in nodes:
            self.bind(node)
        for node in nodes:
            self.run.step()
            self.value(node)
            call = self.call_at(node)
            if call is not None:
                self._effects(call)
        self._reverse_shells()
        if self._too_deep:
            self._facts.append(
                Unresolved(UnresolvedKind.DEPTH, "expressions nested too deeply to follow", self.outer(self.span(root)))
            )
        broken = self.unreadable(root) if root.has_error else None
        if broken is not None:
            self._facts.append(
                Unresolved(
                    UnresolvedKind.SYNTAX,
                    f"the {self.language} grammar cannot read this part of the code",
                    self.outer(self.span(broken)),
                )
            )
        return self._facts

    def _parse(self) -> Tree:
        data = self.source.encode("utf-8", "surrogatepass")
        tree: Tree | None = None
        for grammar in self.grammars_for(self.source):
            candidate = _grammars.parse(grammar, data, self.run.budget)
            if not candidate.root_node.has_error:
                return candidate
            tree = tree or candidate
        assert tree is not None
        return tree

    def _postorder(self, root: Node) -> Iterator[Node]:
        """Named nodes, children before parents, without recursion."""
        stack: list[tuple[Node, bool]] = [(root, False)]
        while stack:
            node, expanded = stack.pop()
            if expanded:
                yield node
                continue
            self.run.step()
            stack.append((node, True))
            stack.extend((child, False) for child in reversed(node.named_children))

    def unreadable(self, root: Node) -> Node | None:
        """The first part of a tree with errors that the grammar could not read (None: nothing a language
        module counts as unread)."""
        return self._first_error(root)

    @staticmethod
    def _first_error(root: Node) -> Node:
        stack = [root]
        while stack:
            node = stack.pop()
            if node.is_error or node.is_missing:
                return node
            stack.extend(child for child in reversed(node.children) if child.has_error or child.is_missing)
        return root

    # ----- services for the language modules

    def text(self, node: Node) -> str:
        return self.source[self._offsets.char(node.start_byte) : self._offsets.char(node.end_byte)]

    def span(self, node: Node) -> Span:
        return Span(self._offsets.char(node.start_byte), self._offsets.char(node.end_byte))

    def outer(self, span: Span) -> Span:
        """A span of this snippet as a span of the code handed to `analyse_code`."""
        return span if self._place is None else self._place(span)

    def nested_facts(self, code: str, via: str, place: Callable[[Span], Span]) -> list[Fact]:
        return type(self)(code, self.run, depth=self.depth + 1, via=via, place=place).facts()

    def string_value(
        self, pieces: list[Node], text_types: frozenset[str], decode: Callable[[str], str | None]
    ) -> Value:
        """A string literal from its pieces: text (escapes decoded by `decode`) and interpolations.

        A string that is one undecorated piece of text keeps where it stands in the snippet.
        """
        if not pieces:
            return Value(text="")
        if len(pieces) == 1 and pieces[0].type in text_types:
            raw = self.text(pieces[0])
            decoded = decode(raw)
            if decoded is None:
                return UNKNOWN
            return Value(text=decoded, literal=self.span(pieces[0]) if decoded == raw else None)
        parts: list[Value] = []
        for piece in pieces:
            if piece.type in text_types or piece.type == "escape_sequence":
                decoded = decode(self.text(piece))
                parts.append(UNKNOWN if decoded is None else Value(text=decoded))
            else:
                inner = [child for child in piece.named_children if child.type != "comment"]
                wrapped = piece.type in _INTERPOLATIONS and len(inner) == 1
                parts.append(interpolated(self.value(inner[0] if wrapped else piece)))
        return joined(parts)

    def positional(self, arguments: Iterable[Node], spreads: frozenset[str]) -> tuple[list[Value], bool]:
        """Argument values in order, and whether their number is known (no spread/splat among them)."""
        values: list[Value] = []
        complete = True
        for argument in arguments:
            if argument.type == "comment":
                continue
            if argument.type in spreads:
                complete = False
                values.append(opaque((self.value(argument),)))
            else:
                values.append(self.value(argument))
        return values, complete

    def arguments_in(self, node: Node | None, list_type: str, spreads: frozenset[str]) -> tuple[list[Value], bool]:
        """The arguments of a call: a parenthesised list, or one argument written without
        parentheses (a tagged template, Lua's `f"str"`)."""
        if node is None:
            return [], True
        if node.type == list_type:
            return self.positional(node.named_children, spreads)
        return [self.value(node)], True

    def import_all(self, module: str) -> None:
        """`from os import *`, Perl's `use LWP::Simple`: the module's names become free names."""
        self._wildcards.append(module)

    def index(self, node: Node | None) -> Value:
        """A subscript's key: an integer literal is its digits (`sys.argv[1]`), anything else its value."""
        if node is not None and node.type in self.integer_types and self.text(node).isdigit():
            return Value(text=self.text(node))
        return self.value(node)

    def argument(self, position: int) -> Value:
        """The program's command-line argument at `position` (0 is the first after the code):
        its text when the command spells it out, else data known only at run time."""
        source = DataSource(SourceKind.ARGUMENT, str(position + 1))
        known = self.run.arguments
        text = known[position] if known is not None and 0 <= position < len(known) else None
        return Value(text=text, sources=frozenset({source}))

    def subscript(self, owner: Value, key: Value) -> Value:
        """`os.environ['HOME']`, `sys.argv[1]`, `options['shell']`: what an element lookup is known to be."""
        first = self.argument_vectors.get(owner.name) if owner.name else None
        if first is not None and key.text is not None and key.text.isdigit():
            return self.argument(int(key.text) - first)
        source = self.named_sources.get(owner.name) if owner.name else None
        if source is not None and key.text is not None:
            return outside_value(source.kind, key.text, owner.sources - {source})
        if key.text is not None and owner.entries is not None:
            found = owner.entry(key.text)
            if found is not None:
                return found
        return opaque((owner, key))

    def assign(self, name: str, binding: Binding) -> None:
        self._bindings.setdefault(name, []).append(binding)

    def value(self, node: Node | None) -> Value:
        if node is None:
            return UNKNOWN
        known = self._values.get(node.id)
        if known is not None:
            return known
        if node.id in self._in_progress:
            return UNKNOWN  # a value that depends on itself (a callback's parameter bound to its call)
        if self._nesting >= MAX_NESTING:
            self._too_deep = True
            return UNKNOWN
        self._nesting += 1
        self._in_progress.add(node.id)
        try:
            call = self.call_at(node)
            mapped = self.elements_call(node) if call is not None else None
            if mapped is not None:
                result = mapped
            elif call is not None:
                result = self._call_value(call)
            elif node.type in self.integer_types:
                result = integer_value(self.text(node))
            else:
                result = self.evaluate(node)
        finally:
            self._nesting -= 1
            self._in_progress.discard(node.id)
        self._values[node.id] = result
        return result

    def call_at(self, node: Node) -> Call | None:
        if node.id in self._calls:
            return self._calls[node.id]
        call = self.make_call(node)
        if call is not None:
            call = self._resolve_indirect(call)
        self._calls[node.id] = call
        return call

    def lookup(self, name: str) -> Value:
        known = self._names.get(name)
        if known is not None:
            return known
        bindings = self._bindings.get(name)
        if not bindings:
            return self.free(name)
        if name in self._resolving:
            return UNKNOWN
        self._resolving.add(name)
        try:
            values = [self._bound_value(binding) for binding in bindings]
        finally:
            self._resolving.discard(name)
        result = merged(values)
        self._names[name] = result
        return result

    def _bound_value(self, binding: Binding) -> Value:
        if isinstance(binding, Value):
            return binding
        if isinstance(binding, Node):
            return self.value(binding)
        return binding()

    def named(self, value: Value) -> Value:
        """`value` with the outside data its name stands for (`os.environ`), or the value it is known to have."""
        known = self.named_values.get(value.name) if value.name else None
        if known is not None:
            return known
        source = self.named_sources.get(value.name) if value.name else None
        return value if source is None else value.with_sources((source,))

    def member(self, owner: Value, attribute: str) -> Value:
        source = self.named_sources.get(owner.name) if owner.name else None
        if source is not None and source.kind is SourceKind.ENVIRONMENT:
            # process.env.HOME: a variable, not a method (process.env has none worth naming).
            return outside_value(source.kind, attribute, owner.sources - {source})
        name = f"{owner.name}.{attribute}" if owner.name else None
        return self.named(Value(name=name, sources=owner.sources))

    def callee_of(self, function: Value, method: str | None = None) -> str:
        """The catalogue name of a call to `function` (or to `method` of it)."""
        if method is None:
            if function.name is not None:
                return function.name
            if self.callable_strings and function.text is not None:
                return self.module_name(function.text)
            return ""
        return f"{function.name}.{method}" if function.name else f"*.{method}"

    def entry(self, callee: str) -> Entry | None:
        if not callee:
            return None
        found = self.catalogue.get(callee)
        if found is None and "." in callee:
            found = self.catalogue.get("*." + callee.rsplit(".", 1)[1])
        return found

    # ----- calls

    def _resolve_indirect(self, call: Call) -> Call:
        """`call_user_func('system', ...)`, `send(:system, ...)`: the call they make."""
        entry = self.entry(call.callee)
        if entry is None or entry.calls_named is None:
            return call
        target = entry.calls_named(call)
        if target is None:
            return call
        function, args = target
        callee = self.callee_of(function) or self.callee_of(Value(name=function.text))
        if not callee:
            return call
        return Call(callee, args, {}, None, call.span, call.complete)

    def _call_value(self, call: Call) -> Value:
        entry = self.entry(call.callee)
        if entry is None:
            default = Value(name=f"{call.callee}()" if call.callee and not call.callee.startswith("*") else None)
            return self.named(default).with_sources(sources_of(call.all_values()))
        if entry.imports is not None:
            result = self._import(call, entry.imports)
        elif entry.returns is not None:
            result = entry.returns(call)
        else:
            result = Value(name=f"{call.callee}()", sources=sources_of(call.all_values()))
        if entry.command is not None:
            command = entry.command(call)
            if command is not None:
                result = result.with_sources((DataSource(SourceKind.COMMAND_OUTPUT, command.text()),))
        if entry.request is not None:
            request = entry.request(call)
            if request is not None:
                result = result.with_sources((DataSource(SourceKind.NETWORK, request.url.text),))
        if entry.socket:
            result = result.with_sources((DataSource(SourceKind.SOCKET),))
        return result

    def _import(self, call: Call, imports: Callable[[Call], tuple[Value | None, Value] | None]) -> Value:
        target = imports(call)
        if target is None:
            return UNKNOWN
        owner, name = target
        if name.text is not None:
            return (
                self.member(owner, name.text)
                if owner is not None
                else self.named(Value(name=self.module_name(name.text)))
            )
        watched = owner is None or (
            owner.name is not None and any(key.startswith(owner.name + ".") for key in self.catalogue)
        )
        if watched:
            what = "a module" if owner is None else f"a member of {owner.name}"
            self._facts.append(
                Unresolved(
                    UnresolvedKind.DYNAMIC_NAME,
                    f"{call.callee} picks {what} by a name computed at run time",
                    self.outer(call.span),
                )
            )
        return opaque(call.all_values())
