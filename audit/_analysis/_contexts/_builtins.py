"""Builtins that run code they are given: `eval`, `source`/`.`, `trap`,
`alias`, and `let` and `test` (arithmetic)."""

from __future__ import annotations

from ..._model import Position
from ..._syntax import ast
from .._bindings import split_assignment_word
from .._normalize import normalize_word
from .._resolve import arithmetic_operands
from .._risks import NO_RISKS
from .._subjects import ContextKind, Risk
from ._call import Call, ContextWalk
from ._code import code_string, script_operand


def eval_code(call: Call, walk: ContextWalk) -> frozenset[Risk]:
    """`eval ARGS`: the arguments joined by blanks are shell code."""
    if not call.args:
        return NO_RISKS
    return code_string(walk, ContextKind.EVAL, "eval", call.args, "shell", call.frame)


def sourced_file(call: Call, walk: ContextWalk) -> frozenset[Risk]:
    """`source FILE` / `. FILE`: the file is a shell script run in this shell."""
    if not call.args:
        return NO_RISKS
    shell = walk.tables.interpreter("sh")
    return script_operand(walk, call.name, call.args[0], call.span, call.frame, call.stdin, shell)


def trap_code(call: Call, walk: ContextWalk) -> frozenset[Risk]:
    """`trap CODE SIGNAL...`: CODE runs when the signal arrives."""
    operands = [arg for arg in call.args if arg.value not in ("--",)]
    if len(operands) < 2 or ((operands[0].value or "").startswith("-") and operands[0].value != "-"):
        return NO_RISKS
    code = operands[0]
    if code.value in ("-", ""):
        return NO_RISKS
    return code_string(walk, ContextKind.RUNNER, "trap", (code,), "shell", call.frame)


def alias_code(call: Call, walk: ContextWalk) -> frozenset[Risk]:
    """`alias ls='rm -rf ~'`: the value is code every later `ls` runs."""
    risks = NO_RISKS
    for arg in call.args:
        if arg.word is None or not arg.word.parts or type(arg.word.parts[0]) is not ast.Literal:
            continue
        split = split_assignment_word(arg.word)
        if split is None:
            continue
        name, value = split
        value_arg = normalize_word(value, call.frame.env)
        if len(value_arg) == 1:
            found = code_string(walk, ContextKind.RUNNER, f"alias {name}", (value_arg[0],), "shell", call.frame)
            risks = risks | found
    return risks


def let_arithmetic(call: Call, walk: ContextWalk) -> frozenset[Risk]:
    """`let EXPR...`: each argument is an arithmetic expression."""
    risks = NO_RISKS
    for arg in call.args:
        if arg.word is not None:
            risks = risks | walk.arithmetic(arg.word.parts, call.frame, Position.VALUE, "let", arg.span)
    return risks


def test_arithmetic(call: Call, walk: ContextWalk) -> frozenset[Risk]:
    """`test ARGS`, `[ ARGS ]` run as a command: the name after `-v`, and an unquoted
    expansion that may split into `-v NAME[...]`, are arithmetic (`arithmetic_operands`)."""
    # A word split into several arguments is one word of the test as written.
    words = tuple(dict.fromkeys(arg.word for arg in call.args if arg.word is not None))
    risks = NO_RISKS
    for index in sorted(arithmetic_operands("[", words)):
        word = words[index]
        risks = risks | walk.arithmetic(word.parts, call.frame, Position.VALUE, call.name, word.span)
    return risks
