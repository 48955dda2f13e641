"""Every way a script gives a variable a value: assignments in any form, `for`
loops, `read`/`mapfile`, `set --`, `printf -v`, declarations.

Collected once per script (flow-insensitively: order does not matter) by one
traversal of the syntax tree; `Env` resolves values and the risk answers
judge taint from them.
"""

from __future__ import annotations

import re
from enum import Enum

from .._model import Span
from .._named_tuple import NamedTuple
from .._syntax import Visitor, ast
from ..programs import Arg, Reading, read_command

DECLARATION_BUILTINS = frozenset({"export", "declare", "typeset", "local", "readonly"})


class BindingKind(Enum):
    VALUE = "value"
    ITEMS = "items"
    ARRAY = "array"
    REFERENCE = "reference"
    READ = "read"
    PRINTED = "printed"
    UNKNOWN = "unknown"


class LineField(NamedTuple):
    """Which part of one line `read NAME...` gives a name: the name's `position` among the
    `names` given (0 when none is, REPLY taking the line as it is), and whether backslashes
    are kept (`-r`)."""

    position: int
    names: int
    raw: bool


class LinesRead(NamedTuple):
    """How `mapfile`/`readarray` makes array elements of the lines of what feeds it: each line one
    element, with its line break unless `-t` drops it."""

    keep_breaks: bool


class Binding(NamedTuple):
    """One way a name gets a value.

    VALUE holds the value word, ITEMS a `for` loop's words (the name takes
    each in turn), ARRAY the elements of `name=(...)` or `set -- ...`; READ
    holds what feeds the read: the commands earlier in its pipeline and its
    own redirects. UNKNOWN may hold the words of a value it cannot follow
    (`a+=(...)`, `a[i]=...`), which still carry taint. PRINTED holds the format
    and arguments of `printf -v NAME FORMAT ARGS...`: the value is what printf would print
    with them. REFERENCE holds the
    word naming the variable a `declare -n` name reference stands for.
    `associative` marks an array declared with `-A` (its keys are strings,
    not arithmetic).
    """

    kind: BindingKind
    words: tuple[ast.Word, ...] = ()
    feeders: tuple[ast.Command, ...] = ()
    redirects: tuple[ast.Redirect, ...] = ()
    associative: bool = False
    line_field: LineField | None = None
    """READ: the part of the first line of what feeds it the name gets; None when the read's
    options make the value unknowable (another delimiter, a count, an array, a file descriptor)."""
    lines: LinesRead | None = None
    """READ by `mapfile`: how the lines of what feeds it become the array's elements; None for `read`,
    and when the options make the elements unknowable (another delimiter, a count, an origin, lines
    skipped, a file descriptor, a callback)."""
    each_line: bool = False
    """READ in a `while`/`until` loop's condition: the name takes each line of the input in turn."""


def is_name(text: str) -> bool:
    """Whether `text` is a shell variable's name (letters, digits and `_`, not starting with a digit)."""
    return bool(text) and not text[0].isdigit() and text.replace("_", "a").isalnum() and text.isascii()


def split_assignment_word(word: ast.Word) -> tuple[str, ast.Word] | None:
    """`NAME=value` as an argument word (export, declare...) -> name and value.

    The name may span several literal parts (tree-sitter splits `NAME`, `=`).
    """
    name = ""
    for position, part in enumerate(word.parts):
        if type(part) is not ast.Literal:
            return None
        before, equals, rest = part.text.partition("=")
        name += before
        if not equals:
            continue
        name = name.rstrip("+")
        if not name or not (name[0].isalpha() or name[0] == "_") or not name.replace("_", "a").isalnum():
            return None
        parts: tuple[ast.WordPart, ...] = word.parts[position + 1 :]
        if rest:
            parts = (part._replace(text=rest), *parts)
        return name, ast.Word(parts, word.span, word.source)
    return None


def declaration_flags(words: tuple[ast.Word, ...]) -> str:
    """The option letters of `declare -a -r`, `local -ag`...: every argument starting with `-`, joined."""
    return "".join(word.source[1:] for word in words if word.source.startswith("-"))


def exports(builtin: str, words: tuple[ast.Word, ...]) -> bool:
    """Whether a declaration builtin exports the names it is given: `export`, or `declare -x`."""
    return builtin == "export" or (builtin in DECLARATION_BUILTINS and "x" in declaration_flags(words))


def declared_binding(value: ast.Word, flags: str) -> Binding:
    """What `declare FLAGS NAME=value` binds NAME to: a name reference (-n), an array literal, or a value."""
    if "n" in flags:
        return Binding(BindingKind.REFERENCE, (value,))
    items = array_literal_items(value)
    if items is not None:
        return Binding(BindingKind.ARRAY, items, associative="A" in flags)
    return Binding(BindingKind.VALUE, (assigned_value(value),))


def assigned_value(word: ast.Word) -> ast.Word:
    """An assignment's value as bash expands it: neither split into fields nor globbed, so each
    expansion in it reads as if double-quoted (`c=$(echo a b)` sets `a b`, where `echo $(echo a b)`
    gets two words). This holds for `NAME=value`, before a command or alone, and for the
    assignments a declaration builtin is given (`export`, `declare`, `local`...), not for
    `env NAME=value`, whose argument bash splits like any other."""
    parts = word.parts
    if all(part.quoted for part in parts if type(part) is ast.ParamExpansion or type(part) is ast.CommandSubstitution):
        return word
    quoted: list[ast.WordPart] = []
    for part in parts:
        # Built directly: a NamedTuple's `_replace` costs several times more, on every assignment.
        if type(part) is ast.ParamExpansion and not part.quoted:
            part = ast.ParamExpansion(part.name, part.operator, part.argument, True, part.span, part.subscript)
        elif type(part) is ast.CommandSubstitution and not part.quoted:
            part = ast.CommandSubstitution(part.body, part.backquoted, True, part.span)
        quoted.append(part)
    return ast.Word(tuple(quoted), word.span, word.source)


def array_literal_items(value: ast.Word) -> tuple[ast.Word, ...] | None:
    """The elements of `(a b 'c d')` when a declaration's value is an array literal, else None.

    tree-sitter reads `declare -a c=(rm -rf /)` as one argv word whose parts are
    the elements, with the blanks between them dropped: the word's source text
    between two parts tells whether they were one element (quotes only) or two.
    """
    parts = value.parts
    if not parts:
        return None
    first, last = parts[0], parts[-1]
    if type(first) is not ast.Literal or type(last) is not ast.Literal or first.quoted or last.quoted:
        return None
    if not first.text.startswith("(") or not last.text.endswith(")"):
        return None
    start = value.span.start
    source = value.source
    # The parts keep their spans in the whole `NAME=(...)` word: the parentheses come off both.
    opening = source.find("=(") + 2
    if opening < 2:
        return None
    if value.span.end - start != len(source):
        # Code inside a code string: its spans only approximate the original, so the
        # blanks between parts cannot be found by position; the text itself is split.
        return _items_of_text(value, source[opening:-1])
    first = first._replace(text=first.text[1:], span=Span(start + opening, first.span.end))
    last = first if len(parts) == 1 else last
    last = last._replace(text=last.text[:-1], span=Span(last.span.start, last.span.end - 1))
    parts = (last,) if len(parts) == 1 else (first, *parts[1:-1], last)
    groups: list[list[ast.WordPart]] = []
    previous_end: int | None = None
    for part in parts:
        gap = source[previous_end - start : part.span.start - start] if previous_end is not None else ""
        if previous_end is None or any(char.isspace() for char in gap):
            groups.append([])
        groups[-1].append(part)
        previous_end = part.span.end
    items: list[ast.Word] = []
    for group in groups:
        kept = tuple(part for part in group if type(part) is not ast.Literal or part.text or part.quoted)
        if kept:
            span = Span(kept[0].span.start, kept[-1].span.end)
            items.append(ast.Word(kept, span, source[span.start - start : span.end - start]))
    return tuple(items)


# Compiled on first use (re's own cache), not at import: only some commands need these patterns.
# One element of an array literal as written: unquoted characters, escapes, '...' and "...".
_ELEMENT = r"""(?:[^\s'"\\]|\\.|'[^']*'|"(?:[^"\\]|\\.)*")+"""
_ELEMENTS = rf"\s*(?:{_ELEMENT}\s*)*"
# The pieces of one element: a single-quoted string, a double-quoted one, an escaped character,
# a run of unquoted characters.
_PIECE = r"""'([^']*)'|"((?:[^"\\]|\\.)*)"|\\(.)|([^\s'"\\]+)"""


def _items_of_text(value: ast.Word, inner: str) -> tuple[ast.Word, ...] | None:
    """The elements of an array literal read from its text, located at the whole word;
    None when an element holds an expansion (its value is known only at run time)."""
    if "$" in inner or "`" in inner or any(type(part) is not ast.Literal for part in value.parts):
        return None
    if re.fullmatch(_ELEMENTS, inner) is None:
        return None
    return tuple(_element_word(raw, value.span) for raw in re.findall(_ELEMENT, inner))


def _element_word(raw: str, span: Span) -> ast.Word:
    """One element as the parser would give it: a literal per quoted piece and per unquoted run,
    so `[run]='rm -rf /'` keeps its unquoted `[run]=` (the key) apart from the quoted value."""
    parts: list[ast.WordPart] = []
    for piece in re.finditer(_PIECE, raw):
        single, double, escaped, unquoted = piece.groups()
        if unquoted is not None:
            parts.append(ast.Literal(unquoted, False, span))
        elif escaped is not None:
            parts.append(ast.Literal(escaped, True, span))
        else:
            text = single if single is not None else re.sub(r'\\([$`"\\\n])', r"\1", double or "")
            parts.append(ast.Literal(text, True, span))
    return ast.Word(tuple(parts), span, raw)


def collect_bindings(script: ast.Script) -> dict[str, list[Binding]]:
    collector = _Collector()
    collector.visit_script(script, _NO_INPUT)
    bindings = collector.bindings
    # `unset OUT; rm -rf "$OUT"/*`: a name the script unsets and never assigns is empty wherever it
    # is read after the unset; read before it, it comes from the environment, which may leave it
    # unset too. A name also assigned keeps only its assigned values: flow-insensitively, the unset
    # may come after every use (`OUT=build; rm -rf "$OUT"/*; unset OUT`).
    for name, word in collector.unset.items():
        if name not in bindings:
            bindings[name] = [Binding(BindingKind.VALUE, (ast.Word((), word.span, ""),))]
    return bindings


class _Input(NamedTuple):
    """What feeds standard input where a `read` sits: earlier pipeline stages, redirects."""

    feeders: tuple[ast.Command, ...]
    redirects: tuple[ast.Redirect, ...]
    loop_condition: bool = False
    """In a `while`/`until` loop's condition: a `read` there runs once per line."""


_NO_INPUT = _Input((), ())


class _Collector(Visitor[_Input, None]):
    """Visits the whole script (substitutions included) with what feeds stdin at each point."""

    def __init__(self) -> None:
        self.bindings: dict[str, list[Binding]] = {}
        # The variables `unset` removes, each with the word that names it.
        self.unset: dict[str, ast.Word] = {}

    def combine(self, results: list[None]) -> None:
        return None

    def add(self, name: str, binding: Binding) -> None:
        if name:
            self.bindings.setdefault(name, []).append(binding)

    # Scripts, words and the parts of simple commands are the bulk of every tree:
    # they are walked here directly rather than through the generic visit.

    def visit_script(self, script: ast.Script, stdin: _Input) -> None:
        for statement in script.statements:
            self.visit(statement.command, stdin)

    def parts(self, parts: tuple[ast.WordPart, ...], stdin: _Input) -> None:
        for part in parts:
            if type(part) is not ast.Literal:  # literal text assigns nothing
                self.visit(part, stdin)

    def visit_word(self, word: ast.Word, stdin: _Input) -> None:
        self.parts(word.parts, stdin)

    def visit_pipeline(self, command: ast.Pipeline, stdin: _Input) -> None:
        stages = command.commands
        for index, stage in enumerate(stages):
            self.visit(stage, _Input(stdin.feeders + stages[:index], stdin.redirects))

    def visit_for_loop(self, command: ast.ForLoop, stdin: _Input) -> None:
        if command.items is None:
            self.add(command.variable, Binding(BindingKind.UNKNOWN))
        else:
            self.add(command.variable, Binding(BindingKind.ITEMS, command.items))
            for word in command.items:
                self.parts(word.parts, stdin)
        self.visit_script(command.body, stdin)

    def visit_while_loop(self, command: ast.WhileLoop, stdin: _Input) -> None:
        self.visit_script(command.condition, stdin._replace(loop_condition=True))
        self.visit_script(command.body, stdin._replace(loop_condition=False))

    def visit_function_definition(self, command: ast.FunctionDefinition, stdin: _Input) -> None:
        self.visit(command.body, _NO_INPUT)

    def visit_redirected(self, command: ast.Redirected, stdin: _Input) -> None:
        # `while read x; do ...; done < <(curl ...)`: the loop's input feeds its reads.
        self.visit(command.command, _Input(stdin.feeders, stdin.redirects + command.redirects))
        for redirect in command.redirects:
            self.visit(redirect, stdin)

    def visit_command_substitution(self, part: ast.CommandSubstitution, stdin: _Input) -> None:
        self.visit_script(part.body, _NO_INPUT)

    def visit_process_substitution(self, part: ast.ProcessSubstitution, stdin: _Input) -> None:
        self.visit_script(part.body, _NO_INPUT)

    def visit_param_expansion(self, part: ast.ParamExpansion, stdin: _Input) -> None:
        for word in part.argument:
            self.parts(word.parts, stdin)
        if part.subscript is not None:
            self.parts(part.subscript.parts, stdin)

    def visit_arithmetic_expansion(self, part: ast.ArithmeticExpansion, stdin: _Input) -> None:
        self.parts(part.parts, stdin)

    def visit_simple_command(self, command: ast.SimpleCommand, stdin: _Input) -> None:
        for assignment in command.assignments:
            binding = _assignment_binding(assignment)
            if binding is not None:
                self.add(assignment.name, binding)
            for word in (assignment.subscript, assignment.value, *(assignment.items or ())):
                if word is not None:
                    self.parts(word.parts, stdin)
        for word in command.words:
            self.parts(word.parts, stdin)
        for redirect in command.redirects:
            if redirect.target is not None:
                self.parts(redirect.target.parts, stdin)
            if redirect.heredoc is not None:
                self.parts(redirect.heredoc.parts, stdin)
        words = command.words
        # `\declare`, `"read"`, `se''t`: quoted or escaped, a builtin's name still names it.
        if not words or not all(type(part) is ast.Literal for part in words[0].parts):
            return
        name = "".join([part.text for part in words[0].parts if type(part) is ast.Literal])
        if name in DECLARATION_BUILTINS:
            flags = declaration_flags(words[1:])
            for word in words[1:]:
                split = split_assignment_word(word)
                if split is not None:
                    self.add(split[0], declared_binding(split[1], flags))
                elif "n" in flags and not word.source.startswith("-"):
                    # `declare -n r` alone: r's later plain assignment names its target.
                    self.add(word.source, Binding(BindingKind.REFERENCE))
        elif name == "unset":
            self._unset(words[1:])
        elif name == "set" and len(words) > 1 and words[1].source == "--":
            self.add("@", Binding(BindingKind.ARRAY, words[2:]))
        elif name in ("read", "mapfile", "readarray"):
            reading = _reading(name, words[1:])
            targets = _read_targets(name, reading)
            one_line = name == "read" and _reads_one_line(reading)
            lines = _lines_read(reading) if name != "read" else None
            redirects = stdin.redirects + command.redirects
            for position, target in enumerate(targets):
                field = LineField(position, len(reading.operands), reading.has("-r")) if one_line else None
                binding = Binding(
                    BindingKind.READ, (), stdin.feeders, redirects, line_field=field, lines=lines,
                    each_line=stdin.loop_condition,
                )  # fmt: skip
                self.add(target, binding)
        elif name == "printf":
            for index, word in enumerate(words[1:-1], start=1):
                if word.source == "-v":
                    # The value is printf's output: its arguments carry their taint.
                    self.add(words[index + 1].source, Binding(BindingKind.PRINTED, words[index + 2 :]))

    def _unset(self, words: tuple[ast.Word, ...]) -> None:
        """`unset NAME...` and `unset -v NAME...` remove variables; `-f` (functions) and `-n` (a name
        reference itself) do not empty the variable the script reads."""
        flags = declaration_flags(words)
        if flags.strip("v"):
            return
        for word in words:
            if not word.source.startswith("-") and is_name(word.source):
                self.unset.setdefault(word.source, word)


def _assignment_binding(assignment: ast.Assignment) -> Binding | None:
    if assignment.items is not None:
        written = assignment.items
    else:
        written = (assignment.value,) if assignment.value is not None else ()
    if assignment.subscript is not None or assignment.append:
        return Binding(BindingKind.UNKNOWN, written)
    if assignment.items is not None:
        return Binding(BindingKind.ARRAY, assignment.items)
    return Binding(BindingKind.VALUE, (assigned_value(assignment.value),)) if assignment.value is not None else None


def _reading(builtin: str, words: tuple[ast.Word, ...]) -> Reading:
    """`read`/`mapfile`'s command line, read from the words as written."""
    return read_command(builtin, tuple(Arg((word.source,), word.source, word.span, False, word) for word in words))


def _read_targets(builtin: str, reading: Reading) -> list[str]:
    """The variable names `read`/`mapfile` assign (REPLY/MAPFILE by default)."""
    names = [arg.source for arg in (*reading.values("-a"), *reading.operands)]
    return names or ["REPLY" if builtin == "read" else "MAPFILE"]


def _lines_read(reading: Reading) -> LinesRead | None:
    """How `mapfile` makes elements of its lines, when no option changes which lines or where they end."""
    if reading.has("-d", "-n", "-O", "-s", "-u", "-C", "-c"):
        return None
    return LinesRead(keep_breaks=not reading.has("-t"))


def _reads_one_line(reading: Reading) -> bool:
    """Whether `read` takes one line of its input into names: no option that changes where the
    line ends or where it comes from, or that makes an array."""
    return not reading.has("-d", "-n", "-N", "-a", "-u", "-t")


def keyed_item(word: ast.Word) -> tuple[str, ast.Word] | None:
    """`[KEY]=value` inside an array literal -> the key and the value word.

    The opening `[` and the closing `]=` are unquoted; the key between them may be quoted
    (`["k"]=v`: the key k). In code whose spans only approximate the original, the parser gives
    unquoted text as several literals (`[`, `3`, `]`, `=rm`): runs of them are read as one.
    """
    parts = word.parts
    if not parts or type(parts[0]) is not ast.Literal or parts[0].quoted or not parts[0].text.startswith("["):
        return None
    key: list[str] = []
    unquoted = ""  # the run of unquoted literals read so far, less what the key took
    for index, part in enumerate(parts):
        if type(part) is not ast.Literal:
            return None  # a key known only at run time
        if part.quoted:
            key.append(unquoted)
            key.append(part.text)
            unquoted = ""
            continue
        unquoted += part.text[1:] if index == 0 else part.text
        closing = unquoted.find("]=")
        if closing >= 0:
            key.append(unquoted[:closing])
            rest = unquoted[closing + 2 :]
            value_parts: tuple[ast.WordPart, ...] = parts[index + 1 :]
            if rest:
                value_parts = (part._replace(text=rest), *value_parts)
            return "".join(key), ast.Word(value_parts, word.span, word.source)
    return None
