"""The places bash runs a command: each embedding puts a payload somewhere it executes.

Closing tokens always follow a newline, so a payload that ends with a heredoc
body keeps its delimiter line to itself.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from audit._syntax import Budget, ast, parse

from .bash_grammar import double_quoted, single_quoted


@dataclass(frozen=True, slots=True)
class Embedding:
    name: str
    embed: Callable[[str], str]
    simple_only: bool = False
    """Wrappers take a single simple command, not a list or a compound command."""


def heredoc_into_bash(payload: str) -> str:
    """`bash <<'DELIM'` with a delimiter the payload does not use, so nesting it
    in itself does not end the outer body at the inner delimiter line."""
    delimiter = "OUTER_EOF"
    while delimiter in payload:
        delimiter += "_"
    return f"bash <<'{delimiter}'\n{payload}\n{delimiter}"


# Words whose meaning a backslash changes: escaped, a reserved word is an
# ordinary command name and `\x=1` is a command, not an assignment.
_PLAIN_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*(?=[ \t\n;&|]|\Z)")
RESERVED_WORDS = frozenset(
    {"if", "then", "elif", "else", "fi", "case", "esac", "for", "select", "while", "until", "do", "done",
     "in", "function", "time", "coproc", "{", "}", "!", "[[", "]]"}
)  # fmt: skip


def escaped_name(payload: str) -> str:
    """The payload with its first letter backslash-escaped when that leaves its meaning alone (`\\rm -rf /`)."""
    match = _PLAIN_NAME.match(payload)
    if match is None or match.group() in RESERVED_WORDS:
        return payload
    return "\\" + payload


EMBEDDINGS: tuple[Embedding, ...] = (
    Embedding("after ;", lambda payload: f"true; {payload}"),
    # Not `cd DIR &&`: a payload's relative paths would name other files (`cd /tmp && rm -rf ../*` is rm -rf /*).
    Embedding("after &&", lambda payload: f"ls && {payload}"),
    Embedding("after ||", lambda payload: f"false || {payload}"),
    Embedding("after |", lambda payload: f"echo hi | {payload}"),
    Embedding("after &", lambda payload: f"sleep 1 & {payload}"),
    Embedding("after a newline", lambda payload: f"ls\n{payload}"),
    # `\rm` at the start of a line: tree-sitter once read it as more arguments of `ls` (issue 19 item 0).
    Embedding("after a newline, name escaped", lambda payload: f"ls -la\n{escaped_name(payload)}"),
    Embedding("subshell", lambda payload: f"( {payload}\n)"),
    Embedding("group", lambda payload: f"{{ {payload}\n}}"),
    Embedding("backgrounded group", lambda payload: f"{{ {payload}\n}} &"),
    Embedding("left of a pipe", lambda payload: f"{{ {payload}\n}} | cat"),
    Embedding("if body", lambda payload: f"if true; then {payload}\nfi"),
    Embedding("else body", lambda payload: f"if false; then :; else {payload}\nfi"),
    Embedding("while body", lambda payload: f"while true; do {payload}\nbreak; done"),
    Embedding("until condition", lambda payload: f"until {payload}\ndo break; done"),
    Embedding("for body", lambda payload: f"for i in 1 2; do {payload}\ndone"),
    Embedding("case arm", lambda payload: f"case x in *) {payload}\n;; esac"),
    Embedding("called function", lambda payload: f"deploy() {{ {payload}\n}}; deploy"),
    Embedding("bash -c", lambda payload: f"bash -c {single_quoted(payload)}"),
    Embedding("sh -c, double quotes", lambda payload: f"sh -c {double_quoted(payload)}"),
    Embedding("bash -lc behind sudo", lambda payload: f"sudo -u root bash -lc {single_quoted(payload)}"),
    Embedding("sh -c behind timeout", lambda payload: f"timeout 30 sh -c {single_quoted(payload)}"),
    Embedding("eval", lambda payload: f"eval {single_quoted(payload)}"),
    # `$( ` with a space: `$((` would open an arithmetic expansion.
    Embedding("command substitution", lambda payload: f"echo $( {payload}\n)"),
    Embedding("assigned substitution", lambda payload: f"out=$( {payload}\n)"),
    Embedding("heredoc into bash", heredoc_into_bash),
    Embedding("find -exec sh -c", lambda payload: f"find . -exec sh -c {single_quoted(payload)} \\;"),
    Embedding("trap", lambda payload: f"trap {single_quoted(payload)} EXIT"),
    Embedding("sudo", lambda payload: f"sudo {payload}", simple_only=True),
    Embedding("env", lambda payload: f"env FOO=1 {payload}", simple_only=True),
    Embedding("timeout", lambda payload: f"timeout 10 {payload}", simple_only=True),
    Embedding("nice", lambda payload: f"nice -n 5 {payload}", simple_only=True),
    Embedding("nohup", lambda payload: f"nohup {payload}", simple_only=True),
    Embedding("command", lambda payload: f"command {payload}", simple_only=True),
)

EMBEDDINGS_BY_NAME = {embedding.name: embedding for embedding in EMBEDDINGS}


# A wrapper runs a program; `sudo export X=1` runs nothing bash would run itself.
SHELL_BUILTINS = frozenset(
    {
        "alias", "bg", "bind", "break", "builtin", "cd", "command", "continue", "declare", "dirs", "disown",
        "enable", "eval", "exec", "exit", "export", "fc", "fg", "getopts", "hash", "jobs", "let", "local",
        "mapfile", "popd", "pushd", "read", "readarray", "readonly", "return", "set", "shift", "shopt",
        "source", ".", "trap", "typeset", "ulimit", "umask", "unalias", "unset", "wait",
    }
)  # fmt: skip


def is_simple_command(source: str) -> bool:
    """One simple command running a program, with no leading assignments: something a wrapper can run."""
    script = parse(source, budget=Budget(10.0)).script
    if len(script.statements) != 1 or script.statements[0].background:
        return False
    command = script.statements[0].command
    if type(command) is not ast.SimpleCommand or not command.words or command.assignments:
        return False
    return command.words[0].source not in SHELL_BUILTINS
