"""Rules the engine emits itself: input validation, parse trouble, limits."""

from __future__ import annotations

from .._model import Severity
from ._rule import EMITTED_BY_ENGINE, Example, Inspects, rule

EMPTY_COMMAND = rule(
    id="IN001",
    name="empty-command",
    severity=Severity.HIGH,
    summary="The command is empty or only whitespace.",
    rationale="An empty tool call is a malformed request; running it tells the model nothing and hides the error.",
    safer_alternative="Send the command you meant to run.",
    inspects=Inspects.INPUT,
    must_match=("", "   ", "\n\t \n"),
    must_not_match=("ls", ": "),
)(EMITTED_BY_ENGINE)

NULL_BYTE = rule(
    id="IN002",
    name="null-byte-in-command",
    severity=Severity.HIGH,
    summary="The command contains a NUL byte.",
    rationale=(
        "bash cannot carry a NUL in a command string; whatever a layer below does with it "
        "(truncation, rejection) differs from what was audited."
    ),
    safer_alternative="Remove the NUL byte; pass binary data through a file.",
    inspects=Inspects.INPUT,
    must_match=("ls\x00", "echo a\x00; rm -rf /"),
    must_not_match=("echo '\\0'", "printf '\\x00' > f"),
)(EMITTED_BY_ENGINE)

COMMAND_TOO_LONG = rule(
    id="IN003",
    name="command-too-long",
    severity=Severity.HIGH,
    summary="The command is longer than the policy's max_length.",
    rationale="Very long commands hide payloads from review and make analysis cost unbounded.",
    safer_alternative="Write the script to a file in the workspace and run the file.",
    inspects=Inspects.INPUT,
    must_match=("echo " + "a" * 10_000, Example("echo hello world", {"limits": {"max_length": 10}})),
    must_not_match=("echo " + "a" * 9_000, "ls"),
)(EMITTED_BY_ENGINE)

BUDGET_EXCEEDED = rule(
    id="IN004",
    name="analysis-budget-exceeded",
    severity=Severity.HIGH,
    summary="Parsing and analysis did not finish within the budget (its work steps, or the CPU-time backstop).",
    rationale=(
        "A command the engine could not finish judging is not known to be safe: a brace expansion of a "
        "million words, a chain of variables that doubles a value at every step, thousands of heredocs."
    ),
    safer_alternative="Split the command into smaller commands; write long loops and generated lists as a script.",
    inspects=Inspects.LIMIT,
    must_match=(
        "echo {1..1000000}",
        "rm -rf /tmp/x{1..9999}{a,b,c,d,e,f}",
        Example("a | " * 2_400 + "a", {"limits": {"max_steps": 100}}),
        Example("cat <<" * 1_600, {"limits": {"max_steps": 100}}),
    ),
    must_not_match=("ls -la", "git status"),
)(EMITTED_BY_ENGINE)

NESTING_TOO_DEEP = rule(
    id="IN005",
    name="code-nesting-too-deep",
    severity=Severity.HIGH,
    summary="Code strings are nested deeper than the policy's max_depth.",
    rationale="Each level (bash -c, eval, a heredoc into a shell) hides code from review; past the limit it is not audited.",
    safer_alternative="Run the inner command directly instead of wrapping it in more shells.",
    inspects=Inspects.LIMIT,
    must_match=(
        Example("bash -c \"bash -c 'ls'\"", {"limits": {"max_depth": 1}}),
        Example("eval \"eval 'eval ls'\"", {"limits": {"max_depth": 2}}),
    ),
    must_not_match=("bash -c 'ls'", "eval \"bash -c 'ls'\""),
)(EMITTED_BY_ENGINE)

ENGINE_FAILURE = rule(
    id="IN006",
    name="engine-failure",
    severity=Severity.HIGH,
    summary="The engine itself failed while judging the command (a bug in a rule or in the analysis).",
    rationale=(
        "A command the engine could not finish judging is not known to be safe. The failure is a bug: "
        "the verdict names the exception, and the `agent_shell_guard.engine` logger records the traceback."
    ),
    safer_alternative="Report the command and the logged traceback; until it is fixed, run a simpler form of it.",
    inspects=Inspects.LIMIT,
    # No honest input makes a correct engine fail: tests/audit/test_engine_failure.py injects the fault.
    must_match=(),
    must_not_match=("ls -la", "git status"),
)(EMITTED_BY_ENGINE)

PARSE_TROUBLE = rule(
    id="PA001",
    name="unparseable-command",
    severity=Severity.MEDIUM,
    summary="The parsers could not read part of the command, or read it differently.",
    rationale=(
        "Where the parsers fail, the engine falls back to a cruder reading; bash may execute "
        "something other than what was audited."
    ),
    safer_alternative="Fix the syntax (unbalanced quotes, missing `fi`/`done`) or split the command.",
    inspects=Inspects.PARSE,
    must_match=("echo 'unterminated", "if then fi", "ls )"),
    must_not_match=("cat <<'EOF' 2>&1 | tail -5\nhello\nEOF", "cat <> file", "echo $((1 << 2))"),
)(EMITTED_BY_ENGINE)

ENGINE_RULES = (
    EMPTY_COMMAND,
    NULL_BYTE,
    COMMAND_TOO_LONG,
    BUDGET_EXCEEDED,
    NESTING_TOO_DEEP,
    ENGINE_FAILURE,
    PARSE_TROUBLE,
)
