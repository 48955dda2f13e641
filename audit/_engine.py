"""`audit_command`: the pipeline. Validate the input, parse it (`_syntax`),
analyse it (`_analysis`), run the rules on what the analysis finds (`rules`),
and decide (`_verdict`)."""

from __future__ import annotations

from ._analysis import Analyzer, Arg, Autorun, Location, plain_command
from ._budget import Budget
from ._caches import POLICY_DISPATCHES, Memo, VerdictCache
from ._model import CommandRecord, Position, Span, Verdict
from ._policy import Policy, default_policy
from ._syntax import BudgetExceeded, Origin, ParseResult, parse
from ._verdict import Findings
from .rules import (
    BUDGET_EXCEEDED,
    COMMAND_TOO_LONG,
    EMPTY_COMMAND,
    ENGINE_FAILURE,
    NESTING_TOO_DEEP,
    NULL_BYTE,
    Dispatch,
    RuleRunner,
    autorun_location,
)

_TOP = Location(Position.COMMAND, ())
_INPUT = Location(Position.INPUT, ())
_PARSE = Location(Position.PARSE, ())

# Keyed by id(): a Policy holds mappings and cannot be hashed. The policy is
# kept alongside, so an id reused by a new policy is told apart.
_DISPATCHES: Memo[int, tuple[Policy, Dispatch]] = Memo(POLICY_DISPATCHES)


def _dispatch_for(policy: Policy) -> Dispatch:
    cached = _DISPATCHES.get(id(policy))
    if cached is not None and cached[0] is policy:
        return cached[1]
    return _DISPATCHES.remember(id(policy), (policy, Dispatch(policy.rule_settings, policy.tables)))[1]


_VERDICTS: Memo[int, tuple[Policy, VerdictCache[str, Verdict]]] = Memo(POLICY_DISPATCHES)


def audit_command_cached(command: str, *, policy: Policy | None = None) -> Verdict:
    """`audit_command`, answered from the policy's verdict cache when the same
    command was judged under the same policy before.

    A verdict depends only on the command and the policy, so a command judged
    by two layers (the middleware, then the sandbox) is judged once. Verdicts
    the CPU-time backstop may have decided ([IN004]) are not kept.
    """
    policy = default_policy() if policy is None else policy
    checked = isinstance(command, str) and isinstance(policy, Policy)  # pyright: ignore[reportUnnecessaryIsInstance]
    if not checked or policy.limits.verdict_cache == 0:
        return audit_command(command, policy=policy)  # a TypeError for bad arguments, as there
    held = _VERDICTS.get(id(policy))
    if held is None or held[0] is not policy:
        held = _VERDICTS.remember(id(policy), (policy, VerdictCache(policy.limits.verdict_cache)))
    cache = held[1]
    verdict = cache.get(command)
    if verdict is None:
        verdict = audit_command(command, policy=policy)
        if BUDGET_EXCEEDED.id not in verdict.rule_ids:
            cache.remember(command, verdict)
    return verdict


def audit_command(command: str, *, policy: Policy | None = None) -> Verdict:
    """Judge `command` as bash would run it: block, warn or pass, with findings."""
    # Callers without a type checker pass anything: bad arguments fail clearly here.
    if not isinstance(command, str):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise TypeError(f"command must be a str, not {type(command).__name__}")
    if policy is None:
        policy = default_policy()
    elif not isinstance(policy, Policy):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise TypeError(f"policy must be an audit.Policy, not {type(policy).__name__}")
    findings = Findings(command)
    runner = RuleRunner(findings, _dispatch_for(policy), policy.limits.max_depth)
    whole = Span(0, len(command))
    if not command.strip():
        runner.emit(EMPTY_COMMAND, whole, "empty command", _INPUT)
        return findings.verdict()
    if "\x00" in command:
        offset = command.index("\x00")
        runner.emit(NULL_BYTE, Span(offset, offset + 1), "null byte in command", _INPUT)
        return findings.verdict()
    if len(command) > policy.limits.max_length:
        message = f"command too long: {len(command)} characters, the limit is {policy.limits.max_length}"
        runner.emit(COMMAND_TOO_LONG, whole, message, _INPUT)
        return findings.verdict()
    records: list[CommandRecord] = []
    try:
        _judge(command, policy, runner, records)
    except BudgetExceeded as exceeded:
        runner.emit(BUDGET_EXCEEDED, whole, str(exceeded), _PARSE)
    except RecursionError:
        runner.emit(NESTING_TOO_DEEP, whole, "the command nests too deeply to analyse", _PARSE)
    except MemoryError:
        # The budget bounds what an audit materialises, so this means the host
        # itself is short of memory: still a verdict, and never a pass.
        runner.emit(BUDGET_EXCEEDED, whole, "the analysis ran out of memory", _PARSE)
    except Exception as error:
        # A bug in a rule or in the analysis: the verdict is still a verdict, and never a
        # pass. Tests and fuzz campaigns fail on this finding, so a bug is not hidden.
        _log_failure(command, error)
        runner.emit(ENGINE_FAILURE, whole, _failure_message(error), _PARSE)
    return findings.verdict(tuple(records))


ENGINE_LOGGER_NAME = "agent_shell_guard.engine"
_FAILURE_DETAIL_LIMIT = 200


def _failure_message(error: Exception) -> str:
    detail = str(error)
    if len(detail) > _FAILURE_DETAIL_LIMIT:
        detail = detail[:_FAILURE_DETAIL_LIMIT] + "..."
    return f"the engine failed while judging this command ({type(error).__name__}: {detail}); blocked, not guessed"


def _log_failure(command: str, error: Exception) -> None:
    # Imported here: a correct engine never gets here, and `import audit` stays lighter without it.
    import logging

    logging.getLogger(ENGINE_LOGGER_NAME).error("the engine failed on %r", command[:500], exc_info=error)


def _judge(command: str, policy: Policy, runner: RuleRunner, records: list[CommandRecord]) -> None:
    """Hand what `command` runs to the rules, and the commands found to `records` (as far as the
    audit got when it stops early)."""
    plain = plain_command(command, policy.tables, policy.limits.max_steps)
    if plain is not None:
        # `ls -la`, `git status`: the rules judge the one command, without the walk (`_plain_lane`).
        runner.command(plain.subject)
        records.append(plain.record)
        return
    budget = Budget(policy.limits.time_budget_ms / 1000.0, policy.limits.max_steps)

    def parse_code(text: str, origin: Origin) -> ParseResult:
        return parse(text, budget=budget, origin=origin)

    def runs_later(target: Arg, cwd: str | None) -> Autorun | None:
        return autorun_location(target, policy.tables, cwd)

    analyzer = Analyzer(policy.tables, policy.limits.max_depth, budget, runner, parse_code, runs_later)
    try:
        result = parse(command, budget=budget)
        if result.troubles:
            runner.parse_troubles(result.troubles, _TOP)
        analyzer.run(result.script)
        for alternative in result.alternatives:
            analyzer.run(alternative)
    finally:
        records.extend(analyzer.records)
