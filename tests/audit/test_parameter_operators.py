"""String operators of parameter expansions on known values, as bash computes them, and what
they change in a verdict (code obfuscated with them is read)."""

from __future__ import annotations

import pytest

from audit import audit_command
from audit._analysis._parameter_operators import operated
from audit._budget import Budget
from audit._syntax import ast, parse


def _expansion(source: str) -> ast.ParamExpansion:
    command = parse(f"echo {source}", budget=Budget(1.0, 100_000)).script.statements[0].command
    assert isinstance(command, ast.SimpleCommand)
    part = command.words[1].parts[0]
    assert isinstance(part, ast.ParamExpansion)
    return part


@pytest.mark.parametrize(
    ("expansion", "value", "expected"),
    [
        ("${a:2}", "xxrm", "rm"),
        ("${a:0:2}", "rmdir", "rm"),
        ("${a:1:3}", "abcdef", "bcd"),
        ("${a: -2}", "abc", "bc"),
        ("${a: -5}", "abc", ""),
        ("${a:1:-1}", "abcd", "bc"),
        ("${a:9}", "abc", ""),
        ("${a#*/}", "/usr/bin/rm", "usr/bin/rm"),
        ("${a##*/}", "/usr/bin/rm", "rm"),
        ("${a%.*}", "report.tar.gz", "report.tar"),
        ("${a%%.*}", "report.tar.gz", "report"),
        ("${a#x}", "abc", "abc"),
        ("${a^^}", "rm", "RM"),
        ("${a,,}", "RM", "rm"),
        ("${a^}", "rm", "Rm"),
        ("${a,}", "RM", "rM"),
        ("${#a}", "hello", "5"),
        ("${a//x/}", "xrmx", "rm"),
        ("${a/X/-}", "aXbXc", "a-bXc"),
        ("${a//X/-}", "aXbXc", "a-b-c"),
        ("${a//X*/}", "aXbXc", "a"),
        ("${a/#a/Z}", "aXa", "ZXa"),
        ("${a/#X/Z}", "aXa", "aXa"),
        ("${a/%a/Z}", "aXa", "aXZ"),
        ("${a//./-}", "1.2.3", "1-2-3"),
    ],
)
def test_a_string_operator_computes_what_bash_does(expansion: str, value: str, expected: str) -> None:
    assert operated(_expansion(expansion), (value,)) == (expected,)


@pytest.mark.parametrize(
    "expansion", ["${a//$p/y}", "${a//*/y}", "${a:$n}", "${a#$p}", "${a%`echo x`}", '${a%"*"}', "${a%[x]}", "${a@Q}"]
)
def test_an_operator_or_argument_not_read_here_leaves_the_value_unknown(expansion: str) -> None:
    assert operated(_expansion(expansion), ("xyz",)) is None


def test_a_replacement_of_the_first_match_with_nothing_keeps_both_readings_the_parsers_allow() -> None:
    # `${a/x/}` and `${a//x}` parse alike: the first x removed, or every x.
    assert operated(_expansion("${a/x/}"), ("xrmx",)) == ("rmx", "rm")


@pytest.mark.parametrize(
    "command",
    [
        "c=xrmx; ${c//x/} -rf ~",
        "c=rXm; ${c/X/} -rf ~",
        "a=xxrm; ${a:2} -rf ~/",
        "c=RM; ${c,,} -rf /",
        "p=/usr/bin/rm; ${p##*/} -rf ~",
        "x=rm.bak; ${x%.*} -rf /",
        "a=rmdir; ${a:0:2} -rf /",
    ],
)
def test_a_command_name_built_with_string_operators_is_the_program_bash_runs(command: str) -> None:
    assert audit_command(command).rule_ids == ("FS001",)


@pytest.mark.parametrize(
    "command",
    ["a=gits; ${a:0:3} status", "f=report.tar.gz; echo ${f%%.*}", "v=1.2.3; echo ${v#*.}", "echo ${#PATH}"],
)
def test_benign_string_operators_pass(command: str) -> None:
    assert audit_command(command).decision.value == "pass"


def test_an_operator_whose_argument_is_an_expansion_keeps_the_command_name_unknown() -> None:
    # bash strips `x` (the value of $q); reading `$q` as text would leave `rmx`, an unknown program.
    assert audit_command("a=rmx; q=x; ${a%$q} -rf /").rule_ids == ("CP002",)
