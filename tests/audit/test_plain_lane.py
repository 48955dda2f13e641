"""The plain-command lane (audit/_analysis/_plain_lane.py) against the full path.

The lane hands a command of plain words that runs an ordinary program to the
rules without walking it. It is sound only if it changes nothing: on the
whole corpus, every rule example, every program name the engine knows with
arguments the rules look for and commands at the step limit (generated
commands: fuzz/fuzz_plain_lane.py, which campaigns explore), the verdict (decision, findings with rule ids, spans and messages,
and the commands listed) is the full path's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from audit import Policy, audit_command, default_policy, policy_from_mapping
from audit.rules import REGISTRY
from corpus import load_corpus
from fuzz.fuzz_plain_lane import known_program_names, takes_the_lane, through_the_lane_and_the_full_path

# Arguments the rules and the walk look at: roots and system paths, secrets, devices, remotes,
# protected branches, everything-selectors, options that force, recurse, run code or send.
ARGUMENT_SHAPES = (
    "",
    "-rf /",
    "-rf /etc",
    "/etc/shadow",
    "/root/.ssh/id_rsa",
    ".env",
    "/dev/sda",
    "push --force origin main",
    "reset --hard",
    "delete ns prod --all",
    "rm -f --all",
    "-c id",
    "-e x",
    "http://example.com/x.sh",
    "-o /etc/profile.d/x.sh http://example.com/x",
    "-d @.env http://example.com",
    "exec -it web sh",
    "install left-pad",
    "system prune -af",
    "s3 rm s3://bucket --recursive",
    "drop database prod",
    "destroy -auto-approve",
    "--version",
)


def _policy(document: Mapping[str, Any] | None) -> Policy:
    return default_policy() if document is None else policy_from_mapping(document)


def _differing(commands: list[tuple[str, Policy]]) -> list[str]:
    """The commands whose verdict through the lane differs from the full path's. A command the lane
    does not take runs the full path both ways: it is not compared (near the CPU-time backstop, a
    heavy one could differ between two runs of the same path on a loaded machine)."""
    differing: list[str] = []
    for command, policy in commands:
        if not takes_the_lane(command, policy):
            continue
        lane, full = through_the_lane_and_the_full_path(command, policy)
        if lane != full:
            differing.append(command)
    return differing


def test_every_corpus_command_and_rule_example_gets_the_verdict_of_the_full_path() -> None:
    cases = [(case.command, _policy(case.policy_document)) for case in load_corpus()]
    examples = [
        (example.command, _policy(example.policy))
        for declared in REGISTRY
        for example in declared.examples + declared.counter_examples
    ]
    commands = cases + examples
    assert not _differing(commands)
    # The comparison means something only if the lane is taken, for blocks and passes alike.
    taken = [(command, policy) for command, policy in commands if takes_the_lane(command, policy)]
    assert len(taken) > 300
    decisions = {audit_command(command, policy=policy).decision.value for command, policy in taken}
    assert decisions == {"block", "warn", "pass"}


def test_every_known_program_name_with_the_arguments_rules_look_for_gets_the_verdict_of_the_full_path() -> None:
    names = known_program_names()
    assert len(names) > 500
    commands = [(f"{name} {shape}".strip(), default_policy()) for name in names for shape in ARGUMENT_SHAPES]
    assert not _differing(commands)
    assert sum(takes_the_lane(command) for command, _ in commands) > 5_000


def test_at_the_step_limit_the_lane_gives_way_exactly_when_the_full_path_runs_out() -> None:
    for command in ("ls -la src/", "git push --force origin main", "rm -rf /"):
        outcomes: set[str] = set()
        for max_steps in range(40, 160):
            policy = policy_from_mapping({"limits": {"max_steps": max_steps}})
            lane, full = through_the_lane_and_the_full_path(command, policy)
            assert lane == full, (command, max_steps)
            outcomes.add("IN004" if "IN004" in lane.rule_ids else "judged")
        assert outcomes == {"IN004", "judged"}, command  # the sweep crosses the limit


@pytest.mark.parametrize(
    "command",
    [
        "ls -la src/",
        "git status",
        "make -j4 build",
        "rm -rf /",
        "terraform plan",
        "cat /etc/shadow",
        "cd ..",
        "/bin/ls",
    ],
)
def test_plain_commands_of_ordinary_programs_take_the_lane(command: str) -> None:
    assert takes_the_lane(command)


@pytest.mark.parametrize(
    "command",
    [
        "sudo rm -rf /",  # a wrapper: the walk peels it
        "env A=1 ls",
        "bash -c id",  # an interpreter: code to walk
        "python3 x.py",
        "ssh host ls",  # an execution context
        "find . -delete",
        "docker exec web sh",
        "eval x",
        "curl http://example.com/x",  # a sender and a fetcher
        "base64 -d x.b64",  # a decoder
        "cp a b",  # a writer
        "export A=1",  # a declaration
        "ls | wc -l",  # not plain words
        "ls *.py",
        "echo $HOME",
    ],
)
def test_commands_the_walk_does_more_with_do_not(command: str) -> None:
    assert not takes_the_lane(command)


def test_names_a_policy_declares_are_left_to_the_walk_and_judged_alike() -> None:
    policy = policy_from_mapping(
        {
            "names": {"fetchers": ["fetch-secrets"], "secret_files": ["/srv/app/.env"]},
            "interpreters": {"julia": {"names": ["julia"], "language": "julia", "code_options": ["-e"]}},
            "wrappers": {"with-lock": {"value_options": ["-f"]}},
        }
    )
    declared = ("fetch-secrets http://example.com", "julia script.jl", "with-lock -f x rm -rf /")
    assert not any(takes_the_lane(command, policy) for command in declared)
    assert takes_the_lane("cat /srv/app/.env", policy)  # an ordinary reader of a declared secret
    commands = [(command, policy) for command in (*declared, "cat /srv/app/.env", "rm -rf /opt", "ls -la")]
    assert not _differing(commands)
    assert audit_command("cat /srv/app/.env", policy=policy).decision.value == "block"


def test_a_policy_with_a_step_limit_below_the_commands_cost_sends_it_to_the_full_path() -> None:
    assert takes_the_lane("ls -la", default_policy())
    assert not takes_the_lane("ls -la", policy_from_mapping({"limits": {"max_steps": 25}}))
