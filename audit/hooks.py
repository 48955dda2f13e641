"""The framework-neutral hook an agent loop runs before a tool call.

`before_tool_call` audits the command of a shell tool call and answers allow,
allow with a warning, or block with a message for the model. It writes one
structured JSON audit record per call through `logging`. The LangChain
middlewares in `audit.middleware` and `authz.middleware` are thin adapters
around it; another agent loop calls it directly, and `audit-cmd hook AGENT`
runs it for coding agents that call a command before each tool call.

Its answer is a `HookDecision`: what the shell-command audit says about one
call (pass, warn or block, the message, the rules, the engine's verdict).
`authz.ToolCallDecision` is a different thing: what the authorization
guardrail says about any tool call for a given caller (allowed, denied,
failed closed or open, with reason codes). Judge commands with
`before_tool_call`; authorize callers with `authz.evaluate_tool_call`.

This module never imports an agent framework.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, cast

from ._engine import audit_command_cached
from ._model import Decision, Finding, Verdict
from ._policy import Policy
from .rules._core import find_rule

AUDIT_LOGGER_NAME = "agent_shell_guard.audit"
AUDIT_EVENT = "audit.tool_call"

# A record is for an auditor scanning a log, not a copy of the input: a
# 10,000-character command would drown the log line.
DEFAULT_LOGGED_COMMAND_CHARS = 200
# Evidence is quoted back to the model; the span of a huge command is noise.
_EVIDENCE_CHARS = 120
# A long command can hold hundreds of findings; the model needs the first few
# to change course, and the record keeps every rule id.
_EXPLAINED_FINDINGS = 10

_LOG_LEVELS = {
    Decision.PASS: logging.INFO,
    Decision.WARN: logging.WARNING,
    Decision.BLOCK: logging.WARNING,
}


def _audit_logger() -> logging.Logger:
    return logging.getLogger(AUDIT_LOGGER_NAME)


@dataclass(frozen=True, slots=True)
class ShellAuditConfig:
    """Which tool calls are shell commands, how to read them, and how to judge them.

    `shell_tools` names the tools whose calls are audited (every other tool
    passes untouched); `command_key` is the argument holding the command;
    `policy` is the engine policy (`None`: the default policy); records go to
    `logger` with the command cut to `logged_command_chars` characters.
    """

    shell_tools: tuple[str, ...] = ("bash",)
    command_key: str = "command"
    policy: Policy | None = None
    logger: logging.Logger = field(default_factory=_audit_logger)
    logged_command_chars: int = DEFAULT_LOGGED_COMMAND_CHARS

    def __post_init__(self) -> None:
        # The annotations are promises a caller without a type checker can
        # break; each field is checked as the plain object it really is.
        given = cast(object, self.shell_tools)
        # A bare string would otherwise be read as a collection of one-letter
        # tool names, silently auditing nothing.
        if isinstance(given, str) or not isinstance(given, Iterable):
            raise TypeError(
                f"shell_tools must be a collection of tool names such as ('bash',), got {type(given).__name__}"
            )
        shell_tools = tuple(cast("Iterable[object]", given))
        if not shell_tools or not all(isinstance(name, str) and name for name in shell_tools):
            raise ValueError(f"shell_tools must be non-empty tool names, got {shell_tools!r}")
        object.__setattr__(self, "shell_tools", shell_tools)
        command_key = cast(object, self.command_key)
        if not isinstance(command_key, str) or not command_key:
            raise ValueError(f"command_key must be a non-empty string, got {command_key!r}")
        policy = cast(object, self.policy)
        if policy is not None and not isinstance(policy, Policy):
            raise TypeError(f"policy must be an audit Policy or None, got {type(policy).__name__}")
        logger = cast(object, self.logger)
        if not isinstance(logger, logging.Logger):
            raise TypeError(f"logger must be a logging.Logger, got {type(logger).__name__}")
        chars = cast(object, self.logged_command_chars)
        if isinstance(chars, bool) or not isinstance(chars, int) or chars < 1:
            raise ValueError(f"logged_command_chars must be a positive integer, got {chars!r}")


DEFAULT_CONFIG = ShellAuditConfig()


@dataclass(frozen=True, slots=True)
class HookDecision:
    """What the shell-command audit says about one tool call (not `authz.ToolCallDecision`, the guardrail's).

    `decision` is pass (run it), warn (run it and append `message` to its
    output) or block (do not run it; send `message` to the model instead).
    """

    decision: Decision
    message: str
    """Block: why, which rules, and safer alternatives. Warn: the warnings. Pass: empty."""
    rule_ids: tuple[str, ...] = ()
    verdict: Verdict | None = None
    """The engine's verdict when the call was a shell command; None for other tools."""

    @property
    def allow(self) -> bool:
        return self.decision is not Decision.BLOCK


@dataclass(frozen=True, slots=True)
class _ShellCommand:
    """The command a shell tool call carries, or what is wrong with its arguments."""

    text: str
    problem: str | None

    @classmethod
    def from_args(cls, tool_args: object, key: str) -> _ShellCommand:
        expected = f"the shell command must be a string in the {key!r} argument"
        if not isinstance(tool_args, Mapping):
            return cls(
                "",
                f"the tool arguments are not an object (got {type_name(tool_args)}); {expected}",
            )
        arguments = cast("Mapping[object, object]", tool_args)
        if key not in arguments:
            return cls("", f"the {key!r} argument is missing; {expected}")
        command = arguments[key]
        if not isinstance(command, str):
            return cls("", f"the {key!r} argument is not a string (got {type_name(command)}); {expected}")
        return cls(command, None)


def command_problem(tool_args: object, key: str = "command") -> str | None:
    """What is wrong with a shell tool call's arguments (not a mapping, no string `key`), or None."""
    return _ShellCommand.from_args(tool_args, key).problem


def type_name(value: object) -> str:
    """How a message names the type of a value it did not expect."""
    return "None" if value is None else type(value).__name__


def thread_id_from(source: object) -> str | None:
    """The thread id in a context mapping (`thread_id`) or a run config (`configurable.thread_id`)."""
    if not isinstance(source, Mapping):
        return None
    context = cast("Mapping[object, object]", source)
    thread_id = context.get("thread_id")
    configurable = context.get("configurable")
    if thread_id is None and isinstance(configurable, Mapping):
        thread_id = cast("Mapping[object, object]", configurable).get("thread_id")
    return None if thread_id is None else str(thread_id)


def _printable_excerpt(text: str) -> str:
    if len(text) > _EVIDENCE_CHARS:
        text = text[: _EVIDENCE_CHARS - 3] + "..."
    return "".join(char if char.isprintable() else repr(char)[1:-1] for char in text)


def explain_findings(findings: tuple[Finding, ...]) -> str:
    """One line per finding (the first few), with each rule's safer alternative once: the text a model reads."""
    lines: list[str] = []
    advised: set[str] = set()
    for finding in findings[:_EXPLAINED_FINDINGS]:
        where = f" (at `{_printable_excerpt(finding.evidence)}`)" if finding.evidence.strip() else ""
        lines.append(f"- {finding.rule_id} {finding.rule_name} ({finding.severity.value}): {finding.message}{where}")
        rule = find_rule(finding.rule_id)
        if rule is not None and finding.rule_id not in advised:
            advised.add(finding.rule_id)
            lines.append(f"  Safer alternative: {rule.safer_alternative}")
    unexplained = findings[_EXPLAINED_FINDINGS:]
    if unexplained:
        rule_ids = ", ".join(dict.fromkeys(finding.rule_id for finding in unexplained))
        lines.append(f"- and {len(unexplained)} more findings ({rule_ids})")
    return "\n".join(lines)


def _message(verdict: Verdict, problem: str | None) -> str:
    if verdict.decision is Decision.PASS:
        return ""
    if verdict.decision is Decision.BLOCK:
        headline = "Blocked by agent-shell-guard: the command was not run"
    else:
        headline = "Warning from agent-shell-guard: the command ran, but it is risky"
    headline += f" ({problem})." if problem else "."
    return f"{headline}\n{explain_findings(verdict.findings)}"


def _utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _write_record(
    config: ShellAuditConfig,
    *,
    tool_name: str,
    tool_call_id: str | None,
    thread_id: str | None,
    decision: HookDecision,
    command: _ShellCommand | None,
) -> None:
    logged = config.logged_command_chars
    record: dict[str, Any] = {
        "event": AUDIT_EVENT,
        "timestamp": _utc_now(),
        "thread_id": thread_id,
        "tool_name": tool_name,
        "tool_call_id": tool_call_id,
        "audited": command is not None,
        "decision": decision.decision.value,
        "rule_ids": list(decision.rule_ids),
        "command": None if command is None else command.text[:logged],
        "command_length": None if command is None else len(command.text),
        "command_truncated": command is not None and len(command.text) > logged,
        "input_problem": None if command is None else command.problem,
    }
    level = _LOG_LEVELS[decision.decision] if command is not None else logging.DEBUG
    config.logger.log(level, json.dumps(record, sort_keys=True), extra={"audit_record": record})


def before_tool_call(
    tool_name: str,
    tool_args: object,
    context: Mapping[str, Any] | None = None,
    *,
    config: ShellAuditConfig = DEFAULT_CONFIG,
    tool_call_id: str | None = None,
) -> HookDecision:
    """Decide whether a tool call may run, auditing it when it is a shell command.

    A tool not named in `config.shell_tools` passes untouched. For a shell
    tool the command is `tool_args[config.command_key]`; arguments that are
    not a mapping, or a command that is missing or not a string, are audited
    as the empty command (which the default policy blocks) and the message
    says what was wrong. `context` supplies the thread id for the audit
    record (`thread_id`, or `configurable.thread_id` in a run config).
    Exactly one record is logged per call.
    """
    command: _ShellCommand | None = None
    decision = HookDecision(Decision.PASS, "")
    if tool_name in config.shell_tools:
        command = _ShellCommand.from_args(tool_args, config.command_key)
        verdict = audit_command_cached(command.text, policy=config.policy)
        decision = HookDecision(verdict.decision, _message(verdict, command.problem), verdict.rule_ids, verdict)
    _write_record(
        config,
        tool_name=tool_name,
        tool_call_id=tool_call_id,
        thread_id=thread_id_from(context),
        decision=decision,
        command=command,
    )
    return decision


__all__ = [
    "AUDIT_EVENT",
    "AUDIT_LOGGER_NAME",
    "DEFAULT_CONFIG",
    "DEFAULT_LOGGED_COMMAND_CHARS",
    "HookDecision",
    "ShellAuditConfig",
    "before_tool_call",
    "command_problem",
    "explain_findings",
    "thread_id_from",
    "type_name",
]
