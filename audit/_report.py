"""How a verdict reads on a terminal: decision, marked command, findings, command tree."""

from __future__ import annotations

import shlex
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import Console, ConsoleOptions, RenderResult
from rich.text import Text
from rich.tree import Tree

from ._display import (
    ELISION_STYLE,
    SEVERITY_STYLE,
    Mark,
    MarkedSource,
    Trimmed,
    one_line,
)
from ._model import CommandRecord, Decision, Finding, Position, Severity, Span, Verdict
from .rules._core import find_rule

DECISION_STYLE = {
    Decision.BLOCK: "bold white on red",
    Decision.WARN: "bold black on yellow",
    Decision.PASS: "bold white on green",
}
_POSITION_STYLE = {
    Position.COMMAND: "bold",
    Position.VALUE: "cyan",
    Position.EXEC_CONTEXT: "magenta",
    Position.INPUT: "red",
    Position.PARSE: "red",
}
MAX_FINDINGS_SHOWN = 30
"""A script can have hundreds of findings; past this many, --json is the better reader."""
MAX_COMMANDS_SHOWN = 60
_ARGV_LIMIT = 80
_MESSAGE_LIMIT = 300
_EVIDENCE_LIMIT = 60


def _decision_badge(decision: Decision, console: Console) -> Text:
    """The decision in capitals; padded as a coloured badge, bare when there is no colour."""
    name = decision.value.upper()
    if console.no_color or console.color_system is None:
        return Text.assemble((name, "bold"))
    return Text.assemble((f" {name} ", DECISION_STYLE[decision]))


def _where(position: Position, path: Sequence[str]) -> Text:
    """A finding's or command's place: its position, and the nesting that led there."""
    text = Text(position.value, _POSITION_STYLE[position])
    if path:
        text.append(" in ")
        text.append_text(one_line(" › ".join(path), limit=_ARGV_LIMIT))  # noqa: RUF001 (a path separator, not a typo for >)
    return text


def _count_findings(findings: Sequence[Finding]) -> str:
    if not findings:
        return "no findings"
    by_severity = Counter(finding.severity for finding in findings)
    parts = [
        f"{by_severity[severity]} {severity.value}"
        for severity in (Severity.HIGH, Severity.MEDIUM)
        if by_severity[severity]
    ]
    noun = "finding" if len(findings) == 1 else "findings"
    return f"{len(findings)} {noun}: {', '.join(parts)}"


@dataclass(frozen=True, slots=True)
class VerdictReport:
    """One verdict for a reader: what to do, where in the command, why, and what runs."""

    verdict: Verdict
    source_name: str | None = None

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        verdict = self.verdict
        header = _decision_badge(verdict.decision, console)
        header.append("  " + _count_findings(verdict.findings))
        yield header
        if self.source_name is not None:
            yield Text.assemble(("file ", "dim"), one_line(self.source_name, limit=_ARGV_LIMIT * 2))
        yield Text()
        marks = [Mark(finding.span, finding.severity, finding.rule_id) for finding in verdict.findings]
        yield MarkedSource(verdict.command, marks, indent=2)
        if verdict.findings:
            yield Text()
            yield Text("Findings", "bold underline")
            yield from self._findings()
        yield Text()
        yield _CommandTree(verdict.commands, verdict.findings)

    def _findings(self) -> RenderResult:
        findings = self.verdict.findings
        for finding in findings[:MAX_FINDINGS_SHOWN]:
            title = Text("  ")
            title.append(finding.rule_id, SEVERITY_STYLE[finding.severity])
            title.append(f" {finding.rule_name}", "bold")
            title.append(f"  {finding.severity.value}, ")
            title.append_text(_where(finding.position, finding.path))
            details = [one_line(finding.message, limit=_MESSAGE_LIMIT)]
            location = Text(f"at {finding.span.start}-{finding.span.end}: ", "dim")
            location.append_text(one_line(finding.evidence, limit=_EVIDENCE_LIMIT))
            details.append(location)
            declared = find_rule(finding.rule_id)
            if declared is not None:
                details.append(Text.assemble(("safer: ", "green"), declared.safer_alternative))
            yield title
            for detail in details:
                yield Trimmed(detail, 4)
        if len(findings) > MAX_FINDINGS_SHOWN:
            yield Text(f"  … {len(findings) - MAX_FINDINGS_SHOWN} more findings; --json lists them all", ELISION_STYLE)


@dataclass(frozen=True, slots=True)
class _CommandTree:
    """The simple commands the engine found, nested as they nest in the command.

    A record's `path` says which code strings and substitutions it sits in
    (`("bash -c", "$(...)")`). It hangs under the innermost record, one level
    up, whose span contains it: `rm` in `sudo bash -c 'rm -rf /'` goes under
    the `sudo` record, in a `bash -c` group. With no containing record (the
    engine could not map the span back) it hangs from the root. A script with
    too many commands to list shows only those with findings, and what they
    hang under.
    """

    records: Sequence[CommandRecord]
    findings: Sequence[Finding]

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        root = Tree(Text("Commands", "bold underline"), guide_style="dim")
        records = sorted(self.records, key=lambda record: (len(record.path), record.span.start, record.span.end))
        parents = _parents(records)
        shown = self._shown(records, parents)
        nodes: dict[int | None, Tree] = {None: root}
        groups: dict[tuple[int | None, tuple[str, ...]], Tree] = {}
        for index in shown:
            parent, labels = parents[index]
            branch = nodes[parent]
            for depth in range(1, len(labels) + 1):
                key = (parent, labels[:depth])
                if key not in groups:
                    groups[key] = branch.add(one_line(labels[depth - 1], limit=_ARGV_LIMIT, style="italic"))
                branch = groups[key]
            nodes[index] = branch.add(self._label(records[index]))
        if not records:
            root.add(Text("(none found)", ELISION_STYLE))
        elif len(shown) < len(records):
            hidden = len(records) - len(shown)
            root.add(Text(f"… {hidden} more commands not shown; --json lists them all", ELISION_STYLE))
        yield root

    def _shown(
        self, records: Sequence[CommandRecord], parents: Sequence[tuple[int | None, tuple[str, ...]]]
    ) -> list[int]:
        if len(records) <= MAX_COMMANDS_SHOWN:
            return list(range(len(records)))
        wanted: set[int] = set()
        for index, record in enumerate(records):
            if not self._rule_ids(record):
                continue
            ancestor: int | None = index
            while ancestor is not None and ancestor not in wanted:
                wanted.add(ancestor)
                ancestor = parents[ancestor][0]
        return sorted(wanted)[:MAX_COMMANDS_SHOWN]

    def _rule_ids(self, record: CommandRecord) -> list[str]:
        rule_ids = [
            finding.rule_id
            for finding in self.findings
            if finding.path == record.path and _contains(record.span, finding.span)
        ]
        return list(dict.fromkeys(rule_ids))

    def _label(self, record: CommandRecord) -> Text:
        label = one_line(_words(record.argv), limit=_ARGV_LIMIT)
        label.append("  ")
        label.append(record.position.value, _POSITION_STYLE[record.position])
        rule_ids = self._rule_ids(record)
        if rule_ids:
            label.append("  ")
            label.append(", ".join(rule_ids), "bold red")
        return label


def _parents(records: Sequence[CommandRecord]) -> list[tuple[int | None, tuple[str, ...]]]:
    """For each record (sorted outermost first): the index of the record it hangs under, and the group labels between."""
    by_path: dict[tuple[str, ...], list[int]] = {}
    for index, record in enumerate(records):
        by_path.setdefault(record.path, []).append(index)
    parents: list[tuple[int | None, tuple[str, ...]]] = []
    for record in records:
        parents.append((None, record.path))
        for depth in range(len(record.path) - 1, -1, -1):
            containing = [
                candidate
                for candidate in by_path.get(record.path[:depth], [])
                if _contains(records[candidate].span, record.span)
            ]
            if containing:
                innermost = min(
                    containing, key=lambda candidate: records[candidate].span.end - records[candidate].span.start
                )
                parents[-1] = (innermost, record.path[depth:])
                break
    return parents


def _words(argv: Sequence[str]) -> str:
    """argv as words: bare where that is unambiguous, so `echo $i` does not read as a literal `'$i'`."""
    return " ".join(shlex.quote(word) if not word or any(char.isspace() for char in word) else word for word in argv)


def _contains(outer: Span, inner: Span) -> bool:
    return outer.start <= inner.start and inner.end <= outer.end
