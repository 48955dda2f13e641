"""analyse_code as the engine calls it: spans, limits, bad input, lazy grammars."""

from __future__ import annotations

import subprocess
import sys

import pytest

from audit._budget import Budget
from audit.languages import (
    LANGUAGES,
    LanguageError,
    ShellOut,
    ShellOutKind,
    Unresolved,
    UnresolvedKind,
    analyse_code,
)

from .language_helpers import TableCase, describe, load_tables

CASES = load_tables()


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_every_span_lies_in_the_code_and_a_command_span_holds_the_command(case: TableCase) -> None:
    for fact in analyse_code(case.language, case.code).facts:
        assert 0 <= fact.span.start <= fact.span.end <= len(case.code), describe(fact)
        if isinstance(fact, ShellOut) and fact.command_span is not None:
            start, end = fact.command_span
            assert case.code[start:end] == fact.command


def test_a_command_in_code_run_by_exec_points_into_the_outer_code() -> None:
    code = "exec(\"import os; os.system('rm -rf ~')\")"
    (fact,) = analyse_code("python", code).facts
    assert isinstance(fact, ShellOut)
    assert fact.command_span is not None
    assert code[fact.command_span.start : fact.command_span.end] == "rm -rf ~"
    assert code[fact.span.start : fact.span.end] == "os.system('rm -rf ~')"


def test_spans_count_characters_not_bytes() -> None:
    code = "import os; print('héllo wörld'); os.system('rm -rf ~')"
    (fact,) = analyse_code("python", code).facts
    assert isinstance(fact, ShellOut) and fact.command_span is not None
    assert code[fact.command_span.start : fact.command_span.end] == "rm -rf ~"


def test_an_unknown_language_is_a_clear_error() -> None:
    with pytest.raises(LanguageError, match="cobol"):
        analyse_code("cobol", "DISPLAY 'X'.")


def test_the_languages_are_the_issue_list() -> None:
    assert {
        "python",
        "javascript",
        "typescript",
        "ruby",
        "php",
        "perl",
        "lua",
        "awk",
        "applescript",
        "r",
        "tcl",
        "julia",
        "powershell",
        "cmd",
        "c",
        "go",
        "rust",
        "swift",
    } == LANGUAGES


def test_typescript_is_analysed_with_its_own_grammar() -> None:
    code = "import { execSync } from 'child_process'; const c: string = 'rm -rf ~'; execSync(c as string);"
    facts = analyse_code("typescript", code).facts
    assert [describe(fact) for fact in facts] == ["shell shell-string 'rm -rf ~' via child_process.execSync"]


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_running_out_of_steps_is_reported_not_raised(language: str) -> None:
    report = analyse_code(language, "x = 1\n" * 50, max_steps=5)
    assert any(isinstance(fact, Unresolved) and fact.kind is UnresolvedKind.BUDGET for fact in report.facts)


def test_running_out_of_time_is_reported_not_raised() -> None:
    report = analyse_code("python", "import os; os.system('ls')\n" * 200, budget=Budget(0.0))
    assert any(isinstance(fact, Unresolved) and fact.kind is UnresolvedKind.BUDGET for fact in report.facts)


def test_code_nested_deeper_than_the_limit_is_reported() -> None:
    code = "exec(\"exec('exec(1)')\")"
    report = analyse_code("python", code, max_depth=1)
    assert [describe(fact) for fact in report.facts] == ["unresolved depth"]


def test_a_long_concatenation_is_resolved_without_deep_recursion() -> None:
    parts = " + ".join(["'a'"] * 3000)
    (fact,) = analyse_code("python", f"import os; os.system({parts})").facts
    assert isinstance(fact, ShellOut) and fact.command == "a" * 3000


def test_deeply_nested_parentheses_are_reported_not_raised() -> None:
    code = "import os; os.system(" + "(" * 400 + "'ls'" + ")" * 400 + ")"
    report = analyse_code("python", code)
    assert report.facts  # the shell-out, or an Unresolved saying the nesting was too deep


def test_argv_of_known_words_is_a_tuple() -> None:
    (fact,) = analyse_code("python", "import subprocess; subprocess.run(['git', 'status'])").facts
    assert isinstance(fact, ShellOut)
    assert fact.kind is ShellOutKind.ARGV
    assert fact.command == ("git", "status")


ARGUMENT_READS = [
    ("python", "import shutil, sys; shutil.rmtree(sys.argv[2])"),
    ("javascript", "require('fs').rmSync(process.argv[2], {recursive: true})"),
    ("ruby", "FileUtils.rm_rf(ARGV[1])"),
    ("perl", "use File::Path qw(rmtree); rmtree($ARGV[1]);"),
    ("php", "<?php unlink($argv[2]);"),
]


@pytest.mark.parametrize(("language", "code"), ARGUMENT_READS, ids=[language for language, _ in ARGUMENT_READS])
def test_a_path_from_the_second_argument_is_that_argument_when_the_command_spells_it(language: str, code: str) -> None:
    described = {describe(fact) for fact in analyse_code(language, code, arguments=("build", "/etc")).facts}
    assert len(described) == 1 and "'/etc'" in described.pop()


@pytest.mark.parametrize(("language", "code"), ARGUMENT_READS, ids=[language for language, _ in ARGUMENT_READS])
def test_a_path_from_an_argument_not_known_is_unresolved(language: str, code: str) -> None:
    for arguments in (None, ("build",), ("build", None)):
        facts = analyse_code(language, code, arguments=arguments).facts
        assert any(isinstance(fact, Unresolved) and fact.kind is UnresolvedKind.DYNAMIC_PATH for fact in facts)


def test_importing_the_package_loads_no_grammar_and_a_language_loads_only_its_own() -> None:
    probe = (
        "import sys, audit.languages as l\n"
        "top = lambda name: name.split('.')[0]\n"
        "grammars = lambda: sorted({top(m) for m in sys.modules if m.startswith('tree_sitter_')} - {'tree_sitter_bash'})\n"
        "print(grammars())\n"
        "l.analyse_code('ruby', 'puts 1')\n"
        "print(grammars())\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    before, after = result.stdout.splitlines()
    assert before == "[]"
    assert after == "['tree_sitter_ruby']"


def test_importing_the_engine_does_not_import_the_language_package() -> None:
    probe = "import sys, audit; print('audit.languages' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"
