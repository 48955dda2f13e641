"""PowerShell: `pwsh -Command`, `powershell -EncodedCommand`, scripts fed or written then run.

PowerShell runs commands as a shell does, so a command is a call: a cmdlet the
catalogue knows (`_powershell_catalogue`) by its canonical name, with its named
parameters as keywords and what the pipe feeds it as the keyword `|`. Any other
command is the program it runs, reported as an argument vector (`reg add ...`,
`cmd /c ...`, `Set-MpPreference ...`) for the engine to judge as it judges the same
words in bash. .NET calls are calls on their type (`(New-Object
Net.WebClient).DownloadString(u)`, `[Convert]::FromBase64String(b)`). Paths are
reported as WSL mounts them (`_windows`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import ClassVar

from tree_sitter import Node

from .._model import Span
from ._catalogue import argv_args, runs_code
from ._facts import DataSource, ReverseShell, SourceKind
from ._interpreter import Interpreter
from ._powershell_catalogue import CATALOGUE, CMDLETS, PIPED, Cmdlet, command_name, split_arguments
from ._run import Run
from ._values import HOME, UNKNOWN, Call, Entry, Value, interpolated, joined, opaque, outside_value
from ._windows import ENVIRONMENT_PATHS, windows_path

_PROGRAM = "program "
"""Begins the callee of a command the catalogue does not know (`program reg`): its arguments are the program's
argument vector."""
_RUNS_PROGRAM = argv_args(0)
_INVOKE = "&"
"""The callee of `& EXPR` whose command is not known text: what it runs is code."""

_BACKTICK_ESCAPES = {
    "n": "\n",
    "t": "\t",
    "r": "\r",
    "0": "\0",
    "a": "\a",
    "b": "\b",
    "f": "\f",
    "v": "\v",
    "e": "\x1b",
}
_SKIPPED_ELEMENTS = frozenset({"command_argument_sep", "redirection", "comment"})
_CONSTANTS = {"true": Value(text="$true", flag=True), "false": Value(text="$false", flag=False), "null": UNKNOWN}
_STRING_PIECES = frozenset({"variable", "sub_expression"})


def _decode_backticks(raw: str) -> str:
    """A double-quoted string's escapes: a backtick escapes the next character (`` `n `` is a newline)."""
    out: list[str] = []
    index = 0
    while index < len(raw):
        char = raw[index]
        if char == "`" and index + 1 < len(raw):
            following = raw[index + 1]
            out.append(_BACKTICK_ESCAPES.get(following, following))
            index += 2
            continue
        out.append(char)
        index += 1
    return "".join(out).replace('""', '"')


def _type_name(text: str) -> str:
    """`[System.Net.WebClient]`, `System.Net.WebClient`: `net.webclient`."""
    name = text.strip("[]").strip().lower()
    return name.removeprefix("system.")


def _variable_name(text: str) -> str:
    """`$Name`, `${name}`, `$script:name`: the name in lower case (`env:` is kept: it reads the environment)."""
    name = text.removeprefix("$").removeprefix("@").strip("{}").lower()
    scope, colon, rest = name.partition(":")
    return rest if colon and scope in ("script", "global", "local", "private", "using") else name


class PowerShellInterpreter(Interpreter):
    language = "powershell"
    grammars = ("powershell",)
    catalogue: ClassVar[Mapping[str, Entry]] = {**CATALOGUE, _INVOKE: runs_code(0)}
    argument_vectors: ClassVar[Mapping[str, int]] = {"args": 0}
    # None: an integer here is mostly a word a command is given (`-Value 0`, `/d 1`), so it is valued as its text.
    integer_types: ClassVar[frozenset[str]] = frozenset()

    def __init__(
        self,
        source: str,
        run: Run,
        *,
        depth: int = 0,
        via: str = "",
        place: Callable[[Span], Span] | None = None,
    ) -> None:
        super().__init__(source, run, depth=depth, via=via, place=place)
        self._programs: set[str] = set()
        """The callees of the commands that run a program (`program reg`), not a name that ends like one."""
        self._runs_unknown_code = False
        """Whether the code runs code only known at run time (with a socket: a reverse shell)."""

    def entry(self, callee: str) -> Entry | None:
        return _RUNS_PROGRAM if callee in self._programs else super().entry(callee)

    # ----- names

    def bind(self, node: Node) -> None:
        if node.type != "assignment_expression":
            return
        left = node.named_children[0] if node.named_children else None
        target = self._single(left)
        if target is None or target.type != "variable":
            return
        operator = next((child for child in node.named_children if child.type == "assignement_operator"), None)
        right = node.named_children[-1]
        if operator is not None and self.text(operator).strip() == "=":
            self.assign(_variable_name(self.text(target)), right)
        else:
            self.assign(_variable_name(self.text(target)), lambda: opaque((self.value(right),)))

    @staticmethod
    def _single(node: Node | None) -> Node | None:
        """The one expression a chain of single-child wrappers holds."""
        while node is not None and len(node.named_children) == 1 and node.type != "variable":
            node = node.named_children[0]
        return node

    # ----- values

    def evaluate(self, node: Node) -> Value:
        kind = node.type
        named = [child for child in node.named_children if child.type != "comment"]
        if kind == "variable":
            return self._variable(_variable_name(self.text(node)))
        if kind in ("verbatim_string_characters", "verbatim_here_string_characters"):
            return self._verbatim(node)
        if kind in ("expandable_string_literal", "expandable_here_string_literal", "generic_token"):
            return self._expandable(node, named)
        if kind == "type_literal":
            return self.named(Value(name=_type_name(self.text(node))))
        if kind == "member_access":
            member = next((child for child in named if child.type == "member_name"), None)
            owner = self.value(named[0]) if named else UNKNOWN
            return self.member(owner, self.text(member).lower()) if member is not None else opaque((owner,))
        if kind == "element_access" and len(named) >= 2:
            return self.subscript(self.value(named[0]), self.index(self._single(named[1])))
        if kind == "decimal_integer_literal":
            return Value(text=self.text(node))
        if kind in ("script_block_expression", "script_block", "hash_literal_expression"):
            return UNKNOWN  # their bodies are walked on their own
        if kind == "array_literal_expression" and len(named) > 1:
            items = tuple(self.value(child) for child in named)
            return Value(items=items, sources=opaque(items).sources)
        if kind in ("additive_expression", "additive_argument_expression") and len(named) == 2:
            parts = (self.value(named[0]), self.value(named[1]))
            adds = any(child.type == "+" for child in node.children)
            return joined(parts) if adds else opaque(parts)
        if kind in ("pipeline", "pipeline_chain", "statement_list", "sub_expression", "parenthesized_expression"):
            return self.value(named[-1]) if named else UNKNOWN
        if kind == "assignment_expression":
            return self.value(named[-1]) if named else UNKNOWN
        if len(named) == 1:
            return self.value(named[0])
        return super().evaluate(node)

    def _variable(self, name: str) -> Value:
        if name in _CONSTANTS:
            return _CONSTANTS[name]
        if name == "home":
            return HOME
        scope, colon, variable = name.partition(":")
        if colon and scope == "env":
            folder = ENVIRONMENT_PATHS.get(variable)
            source = DataSource(SourceKind.ENVIRONMENT, variable.upper())
            return (
                Value(text=folder, sources=frozenset({source})) if folder else outside_value(source.kind, source.detail)
            )
        return self.lookup(name)

    def _verbatim(self, node: Node) -> Value:
        raw = self.text(node)
        here = raw.startswith("@'")
        inner = raw[3:-3] if here else raw[1:-1]
        text = inner if here else inner.replace("''", "'")
        start = self.span(node).start + (3 if here else 1)
        literal = None if text != inner else Span(start, start + len(inner))
        return Value(text=text, literal=literal)

    def _expandable(self, node: Node, pieces: list[Node]) -> Value:
        raw = self.text(node)
        if node.type == "generic_token":
            opening, closing = 0, 0
        elif raw.startswith('@"'):
            opening, closing = 3, 3
        else:
            opening, closing = 1, 1
        start = self.span(node).start
        end = self.span(node).end - closing
        parts: list[Value] = []
        position = start + opening
        for piece in pieces:
            if piece.type not in _STRING_PIECES:
                continue
            span = self.span(piece)
            parts.append(Value(text=_decode_backticks(self.source[position : span.start])))
            parts.append(interpolated(self.value(piece)))
            position = span.end
        tail = self.source[position:end]
        if not parts:
            text = tail if node.type == "generic_token" else _decode_backticks(tail)
            return Value(text=text, literal=Span(position, end) if text == tail else None)
        parts.append(Value(text=_decode_backticks(tail)))
        return joined(parts)

    # ----- calls

    def make_call(self, node: Node) -> Call | None:
        if node.type == "command":
            return self._command_call(node)
        if node.type == "invokation_expression":
            named = node.named_children
            member = next((child for child in named if child.type == "member_name"), None)
            arguments = next((child for child in named if child.type == "argument_list"), None)
            if not named or member is None or named[0].type == "script_block_expression":
                return None
            return self._method_call(self.value(named[0]), self.text(member).lower(), arguments, node)
        if node.type == "argument_list" and node.parent is not None and node.parent.type == "command_elements":
            # `IEX (New-Object Net.WebClient).DownloadString(u)`: the grammar reads the method's
            # arguments as the next element of the command.
            previous = self._single(node.prev_named_sibling)
            while previous is not None and previous.type == "command_argument_sep":
                previous = self._single(previous.prev_named_sibling)
            if previous is None or previous.type != "member_access":
                return None
            owner = previous.named_children[0] if previous.named_children else None
            member = next((child for child in previous.named_children if child.type == "member_name"), None)
            if owner is None or member is None:
                return None
            return self._method_call(self.value(owner), self.text(member).lower(), node, node)
        return None

    def _method_call(self, owner: Value, method: str, arguments: Node | None, node: Node) -> Call:
        expressions = next((child for child in arguments.named_children), None) if arguments is not None else None
        values = [self.value(argument) for argument in (expressions.named_children if expressions is not None else ())]
        return Call(self.callee_of(owner, method), tuple(values), {}, owner, self.span(node))

    def _command_call(self, node: Node) -> Call | None:
        name_node: Node | None = None
        elements: list[Node] = []
        for child in node.named_children:
            if child.type in ("command_name", "command_name_expr"):
                name_node = child
            elif child.type == "command_elements":
                elements = [element for element in child.named_children if element.type not in _SKIPPED_ELEMENTS]
        if name_node is None:
            return None
        span = self.span(node)
        if name_node.type == "command_name":
            written = self.text(name_node)
        else:
            inner = name_node.named_children[0] if name_node.named_children else None
            if inner is None or inner.type == "script_block_expression":
                return None  # `& { ... }`: the block's commands are calls of their own
            named = self.value(inner)
            if named.text is None:
                return Call(_INVOKE, (named,), {}, None, span)
            written = named.text
        callee = command_name(written)
        cmdlet = CMDLETS.get(callee)
        if cmdlet is None:
            words = [Value(text=windows_path(callee)), *self._words(elements)]
            self._programs.add(_PROGRAM + callee)
            return Call(_PROGRAM + callee, tuple(words), {}, None, span)
        positional, keywords = self._bind_parameters(cmdlet, elements)
        if callee == "new-object":
            return self._new_object(positional, keywords, span)
        previous = node.prev_named_sibling
        if previous is not None and node.parent is not None and node.parent.type == "pipeline_chain":
            keywords[PIPED] = self.value(previous)  # a command or an expression (`$code | iex`)
        return Call(callee, tuple(positional), keywords, None, span)

    def _new_object(self, positional: list[Value], keywords: dict[str, Value], span: Span) -> Call | None:
        """`New-Object Net.WebClient`: `[Net.WebClient]::new()`, its arguments the -ArgumentList."""
        typename = keywords.get("typename") or (positional[0] if positional else None)
        if typename is None or typename.text is None:
            return None
        kind = Value(name=_type_name(typename.text))
        arguments = keywords.get("argumentlist") or (positional[1] if len(positional) > 1 else None)
        values = () if arguments is None else arguments.items or (arguments,)
        return Call(f"{kind.name}.new", tuple(values), {}, kind, span)

    def _arguments(self, elements: list[Node]) -> list[Node | Value]:
        """The command's parameters (their nodes) and argument values in order; `a,b` written bare is one array
        (the grammar reads `,b` as a word of its own)."""
        found: list[Node | Value] = []
        for element in elements:
            if element.type == "command_parameter":
                found.append(element)
            elif element.type == "stop_parsing":
                words = split_arguments(self.text(element).removeprefix("--%"))
                found.extend(Value(text=word) for word in words)
            elif element.type != "argument_list":  # a method's arguments: part of the element before them
                value = self._element_value(element)
                previous = found[-1] if found else None
                continues = element.type == "generic_token" and (value.text or "").startswith(",")
                if isinstance(previous, Value) and continues and value.text is not None:
                    items = (*(previous.items or (previous,)), Value(text=value.text[1:], sources=value.sources))
                    found[-1] = Value(items=items, sources=opaque(items).sources)
                    continue
                found.append(value)
        return found

    def _bind_parameters(self, cmdlet: Cmdlet, elements: list[Node]) -> tuple[list[Value], dict[str, Value]]:
        positional: list[Value] = []
        keywords: dict[str, Value] = {}
        arguments = self._arguments(elements)
        index = 0
        while index < len(arguments):
            argument = arguments[index]
            following = arguments[index + 1] if index + 1 < len(arguments) else None
            if isinstance(argument, Value):
                positional.append(argument)
                index += 1
                continue
            written = self.text(argument)
            parameter = cmdlet.parameter(written)
            if isinstance(following, Value) and (written.endswith(":") or not cmdlet.is_switch(parameter)):
                keywords[parameter] = following
                index += 2
                continue
            keywords[parameter] = _CONSTANTS["true"]
            index += 1
        return positional, keywords

    def _element_value(self, element: Node) -> Value:
        """An argument's value; a method call the grammar split from its arguments is the call's value."""
        following = element.next_named_sibling
        while following is not None and following.type == "command_argument_sep":
            following = following.next_named_sibling
        if following is not None and following.type == "argument_list" and self.call_at(following) is not None:
            return self.value(following)
        return self.value(element)

    def _words(self, elements: list[Node]) -> list[Value]:
        """The words the arguments give an external program (an array gives one per element)."""
        words: list[Value] = []
        for argument in self._arguments(elements):
            if isinstance(argument, Value):
                words.extend(argument.items if argument.items is not None else (argument,))
            else:
                words.append(Value(text=self.text(argument)))
        return words

    def unreadable(self, root: Node) -> Node | None:
        """Only text the grammar skipped (an ERROR node): a token it supplied where it wanted one (`a,b` as bare
        words in a command) leaves every character read."""
        stack = [root]
        while stack:
            node = stack.pop()
            if node.is_error:
                return node
            stack.extend(child for child in reversed(node.children) if child.has_error)
        return None

    # ----- a reverse shell: code read from a socket is run

    def _run_code(self, code: Value, via: str, span: Span) -> None:
        if code.text is None:
            self._runs_unknown_code = True
        super()._run_code(code, via, span)

    def _reverse_shells(self) -> None:
        super()._reverse_shells()
        if (
            self._sockets
            and self._runs_unknown_code
            and not any(isinstance(fact, ReverseShell) for fact in self._facts)
        ):
            socket = self._sockets[0]
            via = f"{self._via_prefix}{socket.callee} + invoke-expression"
            self._facts.append(ReverseShell(via, self.outer(socket.span)))
