"""Where the command comes from: an argument, stdin (`-`) or a file (`--file`)."""

from __future__ import annotations

import json
from pathlib import Path

from cli_helpers import run_cli

from audit import audit_command

SCRIPT = "#!/bin/sh\nset -e\ncd /srv/app\n\nrm -rf /\necho done\n"


def test_a_dash_reads_the_command_from_stdin() -> None:
    result = run_cli("--json", "-", stdin="rm -rf /")
    assert result.exit_code == 1
    assert json.loads(result.stdout) == audit_command("rm -rf /").to_dict()


def test_stdin_loses_only_the_one_trailing_newline_echo_adds() -> None:
    result = run_cli("--json", "-", stdin="sudo ls\n\n")
    assert json.loads(result.stdout)["command"] == "sudo ls\n"


def test_stdin_that_was_not_utf8_exits_2() -> None:
    # The system stdin decodes with surrogateescape: a bad byte arrives as a lone surrogate.
    result = run_cli("-", stdin="ls \udcff")
    assert result.exit_code == 2
    assert "stdin is not UTF-8 text" in result.stderr


def test_a_file_is_audited_whole_as_one_script(tmp_path: Path) -> None:
    script = tmp_path / "deploy.sh"
    script.write_text(SCRIPT, encoding="utf-8")
    result = run_cli("--json", "--file", str(script))
    assert result.exit_code == 1
    assert json.loads(result.stdout) == audit_command(SCRIPT).to_dict()


def test_a_file_report_names_the_file_and_numbers_its_lines(tmp_path: Path) -> None:
    script = tmp_path / "deploy.sh"
    script.write_text(SCRIPT, encoding="utf-8")
    lines = run_cli("--file", str(script), width=300).stdout.splitlines()
    assert lines[:2] == ["BLOCK  1 finding: 1 high", f"file {script}"]
    assert "  5 │ rm -rf /" in lines
    assert lines[lines.index("  5 │ rm -rf /") + 1] == "    │ ^^^^^^^^ FS001"


def test_a_missing_file_exits_2_naming_it(tmp_path: Path) -> None:
    missing = tmp_path / "missing.sh"
    result = run_cli("--file", str(missing))
    assert result.exit_code == 2
    assert f"{missing}: cannot read: No such file or directory" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_directory_given_as_file_exits_2(tmp_path: Path) -> None:
    result = run_cli("--file", str(tmp_path))
    assert result.exit_code == 2
    assert "cannot read" in result.stderr


def test_a_file_that_is_not_utf8_exits_2_naming_the_byte(tmp_path: Path) -> None:
    script = tmp_path / "latin1.sh"
    script.write_bytes(b"echo caf\xe9\n")
    result = run_cli("--file", str(script))
    assert result.exit_code == 2
    assert "not UTF-8 text (byte 0xe9 at offset 8)" in result.stderr


def test_a_double_dash_audits_the_literal_command_rules() -> None:
    result = run_cli("--json", "--", "rules")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["command"] == "rules"


def test_a_command_that_only_starts_with_a_subcommand_name_is_audited() -> None:
    result = run_cli("--json", "explain me; sudo ls")
    assert json.loads(result.stdout)["command"] == "explain me; sudo ls"
