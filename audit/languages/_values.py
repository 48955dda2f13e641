"""The analysers' small value domain: what an expression is known to be.

A value is known text, a known list or mapping, a reference to a named
module/function/object, or nothing known; whatever it is, it carries the
origins of the data it was built from (network, decoded blob, file...).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from .._model import Span
from ._facts import DataSource, FileOperation, ShellOutKind, SourceKind


@dataclass(frozen=True, slots=True)
class Value:
    text: str | None = None
    """The string, when every part of it is a literal."""
    items: tuple[Value, ...] | None = None
    """The elements of a list/array/tuple literal."""
    entries: tuple[tuple[str, Value], ...] | None = None
    """The string-keyed entries of a dict/object/hash literal."""
    flag: bool | None = None
    """A boolean literal."""
    name: str | None = None
    """The qualified name it refers to: `os`, `os.system`, `pathlib.Path()`
    (an object made by calling `pathlib.Path`)."""
    sources: frozenset[DataSource] = frozenset()
    literal: Span | None = None
    """Where `text` stands verbatim in the snippet."""
    number: int | None = None
    """An integer literal (a file mode, a user id)."""
    pattern: bool = False
    """`text` is a wildcard pattern, expanded to the paths it matches (Perl's `glob`, Ruby's `Dir.glob`)."""
    recursive: bool = False
    """The paths stand for every path at any depth under that directory (an `os.walk`, a `rglob`):
    deleting each one empties the tree, as `rm -r DIR/*` does."""
    each: Value | None = None
    """What each step of iterating it yields, when the value is a listing (`os.walk`, `os.listdir`)."""
    choices: tuple[Value, ...] | None = None
    """Each of these values in turn: a loop's name over a literal list of different texts
    (`for d in ['/usr', '/etc']`), and what is built from it; every one is judged."""

    def entry(self, key: str) -> Value | None:
        for entry_key, value in self.entries or ():
            if entry_key == key:
                return value
        return None

    def sliced(self, start: int, end: int | None = None) -> Value:
        """Part of a known text (`"| cmd"[1:]`), still pointing into the snippet."""
        if self.text is None:
            return self
        end = len(self.text) if end is None else end
        literal = None if self.literal is None else Span(self.literal.start + start, self.literal.start + end)
        return Value(text=self.text[start:end], sources=self.sources, literal=literal)

    def with_sources(self, sources: Iterable[DataSource]) -> Value:
        added = self.sources.union(sources)
        return self if added == self.sources else replace(self, sources=added)

    def has_source(self, *kinds: SourceKind) -> bool:
        return any(source.kind in kinds for source in self.sources)

    def truthy(self) -> bool | None:
        """Whether the value is certainly true or false; None when not known."""
        if self.flag is not None:
            return self.flag
        if self.text is not None:
            return self.text != ""
        return None


UNKNOWN = Value()


# Longer literals are no mode or user id; reading them is not worth their cost.
_LONGEST_INTEGER = 24


def integer_value(literal: str) -> Value:
    """An integer literal: decimal, prefixed (`0o755`, `0x1ed`, `0b1`) or C-style octal (`0755`,
    as Perl, Ruby, PHP and sloppy JavaScript read it); nothing known for any other number."""
    digits = literal.replace("_", "").lower()
    if len(digits) > 1 and digits[0] == "0" and digits[1].isdigit():
        digits = "0o" + digits[1:]
    if len(digits) > _LONGEST_INTEGER:
        return UNKNOWN
    try:
        return Value(number=int(digits, 0))
    except ValueError:
        return UNKNOWN


def sources_of(values: Iterable[Value | None]) -> frozenset[DataSource]:
    found: set[DataSource] = set()
    for value in values:
        if value is not None:
            found.update(value.sources)
    return frozenset(found)


def opaque(values: Iterable[Value | None]) -> Value:
    """A value not known in itself, made from these values."""
    sources = sources_of(values)
    return Value(sources=sources) if sources else UNKNOWN


def merged(values: Sequence[Value]) -> Value:
    """The value of a name bound to each of `values`: a single binding is that value;
    equal ones are that value with no single place holding it; different ones, nothing known."""
    first = values[0]
    if len(values) == 1:
        return first
    if any(_meaning(value) != _meaning(first) for value in values[1:]):
        return opaque(values)
    return Value(first.text, first.items, first.entries, first.flag, first.name, first.sources, number=first.number)


def _meaning(value: Value) -> tuple[object, ...]:
    return (value.text, value.items, value.entries, value.flag, value.name, value.sources, value.number)


def joined(parts: Iterable[Value]) -> Value:
    """String concatenation: known when every part is known text."""
    parts = tuple(parts)
    if len(parts) == 1:
        return parts[0]
    if any(part.choices for part in parts):
        return each_choice(parts, joined)
    texts = [part.text for part in parts]
    sources = sources_of(parts)
    if any(text is None for text in texts):
        return Value(sources=sources)
    return listed_in(parts, Value(text="".join(text for text in texts if text is not None), sources=sources))


def listed_in(parts: Iterable[Value], value: Value) -> Value:
    """`value`, built from `parts`, as a pattern or a walk when one of them is: `os.path.join(root,
    name)` in an `os.walk` stands for every file of the tree."""
    pattern = recursive = False
    for part in parts:
        pattern = pattern or part.pattern
        recursive = recursive or part.recursive
    return replace(value, pattern=pattern, recursive=recursive) if pattern or recursive else value


def element(value: Value) -> Value:
    """What one step of iterating `value` yields: a listing's element, each path a pattern stands
    for, the items of a list when they are all one value; else nothing known but its origins."""
    if value.each is not None:
        return value.each
    if value.pattern:
        return value
    items = value.items
    if items and len({item.text for item in items}) > 1 and all(item.text is not None for item in items):
        return Value(choices=items, sources=sources_of(items)) if len(items) <= MOST_CHOICES else opaque(items)
    if items:
        return merged(items)
    return opaque((value,))


MOST_CHOICES = 32
"""How many values a loop over a literal list, and what is built from it, is judged for at most."""


def alternatives(value: Value) -> tuple[Value, ...]:
    """Each value `value` stands for: its choices, or itself."""
    return value.choices or (value,)


def each_choice(parts: Sequence[Value], combine: Callable[[Sequence[Value]], Value]) -> Value:
    """`combine(parts)` for each choice of the parts that have several (`'rm -rf ' + d` for each `d`);
    more combinations than `MOST_CHOICES`: nothing known."""
    combinations = list(itertools.islice(itertools.product(*map(alternatives, parts)), MOST_CHOICES + 1))
    if len(combinations) > MOST_CHOICES:
        return opaque(parts)
    return Value(choices=tuple(combine(combination) for combination in combinations), sources=sources_of(parts))


def interpolated(value: Value) -> Value:
    """A value interpolated into a string (`f"{x}"`, `"$x"`): its text when that is known
    (how a list or an object renders is not)."""
    if value.text is not None and value.items is None and value.entries is None:
        return Value(text=value.text, sources=value.sources, pattern=value.pattern, recursive=value.recursive)
    if value.choices:
        return Value(choices=tuple(map(interpolated, value.choices)), sources=value.sources)
    return opaque((value,))


def outside_value(kind: SourceKind, detail: str | None, carried: frozenset[DataSource] = frozenset()) -> Value:
    """Data read from outside the code; an environment variable read by a literal name is
    spelled `$NAME`, as a shell would write it, so a path or command built from it stays judgeable."""
    text = f"${detail}" if kind is SourceKind.ENVIRONMENT and detail is not None and detail.isidentifier() else None
    return Value(text=text, sources=carried | {DataSource(kind, detail)})


HOME = outside_value(SourceKind.ENVIRONMENT, "HOME")
"""The user's home directory, whichever call returns it (`Path.home()`, `os.homedir()`,
`Dir.home`): the `$HOME` it is read from, so it is judged as `os.environ['HOME']` is."""


@dataclass(frozen=True, slots=True)
class Call:
    """One call as the analysis sees it, its arguments already evaluated."""

    callee: str
    """Qualified name of what is called; `*.method` for a method of an object the analysis cannot name."""
    args: tuple[Value, ...]
    keywords: Mapping[str, Value]
    receiver: Value | None
    span: Span
    complete: bool = True
    """False when a spread/splat hides how many arguments there are."""

    def arg(self, position: int | None, keyword: str | None = None) -> Value | None:
        """The argument at `position` or named `keyword`; None when it is surely absent."""
        if keyword is not None and keyword in self.keywords:
            return self.keywords[keyword]
        if position is not None:
            if position < len(self.args):
                return self.args[position]
            if not self.complete:
                return UNKNOWN
        return None

    def all_values(self) -> tuple[Value, ...]:
        receiver = () if self.receiver is None else (self.receiver,)
        return (*receiver, *self.args, *self.keywords.values())


@dataclass(frozen=True, slots=True)
class Command:
    """A program start: one shell string, or the argument vector (None when not known)."""

    kind: ShellOutKind
    words: tuple[Value, ...] | None

    @staticmethod
    def shell(value: Value) -> Command:
        return Command(ShellOutKind.SHELL_STRING, (value,))

    @staticmethod
    def argv(words: Iterable[Value] | None) -> Command:
        return Command(ShellOutKind.ARGV, None if words is None else tuple(words))

    def text(self) -> str | None:
        """The command line, when every word of it is known."""
        if self.words is None or any(word.text is None for word in self.words):
            return None
        return " ".join(word.text for word in self.words if word.text is not None)


@dataclass(frozen=True, slots=True)
class FileChange:
    operation: FileOperation
    path: Value
    operand: str | None = None
    """The mode, owner or destination the operation also takes, as the shell command would spell it."""
    data: Value | None = None
    """What a write writes, when the call shows it (a network read's data: the file is a download)."""


@dataclass(frozen=True, slots=True)
class Request:
    """A network request; `sends` when its method uploads data (POST, PUT...)."""

    url: Value
    data: tuple[Value, ...] = ()
    sends: bool = False


@dataclass(frozen=True, slots=True)
class Entry:
    """What the analysis knows about one callable, facet by facet."""

    command: Callable[[Call], Command | None] | None = None
    file_changes: Callable[[Call], tuple[FileChange, ...]] | None = None
    code: Callable[[Call], Value | None] | None = None
    """The value this call runs as code in the snippet's own language."""
    request: Callable[[Call], Request | None] | None = None
    socket: bool = False
    """Opens a network connection; its value carries a SOCKET source."""
    returns: Callable[[Call], Value] | None = None
    """The call's value, when the default (an object named after the callee) is not enough."""
    imports: Callable[[Call], tuple[Value | None, Value] | None] | None = None
    """Returns the module named by the second value, or that member of the first (`__import__`, `getattr`)."""
    calls_named: Callable[[Call], tuple[Value, tuple[Value, ...]] | None] | None = None
    """Calls the function named by a value, with these arguments (`call_user_func`, `send`)."""
    rebinds_stdin: Callable[[Call], Value | None] | None = None
    """Makes the value it returns the snippet's standard input (`os.dup2(fd, 0)`, Perl's
    `STDIN->fdopen($fh, "r")`, Ruby's `$stdin.reopen(io)`); None when this call does not."""
