"""The rule catalogue for readers: `audit-cmd rules` and `audit-cmd explain`.

Everything here is generated from the rule declarations; nothing is written
twice. Each view renders itself for rich and has a `to_dict()` for --json.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from rich import box
from rich.console import Console, ConsoleOptions, RenderResult
from rich.table import Table
from rich.text import Text

from ._display import SEVERITY_STYLE, Trimmed, one_line
from ._model import Severity
from ._policy import Policy
from .rules import Example, Pack, Registry, RetiredRule, Rule

_SEVERITY_EFFECT = {Severity.HIGH: "blocks", Severity.MEDIUM: "warns"}
_EXAMPLE_LIMIT = 50
_MAX_SUGGESTIONS = 3


def _plain(value: Any) -> Any:
    """A policy document (nested read-only mappings) as JSON-ready data."""
    if isinstance(value, Mapping):
        return {str(key): _plain(item) for key, item in cast("Mapping[object, object]", value).items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in cast("Sequence[object]", value)]
    return value


def example_to_dict(example: Example) -> dict[str, Any]:
    return {"command": example.command, "policy": _plain(example.policy) if example.policy is not None else None}


def rule_to_dict(declared: Rule) -> dict[str, Any]:
    return {
        "id": declared.id,
        "name": declared.name,
        "pack": declared.pack,
        "severity": declared.severity.value,
        "inspects": declared.inspects.value,
        "summary": declared.summary,
        "rationale": declared.rationale,
        "safer_alternative": declared.safer_alternative,
        "examples": [example_to_dict(example) for example in declared.examples],
        "counter_examples": [example_to_dict(example) for example in declared.counter_examples],
    }


def retired_to_dict(retired: RetiredRule) -> dict[str, Any]:
    return {"id": retired.id, "name": retired.name, "reason": retired.reason}


def _severity(severity: Severity) -> Text:
    return Text(severity.value, SEVERITY_STYLE[severity])


@dataclass(frozen=True, slots=True)
class RuleGroup:
    """The core catalogue (no pack) or one threat pack, with its rules and whether the policy runs them."""

    pack: Pack | None
    enabled: bool
    rules: tuple[Rule, ...]

    @property
    def title(self) -> str:
        if self.pack is None:
            return "core rules (always on)"
        state = "on" if self.enabled else "off"
        default = "on" if self.pack.default else "off"
        return f"pack {self.pack.name}: {state} (default {default})"


def rules_by_pack(registry: Registry, policy: Policy) -> tuple[RuleGroup, ...]:
    """The core rules, then each pack's, with whether `policy` turns the pack on."""
    core = RuleGroup(None, True, tuple(declared for declared in registry if declared.pack is None))
    packs = tuple(
        RuleGroup(
            pack, pack.name in policy.packs, tuple(declared for declared in registry if declared.pack == pack.name)
        )
        for pack in registry.packs
    )
    return (core, *packs)


def pack_to_dict(group: RuleGroup) -> dict[str, Any]:
    assert group.pack is not None
    pack = group.pack
    return {
        "name": pack.name,
        "enabled": group.enabled,
        "default": pack.default,
        "summary": pack.summary,
        "reason": pack.reason,
        "rules": [declared.id for declared in group.rules],
    }


@dataclass(frozen=True, slots=True)
class RuleCatalogue:
    """Every rule, grouped by pack with each pack's state under a policy, and the retired ids
    with their reasons."""

    registry: Registry
    policy: Policy

    def to_dict(self) -> dict[str, Any]:
        return {
            "rules": [rule_to_dict(declared) for declared in self.registry],
            "packs": [pack_to_dict(group) for group in rules_by_pack(self.registry, self.policy) if group.pack],
            "retired": [retired_to_dict(retired) for retired in self.registry.retired],
        }

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        groups = rules_by_pack(self.registry, self.policy)
        enabled = sum(len(group.rules) for group in groups if group.enabled)
        title = f"{len(self.registry)} rules ({enabled} on), {len(self.registry.packs)} packs"
        table = Table(box=box.SIMPLE_HEAD, title=title, title_justify="left")
        table.add_column("id", no_wrap=True)
        table.add_column("severity", no_wrap=True)
        table.add_column("name and summary")
        for group in groups:
            table.add_section()
            style = "bold" if group.enabled else "dim"
            summary = f"\n{group.pack.summary}" if group.pack is not None else ""
            table.add_row("", "", Text.assemble((group.title, f"{style} underline"), (summary, "dim")))
            for declared in group.rules:
                name_and_summary = Text.assemble((declared.name, "bold"), "\n", declared.summary)
                row_style = None if group.enabled else "dim"
                table.add_row(declared.id, _severity(declared.severity), name_and_summary, style=row_style)
        yield Trimmed(table)
        if self.registry.retired:
            retired = Table(box=box.SIMPLE_HEAD, title="retired ids (never reused)", title_justify="left")
            retired.add_column("id", no_wrap=True)
            retired.add_column("name", no_wrap=True)
            retired.add_column("reason")
            for entry in self.registry.retired:
                retired.add_row(Text(entry.id), Text(entry.name), Text(entry.reason))
            yield Trimmed(retired)
        yield Text("audit-cmd explain ID shows a rule's rationale and examples.", "dim")
        yield Text("A policy's [packs] section turns packs on and off.", "dim")


@dataclass(frozen=True, slots=True)
class RuleExplanation:
    """One rule in full: what it catches, why, what to do instead, and its examples."""

    rule: Rule

    def to_dict(self) -> dict[str, Any]:
        return rule_to_dict(self.rule)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        declared = self.rule
        title = Text.assemble((declared.id, SEVERITY_STYLE[declared.severity]), " ", (declared.name, "bold"))
        yield title
        yield Text.assemble(
            "severity ",
            _severity(declared.severity),
            f" ({_SEVERITY_EFFECT[declared.severity]}), inspects {declared.inspects.value}",
            style="dim",
        )
        for heading, body in (
            ("Summary", declared.summary),
            ("Why it matters", declared.rationale),
            ("Safer alternative", declared.safer_alternative),
        ):
            yield Text()
            yield Text(heading, "bold underline")
            yield Trimmed(Text(body), 2)
        yield from _examples("Triggers on", declared.examples, Text("✗ ", "red"))
        yield from _examples("Does not trigger on", declared.counter_examples, Text("✓ ", "green"))


def _examples(heading: str, examples: tuple[Example, ...], bullet: Text) -> RenderResult:
    yield Text()
    yield Text(heading, "bold underline")
    for example in examples:
        line = Text("  ")
        line.append_text(bullet)
        line.append_text(one_line(example.command, limit=_EXAMPLE_LIMIT))
        if example.policy is not None:
            line.append(f"  (with policy {', '.join(_dotted(example.policy))})", "dim")
        yield line


def _dotted(document: Mapping[str, Any], prefix: str = "") -> list[str]:
    """A policy document as the TOML lines a user would write: `limits.max_length = 10`."""
    lines: list[str] = []
    for key, value in document.items():
        if isinstance(value, Mapping):
            lines.extend(_dotted(cast("Mapping[str, Any]", value), f"{prefix}{key}."))
        else:
            lines.append(f"{prefix}{key} = {json.dumps(_plain(value))}")
    return lines


@dataclass(frozen=True, slots=True)
class RuleLookup:
    """What an `explain` query names: a rule, a retired id, or nothing (with close matches)."""

    rule: Rule | None
    retired: RetiredRule | None
    suggestions: tuple[str, ...]


def lookup_rule(registry: Registry, query: str) -> RuleLookup:
    """Find a rule by id (any case) or by name."""
    wanted = query.strip()
    by_name = {declared.name: declared for declared in registry}
    found = registry.get(wanted.upper()) or by_name.get(wanted.lower())
    if found is not None:
        return RuleLookup(found, None, ())
    for retired in registry.retired:
        if wanted.upper() == retired.id or wanted.lower() == retired.name:
            return RuleLookup(None, retired, ())
    candidates = [declared.id for declared in registry] + list(by_name)
    close = difflib.get_close_matches(wanted, candidates, n=_MAX_SUGGESTIONS, cutoff=0.6)
    close += difflib.get_close_matches(wanted.upper(), candidates, n=_MAX_SUGGESTIONS, cutoff=0.6)
    return RuleLookup(None, None, tuple(dict.fromkeys(close))[:_MAX_SUGGESTIONS])
