"""How a batch summary reads on a terminal: decisions, top rules, blocked commands, malformed lines."""

from __future__ import annotations

from dataclasses import dataclass

from rich import box
from rich.console import Console, ConsoleOptions, RenderResult
from rich.table import Table
from rich.text import Text

from ._batch import BatchSummary
from ._display import ELISION_STYLE, Trimmed, one_line
from ._model import Decision
from ._report import DECISION_STYLE
from .rules._core import find_rule

TOP_RULES = 10
MAX_BLOCKED_SHOWN = 20
_COMMAND_LIMIT = 80


@dataclass(frozen=True, slots=True)
class BatchSummaryReport:
    """A `BatchSummary` for a reader: one table per thing it counted."""

    summary: BatchSummary

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        summary = self.summary
        audited = sum(summary.decisions.values())
        noun = "command" if audited == 1 else "commands"
        heading = Text(f"Audited {audited:,} {noun} from ", "bold")
        heading.append_text(one_line(summary.source_name))
        yield heading
        yield Trimmed(self._decision_table())
        if summary.rules:
            yield Trimmed(self._rule_table())
        if summary.decisions[Decision.BLOCK]:
            yield Trimmed(self._blocked_table())
        if summary.error_count:
            yield Trimmed(self._error_table())

    def _decision_table(self) -> Table:
        table = Table(box=box.SIMPLE_HEAD)
        table.add_column("decision")
        table.add_column("commands", justify="right")
        for decision in sorted(Decision, reverse=True):
            table.add_row(Text(decision.value, DECISION_STYLE[decision]), f"{self.summary.decisions[decision]:,}")
        if self.summary.error_count:
            table.add_row(Text("malformed lines", "bold"), f"{self.summary.error_count:,}")
        return table

    def _rule_table(self) -> Table:
        table = Table(box=box.SIMPLE_HEAD, title="Top rules", title_justify="left")
        table.add_column("rule")
        table.add_column("name")
        table.add_column("commands", justify="right")
        for rule_id, count in self.summary.rules.most_common(TOP_RULES):
            declared = find_rule(rule_id)
            table.add_row(rule_id, declared.name if declared else "", f"{count:,}")
        return table

    def _blocked_table(self) -> Table:
        table = Table(box=box.SIMPLE_HEAD, title="Blocked commands, most frequent first", title_justify="left")
        table.add_column("lines")
        table.add_column("command", overflow="fold")
        table.add_column("rules")
        ranked = sorted(self.summary.blocked.values(), key=lambda blocked: (-blocked.count, blocked.lines[0]))
        for blocked in ranked[:MAX_BLOCKED_SHOWN]:
            preview = one_line(blocked.command, limit=_COMMAND_LIMIT)
            table.add_row(Text(blocked.line_list()), preview, Text(", ".join(blocked.rule_ids)))
        hidden = self.summary.decisions[Decision.BLOCK] - sum(blocked.count for blocked in ranked[:MAX_BLOCKED_SHOWN])
        if hidden:
            table.add_row("", Text(f"… {hidden:,} more blocked lines; --json lists every line", ELISION_STYLE), "")
        return table

    def _error_table(self) -> Table:
        table = Table(box=box.SIMPLE_HEAD, title="Malformed lines", title_justify="left")
        table.add_column("line", justify="right")
        table.add_column("problem", overflow="fold")
        for error in self.summary.errors:
            table.add_row(Text(str(error.line)), one_line(error.message, limit=200))
        hidden = self.summary.error_count - len(self.summary.errors)
        if hidden:
            table.add_row("", Text(f"… {hidden:,} more", ELISION_STYLE))
        return table
