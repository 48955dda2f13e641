"""The engine's result types: what a verdict is made of.

Every consumer (CLI, middleware, sandbox) depends on this module only; the
parser and rule machinery stay private behind `audit_command`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from ._named_tuple import NamedTuple


class Decision(str, Enum):
    """What to do with a command. Ordered so that the strictest is `max()`."""

    PASS = "pass"
    WARN = "warn"
    BLOCK = "block"

    @property
    def rank(self) -> int:
        return _DECISION_RANK[self]

    # str's own comparison would order these alphabetically ("block" < "pass").
    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Decision):
            return NotImplemented
        return self.rank < other.rank

    def __le__(self, other: object) -> bool:
        if not isinstance(other, Decision):
            return NotImplemented
        return self.rank <= other.rank

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, Decision):
            return NotImplemented
        return self.rank > other.rank

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, Decision):
            return NotImplemented
        return self.rank >= other.rank


_DECISION_RANK = {Decision.PASS: 0, Decision.WARN: 1, Decision.BLOCK: 2}


class Severity(str, Enum):
    """How bad a finding is; each severity maps to exactly one decision."""

    MEDIUM = "medium"
    HIGH = "high"

    @property
    def decision(self) -> Decision:
        return Decision.BLOCK if self is Severity.HIGH else Decision.WARN


class Position(str, Enum):
    """Where in the command's structure a finding sits."""

    COMMAND = "command"
    """A command bash runs directly, or a substitution whose output becomes one."""
    VALUE = "value"
    """Inside a substitution whose output is only data (argument, assignment...)."""
    EXEC_CONTEXT = "exec-context"
    """Inside code that something executes: eval, sh -c, a heredoc into python..."""
    INPUT = "input"
    """The input as a whole (validation: empty, NUL byte, too long)."""
    PARSE = "parse"
    """The parsers' view of the input (disagreement, unreadable syntax, budget)."""


class Span(NamedTuple):
    """Half-open character offsets into the original command string.

    A NamedTuple rather than a dataclass: one is made for every syntax node.
    """

    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Finding:
    """One rule match: which rule, how bad, where, and why."""

    rule_id: str
    rule_name: str
    severity: Severity
    message: str
    span: Span
    evidence: str
    position: Position
    path: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "rule_id": self.rule_id,
            "rule_name": self.rule_name,
            "severity": self.severity.value,
            "message": self.message,
            "span": [self.span.start, self.span.end],
            "evidence": self.evidence,
            "position": self.position.value,
            "path": list(self.path),
        }


class CommandRecord(NamedTuple):
    """A simple command the engine found, for display: argv as bash builds it."""

    argv: tuple[str, ...]
    span: Span
    position: Position
    path: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "argv": list(self.argv),
            "span": [self.span.start, self.span.end],
            "position": self.position.value,
            "path": list(self.path),
        }


@dataclass(frozen=True, slots=True)
class Verdict:
    """The engine's answer for one command string."""

    decision: Decision
    findings: tuple[Finding, ...]
    command: str
    commands: tuple[CommandRecord, ...] = ()

    @property
    def rule_ids(self) -> tuple[str, ...]:
        """Distinct rule ids, most severe first (the order of `findings`)."""
        return tuple(dict.fromkeys(finding.rule_id for finding in self.findings))

    def to_dict(self) -> dict[str, Any]:
        return {
            "decision": self.decision.value,
            "command": self.command,
            "findings": [finding.to_dict() for finding in self.findings],
            "commands": [record.to_dict() for record in self.commands],
        }
