"""Subcommand trees from their paths: the short way to declare a CLI with many
nested commands (`gcloud compute instances delete`, `heroku apps:destroy`).

    tree("compute instances delete|remove", leaf("sql instances delete", flag("--async")))

gives the nested `Subcommand`s; `a|b` spells one subcommand two ways (the
first is its canonical name). Options given to `tree` go to every leaf. A
path that is also the start of longer paths is a leaf with subcommands
(`leaf("compose", valued("-f"))` and `"compose down"`).
"""

from __future__ import annotations

from collections.abc import Iterable

from .._named_tuple import NamedTuple
from ..errors import ProgramError
from ._grammar import Option, Syntax
from ._program import Subcommand


class Leaf(NamedTuple):
    """A subcommand path with its own options, operand positions and option syntax."""

    path: str
    options: tuple[Option, ...] = ()
    operands: tuple[str, ...] = ()
    syntax: Syntax | None = None


def leaf(path: str, *options: Option, operands: tuple[str, ...] = (), syntax: Syntax | None = None) -> Leaf:
    return Leaf(path, options, operands, syntax)


class _Draft:
    __slots__ = ("children", "declared", "names", "operands", "options", "syntax")

    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = names
        self.options: tuple[Option, ...] = ()
        self.operands: tuple[str, ...] = ()
        self.syntax: Syntax | None = None
        self.declared = False
        self.children: dict[str, _Draft] = {}

    def child(self, spelled: str) -> _Draft:
        names = tuple(spelled.split("|"))
        existing = self.children.get(names[0])
        if existing is None:
            existing = self.children[names[0]] = _Draft(names)
        elif existing.names != names:
            raise ProgramError(f"subcommand {names[0]!r} spelled both {'|'.join(existing.names)!r} and {spelled!r}")
        return existing

    def build(self) -> Subcommand:
        children = tuple(child.build() for child in self.children.values())
        return Subcommand(
            self.names, options=self.options, subcommands=children, operands=self.operands, syntax=self.syntax
        )


def tree(*leaves: str | Leaf, options: Iterable[Option] = ()) -> tuple[Subcommand, ...]:
    """The subcommands these paths spell; every leaf takes `options` and its own."""
    shared = tuple(options)
    root = _Draft(())
    for declared in leaves:
        entry = Leaf(declared) if isinstance(declared, str) else declared
        node = root
        for word in entry.path.split():
            node = node.child(word)
        if node.declared:
            raise ProgramError(f"subcommand path {entry.path!r} declared twice")
        node.declared = True
        node.options = (*shared, *entry.options)
        node.operands = entry.operands
        node.syntax = entry.syntax
    return tuple(child.build() for child in root.children.values())
