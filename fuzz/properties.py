"""The properties, as plain checks that raise AssertionError.

The hypothesis tests (`fuzz_*.py`) and the campaign (`python -m fuzz.campaign`)
call the same functions, so a campaign failure reproduces as a test failure.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from functools import cache

from audit import Decision, Policy, Position, Verdict, audit_command, default_policy
from audit._syntax import Budget, BudgetExceeded
from audit.rules import REGISTRY
from corpus import Case, load_corpus

from .oracle import REAL_PROGRAMS, SANDBOX_SHELL, BashRun, marker_for
from .parsers import (
    bashlex_commands,
    bashlex_supports,
    shfmt_commands,
    tree_sitter_commands,
)

# The budget is the auditing thread's CPU time less full garbage collections
# (a host's whole heap, not the audit's cost); it is measured the same way
# here, with a generous margin: the engine checks its deadline between steps.
CPU_MARGIN_MS = 100.0
# Wall time may stall on a loaded CI machine; this only catches a runaway.
WALL_LIMIT_MS = 2_000.0
HARMLESS_PREFIXES = ("true; ", "cd /tmp && ", ": ; ", "echo start; ", "set -e\n", "ls > /dev/null; ", "export LANG=C; ")
# A substitution in value position passes by itself; these embeddings add
# findings of their own (sudo warns), nothing else may appear.
EMBEDDING_RULES = frozenset({"PR001"})
_ANALYSIS_LIMITS = frozenset({"IN003", "IN004", "IN005"})


def bash_accepts(source: str) -> bool:
    """`bash -n`: read the commands, execute nothing. (An argument cannot hold a NUL.)"""
    if "\x00" in source:
        return False
    completed = subprocess.run(["bash", "-n", "-c", source], check=False, capture_output=True, timeout=10)
    return completed.returncode == 0


def labels(verdict: Verdict) -> tuple[Decision, frozenset[str]]:
    return verdict.decision, frozenset(verdict.rule_ids)


def check_verdict_is_consistent(source: str, verdict: Verdict) -> None:
    """Decision from the strictest finding; spans, evidence and ids that hold together."""
    strictest = max((finding.severity.decision for finding in verdict.findings), default=Decision.PASS)
    assert verdict.decision is strictest, f"decision {verdict.decision} but strictest finding {strictest}"
    for finding in verdict.findings:
        assert REGISTRY.get(finding.rule_id) is not None, f"unknown rule id {finding.rule_id}"
        span = finding.span
        assert 0 <= span.start <= span.end <= len(source), f"{finding.rule_id} span {span} outside the input"
        assert finding.evidence == source[span.start : span.end], f"{finding.rule_id} evidence is not the span's text"
    for record in verdict.commands:
        assert 0 <= record.span.start <= record.span.end <= len(source), f"command {record.argv} span outside the input"


def check_total_and_bounded(source: str, policy: Policy | None = None) -> Verdict:
    """Any text gets a consistent verdict; an engine that runs over its budget says so (IN004)."""
    budget_ms = (policy or default_policy()).limits.time_budget_ms
    modules = len(sys.modules)
    wall_start, cpu = time.perf_counter(), Budget(budget_ms / 1000)
    verdict = audit_command(source, policy=policy)
    cpu_ms = cpu.spent() * 1000
    wall_ms = (time.perf_counter() - wall_start) * 1000
    assert isinstance(verdict, Verdict)
    check_verdict_is_consistent(source, verdict)
    if len(sys.modules) > modules:
        # The first audit in a process that needs a parser, another language's analysis or SQL
        # loads it (up to 200 ms of CPU); the budget pauses for that one-time work, these clocks
        # do not. Measured again, the audit pays only its own work.
        wall_start, cpu = time.perf_counter(), Budget(budget_ms / 1000)
        audit_command(source, policy=policy)
        cpu_ms = cpu.spent() * 1000
        wall_ms = (time.perf_counter() - wall_start) * 1000
    if wall_ms > WALL_LIMIT_MS:
        # A loaded host can keep the process off the CPU for seconds; an audit that hangs hangs again.
        wall_start = time.perf_counter()
        audit_command(source, policy=policy)
        wall_ms = (time.perf_counter() - wall_start) * 1000
    assert wall_ms <= WALL_LIMIT_MS, f"took {wall_ms:.0f} ms of wall time, twice"
    if cpu_ms > budget_ms + CPU_MARGIN_MS:
        assert verdict.decision is Decision.BLOCK and "IN004" in verdict.rule_ids, (
            f"used {cpu_ms:.0f} ms of CPU against a {budget_ms:g} ms budget without IN004"
        )
    return verdict


def check_stays_blocked(payload_rules: frozenset[str], embedded: str) -> None:
    """Embedded where bash runs it, a blocked payload stays blocked by the same rules
    (or by an analysis limit: too long, too slow or nested too deep to judge)."""
    verdict = audit_command(embedded)
    assert verdict.decision is Decision.BLOCK, f"{embedded!r} is {verdict.decision.value} {list(verdict.rule_ids)}"
    if set(verdict.rule_ids) & _ANALYSIS_LIMITS:
        return
    lost = payload_rules - set(verdict.rule_ids)
    assert not lost, f"{embedded!r} lost {sorted(lost)} (has {list(verdict.rule_ids)})"


def check_value_position_passes(source: str) -> None:
    """A risky substitution in value position is no command-position finding, nor any other."""
    rule_ids = set(audit_command(source).rule_ids)
    assert "CP001" not in rule_ids, f"{source!r}: CP001 for a substitution in value position"
    assert rule_ids <= EMBEDDING_RULES, f"{source!r}: unexpected findings {sorted(rule_ids)}"


def check_same_verdict(canonical: str, variant: str) -> None:
    """Two spellings of the same argv get the same decision and rules."""
    expected = labels(audit_command(canonical))
    actual = labels(audit_command(variant))
    assert actual == expected, (
        f"{variant!r} gives {actual[0].value} {sorted(actual[1])}, "
        f"but {canonical!r} gives {expected[0].value} {sorted(expected[1])}"
    )


def check_prefix_never_lowers(prefix: str, source: str) -> None:
    before = audit_command(source).decision
    after = audit_command(prefix + source).decision
    assert after >= before, f"{prefix!r} lowered {source!r} from {before.value} to {after.value}"


def check_parsers_agree_or_parse_finding(source: str) -> None:
    """tree-sitter agrees with mvdan/sh (or, without it, bashlex) on the commands, or PA001.

    When tree-sitter and mvdan/sh agree and only bashlex differs, bashlex is
    the odd one out: that is bashlex's bug, not the engine's.
    """
    try:
        engine_view = tree_sitter_commands(source)
    except BudgetExceeded:
        # More than the step limit to parse: the engine cannot read it either, and must say so.
        rule_ids = audit_command(source).rule_ids
        assert "IN004" in rule_ids, f"{source!r}: parsing exceeds the step limit, but the verdict has {list(rule_ids)}"
        return
    reference = shfmt_commands(source)
    name = "mvdan/sh"
    if reference is None and bashlex_supports(source):
        reference, name = bashlex_commands(source), "bashlex"
    if reference is None or reference == engine_view:
        return
    rule_ids = audit_command(source).rule_ids
    if _ANALYSIS_LIMITS.intersection(rule_ids):
        return  # the engine stopped before its parse findings, and blocked: it claims no reading
    assert "PA001" in rule_ids, (
        f"{source!r}: tree-sitter reads commands at {sorted(engine_view)}, {name} at {sorted(reference)}; "
        f"no parse finding (rules {list(rule_ids)})"
    )


# -- ground truth from bash ----------------------------------------------------------------------

_SUBSTITUTION_LABELS = frozenset({"$(...)", "`...`"})
_FD_PATH = re.compile(r"^/dev/fd/[0-9]+$")
_PROCESS_SUBSTITUTION = "<process substitution>"
# Rules under which a substitution's output legitimately runs from a value
# position: through a variable, eval, a code string, a document or a pipe.
_OUTPUT_RUN_ELSEWHERE = frozenset({"TA001", "TA002", "EX001", "EX002", "EX003", "EX005"})


# Keywords and builtins that run their operand: bash executes the operand itself.
_RUN_THEIR_OPERAND = frozenset({"time", "command", "exec", "builtin", "coproc"})


def _program_name(argv: tuple[str, ...]) -> str:
    """The program bash itself starts for a record's argv."""
    words = list(argv)
    while words and words[0] in _RUN_THEIR_OPERAND:
        keyword = words.pop(0)
        while words and words[0].startswith("-"):
            option = words.pop(0)
            if keyword == "exec" and option == "-a" and words:
                words.pop(0)
    return words[0].rsplit("/", 1)[-1] if words else ""


def _command_names(verdict: Verdict) -> frozenset[str]:
    """The programs the engine found. Behind a wrapper the sandbox really runs
    (`timeout 30 make`), any of the wrapper's words may be the program it starts,
    and its code option (`flock F -c CODE`) starts `$SHELL`: the engine records
    the wrapper's whole argv as one command."""
    names: set[str] = set()
    for record in verdict.commands:
        if not record.argv:
            continue
        program = _program_name(record.argv)
        names.add(program)
        if program in REAL_PROGRAMS:
            names.update(word.rsplit("/", 1)[-1] for word in record.argv[1:])
            names.add(SANDBOX_SHELL)
    return frozenset(names)


def _has_dynamic_name(verdict: Verdict) -> bool:
    return any(record.argv and ("$" in record.argv[0] or "`" in record.argv[0]) for record in verdict.commands)


def check_bash_ran_only_what_the_engine_found(run: BashRun, verdict: Verdict) -> None:
    """What real bash did, against the verdict.

    Whenever bash ran the output of a fetcher, decoder or interpreter as a
    command, the engine blocks. Every program bash ran is one the engine
    found (by name), unless the engine already flags the command, or it found
    a command whose name is only known at run time.
    """
    if run.executed_markers:
        assert verdict.decision is Decision.BLOCK, (
            f"{run.command!r}: bash ran the output of {sorted(run.executed_markers)} as a command, "
            f"but the verdict is {verdict.decision.value} {list(verdict.rule_ids)}"
        )
    if verdict.decision is not Decision.PASS or _has_dynamic_name(verdict):
        return
    found = _command_names(verdict)
    unseen = sorted({execution.name for execution in run.programs if execution.name} - found)
    assert not unseen, f"{run.command!r}: bash ran {unseen}, which the engine did not find (it passes the command)"


def _comparable(argv: tuple[str, ...]) -> tuple[str, ...]:
    """A process substitution is `<(...)` to the engine and `/dev/fd/N` to the program."""
    return tuple(
        _PROCESS_SUBSTITUTION if _FD_PATH.match(word) or word.startswith(("<(", ">(")) else word for word in argv
    )


def check_engine_matches_bash_exactly(
    run: BashRun, verdict: Verdict, programs: frozenset[str], risky_programs: frozenset[str]
) -> None:
    """For a script whose every command runs: the engine's commands are bash's, argv for argv
    (among `programs`), and a risky substitution the engine puts in command position really had
    its output run (`risky_programs` print the markers that show it)."""
    assert not run.cut_short, f"{run.command!r}: the sandbox run was cut short"
    executed = {_comparable(execution.argv) for execution in run.programs if execution.name in programs}
    found = {_comparable(record.argv) for record in verdict.commands if record.argv and record.argv[0] in programs}
    assert found == executed, (
        f"{run.command!r}: only the engine found {sorted(found - executed)}; only bash ran {sorted(executed - found)}"
    )
    for record in verdict.commands:
        if not record.argv or record.argv[0] not in risky_programs or not record.path:
            continue
        if record.path[-1] not in _SUBSTITUTION_LABELS:
            continue
        marker = marker_for(record.argv[0], record.argv)
        ran = marker in run.executed_markers
        if record.position is Position.COMMAND:
            assert ran, (
                f"{run.command!r}: the engine says the output of {record.argv} is a command; bash did not run it"
            )
        elif ran:
            assert set(verdict.rule_ids) & _OUTPUT_RUN_ELSEWHERE, (
                f"{run.command!r}: bash ran the output of {record.argv} ({record.position.value} position) "
                f"and no rule says how (rules {list(verdict.rule_ids)})"
            )


# -- seeds from the corpus ----------------------------------------------------------------------

_NOT_EMBEDDABLE_RULES = frozenset({"PA001", "IN001", "IN002", "IN003", "IN004", "IN005"})


@cache
def corpus_cases() -> tuple[Case, ...]:
    """The reviewed corpus, less its known gaps (those are the gap report's business)."""
    return tuple(case for case in load_corpus() if not case.todo)


@cache
def blocked_seeds() -> tuple[Case, ...]:
    """Reviewed blocked commands that embed cleanly: valid bash, default policy, no input or parse rules."""
    return tuple(
        case
        for case in corpus_cases()
        if case.decision is Decision.BLOCK
        and case.policy_document is None
        and not case.rules & _NOT_EMBEDDABLE_RULES
        and bash_accepts(f"{{ {case.command}\n}}")
    )


# -- hidden commands and fork bombs (issue 19) ----------------------------------------------------


def check_hidden_command_keeps_its_findings(
    payload: str, payload_rules: frozenset[str], adds: frozenset[str], hidden: str
) -> None:
    """Hidden from a reader (fuzz/obfuscations.py), a command keeps its findings and gains only
    the hiding's own (a privilege change behind pkexec...)."""
    rules = frozenset(audit_command(hidden).rule_ids)
    expected = payload_rules | adds
    assert rules == expected, (
        f"{hidden!r} gives {sorted(rules)}, but it runs {payload!r}, which gives {sorted(payload_rules)}"
        + (f" (and hiding it adds {sorted(adds)})" if adds else "")
    )


def check_bash_ran_the_hidden_payload(payload_run: BashRun, hidden_run: BashRun) -> None:
    """bash ran every program of the payload when it ran the hidden command: the rewrite is faithful."""
    expected = {_comparable(execution.argv) for execution in payload_run.executions}
    ran = {_comparable(execution.argv) for execution in hidden_run.executions}
    missing = sorted(expected - ran)
    assert not missing, f"{hidden_run.command!r} did not run {missing}, which {payload_run.command!r} runs"


FORK_BOMB_RULES = frozenset({"DO001", "DO002"})
# A bomb's marked body runs this many times within a second or two (about 90 copies in
# half a second under the sandbox's process limit); a bounded neighbour runs it a few times.
RUNAWAY_EXECUTIONS = 50


def check_fork_bomb_verdict(script: str, is_bomb: bool) -> None:
    """A fork bomb is a DO001/DO002 finding; a neighbour that ends is neither."""
    rules = frozenset(audit_command(script).rule_ids)
    if is_bomb:
        assert rules & FORK_BOMB_RULES, (
            f"{script!r} starts copies of itself without end, but its rules are {sorted(rules)}"
        )
    else:
        assert not rules & FORK_BOMB_RULES, f"{script!r} ends, but it gets {sorted(rules & FORK_BOMB_RULES)}"


def check_bash_ran_away(run: BashRun, is_bomb: bool) -> None:
    """The sandbox had to stop a bomb, and ran a neighbour to its end: the generator's label is bash's."""
    ran_away = run.cut_short or len(run.executions) >= RUNAWAY_EXECUTIONS
    assert ran_away == is_bomb, (
        f"{run.command!r} ran {len(run.executions)} programs"
        + (" and was cut short" if run.cut_short else "")
        + f", but the generator calls it {'a bomb' if is_bomb else 'bounded'}"
    )
