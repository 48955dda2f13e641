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
from ..programs.temporary import SYSTEM_TEMPORARY_DIRECTORY, temporary_name
from ._bindings import Binding, BindingKind, collect_bindings, is_name, keyed_item
from ._computed_values import computed_elements, computed_value
from ._fields import DEFAULT_IFS
from ._normalize import (
    HOME,
    MAX_CANDIDATES,
    is_glob_word,
    normalize_word,
    normalize_words,
    parameter_values,
)
from ._static_output import filtered_output, pipeline_output, static_output
from ._subjects import Arg

_ALL_POSITIONAL = frozenset({"@", "*", "#"})
STDIN_PATHS = frozenset({"/dev/stdin", "/dev/fd/0", "/proc/self/fd/0", "-"})
"""Paths that name standard input (as a script operand or a file read back)."""
TOP_LEVEL_SHELL = "bash"
"""$0 of the command line: the shell the agent's command runs in."""


# What a variable the command string never sets holds in the shell that runs it: bash sets
# IFS to its default at start-up whatever the environment says, and HOME is the home. The XDG
# base directories are what the specification makes them when unset, and what they are in
# practice where set (`rm -rf "$XDG_CONFIG_HOME"` deletes ~/.config).
_SHELL_DEFAULTS = {
    "HOME": (HOME,),
    "IFS": (DEFAULT_IFS,),
    "XDG_CONFIG_HOME": (HOME + "/.config",),
    "XDG_DATA_HOME": (HOME + "/.local/share",),
    "XDG_STATE_HOME": (HOME + "/.local/state",),
    "XDG_CACHE_HOME": (HOME + "/.cache",),
}


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
        function: str | None = None,
    ) -> None:
        self._script = script
        # The audit's budget: what expansions make is charged to it.
        self.budget = budget
        self.parent = parent
        # `sh -c CODE a0 a1`: $0 is a0, $1 is a1, "$@" is a1...; None outside such code.
        self.positional = positional
        # A function body walked at its definition: $1... are whatever a caller passes.
        self.arguments_unknown = arguments_unknown
        # The function whose body this is: what $FUNCNAME names inside it.
        self.function = function
        self._bindings: dict[str, list[Binding]] | None = None
        self._candidates: dict[str, tuple[str, ...] | None] = {}
        self._entries: dict[str, tuple[tuple[str, str], ...] | None] = {}
        self._in_progress: set[str] = set()

    def child(self, script: ast.Script, positional: tuple[Arg, ...] | None = None) -> Env:
        return Env(script, self.budget, self, positional)

    def function_body(self, name: str, body: ast.Command) -> Env:
        """The variables a function body sees at its definition: its own and these, with unknown arguments."""
        return Env(_as_script(body), self.budget, self, arguments_unknown=True, function=name)

    def function_call(self, name: str, body: ast.Command, arguments: tuple[Arg, ...]) -> Env:
        """The variables a function body sees when called: its own and these, with `arguments` as $1, $2...
        (`arguments[0]` stands for $0, which inside a function is still the shell's)."""
        return Env(_as_script(body), self.budget, self, arguments, function=name)

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
        if name == "FUNCNAME":
            return self._running_function()
        if name in self._candidates:
            return self._candidates[name]
        bindings = self.bindings.get(name)
        if bindings is None:
            if self.parent is not None:
                return self.parent.candidates(name)
            return _SHELL_DEFAULTS.get(name)
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
            if self.function is not None and self.parent is not None:
                return self.parent.candidates(name)
            if self.positional is not None:
                value = self.positional[0].value if self.positional else None
                return None if value is None else (value,)
            # The command line itself runs in bash, started as `bash`.
            return self.parent.candidates(name) if self.parent is not None else (TOP_LEVEL_SHELL,)
        elements = self.elements("@")
        if elements is None:
            return None
        if name == "#":
            return (str(len(elements)),)
        if name in ("@", "*"):
            return (" ".join(elements),)
        index = int(name) - 1
        return (elements[index] if index < len(elements) else "",)

    def _running_function(self) -> tuple[str, ...] | None:
        """$FUNCNAME (bash ignores assignments to it): the innermost function whose body this is;
        unknown at the top level and in a new shell (`sh -c CODE`), where no function runs."""
        if self.function is not None:
            return (self.function,)
        if self.positional is not None or self.parent is None:
            return None
        return self.parent._running_function()

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
        entries = self.entries(name)
        return None if entries is None else tuple(value for _, value in entries)

    def entries(self, name: str) -> tuple[tuple[str, str], ...] | None:
        """The keys and literal values of array `name` in written order (indexed keys as
        decimal numbers), or None when any is known only at run time."""
        bindings = self.bindings.get(name)
        if bindings is None:
            return self.parent.entries(name) if self.parent is not None else None
        if name in self._entries:
            return self._entries[name]
        if name != "@" and all(binding.kind is BindingKind.VALUE for binding in bindings):
            # A scalar with one literal value is an array of one element, as in bash.
            scalar = self.candidates(name)
            entries = (("0", scalar[0]),) if scalar is not None and len(scalar) == 1 else None
        elif name in self._in_progress:
            return None
        else:
            self._in_progress.add(name)
            try:
                entries = self._binding_entries(bindings)
            finally:
                self._in_progress.discard(name)
        self._entries[name] = entries
        return entries

    def _binding_entries(self, bindings: list[Binding]) -> tuple[tuple[str, str], ...] | None:
        targets = self.reference_targets(bindings)
        if targets:
            return self.entries(targets[0]) if len(targets) == 1 else None
        if len(bindings) != 1 or targets is None:
            return None
        binding = bindings[0]
        if binding.kind is BindingKind.READ:
            elements = computed_elements(binding, self)
            return None if elements is None else tuple((str(index), line) for index, line in enumerate(elements))
        return self._array_entries(binding) if binding.kind is BindingKind.ARRAY else None

    def _array_entries(self, binding: Binding) -> tuple[tuple[str, str], ...] | None:
        entries: dict[str, str] = {}
        next_index = 0
        for word in binding.words:
            keyed = keyed_item(word)
            key = str(next_index)
            if keyed is not None:
                key, word = keyed
                if not binding.associative:
                    if not key.isdigit():
                        return None  # an arithmetic key: known only at run time
                    next_index = int(key)
            elif binding.associative:
                return None
            fields = normalize_word(word, self)
            values = _all_known(field.value for field in fields)
            if values is None or any(field.pattern for field in fields):
                return None
            if keyed is not None and len(values) == 1:
                entries[key] = values[0]
                next_index += 1
                continue
            if keyed is not None:
                return None
            for value in values:
                entries[str(next_index)] = value
                next_index += 1
        return tuple(entries.items())

    def element(self, name: str, key: str) -> str | None:
        """`${name[KEY]}` with KEY as written: a string key of an associative array, a
        number (negative: from the end) of an indexed one; None when unknown."""
        entries = self.entries(name)
        if entries is None:
            return None
        if self.associative(name):
            return dict(entries).get(key, "")
        if not key.lstrip("-").isdigit() or not all(each.isdigit() for each, _ in entries):
            return None
        index = int(key)
        if index < 0:
            # bash counts a negative index back from one past the highest index.
            index += max((int(each) for each, _ in entries), default=-1) + 1
        return dict(entries).get(str(index), "")

    def slice(self, name: str, offset: int, length: int | None) -> tuple[str, ...] | None:
        """`${name[@]:OFFSET:LENGTH}`: the elements whose index is OFFSET or more (a negative
        OFFSET counts back from one past the highest index), at most LENGTH of them."""
        entries = self.entries(name)
        if entries is None or self.associative(name) or (length is not None and length < 0):
            return None
        indexed = [(int(key), value) for key, value in entries]
        if offset < 0:
            offset += max((index for index, _ in indexed), default=-1) + 1
        selected = [value for index, value in indexed if index >= offset]
        return tuple(selected if length is None else selected[:length])

    def associative(self, name: str) -> bool:
        bindings = self.bindings.get(name)
        if bindings is None:
            return self.parent.associative(name) if self.parent is not None else False
        targets = self.reference_targets(bindings)
        if targets:
            return len(targets) == 1 and self.associative(targets[0])
        return any(binding.associative for binding in bindings)

    def reference_targets(self, bindings: list[Binding]) -> tuple[str, ...] | None:
        """The variables a `declare -n` name reference stands for (() when the name is no reference,
        None when unknown). `declare -n r` without a value makes r's plain assignments name the target."""
        if not any(binding.kind is BindingKind.REFERENCE for binding in bindings):
            return ()
        targets: list[str] = []
        for binding in bindings:
            if binding.kind not in (BindingKind.REFERENCE, BindingKind.VALUE):
                return None
            fields = normalize_words(binding.words, self)
            if any(field.value is None or not is_name(field.value) for field in fields):
                return None
            targets.extend(field.value for field in fields if field.value is not None)
        return tuple(dict.fromkeys(targets))

    def indirect_targets(self, name: str) -> tuple[str, ...] | None:
        """The variables `${!name}` reads: `name`'s values, when all are known names."""
        targets = self.candidates(name)
        return targets if targets is not None and all(is_name(target) for target in targets) else None

    def indirect(self, name: str) -> tuple[str, ...] | None:
        """`${!name}`: the values of the variables `name`'s values name."""
        targets = self.indirect_targets(name)
        if targets is None:
            return None
        values: list[str] = []
        for target in targets:
            found = self.candidates(target)
            if found is None:
                return None
            values.extend(found)
        unique = tuple(dict.fromkeys(values))
        return unique if len(unique) <= MAX_CANDIDATES else None

    def _resolve(self, bindings: list[Binding]) -> tuple[str, ...] | None:
        values: list[str] = []
        targets = self.reference_targets(bindings)
        if targets is None:
            return None
        if targets:
            for target in targets:
                found = self.candidates(target)
                if found is None:
                    return None
                values.extend(found)
            bindings = []
        for binding in bindings:
            if binding.kind is BindingKind.ARRAY:
                # `$a` of an array is its first element (element 0: unknown here when keys are written).
                if any(keyed_item(word) is not None for word in binding.words):
                    return None
                fields = normalize_words(binding.words, self)
                if any(field.is_dynamic for field in fields):
                    return None
                values.extend(fields[0].values if fields else ("",))
                continue
            if binding.kind is BindingKind.READ or binding.kind is BindingKind.PRINTED:
                computed = computed_value(binding, self)
                if computed is None:
                    return None
                values.append(computed)
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

    def globbed(self, name: str) -> bool:
        bindings = self.bindings.get(name)
        if bindings is None:
            return self.parent is not None and self.parent.globbed(name)
        return any(
            binding.kind is BindingKind.ITEMS and any(is_glob_word(word) for word in binding.words)
            for binding in bindings
        )

    def substitution_output(self, body: ast.Script) -> str | None:
        """`$(echo WORDS)` / `$(printf FORMAT ARGS)` with literal words: the output."""
        statements = body.statements
        if len(statements) != 1 or statements[0].background:
            return None
        output = self.command_output(statements[0].command)
        # A command substitution drops the trailing newlines of the output.
        return None if output is None else output.rstrip("\n")

    def command_output(self, command: ast.Command) -> str | None:
        """What `echo WORDS` / `printf FORMAT ARGS` with literal words prints (or a group or subshell of
        only such commands, `{ echo ls; echo pwd; }`); None for anything else."""
        if isinstance(command, ast.Group | ast.Subshell):
            outputs = [
                None if statement.background else self.command_output(statement.command)
                for statement in command.body.statements
            ]
            return None if not outputs or None in outputs else "".join(output or "" for output in outputs)
        if isinstance(command, ast.AndOrList | ast.Pipeline):
            return pipeline_output(command, self.command_output, self.literal_argv)
        if not isinstance(command, ast.SimpleCommand) or command.assignments:
            return None
        argv = self.literal_argv(command.words)
        if argv is None:
            return None
        if len(command.redirects) == 1:
            # `cat <<'EOF' ... EOF`, `tr a-z n-za-m <<< 'text'`: the document, read back or filtered.
            text = self.document_text(command.redirects[0])
            return text if text is None or argv == ["cat"] else filtered_output(argv, text)
        if command.redirects:
            return None
        if argv[0].rsplit("/", 1)[-1] == "mktemp":
            name = temporary_name(tuple(normalize_words(command.words[1:], self)), self._temporary_directory())
            return None if name is None else name + "\n"
        return static_output(argv)

    def _temporary_directory(self) -> str | None:
        """$TMPDIR as mktemp reads it: the script's value, else the system's temporary directory."""
        if not self.defines("TMPDIR"):
            return SYSTEM_TEMPORARY_DIRECTORY
        values = self.candidates("TMPDIR")
        return values[0] if values is not None and len(values) == 1 else None

    def literal_argv(self, words: Iterable[ast.Word]) -> list[str] | None:
        """argv when every word has one known value and is no pattern; None otherwise."""
        argv: list[str] = []
        for word in words:
            fields = normalize_word(word, self)
            values = _all_known(field.value for field in fields)
            if values is None or any(field.pattern for field in fields):
                return None
            argv.extend(values)
        return argv

    def document_text(self, redirect: ast.Redirect) -> str | None:
        """The text a heredoc or here-string redirect feeds, when it is known without running anything."""
        if redirect.heredoc is not None:
            return self.literal_text(redirect.heredoc.parts)
        if redirect.operator == "<<<" and redirect.target is not None:
            text = self.literal_text(redirect.target.parts)
            return None if text is None else text + "\n"
        return None

    def literal_text(self, parts: Iterable[ast.WordPart]) -> str | None:
        """Literal text and variables with one known value, joined; None when any part is known only at run time."""
        pieces: list[str] = []
        for part in parts:
            if type(part) is ast.Literal:
                pieces.append(part.text)
                continue
            values = parameter_values(part, self) if type(part) is ast.ParamExpansion else None
            if values is None or len(values) != 1:
                return None
            pieces.append(values[0])
        return "".join(pieces)

    def read_back(self, body: ast.Script) -> str | None:
        """The file a substitution reads back verbatim: `$(cat FILE)`, `$(< FILE)`; `-` for standard
        input (`$(cat)`, `$(cat -)`, `$(< /dev/stdin)`); None for any other code."""
        statements = body.statements
        if len(statements) != 1 or statements[0].background:
            return None
        command = statements[0].command
        if not isinstance(command, ast.SimpleCommand) or command.assignments:
            return None
        argv = self.literal_argv(command.words)
        if argv is None or argv[:1] not in ([], ["cat"]) or len(argv) > 2:
            return None
        redirects = command.redirects
        if redirects:
            if len(argv) > 1 or len(redirects) != 1 or redirects[0].operator != "<" or redirects[0].target is None:
                return None
            argv = ["cat", *(self.literal_argv((redirects[0].target,)) or ["?"])]
        if len(argv) == 1:
            return "-"
        path = argv[1]
        if path.startswith("-") and path != "-":
            return None
        return "-" if path in STDIN_PATHS else path


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
