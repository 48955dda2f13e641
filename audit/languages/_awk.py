"""awk programs: no tree-sitter wheel exists, so a small tokenizer and a
statement-level reading of the constructs that start programs or write files.

Found: `system(cmd)`, `cmd | getline`, `print ... | cmd` (and gawk's `|&`
coprocesses), `print ... > file` / `>> file`; commands are resolved from
string literals, their concatenation and variables assigned once to such an
expression. gawk's `/inet/...` special files are network sockets: a program
that opens one and runs commands it cannot resolve is a reverse shell.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from .._model import Span
from ._facts import DestructiveCall, Fact, FileOperation, ReverseShell, ShellOut, ShellOutKind, starts_interactive_shell
from ._run import Run
from ._strings import decode_escapes


class _Kind(Enum):
    STRING = "string"
    REGEX = "regex"
    NUMBER = "number"
    NAME = "name"
    FIELD = "field"
    PUNCT = "punct"
    NEWLINE = "newline"


@dataclass(frozen=True, slots=True)
class _Token:
    kind: _Kind
    text: str
    start: int
    end: int
    value: str | None = None
    """A string's decoded text (None when an escape cannot be decoded)."""


_KEYWORDS = frozenset(
    {
        "BEGIN",
        "END",
        "BEGINFILE",
        "ENDFILE",
        "function",
        "func",
        "if",
        "else",
        "while",
        "for",
        "do",
        "break",
        "continue",
        "next",
        "nextfile",
        "exit",
        "return",
        "delete",
        "getline",
        "print",
        "printf",
        "in",
    }
)
_OPERATORS = sorted(
    [
        "|&",
        "||",
        "&&",
        ">>",
        ">=",
        "<=",
        "==",
        "!=",
        "+=",
        "-=",
        "*=",
        "/=",
        "%=",
        "^=",
        "++",
        "--",
        "**",
        *"|><=!~+-*/%^?:,;(){}[]$",
    ],
    key=len,
    reverse=True,
)
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NUMBER = re.compile(r"(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
_STATEMENT_ENDS = frozenset({";", "{", "}"})
_OPERAND_KINDS = frozenset({_Kind.STRING, _Kind.NUMBER, _Kind.NAME, _Kind.FIELD})
_COMPOUND_ASSIGNMENTS = frozenset({"+=", "-=", "*=", "/=", "%=", "^="})


def _tokenize(source: str, run: Run) -> list[_Token]:
    tokens: list[_Token] = []
    position = 0
    length = len(source)
    while position < length:
        run.step()
        char = source[position]
        if char == "\n":
            tokens.append(_Token(_Kind.NEWLINE, char, position, position + 1))
            position += 1
        elif char in " \t\r":
            position += 1
        elif char == "\\" and source.startswith("\n", position + 1):
            position += 2  # a line continuation
        elif char == "#":
            end = source.find("\n", position)
            position = length if end < 0 else end
        elif char == '"':
            end = _closing(source, position, '"')
            raw = (
                source[position + 1 : end - 1]
                if end <= length and source[end - 1] == '"'
                else source[position + 1 : end]
            )
            tokens.append(
                _Token(
                    _Kind.STRING,
                    source[position:end],
                    position,
                    end,
                    decode_escapes(raw, keeps_unknown_backslash=False),
                )
            )
            position = end
        elif char == "/" and _regex_allowed(tokens):
            end = _closing(source, position, "/")
            tokens.append(_Token(_Kind.REGEX, source[position:end], position, end))
            position = end
        elif match := _NAME.match(source, position):
            tokens.append(_Token(_Kind.NAME, match.group(), position, match.end()))
            position = match.end()
        elif match := _NUMBER.match(source, position):
            tokens.append(_Token(_Kind.NUMBER, match.group(), position, match.end()))
            position = match.end()
        else:
            operator = next((op for op in _OPERATORS if source.startswith(op, position)), char)
            kind = _Kind.FIELD if operator == "$" else _Kind.PUNCT
            tokens.append(_Token(kind, operator, position, position + len(operator)))
            position += len(operator)
    return tokens


def _closing(source: str, start: int, quote: str) -> int:
    """The end of a string or regex opened at `start` (the line's end if never closed)."""
    position = start + 1
    while position < len(source):
        char = source[position]
        if char == "\\":
            position += 2
            continue
        if char == quote:
            return position + 1
        if char == "\n":
            return position
        position += 1
    return len(source)


def _regex_allowed(tokens: list[_Token]) -> bool:
    """`/` starts a regex where an operand is expected, and divides after one."""
    previous = next((token for token in reversed(tokens) if token.kind is not _Kind.NEWLINE), None)
    if previous is None:
        return True
    if previous.kind is _Kind.NAME:
        return previous.text in _KEYWORDS
    if previous.kind in (_Kind.STRING, _Kind.NUMBER, _Kind.REGEX, _Kind.FIELD):
        return False
    return previous.text not in (")", "]", "++", "--")


class AwkAnalyser:
    def __init__(self, source: str, run: Run) -> None:
        self.source = source
        self.run = run
        self._facts: list[Fact] = []
        self._tokens: list[_Token] = []
        self._bindings: dict[str, list[tuple[int, int] | None]] = {}
        self._resolving: set[str] = set()

    @property
    def found(self) -> list[Fact]:
        return self._facts

    def facts(self) -> list[Fact]:
        self._tokens = _tokenize(self.source, self.run)
        self._collect_assignments()
        sockets: list[_Token] = []
        shells: list[ShellOut] = []
        tokens = self._tokens
        for index, token in enumerate(tokens):
            self.run.step()
            if token.kind is _Kind.STRING and token.value is not None and token.value.startswith("/inet"):
                sockets.append(token)
            if token.kind is not _Kind.NAME:
                continue
            if token.text == "system" and self._next_is(index, "("):
                close = self._matching(index + 1)
                shells.extend(self._shell_out(index + 2, close, Span(token.start, tokens[close - 1].end), "system"))
            elif token.text == "getline" and index > 0 and tokens[index - 1].text in ("|", "|&"):
                start = self._operand_start(index - 1)
                span = Span(tokens[start].start, token.end)
                shells.extend(self._shell_out(start, index - 1, span, f"{tokens[index - 1].text} getline"))
            elif token.text in ("print", "printf"):
                shells.extend(self._print_redirect(index))
        self._reverse_shell(sockets, shells)
        return self._facts

    # ----- reading the token list

    def _next_is(self, index: int, text: str) -> bool:
        return index + 1 < len(self._tokens) and self._tokens[index + 1].text == text

    def _matching(self, open_index: int) -> int:
        """The index of the `)` closing the `(` at `open_index` (or the end of the statement)."""
        depth = 0
        for index in range(open_index, len(self._tokens)):
            text = self._tokens[index].text
            if text == "(":
                depth += 1
            elif text == ")":
                depth -= 1
                if depth == 0:
                    return index
            elif text in ("{", "}") and self._tokens[index].kind is _Kind.PUNCT:
                return index
        return len(self._tokens)

    def _statement_end(self, start: int) -> int:
        depth = 0
        for index in range(start, len(self._tokens)):
            token = self._tokens[index]
            if token.text in ("(", "["):
                depth += 1
            elif token.text in (")", "]"):
                if depth == 0:
                    return index
                depth -= 1
            elif depth == 0 and (token.kind is _Kind.NEWLINE or token.text in _STATEMENT_ENDS):
                return index
        return len(self._tokens)

    def _operand_start(self, end: int) -> int:
        """Where the operand ending just before `end` starts: a concatenation of
        strings, names, numbers, fields and parenthesised groups."""
        index = end - 1
        start = end
        while index >= 0:
            token = self._tokens[index]
            if token.text == ")":
                depth = 0
                while index >= 0:
                    if self._tokens[index].text == ")":
                        depth += 1
                    elif self._tokens[index].text == "(":
                        depth -= 1
                        if depth == 0:
                            break
                    index -= 1
                start = max(index, 0)
                index -= 1
                continue
            if token.kind in _OPERAND_KINDS and token.text not in _KEYWORDS:
                start = index
                if token.kind is _Kind.FIELD:
                    break
                index -= 1
                continue
            if token.kind is _Kind.FIELD:
                start = index
            break
        return start

    # ----- values

    def _collect_assignments(self) -> None:
        tokens = self._tokens
        for index, token in enumerate(tokens):
            if token.kind is not _Kind.NAME or token.text in _KEYWORDS:
                continue
            following = tokens[index + 1].text if index + 1 < len(tokens) else ""
            previous = tokens[index - 1] if index > 0 else None
            if following == "=" and (previous is None or previous.text != "$"):
                self._bindings.setdefault(token.text, []).append((index + 2, self._statement_end(index + 2)))
            elif (
                following in _COMPOUND_ASSIGNMENTS
                or following in ("++", "--", "[")
                or (previous is not None and previous.text in ("getline", "++", "--"))
            ):
                # Changed in place, read by getline, or an array: not one known value.
                self._bindings.setdefault(token.text, []).append(None)
        self._bind_function_parameters()

    def _bind_function_parameters(self) -> None:
        tokens = self._tokens
        for index, token in enumerate(tokens):
            if token.text in ("function", "func") and index + 2 < len(tokens) and tokens[index + 2].text == "(":
                close = self._matching(index + 2)
                for parameter in tokens[index + 3 : close]:
                    if parameter.kind is _Kind.NAME:
                        self._bindings.setdefault(parameter.text, []).append(None)

    def _resolve(self, start: int, end: int) -> str | None:
        """The text of the expression tokens[start:end]: strings, numbers and
        variables assigned once to such an expression, concatenated."""
        parts: list[str] = []
        tokens = [token for token in self._tokens[start:end] if token.text not in ("(", ")")]
        if not tokens:
            return None
        index = 0
        while index < len(tokens):
            token = tokens[index]
            element = self._element_read(tokens, index)
            index += 4 if element is not None else 1
            if element is not None:
                parts.append(element)
            elif token.kind is _Kind.STRING and token.value is not None:
                parts.append(token.value)
            elif token.kind is _Kind.NUMBER:
                parts.append(token.text)
            elif token.kind is _Kind.NAME and token.text not in _KEYWORDS:
                value = self._variable(token.text)
                if value is None:
                    return None
                parts.append(value)
            else:
                return None
        return "".join(parts)

    def _element_read(self, tokens: list[_Token], index: int) -> str | None:
        """`ENVIRON["HOME"]` at `index`: the variable, spelled `$HOME` as the other languages spell it;
        `ARGV[1]`: the program's argument, when the command spells it out."""
        window = tokens[index : index + 4]
        if len(window) < 4 or window[1].text != "[" or window[3].text != "]":
            return None
        array, key = window[0].text, window[2]
        if array == "ENVIRON" and key.kind is _Kind.STRING:
            return f"${key.value}" if key.value is not None and key.value.isidentifier() else None
        known = self.run.arguments
        if array == "ARGV" and key.kind is _Kind.NUMBER and key.text.isdigit() and known is not None:
            # ARGV[0] is awk's own name; the arguments after the program start at ARGV[1].
            position = int(key.text) - 1
            return known[position] if 0 <= position < len(known) else None
        return None

    def _variable(self, name: str) -> str | None:
        bindings = self._bindings.get(name, [])
        preset = self.run.variables.get(name)
        if preset is not None:
            # Set by `-v NAME=VALUE`, escapes read as in a string; assigned in the program too, it has two values.
            return None if bindings else decode_escapes(preset, keeps_unknown_backslash=False)
        if len(bindings) != 1 or bindings[0] is None or name in self._resolving:
            return None
        self._resolving.add(name)
        try:
            return self._resolve(*bindings[0])
        finally:
            self._resolving.discard(name)

    # ----- facts

    def _shell_out(self, start: int, end: int, span: Span, via: str) -> list[ShellOut]:
        command = self._resolve(start, end)
        if command is not None and command.startswith("/inet"):
            return []  # gawk's network special file: socket I/O, not a program
        expression = [token for token in self._tokens[start:end] if token.text not in ("(", ")")]
        command_span = None
        if len(expression) == 1 and expression[0].kind is _Kind.STRING and expression[0].value is not None:
            only = expression[0]
            if only.value == self.source[only.start + 1 : only.end - 1]:
                command_span = Span(only.start + 1, only.end - 1)
        fact = ShellOut(ShellOutKind.SHELL_STRING, command, via, span, command_span)
        self._facts.append(fact)
        return [fact]

    def _print_redirect(self, index: int) -> list[ShellOut]:
        """print ... | "cmd", print ... > "file", print ... >> "file"."""
        end = self._statement_end(index + 1)
        depth = 0
        for position in range(index + 1, end):
            token = self._tokens[position]
            if token.text == "(":
                depth += 1
            elif token.text == ")":
                depth -= 1
            elif depth == 0 and token.kind is _Kind.PUNCT and token.text in ("|", "|&", ">", ">>"):
                target_end = self._statement_end(position + 1)
                span = Span(
                    self._tokens[index].start,
                    self._tokens[target_end - 1].end if target_end > position + 1 else token.end,
                )
                if token.text in ("|", "|&"):
                    return self._shell_out(position + 1, target_end, span, f"print {token.text}")
                operation = FileOperation.APPEND_FILE if token.text == ">>" else FileOperation.WRITE_FILE
                self._facts.append(
                    DestructiveCall(operation, self._resolve(position + 1, target_end), f"print {token.text}", span)
                )
                return []
        return []

    def _reverse_shell(self, sockets: list[_Token], shells: list[ShellOut]) -> None:
        if not sockets:
            return
        for shell in shells:
            if shell.command is None or starts_interactive_shell(shell):
                socket = sockets[0]
                span = Span(min(socket.start, shell.span.start), max(socket.end, shell.span.end))
                self._facts.append(ReverseShell(f"/inet socket + {shell.via}", span))
                return
