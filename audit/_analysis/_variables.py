"""Variables inside one command string: their literal values.

Flow-insensitive on purpose: every assignment anywhere in the script counts,
whatever its order. A name with one literal value resolves to it; with
several literal values it stands for all of them; with any run-time value it
is unknown. This errs toward more findings, never fewer. Whether a variable
holds risky data (taint) is a risk question: see `_risks.py`.
"""

from __future__ import annotations

from collections.abc import Iterable

from .._budget import Budget
from .._syntax import ast
from ._bindings import Binding, BindingKind, collect_bindings
from ._normalize import DEFAULT_IFS, HOME, MAX_CANDIDATES, normalize_word, normalize_words
from ._static_output import static_output
from ._subjects import Arg

_ALL_POSITIONAL = frozenset({"@", "*", "#"})


class Env:
    """The variables of one script, layered over the enclosing script's."""

    def __init__(
        self,
        script: ast.Script | None,
        budget: Budget,
        parent: Env | None = None,
        positional: tuple[Arg, ...] | None = None,
        *,
        arguments_unknown: bool = False,
    ) -> None:
        self._script = script
        # The audit's budget: what expansions make is charged to it.
        self.budget = budget
        self.parent = parent
        # `sh -c CODE a0 a1`: $0 is a0, $1 is a1, "$@" is a1...; None outside such code.
        self.positional = positional
        # A function body walked at its definition: $1... are whatever a caller passes.
        self.arguments_unknown = arguments_unknown
        self._bindings: dict[str, list[Binding]] | None = None
        self._candidates: dict[str, tuple[str, ...] | None] = {}
        self._elements: dict[str, tuple[str, ...] | None] = {}
        self._in_progress: set[str] = set()

    def child(self, script: ast.Script, positional: tuple[Arg, ...] | None = None) -> Env:
        return Env(script, self.budget, self, positional)

    def function_body(self, body: ast.Command) -> Env:
        """The variables a function body sees at its definition: its own and these, with unknown arguments."""
        return Env(_as_script(body), self.budget, self, arguments_unknown=True)

    def function_call(self, body: ast.Command, arguments: tuple[Arg, ...]) -> Env:
        """The variables a function body sees when called: its own and these, with `arguments` as $0, $1..."""
        return Env(_as_script(body), self.budget, self, arguments)

    def charge(self, steps: int) -> None:
        self.budget.charge(steps, "expanding words")

    @property
    def bindings(self) -> dict[str, list[Binding]]:
        if self._bindings is None:
            self._bindings = collect_bindings(self._script) if self._script is not None else {}
        return self._bindings

    def candidates(self, name: str) -> tuple[str, ...] | None:
        if name.isdigit() or name in _ALL_POSITIONAL:
            return self._positional_candidates(name)
        if name in self._candidates:
            return self._candidates[name]
        bindings = self.bindings.get(name)
        if bindings is None:
            if self.parent is not None:
                return self.parent.candidates(name)
            return (HOME,) if name == "HOME" else None
        if name in self._in_progress:
            return None
        self._in_progress.add(name)
        try:
            result = self._resolve(bindings)
        finally:
            self._in_progress.discard(name)
        self._candidates[name] = result
        return result

    def defines(self, name: str) -> bool:
        """Whether this command string assigns `name` (here or in an enclosing script)."""
        if name in self.bindings:
            return True
        return self.parent.defines(name) if self.parent is not None else False

    def _positional_candidates(self, name: str) -> tuple[str, ...] | None:
        """$0, $1..., "$@", "$*" and $#: from `sh -c CODE a0 a1...` or `set -- ...`."""
        if name == "0":
            if self.positional is not None:
                value = self.positional[0].value if self.positional else None
                return None if value is None else (value,)
            return self.parent.candidates(name) if self.parent is not None else None
        elements = self.elements("@")
        if elements is None:
            return None
        if name == "#":
            return (str(len(elements)),)
        if name in ("@", "*"):
            return (" ".join(elements),)
        index = int(name) - 1
        return (elements[index] if index < len(elements) else "",)

    def elements(self, name: str) -> tuple[str, ...] | None:
        """The elements of array `name` ("@" or "*": the positional parameters), when all are literal.

        A scalar with one literal value is an array of one element, as in bash.
        """
        if name == "*":
            name = "@"
        if name == "@" and self.arguments_unknown and "@" not in self.bindings:
            return None
        if name == "@" and self.positional is not None and self.given_positional():
            return _all_known(arg.value for arg in self.positional[1:])
        bindings = self.bindings.get(name)
        if bindings is None:
            return self.parent.elements(name) if self.parent is not None else None
        if name in self._elements:
            return self._elements[name]
        if all(binding.kind is BindingKind.VALUE for binding in bindings) and name != "@":
            scalar = self.candidates(name)
            result = scalar if scalar is not None and len(scalar) == 1 else None
        elif len(bindings) == 1 and bindings[0].kind is BindingKind.ARRAY and name not in self._in_progress:
            self._in_progress.add(name)
            try:
                fields = normalize_words(bindings[0].words, self)
            finally:
                self._in_progress.discard(name)
            literal = not any(field.pattern for field in fields)
            result = _all_known(field.value for field in fields) if literal else None
        else:
            result = None
        self._elements[name] = result
        return result

    def _resolve(self, bindings: list[Binding]) -> tuple[str, ...] | None:
        values: list[str] = []
        for binding in bindings:
            if binding.kind is BindingKind.ARRAY:
                # `$a` of an array is its first element.
                fields = normalize_words(binding.words, self)
                if any(field.is_dynamic for field in fields):
                    return None
                values.extend(fields[0].values if fields else ("",))
                continue
            if binding.kind not in (BindingKind.VALUE, BindingKind.ITEMS):
                return None
            for word in binding.words:
                fields = normalize_word(word, self, MAX_CANDIDATES)
                if binding.kind is BindingKind.VALUE and len(fields) != 1:
                    return None
                for field in fields:
                    if field.is_dynamic:
                        return None
                    values.extend(field.values)
        unique = tuple(dict.fromkeys(values))
        return unique if 0 < len(unique) <= MAX_CANDIDATES else None

    def given_positional(self) -> bool:
        """Whether $1... come from the arguments this code was run with, not
        from a `set --` inside it (which replaces them; flow-insensitively it wins)."""
        return self.positional is not None and "@" not in self.bindings

    def field_separators(self) -> str | None:
        if "IFS" not in self.bindings and self.parent is not None:
            return self.parent.field_separators()
        if "IFS" not in self.bindings:
            return DEFAULT_IFS
        values = self.candidates("IFS")
        return values[0] if values is not None and len(values) == 1 else None

    def substitution_output(self, body: ast.Script) -> str | None:
        """`$(echo WORDS)` / `$(printf FORMAT ARGS)` with literal words: the output."""
        statements = body.statements
        if len(statements) != 1 or statements[0].background:
            return None
        output = self.command_output(statements[0].command)
        # A command substitution drops the trailing newlines of the output.
        return None if output is None else output.rstrip("\n")

    def command_output(self, command: ast.Command) -> str | None:
        """What `echo WORDS` / `printf FORMAT ARGS` with literal words prints; None for anything else."""
        if not isinstance(command, ast.SimpleCommand) or command.redirects or command.assignments:
            return None
        argv: list[str] = []
        for word in command.words:
            fields = normalize_word(word, self)
            values = _all_known(field.value for field in fields)
            if values is None or any(field.pattern for field in fields):
                return None
            argv.extend(values)
        return static_output(argv)


def _all_known(values: Iterable[str | None]) -> tuple[str, ...] | None:
    """The values when every one is known; None when any is only known at run time."""
    known: list[str] = []
    for value in values:
        if value is None:
            return None
        known.append(value)
    return tuple(known)


def _as_script(command: ast.Command) -> ast.Script:
    return ast.Script((ast.Statement(command, False, command.span),), command.span)
