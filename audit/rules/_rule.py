"""The rule declaration and the registry built from the declarations.

A rule is data: id, name, severity, documentation, executable examples, what
it inspects and a check. Everything else (the dispatch table, `audit-cmd
rules`/`explain`, the README table, the registry tests) is derived from it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from .._model import Severity, Span
from .._named_tuple import NamedTuple
from .._tables import Tables
from ..errors import RegistryError

if TYPE_CHECKING:
    from ._pack import Pack

RULE_ID = re.compile(r"^[A-Z]{2}[0-9]{3}$")
RULE_NAME = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)+$")


class Inspects(str, Enum):
    """What a rule looks at; the engine feeds each rule only its subjects."""

    INPUT = "input"
    """The raw input; emitted by the engine's validation."""
    PARSE = "parse"
    """Parser troubles; emitted by the engine."""
    LIMIT = "limit"
    """Analysis limits (time budget, nesting depth); emitted by the engine."""
    COMMAND = "command"
    """Every simple command; with `commands`, those whose name or a wrapper's is listed."""
    COMPUTED_NAME = "computed-name"
    """Simple commands whose name is computed at run time (a substitution or a variable)."""
    REDIRECT = "redirect"
    ASSIGNMENT = "assignment"
    CONTEXT = "context"
    CODE = "code"
    """What code in another language does (audit/languages facts the analysis does not turn into shell)."""
    FUNCTION = "function"
    LOOP = "loop"
    FLOW = "flow"
    """Commands that send data over the network, with the secrets that reach them."""


ENGINE_EMITTED = frozenset({Inspects.INPUT, Inspects.PARSE, Inspects.LIMIT})
EMITTED_BY_ENGINE: None = None
"""The 'check' of a rule whose findings the engine emits itself."""


class Hit(NamedTuple):
    """A rule's match: where it is and what exactly is wrong there."""

    span: Span
    message: str


Check = Callable[[Any, Tables], Iterable[Hit]]
CommandNames = Callable[[Tables], Iterable[str]]
Applies = Callable[[Any], bool]


class Example(NamedTuple):
    """A command for a rule's executable examples, with an optional policy.

    `policy` is a policy document (as parsed TOML) applied when running the
    example; rules about limits need one to be deterministic.
    """

    command: str
    policy: Mapping[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule, declared once."""

    id: str
    name: str
    severity: Severity
    summary: str
    rationale: str
    safer_alternative: str
    inspects: Inspects
    examples: tuple[Example, ...]
    counter_examples: tuple[Example, ...]
    check: Check | None = None
    commands: CommandNames | None = field(default=None)
    applies: Applies | None = None
    """A cheap test of a subject; the check runs only on subjects that pass it.
    Rules that share one test (the same function) have it asked once per subject."""
    pack: str | None = None
    """The threat pack the rule belongs to (`git`, `cloud.aws`); None for the core catalogue."""


def examples(*commands: str | Example) -> tuple[Example, ...]:
    return tuple(command if isinstance(command, Example) else Example(command) for command in commands)


def rule(
    *,
    id: str,
    name: str,
    severity: Severity,
    summary: str,
    rationale: str,
    safer_alternative: str,
    inspects: Inspects,
    must_match: Iterable[str | Example],
    must_not_match: Iterable[str | Example],
    commands: CommandNames | Iterable[str] | None = None,
    applies: Applies | None = None,
) -> Callable[[Check | None], Rule]:
    """Decorator form: the decorated function is the rule's check.

    A rule whose findings the engine emits itself (validation, parsing,
    limits) is declared as `rule(...)(EMITTED_BY_ENGINE)`.
    """

    def declare(check: Check | None) -> Rule:
        return Rule(
            id=id,
            name=name,
            severity=severity,
            summary=summary,
            rationale=rationale,
            safer_alternative=safer_alternative,
            inspects=inspects,
            examples=examples(*must_match),
            counter_examples=examples(*must_not_match),
            check=check,
            commands=_command_names(commands),
            applies=applies,
        )

    return declare


def _command_names(commands: CommandNames | Iterable[str] | None) -> CommandNames | None:
    if commands is None or callable(commands):
        return commands
    names = frozenset(commands)
    return lambda _tables: names


class RetiredRule(NamedTuple):
    id: str
    name: str
    reason: str


class Registry:
    """All rules (the core catalogue and the packs'), checked for consistency when built."""

    def __init__(self, rules: Iterable[Rule], retired: Iterable[RetiredRule] = (), packs: Iterable[Pack] = ()) -> None:
        self.packs: tuple[Pack, ...] = tuple(sorted(packs, key=lambda pack: pack.name))
        self.pack_by_name: Mapping[str, Pack] = MappingProxyType(_packs_by_name(self.packs))
        pack_rules = [declared for pack in self.packs for declared in pack.rules]
        self.rules: tuple[Rule, ...] = tuple(sorted((*rules, *pack_rules), key=lambda declared: declared.id))
        self.retired: tuple[RetiredRule, ...] = tuple(retired)
        by_id: dict[str, Rule] = {}
        names: set[str] = set()
        retired_ids = {entry.id for entry in self.retired}
        for declared in self.rules:
            if not RULE_ID.match(declared.id):
                raise RegistryError(f"rule {declared.id!r}: id must be two capital letters and three digits")
            if not RULE_NAME.match(declared.name):
                raise RegistryError(f"rule {declared.id}: name {declared.name!r} must be kebab-case")
            if declared.id in by_id or declared.id in retired_ids:
                raise RegistryError(f"rule {declared.id}: id used twice (ids are never reused)")
            if declared.name in names:
                raise RegistryError(f"rule {declared.id}: name {declared.name!r} used twice")
            if (declared.check is None) != (declared.inspects in ENGINE_EMITTED):
                raise RegistryError(f"rule {declared.id}: only engine-emitted rules may omit a check")
            by_id[declared.id] = declared
            names.add(declared.name)
        for declared in self.rules:
            if declared.pack is not None and declared.pack not in self.pack_by_name:
                raise RegistryError(f"rule {declared.id}: pack {declared.pack!r} is not registered")
        _check_id_prefixes(self.rules)
        self.by_id: Mapping[str, Rule] = MappingProxyType(by_id)

    def __iter__(self) -> Iterator[Rule]:
        return iter(self.rules)

    def __len__(self) -> int:
        return len(self.rules)

    def get(self, rule_id: str) -> Rule | None:
        return self.by_id.get(rule_id)


def _packs_by_name(packs: tuple[Pack, ...]) -> dict[str, Pack]:
    by_name: dict[str, Pack] = {}
    for pack in packs:
        if pack.name in by_name:
            raise RegistryError(f"pack {pack.name!r} declared twice")
        by_name[pack.name] = pack
    return by_name


def _check_id_prefixes(rules: tuple[Rule, ...]) -> None:
    """Ids are grouped by family: every pack family has its own two letters, shared
    with no other family and no core rule (`GT` is git's, `DB` every database pack's)."""
    owner: dict[str, str] = {}
    for declared in rules:
        family = declared.pack.split(".", 1)[0] if declared.pack is not None else "core"
        prefix = declared.id[:2]
        known = owner.setdefault(prefix, family)
        if known != family:
            raise RegistryError(f"rule {declared.id}: prefix {prefix} belongs to {known}, not {family}")
