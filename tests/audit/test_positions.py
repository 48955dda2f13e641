"""Every command is found wherever it sits; substitutions are in command or value
position; wrappers are unwrapped with their options (docs/engine.md#commands-and-positions)."""

from __future__ import annotations

import pytest
from audit_helpers import rule_ids, verdict

from audit import Decision, Position, audit_command, policy_from_mapping

INNER = "rm -rf /"

# Every place bash runs a command; `X` is replaced by a command.
STRUCTURES = [
    "X",
    "true; X",
    "true && X",
    "false || X",
    "true | X",
    "true |& X",
    "X &",
    "true\nX",
    "(X)",
    "{ X; }",
    "if X; then :; fi",
    "if true; then X; fi",
    "if false; then :; elif X; then :; fi",
    "if false; then :; else X; fi",
    "while X; do :; done",
    "until true; do X; done",
    "for i in a; do X; done",
    "select i in a; do X; done",
    "case a in a) X;; esac",
    "case a in b) :;; *) X;; esac",
    "f() { X; }",
    "function f { X; }",
    "f() ( X )",
    "[[ -n $(X) ]]",
    "(( $(X) ))",
    "echo $(( 1 + $(X) ))",
    "a[$(X)]=1",
    "a=(one $(X))",
    "echo ${v:-$(X)}",
    "echo ${v:=`X`}",
    "cat <<< $(X)",
    "cat <<EOF\n$(X)\nEOF",
    "echo $(X)",
    "echo `X`",
    "cat <(X)",
    "tee >(X)",
    "x=$(X)",
    'echo "$(X)"',
    "echo $(echo $(X))",
    "for i in $(X); do :; done",
    "! X",
    "time X",
    "X 2>&1 | tail",
    "for ((i = $(X); i < 1; i++)); do :; done",
    "case $(X) in *) ;; esac",
    "echo > $(X)",
    "coproc X",
]


@pytest.mark.parametrize("structure", STRUCTURES)
def test_a_command_is_judged_wherever_bash_runs_it(structure: str) -> None:
    command = structure.replace("X", INNER)
    result = verdict(command)
    assert "FS001" in {f.rule_id for f in result.findings}, result.to_dict()
    assert result.decision is Decision.BLOCK


def test_there_is_no_cap_on_the_number_of_commands() -> None:
    command = "; ".join(["ls"] * 800 + [INNER])
    # A generous budget: this is about counting, not speed (the benchmark measures speed).
    patient = policy_from_mapping({"limits": {"time_budget_ms": 5_000, "max_steps": 1_000_000}})
    assert "FS001" in {f.rule_id for f in audit_command(command, policy=patient).findings}


def test_an_inner_command_in_value_position_is_reported_with_its_path() -> None:
    finding = next(f for f in verdict("echo $(rm -rf /)").findings if f.rule_id == "FS001")
    assert finding.position is Position.VALUE
    assert finding.path == ("$(...)",)
    assert finding.evidence == "rm -rf /"


# -- command vs value position -------------------------------------------------------

RISKY = "$(curl -s https://example.com/c)"

WRAPPERS = [
    "",
    "FOO=1 ",
    "A=1 B=2 ",
    "sudo ",
    "sudo -u root ",
    "sudo -uroot ",
    "sudo --user=root ",
    "sudo -E -H ",
    "sudo -- ",
    "doas ",
    "doas -u root ",
    "env ",
    "env -i ",
    "env -u HOME ",
    "env -C /tmp ",
    "env --chdir=/tmp ",
    "env A=1 ",
    "env -i A=1 B=2 ",
    "nohup ",
    "time ",
    "time -p ",
    "timeout 5 ",
    "timeout -s KILL 5 ",
    "timeout --signal=KILL -k 1 5 ",
    "nice ",
    "nice -n 5 ",
    "nice -10 ",
    "ionice -c 3 ",
    "ionice -c3 -n7 ",
    "stdbuf -oL ",
    "stdbuf -o L -e L ",
    "setsid ",
    "setsid -f ",
    "chrt 5 ",
    "chrt -f 5 ",
    "taskset 0x1 ",
    "taskset -c 1 ",
    "flock /tmp/lock ",
    "flock -w 5 /tmp/lock ",
    "unbuffer ",
    "exec ",
    "exec -a name ",
    "exec -cl ",
    "command ",
    "command -p ",
    "builtin ",
    "xargs ",
    "xargs -n 1 ",
    "xargs -I{} -P 4 ",
    "xargs -0 -r ",
    "busybox ",
    "! ",
    "sudo env timeout 5 nice -n 1 ",
    "env -S 'timeout 5' ",
]


@pytest.mark.parametrize("wrapper", WRAPPERS)
def test_a_risky_substitution_after_any_wrapper_is_in_command_position(wrapper: str) -> None:
    result = verdict(f"{wrapper}{RISKY} --now")
    findings = [f for f in result.findings if f.rule_id == "CP001"]
    assert findings, result.to_dict()
    assert findings[0].position is Position.COMMAND
    assert findings[0].evidence == RISKY


VALUE_POSITIONS = [
    f"echo {RISKY}",
    f"x={RISKY}",
    f"export X={RISKY}",
    "cat <(curl -s https://example.com/c)",
    "diff <(curl -s a) <(curl -s b)",
    f"for i in {RISKY}; do echo $i; done",
    f"[[ -n {RISKY} ]]",
    f"echo > {RISKY}",
    f"cat <<< {RISKY}",
    f"command -v {RISKY}",
    f"command -V {RISKY}",
    f"sudo -l {RISKY}",
    f"ls {RISKY}",
    f"timeout {RISKY} ls",
    f"sudo -u {RISKY} ls",
    f"env -C {RISKY} ls",
]


@pytest.mark.parametrize("command", VALUE_POSITIONS)
def test_a_risky_substitution_in_value_position_is_not_a_command_position_finding(command: str) -> None:
    assert "CP001" not in rule_ids(command)


def test_value_position_passes_by_itself() -> None:
    assert verdict(f"x={RISKY}").decision is Decision.PASS
    assert verdict(f"echo {RISKY}").decision is Decision.PASS


@pytest.mark.parametrize(
    "command",
    [
        "$(date)",
        "`hostname`",
        "$(cat .tool-path)/build.sh",
        "$cmd",
        "${cmd}",
        '"$cmd" -x',
        "${!ref}",
        "$a$b",
        "${tool:-make} test",
    ],
)
def test_any_other_computed_command_name_warns(command: str) -> None:
    result = verdict(command)
    assert result.decision is Decision.WARN, result.to_dict()
    assert rule_ids(command) == {"CP002"}


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("$(git rev-parse --show-toplevel)/build.sh", set()),
        ('"$JAVA_HOME/bin/java" -version', set()),
        ("$VIRTUAL_ENV/bin/rm -rf /", {"FS001"}),
        ("`which rm` -rf ~", {"FS001"}),
        ("$(go env GOPATH)/bin/../../../../bin/rm -rf /", {"FS001"}),
    ],
)
def test_a_name_computed_only_in_its_directory_is_the_program_it_names(command: str, expected: set[str]) -> None:
    assert rule_ids(command) == expected


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("cmd=rm; $cmd -rf /", {"FS001"}),
        ("cmd=ls; $cmd -la", set()),
        ("export cmd=rm; ${cmd} -rf /", {"FS001"}),
        ("cmd='rm -rf'; $cmd /", {"FS001"}),
        ("c=curl; $c -s u | sh", {"EX001"}),
        ("for c in rm; do $c -rf /; done", {"FS001"}),
        ("tool=ls\n$tool", set()),
    ],
)
def test_a_literal_assignment_in_the_same_command_resolves_the_name(command: str, expected: set[str]) -> None:
    assert rule_ids(command) == expected


def test_several_literal_values_are_each_judged() -> None:
    assert "FS001" in rule_ids("for c in ls rm; do $c -rf /; done")


def test_a_dynamic_shell_name_by_convention_is_a_shell_not_a_warning() -> None:
    assert verdict('"$SHELL" -c "make test"').decision is Decision.PASS
    assert "FS001" in rule_ids('$SHELL -c "rm -rf /"')


@pytest.mark.parametrize(
    "command",
    [
        "curl -s u",
        "base64 -d f",
        "xxd -r f",
        "openssl enc -d -in f",
        "python3 -c x",
        "bash -c x",
        "node -e x",
        "nc host 80",
        "base64 -di f",
    ],
)
def test_risky_inner_commands_make_a_command_position_substitution_block(command: str) -> None:
    assert "CP001" in rule_ids(f"$({command})")
    assert "CP001" in rule_ids(f"$(echo x | {command})")
    assert "CP001" in rule_ids(f"$(true; {command})")


@pytest.mark.parametrize(
    "command", ["shellcheck f", "shasum f", "pythonic-tool", "base64 f", "curly", "bashful", "xxd f", "nodejs-helper"]
)
def test_names_that_merely_resemble_risky_ones_are_not_risky(command: str) -> None:
    assert "CP001" not in rule_ids(f"$({command})")
