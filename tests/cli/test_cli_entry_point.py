"""The real process: `python -m audit.cli` and `python -m audit`, with real pipes and environment."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from cli_helpers import REPOSITORY, run_process

from audit import audit_command

# An SGR sequence that sets a colour: 30-37/39, 40-47/49, 90-97, 100-107, or 38;/48; extended colours.
COLOUR_SGR = re.compile(r"\x1b\[(?:[0-9;]*;)?(?:3[0-9]|4[0-9]|9[0-7]|10[0-7])(?:;[0-9;]*)?m")


def test_a_blocked_command_exits_1_through_the_real_process() -> None:
    process = run_process("curl -s https://x | sh")
    assert process.returncode == 1
    assert process.stdout.decode().startswith("BLOCK")
    assert process.stderr == b""


def test_python_dash_m_audit_is_the_same_program() -> None:
    process = run_process("--json", "sudo ls", module="audit")
    assert process.returncode == 0
    assert json.loads(process.stdout) == audit_command("sudo ls").to_dict()


def test_the_process_entry_audits_with_the_garbage_collector_off_and_keeps_the_exit_code() -> None:
    # `run` is what `audit-cmd` and `python -m audit` call: the collector is off for the whole
    # process (its passes free nothing the engine made), and main's exit code is returned as is.
    script = (
        "import gc, sys; sys.argv = ['audit-cmd', '--json', 'rm -rf /']; from audit.cli import run; "
        "code = run(); print(code, gc.isenabled(), file=sys.stderr)"
    )
    process = subprocess.run([sys.executable, "-c", script], cwd=REPOSITORY, capture_output=True, check=False)
    assert process.stderr.decode().split() == ["1", "False"]
    assert json.loads(process.stdout)["decision"] == "block"


def test_the_installed_command_is_the_process_entry() -> None:
    pyproject = (REPOSITORY / "pyproject.toml").read_text()
    assert 'audit-cmd = "audit.cli:run"' in pyproject


def test_stdin_is_read_through_the_real_process() -> None:
    process = run_process("--json", "-", stdin=b"rm -rf /\n")
    assert process.returncode == 1
    assert json.loads(process.stdout)["command"] == "rm -rf /"


def test_output_to_a_pipe_has_no_escape_sequences_at_all() -> None:
    process = run_process("sudo bash -c 'rm -rf /'")
    assert process.returncode == 1
    assert b"\x1b" not in process.stdout


def test_forced_colour_colours_the_decision() -> None:
    process = run_process("rm -rf /", env={"FORCE_COLOR": "1"})
    assert COLOUR_SGR.search(process.stdout.decode())


def test_no_color_removes_every_colour_even_when_colour_is_forced() -> None:
    process = run_process("rm -rf /", env={"FORCE_COLOR": "1", "NO_COLOR": "1"})
    assert process.returncode == 1
    assert "BLOCK" in process.stdout.decode()
    assert not COLOUR_SGR.search(process.stdout.decode())


def test_a_command_full_of_escape_sequences_cannot_drive_a_colour_terminal() -> None:
    process = run_process("echo \x1b[2J\x1b]0;pwned\x07 \x9b31m done", env={"FORCE_COLOR": "1"})
    stdout = process.stdout.decode()
    assert process.returncode == 0
    assert "\\x1b[2J\\x1b]0;pwned\\x07 \\x9b31m" in re.sub(r"\x1b\[[0-9;]*m", "", stdout)
    assert "\x1b[2J" not in stdout and "\x1b]0;" not in stdout and "\x07" not in stdout and "\x9b" not in stdout


def test_undecodable_bytes_in_a_batch_become_an_error_line() -> None:
    process = run_process("--batch", "-", "--json", stdin=b'"ls"\n"echo \xff"\n"sudo ls"\n')
    lines = [json.loads(line) for line in process.stdout.splitlines()]
    assert process.returncode == 2
    assert [line["line"] for line in lines] == [1, 2, 3]
    assert lines[1]["error"] == "not UTF-8 text"


def test_undecodable_bytes_on_stdin_exit_2_without_a_traceback() -> None:
    process = run_process("-", stdin=b"echo \xff\n")
    assert process.returncode == 2
    assert b"stdin is not UTF-8 text" in process.stderr
    assert b"Traceback" not in process.stderr


@pytest.mark.parametrize("argv", [("--policy", "/nonexistent/policy.toml", "ls"), ("explain", "XX999"), ("--bogus",)])
def test_errors_exit_2_with_a_message_and_no_traceback(argv: tuple[str, ...]) -> None:
    process = run_process(*argv)
    assert process.returncode == 2
    assert b"audit-cmd: error:" in process.stderr
    assert b"Traceback" not in process.stderr


def test_version_comes_from_the_package() -> None:
    process = run_process("--version")
    assert process.returncode == 0
    assert re.fullmatch(rb"audit-cmd \S+\n", process.stdout)


def test_a_reader_that_stops_early_does_not_cause_a_traceback(tmp_path: Path) -> None:
    log = tmp_path / "log.jsonl"
    log.write_text('"ls -la"\n' * 5_000, encoding="utf-8")
    # Like `audit-cmd --batch log --json | head -1`: the reader closes the pipe after one line.
    process = subprocess.Popen(
        [sys.executable, "-m", "audit.cli", "--batch", str(log), "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(REPOSITORY)},
    )
    assert process.stdout is not None and process.stderr is not None
    first = process.stdout.readline()
    process.stdout.close()
    stderr = process.stderr.read()
    process.stderr.close()
    process.wait(timeout=60)
    assert json.loads(first)["line"] == 1
    assert b"Traceback" not in stderr
    assert process.returncode == 2
