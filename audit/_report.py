"""How a verdict reads on a terminal: decision, marked command, findings, command tree."""

from __future__ import annotations

import shlex
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import Console, ConsoleOptions, RenderResult
from rich.padding import Padding
from rich.text import Text
from rich.tree import Tree

from ._display import ELISION_STYLE, SEVERITY_STYLE, Mark, MarkedSource, one_line
from ._model import CommandRecord, Decision, Finding, Position, Severity, Span, Verdict
from .rules import REGISTRY

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


def decision_badge(decision: Decision, console: Console) -> Text:
    """The decision in capitals; padded as a coloured badge, bare when there is no colour."""
    name = decision.value.upper()
    if console.no_color or console.color_system is None:
        return Text(name, "bold")
    return Text(f" {name} ", DECISION_STYLE[decision])


def where(position: Position, path: Sequence[str]) -> Text:
    """A finding's or command's place: its position, and the nesting that led there."""
    text = Text(position.value, _POSITION_STYLE[position])
    if path:
        text.append(" in ")
        text.append_text(one_line(" › ".join(path), limit=_ARGV_LIMIT))
    return text


def count_findings(findings: Sequence[Finding]) -> str:
    if not findings:
        return "no findings"
    by_severity = Counter(finding.severity for finding in findings)
    parts = [f"{by_severity[severity]} {severity.value}" for severity in (Severity.HIGH, Severity.MEDIUM) if by_severity[severity]]
    noun = "finding" if len(findings) == 1 else "findings"
    return f"{len(findings)} {noun}: {', '.join(parts)}"


@dataclass(frozen=True, slots=True)
class VerdictReport:
    """One verdict for a reader: what to do, where in the command, why, and what runs."""

    verdict: Verdict
    source_name: str | None = None

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        verdict = self.verdict
        header = decision_badge(verdict.decision, console)
        header.append("  " + count_findings(verdict.findings))
        if self.source_name is not None:
            header.append("  in ")
            header.append_text(one_line(self.source_name))
        yield header
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
            title.append_text(where(finding.position, finding.path))
            details = [one_line(finding.message, limit=_MESSAGE_LIMIT)]
            location = Text(f"at {finding.span.start}-{finding.span.end}: ", "dim")
            location.append_text(one_line(finding.evidence, limit=_EVIDENCE_LIMIT))
            details.append(location)
            declared = REGISTRY.get(finding.rule_id)
            if declared is not None:
                details.append(Text.assemble(("safer: ", "green"), declared.safer_alternative))
            yield title
            for detail in details:
                yield Padding(detail, (0, 0, 0, 4), expand=False)
        if len(findings) > MAX_FINDINGS_SHOWN:
            yield Text(f"  … {len(findings) - MAX_FINDINGS_SHOWN} more findings; --json lists them all", ELISION_STYLE)


@dataclass(frozen=True, slots=True)
class _CommandTree:
    """The simple commands the engine found, nested as they nest in the command.

    A record's `path` says which code strings and substitutions it sits in
    (`("bash -c", "$(...)")`). It hangs under the innermost record, one level
    up, whose span contains it: `rm` in `sudo bash -c 'rm -rf /'` goes under
    the `sudo` record, in a `bash -c` group. With no containing record (the
    engine could not map the span back) it hangs from the root.
    """

    records: Sequence[CommandRecord]
    findings: Sequence[Finding]

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        root = Tree(Text("Commands", "bold underline"), guide_style="dim")
        shown = sorted(self.records, key=lambda record: (len(record.path), record.span.start, record.span.end))
        shown = shown[:MAX_COMMANDS_SHOWN]
        nodes: dict[int | None, Tree] = {None: root}
        groups: dict[tuple[int | None, tuple[str, ...]], Tree] = {}
        for index, record in enumerate(shown):
            parent, labels = _parent(index, shown)
            branch = nodes[parent]
            for depth in range(1, len(labels) + 1):
                key = (parent, labels[:depth])
                if key not in groups:
                    groups[key] = branch.add(one_line(labels[depth - 1], limit=_ARGV_LIMIT, style="italic"))
                branch = groups[key]
            nodes[index] = branch.add(self._label(record))
        if not self.records:
            root.add(Text("(none found)", ELISION_STYLE))
        elif len(self.records) > MAX_COMMANDS_SHOWN:
            root.add(Text(f"… {len(self.records) - MAX_COMMANDS_SHOWN} more; --json lists them all", ELISION_STYLE))
        yield root

    def _label(self, record: CommandRecord) -> Text:
        label = one_line(_words(record.argv), limit=_ARGV_LIMIT)
        label.append("  ")
        label.append(record.position.value, _POSITION_STYLE[record.position])
        rule_ids = [
            finding.rule_id
            for finding in self.findings
            if finding.path == record.path and _contains(record.span, finding.span)
        ]
        if rule_ids:
            label.append("  ")
            label.append(", ".join(dict.fromkeys(rule_ids)), "bold red")
        return label


def _parent(index: int, records: Sequence[CommandRecord]) -> tuple[int | None, tuple[str, ...]]:
    """Where a record hangs (the index of its parent record, None for the root) and the group labels between."""
    record = records[index]
    for depth in range(len(record.path) - 1, -1, -1):
        prefix = record.path[:depth]
        containing = [
            candidate
            for candidate in range(index)
            if records[candidate].path == prefix and _contains(records[candidate].span, record.span)
        ]
        if containing:
            innermost = min(containing, key=lambda candidate: records[candidate].span.end - records[candidate].span.start)
            return innermost, record.path[depth:]
    return None, record.path


def _words(argv: Sequence[str]) -> str:
    """argv as words: bare where that is unambiguous, so `echo $i` does not read as a literal `'$i'`."""
    return " ".join(shlex.quote(word) if not word or any(char.isspace() for char in word) else word for word in argv)


def _contains(outer: Span, inner: Span) -> bool:
    return outer.start <= inner.start and inner.end <= outer.end
