"""Options as data, and the one lexer that reads argv words against them.

A program declares its options (`Option`: spellings and how each takes a
value) and its option syntax (`Syntax`: clusters, `--long=value`, unique
prefixes of long options, options after operands...). `lex` reads one word
(and the value word it may take) into option uses; `read` in `_program`
builds a whole reading from it, and the wrapper and interpreter readers in
the analysis call it word by word.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum
from typing import Final

from .._caches import COMMAND_NAMES, Memo
from .._model import Span
from .._named_tuple import NamedTuple
from .._syntax import ast
from ..errors import ProgramError
from ._arg import Arg


class Takes(Enum):
    """How an option takes its value."""

    NOTHING = "nothing"
    """A flag: `-f`, `--force`."""
    VALUE = "value"
    """The rest of its word, else the next word: `-o F`, `-oF`, `--out F`, `--out=F`."""
    ATTACHED = "attached"
    """Only the rest of its word (GNU optional arguments): `-i.bak`, `--color=auto`, `perl -Mstrict`."""
    DIGITS = "digits"
    """Only the digits right after it; what follows is more options (`perl -l0e`). Its value is
    the number alone, not located in the command."""


class Option:
    """One option of a program, with all its spellings (`-r`, `-R`, `--recursive`).

    Told apart by identity. A plain class: a dataclass costs about a millisecond to create at import.
    """

    __slots__ = ("spellings", "takes")

    def __init__(self, spellings: tuple[str, ...], takes: Takes = Takes.NOTHING) -> None:
        self.spellings: Final = spellings
        self.takes: Final = takes

    def __repr__(self) -> str:
        return f"Option(spellings={self.spellings!r}, takes={self.takes!r})"

    @property
    def name(self) -> str:
        """The canonical name: the first long spelling, else the first."""
        return next((spelling for spelling in self.spellings if spelling.startswith("--")), self.spellings[0])


def flag(*spellings: str) -> Option:
    return Option(spellings, Takes.NOTHING)


def valued(*spellings: str) -> Option:
    return Option(spellings, Takes.VALUE)


def attached(*spellings: str) -> Option:
    return Option(spellings, Takes.ATTACHED)


def digits(*spellings: str) -> Option:
    return Option(spellings, Takes.DIGITS)


class Syntax(NamedTuple):
    """How a program reads its options (getopt and its relatives differ)."""

    clusters: bool = True
    """`-rf` is `-r -f`; without clusters a single-dash word is one option (Go's flag package: `-chdir=d`)."""
    permute: bool = True
    """Options may follow operands (GNU getopt); without it the first operand ends the options."""
    abbreviations: bool = False
    """A unique prefix of a long option names it (`--recu` is `--recursive`), as GNU getopt_long accepts."""
    signs: str = "-"
    """The characters that start an option cluster (`-+` for shells and perl: `+o`, `+x`)."""
    numbers: bool = False
    """`-10` is one option (`nice -10`, `head -5`), not a cluster of digits."""


GNU = Syntax(abbreviations=True)
"""GNU getopt_long: clusters, `--long[=value]`, unique prefixes, options anywhere before `--`."""
POSIX = Syntax(permute=False)
"""POSIX getopt: clusters, and the first operand ends the options."""
GO_FLAGS = Syntax(clusters=False)
"""Go's flag package and its kin (`terraform -chdir=d`): one option per word, one or two dashes."""


class Grammar:
    """The options of one program (or subcommand) by spelling, for the lexer."""

    __slots__ = ("by_spelling", "longs", "options", "shapes", "syntax")

    def __init__(self, options: Iterable[Option], syntax: Syntax, *, where: str = "") -> None:
        self.options = tuple(options)
        self.syntax = syntax
        by_spelling: dict[str, Option] = {}
        for option in self.options:
            for spelling in option.spellings:
                if not spelling or spelling[0] not in "-+" or spelling in ("-", "--"):
                    raise ProgramError(f"{where}: option spelling {spelling!r} must start with - or +")
                if spelling in by_spelling and by_spelling[spelling] is not option:
                    raise ProgramError(f"{where}: option {spelling!r} declared twice")
                by_spelling[spelling] = option
        self.by_spelling = by_spelling
        self.longs = tuple(spelling for spelling in by_spelling if spelling.startswith("--"))
        # How each option word reads (`-rf`, `--force`): the same text always reads the same way.
        self.shapes: Memo[str, _Shape] = Memo(COMMAND_NAMES)

    def extended(self, options: Iterable[Option], *, where: str = "") -> Grammar:
        """These options and `options` (a subcommand that also reads its program's global options)."""
        return Grammar((*self.options, *options), self.syntax, where=where)

    def long_option(self, name: str) -> tuple[Option, str] | None:
        """The option a long name (`--force`, or a unique prefix of one) names, with its full spelling."""
        option = self.by_spelling.get(name)
        if option is not None:
            return option, name
        if not self.syntax.abbreviations:
            return None
        matches = {self.by_spelling[spelling]: spelling for spelling in self.longs if spelling.startswith(name)}
        # GNU getopt_long accepts a prefix shared by several spellings of one option.
        return next(iter(matches.items())) if len(matches) == 1 else None


class OptionUse(NamedTuple):
    """One option as written in argv."""

    option: Option
    spelling: str
    """The declared spelling it matched (`--recursive` for `--recu`), or the text written when undeclared."""
    value: Arg | None
    declared: bool = True

    def named(self, *spellings: str) -> bool:
        """Whether this is the option with any of these spellings."""
        declared = self.option.spellings
        for spelling in spellings:  # noqa: SIM110 - a loop: any() over a generator costs more than the test here
            if spelling in declared:
                return True
        return False


class WordKind(Enum):
    OPTIONS = "options"
    OPERAND = "operand"
    END_OF_OPTIONS = "end-of-options"


class Lexed(NamedTuple):
    """What the word at an index of argv is: options (with their values), an operand, or `--`."""

    kind: WordKind
    uses: tuple[OptionUse, ...]
    next_index: int
    """The index of the first word after it and the value word it took."""


class _Taker(NamedTuple):
    """The option of a word that takes a value (the last one in a cluster)."""

    option: Option
    spelling: str
    takes: Takes
    attached_at: int | None
    """Where its value starts in the word (`-oFILE`, `--out=FILE`); None: the next word, if it takes one."""
    declared: bool


class _Shape(NamedTuple):
    """How an option word reads, whatever its position: the flags it holds, and the option that takes a value."""

    flags: tuple[OptionUse, ...]
    taker: _Taker | None


# Undeclared options are flags; one Option object per spelling serves every use.
_UNDECLARED: Memo[str, Option] = Memo(COMMAND_NAMES)


def _undeclared(spelling: str) -> Option:
    option = _UNDECLARED.get(spelling)
    return option if option is not None else _UNDECLARED.remember(spelling, Option((spelling,)))


def _flag(spelling: str) -> OptionUse:
    return OptionUse(_undeclared(spelling), spelling, None, False)


def lex(grammar: Grammar, args: tuple[Arg, ...], index: int) -> Lexed:
    """Read the word at `index`: a declared spelling is tried on the whole word
    first (`-Command`, `-name`), then `--long[=value]`, then a cluster."""
    arg = args[index]
    values = arg.values
    value = values[0] if len(values) == 1 else None
    if value is None and not values:
        attached = long_option_with_run_time_value(grammar, arg)
        if attached is not None:
            return Lexed(WordKind.OPTIONS, (attached,), index + 1)
    if value is None or len(value) < 2 or value[0] not in grammar.syntax.signs:
        return Lexed(WordKind.OPERAND, (), index + 1)
    if value == "--":
        return Lexed(WordKind.END_OF_OPTIONS, (), index + 1)
    uses, next_index = read_options(grammar, args, index, value)
    return Lexed(WordKind.OPTIONS, uses, next_index)


def long_option_with_run_time_value(grammar: Grammar, arg: Arg) -> OptionUse | None:
    """`--header="Authorization: $TOKEN"`: a declared long option whose attached value is known
    only at run time. The literal `--name=` is always argv's start, and when every expansion
    after it is quoted the word is one argv word, so it is that option, not an operand."""
    word = arg.word
    if word is None or "-" not in grammar.syntax.signs:
        return None
    first, *rest = word.parts
    if type(first) is not ast.Literal or not first.text.startswith("--") or "=" not in first.text:
        return None
    if not all(_stays_one_word(part) for part in rest):
        return None  # an unquoted expansion may split the word into several
    name = first.text.partition("=")[0]
    found = grammar.long_option(name)
    if found is None or found[0].takes not in (Takes.VALUE, Takes.ATTACHED):
        return None
    option, spelling = found
    return OptionUse(option, spelling, arg.suffix(len(name) + 1), True)


def _stays_one_word(part: ast.WordPart) -> bool:
    if type(part) is ast.Literal:
        return True
    return (type(part) is ast.ParamExpansion or type(part) is ast.CommandSubstitution) and part.quoted


def read_options(grammar: Grammar, args: tuple[Arg, ...], index: int, value: str) -> tuple[tuple[OptionUse, ...], int]:
    """The options in the option word `value` at `index` (not `--`), with their
    values, and the index of the word after them (`lex` without the word's kind,
    for the reading loop)."""
    shape = grammar.shapes.get(value)
    if shape is None:
        shape = grammar.shapes.remember(value, _shape(grammar, value))
    flags, taker = shape
    if taker is None:
        return flags, index + 1
    next_index = index + 1
    if taker.attached_at is not None:
        taken = args[index].suffix(taker.attached_at)
    elif taker.takes is Takes.VALUE and next_index < len(args):
        taken = args[next_index]
        next_index += 1
    else:
        taken = None
    return (*flags, OptionUse(taker.option, taker.spelling, taken, taker.declared)), next_index


def _shape(grammar: Grammar, value: str) -> _Shape:
    whole = grammar.by_spelling.get(value)
    if whole is not None:
        return _named(whole, value, None)
    name, equals, _ = value.partition("=")
    if value.startswith("--"):
        found = grammar.long_option(name)
        if found is None:
            return (
                _Shape((), _Taker(_undeclared(name), name, Takes.ATTACHED, len(name) + 1, False))
                if equals
                else _Shape((_flag(name),), None)
            )
        option, spelling = found
        return _named(option, spelling, len(name) + 1 if equals else None)
    if equals and len(name) > 2:
        declared = grammar.by_spelling.get(name)
        if declared is not None:
            # `-chdir=dir`, `-Dkey=value` declared whole: a single-dash long option.
            return _named(declared, name, len(name) + 1)
    syntax = grammar.syntax
    if syntax.numbers and value[1:].isdigit():
        return _Shape((_flag(value),), None)
    if not syntax.clusters:
        return (
            _Shape((), _Taker(_undeclared(name), name, Takes.ATTACHED, len(name) + 1, False))
            if equals
            else _Shape((_flag(name),), None)
        )
    return _cluster(grammar, value)


def _named(option: Option, spelling: str, attached_at: int | None) -> _Shape:
    """A word that is one declared option (`--force`, `--out=F`, `-Command`)."""
    if option.takes is Takes.NOTHING:
        return _Shape((OptionUse(option, spelling, None),), None)
    if attached_at is None and option.takes is not Takes.VALUE:
        # An optional argument only ever comes attached (`--color`, not `--color auto`).
        return _Shape((OptionUse(option, spelling, None),), None)
    return _Shape((), _Taker(option, spelling, option.takes, attached_at, True))


def _cluster(grammar: Grammar, value: str) -> _Shape:
    """`-rf`, `-uroot`, `-l0e`: letters until one takes the rest of the word (or the next word)."""
    sign = value[0]
    by_spelling = grammar.by_spelling
    flags: list[OptionUse] = []
    position = 1
    length = len(value)
    while position < length:
        spelling = sign + value[position]
        option = by_spelling.get(spelling)
        if option is None:
            flags.append(_flag(spelling))
            position += 1
            continue
        takes = option.takes
        if takes is Takes.VALUE or takes is Takes.ATTACHED:
            rest_at = position + 1
            if rest_at >= length and takes is Takes.ATTACHED:
                flags.append(OptionUse(option, spelling, None))
                return _Shape(tuple(flags), None)
            return _Shape(tuple(flags), _Taker(option, spelling, takes, rest_at if rest_at < length else None, True))
        if takes is Takes.DIGITS:
            end = position + 1
            while end < length and value[end].isdigit():
                end += 1
            # Only a number: it keeps no syntax word (and the same text always holds the same number).
            number = value[position + 1 : end]
            flags.append(OptionUse(option, spelling, Arg((number,), number, _NOWHERE) if number else None))
            position = end
            continue
        flags.append(OptionUse(option, spelling, None))
        position += 1
    return _Shape(tuple(flags), None)


_NOWHERE = Span(0, 0)
