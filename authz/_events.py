"""Structured decision events and the sinks that record them.

An event names the tool, the call, the role, the deciding rule and the
reason codes. It never carries the tool's input, user ids, OAuth ids or an
exception's message (which may quote any of those): only what an auditor
needs to see which rule fired for which kind of caller.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import Enum
from typing import Any, ClassVar, Protocol, TextIO


class ToolCallOutcome(str, Enum):
    """What happened to a tool call at the guardrail."""

    ALLOWED = "allowed"
    DENIED = "denied"
    FAILED_CLOSED = "failed_closed"
    """The guardrail failed and the call was denied (`fail_closed=True`)."""
    FAILED_OPEN = "failed_open"
    """The guardrail failed and the call was allowed (`fail_closed=False`)."""

    @property
    def allows(self) -> bool:
        return self in (ToolCallOutcome.ALLOWED, ToolCallOutcome.FAILED_OPEN)

    @property
    def log_level(self) -> int:
        return _LOG_LEVELS[self]


_LOG_LEVELS = {
    ToolCallOutcome.ALLOWED: logging.INFO,
    ToolCallOutcome.DENIED: logging.WARNING,
    ToolCallOutcome.FAILED_CLOSED: logging.ERROR,
    ToolCallOutcome.FAILED_OPEN: logging.ERROR,
}


def _utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@dataclass(frozen=True, slots=True)
class DecisionEvent:
    """One guardrail decision about one tool call, safe to log."""

    EVENT_NAME: ClassVar[str] = "authz.tool_call"

    outcome: ToolCallOutcome
    tool_name: str
    tool_call_id: str | None
    role: str
    rule_id: str | None
    reason_codes: tuple[str, ...]
    error_type: str | None = None
    """The class name of the guardrail's exception (MalformedDecisionError for a
    malformed answer), when the guardrail failed."""
    timestamp: str = field(default_factory=_utc_now)

    @property
    def allow(self) -> bool:
        return self.outcome.allows

    def to_dict(self) -> dict[str, Any]:
        return {
            "event": self.EVENT_NAME,
            "timestamp": self.timestamp,
            "outcome": self.outcome.value,
            "allow": self.allow,
            "tool_name": self.tool_name,
            "tool_call_id": self.tool_call_id,
            "role": self.role,
            "rule_id": self.rule_id,
            "reason_codes": list(self.reason_codes),
            "error_type": self.error_type,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True)


class DecisionSink(Protocol):
    """Anything that records a decision event: a plain callable will do."""

    def __call__(self, event: DecisionEvent) -> object: ...


SinkTarget = DecisionSink | logging.Logger
"""What a `sink=` parameter accepts: a callable sink or a standard logger."""


def deliver_event(sink: SinkTarget, event: DecisionEvent) -> None:
    """Hand `event` to a sink; a Logger gets the JSON line at the outcome's level.

    A sink's own exception propagates: a lost audit record should be loud.
    """
    if isinstance(sink, logging.Logger):
        sink.log(event.outcome.log_level, event.to_json(), extra={"authz_event": event.to_dict()})
    else:
        sink(event)


class JsonLinesDecisionSink:
    """Writes each event as one JSON object on its own line.

    Given a text stream it writes and flushes there (the caller owns and
    closes the stream). Given a path it appends to that file, opening it per
    event, so no handle is held and rotation by renaming is safe.
    """

    def __init__(self, destination: TextIO | str | os.PathLike[str]) -> None:
        self._destination = destination
        self._lock = threading.Lock()

    def __call__(self, event: DecisionEvent) -> None:
        line = event.to_json() + "\n"
        with self._lock:
            if isinstance(self._destination, str | os.PathLike):
                with open(self._destination, "a", encoding="utf-8") as log_file:
                    log_file.write(line)
            else:
                self._destination.write(line)
                self._destination.flush()
