"""Programs as data (options, subcommands, operand positions) and the reading
of an argv against one: the subcommand path, the options by canonical name
with their values, and the operands."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from .._named_tuple import NamedTuple
from ..errors import ProgramError
from ._arg import Arg
from ._grammar import GNU, Grammar, Option, OptionUse, Syntax, options_with_run_time_value, read_options


class Subcommand(NamedTuple):
    """A subcommand (`git stash`, `aws s3`, `kubectl delete`): its own options,
    its own subcommands (`git stash clear`) and its operand positions."""

    names: tuple[str, ...]
    """Its spellings; the first is its canonical name (`("rm", "remove")`)."""
    options: tuple[Option, ...] = ()
    subcommands: tuple[Subcommand, ...] = ()
    operands: tuple[str, ...] = ()
    """Names of its operand positions; one may end in `...` (`("SOURCE...", "DEST")`)."""
    syntax: Syntax | None = None
    """When it reads options differently from its program (`docker run` stops at the image)."""


class HelpForms(NamedTuple):
    """How a program is asked for its help text, which it prints instead of doing anything
    (`asks_for_help` in `_help` reads a command line against it)."""

    options: tuple[str, ...] = ()
    """Option words that stop the program with its help wherever it reads options (`--help`;
    `-h` only for programs where no subcommand gives it another meaning)."""
    word: str = ""
    """A word that asks for help when it is the only one after the subcommands, global options
    aside (`aws s3 rm help`)."""


Writes = Callable[["Reading"], Sequence[Arg]]
"""Paths a command changes, given its reading: the files it writes, deletes, or unpacks into."""


def option_values(*spellings: str) -> Writes:
    """A writer whose output files are the values of these options (`sort -o F`, `unzip -d DIR`)."""

    def written(reading: Reading) -> tuple[Arg, ...]:
        return reading.values(*spellings)

    return written


Aliases = Callable[[tuple[Arg, ...]], tuple[Arg, ...]]
"""The words of a command line with an alias it defines itself replaced by the alias's definition
(`git -c alias.nuke='reset --hard' nuke` reads as `git ... reset --hard`); the same tuple when none."""


class Program:
    """What the engine knows about one program's command line.

    `options` are the program's own; for a program with subcommands they are
    its global options, read before the subcommand (`git -C dir`, `docker -H
    h`), and with `global_options_anywhere` after it too (`kubectl delete ns x
    -n prod`, `aws s3 rm s3://b --profile p`). `writes` says which files the
    command opens for writing (the writers rules read it), `removes` which it
    deletes (`rm`'s operands, the files `mv` moves away), `removes_trees` which
    of those go with everything below them (`rm -r`'s operands), and `extracts` the
    directories it unpacks an archive into, where any file below may land.
    `help_forms` says how it is asked for help, declared only where the program
    really stops there (`rm` does not everywhere: BSD's stops reading options at
    its first operand). `aliases` expands the aliases a command line defines for
    itself before it is read.

    One declaration per program, told apart by identity and never printed whole: a plain
    class, as a dataclass costs about a millisecond to create at import.
    """

    __slots__ = (
        "aliases",
        "extracts",
        "global_options_anywhere",
        "help_forms",
        "names",
        "operands",
        "options",
        "removes",
        "removes_trees",
        "root",
        "subcommands",
        "syntax",
        "writes",
    )

    def __init__(
        self,
        names: tuple[str, ...],
        syntax: Syntax = GNU,
        options: tuple[Option, ...] = (),
        subcommands: tuple[Subcommand, ...] = (),
        operands: tuple[str, ...] = (),
        global_options_anywhere: bool = False,
        writes: Writes | None = None,
        removes: Writes | None = None,
        removes_trees: Writes | None = None,
        extracts: Writes | None = None,
        help_forms: HelpForms | None = None,
        aliases: Aliases | None = None,
    ) -> None:
        if not names:
            raise ProgramError("a program needs at least one name")
        self.names: Final = names
        self.syntax: Final = syntax
        self.options: Final = options
        self.subcommands: Final = subcommands
        self.operands: Final = operands
        self.global_options_anywhere: Final = global_options_anywhere
        self.writes: Final = writes
        self.removes: Final = removes
        self.removes_trees: Final = removes_trees
        self.extracts: Final = extracts
        self.help_forms: Final = help_forms
        self.aliases: Final = aliases
        where = f"program {names[0]}"
        grammar = Grammar(options, syntax, where=where)
        root = _Node(names[0], grammar, operands)
        _add_subcommands(root, subcommands, syntax, options if global_options_anywhere else (), where)
        self.root: Final = root

    @property
    def name(self) -> str:
        return self.names[0]

    def subcommand_paths(self) -> tuple[tuple[str, ...], ...]:
        """Every subcommand path the program declares, by canonical names; `()` (the program
        itself) first."""
        paths: list[tuple[str, ...]] = []
        stack: list[tuple[tuple[str, ...], _Node]] = [((), self.root)]
        while stack:
            path, node = stack.pop()
            paths.append(path)
            stack.extend(
                ((*path, child.name), child) for spelling, child in node.children.items() if spelling == child.name
            )
        return tuple(paths)


class _Node:
    """A program or subcommand compiled for reading: its grammar and its subcommands by spelling."""

    __slots__ = ("children", "grammar", "name", "operands")

    def __init__(self, name: str, grammar: Grammar, operands: tuple[str, ...]) -> None:
        self.name = name
        self.grammar = grammar
        self.operands = operands
        self.children: dict[str, _Node] = {}


def _add_subcommands(
    parent: _Node, subcommands: tuple[Subcommand, ...], syntax: Syntax, shared: tuple[Option, ...], where: str
) -> None:
    for subcommand in subcommands:
        inner = f"{where} {subcommand.names[0]}"
        own_syntax = subcommand.syntax or syntax
        grammar = Grammar((*shared, *subcommand.options), own_syntax, where=inner)
        child = _Node(subcommand.names[0], grammar, subcommand.operands)
        _add_subcommands(child, subcommand.subcommands, own_syntax, shared, inner)
        for name in subcommand.names:
            if name in parent.children:
                raise ProgramError(f"{where}: subcommand {name!r} declared twice")
            parent.children[name] = child


class Reading(NamedTuple):
    """An argv read against a program: what a rule asks about a command line (one per command: a NamedTuple)."""

    program: Program
    args: tuple[Arg, ...]
    """The words read (everything after the program's name)."""
    path: tuple[str, ...]
    """The subcommands, by canonical name (`("stash", "clear")`); empty without one."""
    options: tuple[OptionUse, ...]
    operands: tuple[Arg, ...]
    """The operands after the subcommands, in order (everything after `--` included)."""
    end_of_options: bool
    """Whether `--` ended the options."""
    operand_names: tuple[str, ...] = ()

    def has(self, *spellings: str) -> bool:
        """Whether any option with one of these spellings was given."""
        for use in self.options:  # noqa: SIM110 - a loop: any() over a generator costs more than the test here
            if use.named(*spellings):
                return True
        return False

    def uses(self, *spellings: str) -> tuple[OptionUse, ...]:
        return tuple([use for use in self.options if use.named(*spellings)])

    def selects(self, words: tuple[str, ...]) -> bool:
        """Whether the command line starts with these subcommand words (`auth token`, `pip install`),
        counting declared subcommands and operands alike, or gives this option anywhere (`dpkg -i`)."""
        if words[0].startswith("-"):
            return any(arg.value == words[0] for arg in self.args)
        given = (*self.path, *[arg.value or "" for arg in self.operands[: len(words)]])
        return given[: len(words)] == words

    def values(self, *spellings: str) -> tuple[Arg, ...]:
        """The values given to the options with these spellings, in order."""
        return tuple([use.value for use in self.options if use.value is not None and use.named(*spellings)])

    def operand(self, name: str) -> tuple[Arg, ...]:
        """The operands at the named position (several for a `NAME...` position)."""
        names = self.operand_names
        if name not in names and f"{name}..." not in names:
            raise ProgramError(f"program {self.program.name}: no operand position {name!r}")
        variadic = next((index for index, declared in enumerate(names) if declared.endswith("...")), None)
        operands = self.operands
        if variadic is None:
            index = names.index(name)
            return operands[index : index + 1]
        after = len(names) - variadic - 1
        if name.endswith("...") or f"{name}..." in names:
            return operands[variadic : len(operands) - after]
        index = names.index(name)
        if index < variadic:
            return operands[index : index + 1]
        position = len(operands) - (len(names) - index)
        return operands[position : position + 1] if position >= variadic else ()


def read(program: Program, args: Sequence[Arg]) -> Reading:
    """Read `args` (the words after the program's name) the way the program does."""
    args = tuple(args) if program.aliases is None else program.aliases(tuple(args))
    count = len(args)
    node = program.root
    grammar = node.grammar
    signs, permute, children = grammar.syntax.signs, grammar.syntax.permute, node.children
    path: list[str] = []
    uses: list[OptionUse] = []
    operands: list[Arg] = []
    index = 0
    while index < count:
        arg = args[index]
        values = arg.values
        value = values[0] if len(values) == 1 else None
        if not values and arg.word is not None:
            found_options = options_with_run_time_value(grammar, args, index)
            if found_options is not None:
                uses.extend(found_options[0])
                index = found_options[1]
                continue
        # Operands are most words: told apart here without the lexer.
        if value is None or len(value) < 2 or value[0] not in signs:
            child = children.get(value) if children and value is not None and not operands else None
            if child is not None:
                node, grammar = child, child.grammar
                signs, permute, children = grammar.syntax.signs, grammar.syntax.permute, child.children
                path.append(child.name)
            else:
                operands.append(arg)
                if not permute:
                    operands.extend(args[index + 1 :])
                    break
            index += 1
            continue
        if value == "--":
            operands.extend(args[index + 1 :])
            return Reading(program, args, tuple(path), tuple(uses), tuple(operands), True, node.operands)
        found, index = read_options(grammar, args, index, value)
        uses.extend(found)
    return Reading(program, args, tuple(path), tuple(uses), tuple(operands), False, node.operands)
