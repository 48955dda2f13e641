"""The plain-command lane (audit/_analysis/_plain_lane.py) against the full path.

The lane hands a command of plain words that runs an ordinary program to the
rules without walking it. It is sound only if it changes nothing: on the
whole corpus, every rule example, every program name the engine knows with
arguments the rules look for, generated commands and commands at the step
limit, the verdict (decision, findings with rule ids, spans and messages,
and the commands listed) is the full path's.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import audit._engine
from audit import Policy, Verdict, audit_command, default_policy, policy_from_mapping
from audit._analysis import plain_command
from audit._analysis._contexts import HANDLERS
from audit._syntax import Origin, plain_words
from audit.packs._index import PACKS_BY_COMMAND
from audit.programs import KNOWN, WRITERS
from audit.programs.sending import SENDERS
from audit.rules import REGISTRY
from corpus import load_corpus

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


@contextmanager
def _without_the_lane() -> Iterator[None]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(audit._engine, "plain_command", lambda _text, _tables, _steps: None)
        yield


def _both_ways(command: str, policy: Policy) -> tuple[Verdict, Verdict]:
    lane = audit_command(command, policy=policy)
    with _without_the_lane():
        full = audit_command(command, policy=policy)
    return lane, full


def _takes_the_lane(command: str, policy: Policy | None = None) -> bool:
    policy = policy or default_policy()
    return plain_command(command, policy.tables, policy.limits.max_steps) is not None


def _policy(document: Mapping[str, Any] | None) -> Policy:
    return default_policy() if document is None else policy_from_mapping(document)


def _differing(commands: list[tuple[str, Policy]]) -> list[str]:
    """The commands whose verdict through the lane differs from the full path's. A command the lane
    does not take runs the full path both ways: it is not compared (near the CPU-time backstop, a
    heavy one could differ between two runs of the same path on a loaded machine)."""
    differing: list[str] = []
    for command, policy in commands:
        if not _takes_the_lane(command, policy):
            continue
        lane, full = _both_ways(command, policy)
        if lane != full:
            differing.append(command)
    return differing


def _known_names() -> list[str]:
    """Every program name the engine knows something about, and every corpus command's first word."""
    tables = default_policy().tables
    names = set(tables.program_names) | set(tables.wrappers) | set(tables.interpreters_by_name)
    names |= set(HANDLERS) | set(SENDERS) | set(WRITERS) | set(PACKS_BY_COMMAND) | set(KNOWN)
    for declared in REGISTRY:
        listed = declared.commands
        if listed is not None and not callable(listed):  # a predicate names no program
            names |= set(listed)
    names |= {case.command.split(" ", 1)[0] for case in load_corpus()}
    return sorted(name for name in names if plain_words(name, Origin()) is not None)


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
    taken = [(command, policy) for command, policy in commands if _takes_the_lane(command, policy)]
    assert len(taken) > 300
    decisions = {audit_command(command, policy=policy).decision.value for command, policy in taken}
    assert decisions == {"block", "warn", "pass"}


def test_every_known_program_name_with_the_arguments_rules_look_for_gets_the_verdict_of_the_full_path() -> None:
    names = _known_names()
    assert len(names) > 500
    commands = [(f"{name} {shape}".strip(), default_policy()) for name in names for shape in ARGUMENT_SHAPES]
    assert not _differing(commands)
    assert sum(_takes_the_lane(command) for command, _ in commands) > 5_000


def test_at_the_step_limit_the_lane_gives_way_exactly_when_the_full_path_runs_out() -> None:
    for command in ("ls -la src/", "git push --force origin main", "rm -rf /"):
        outcomes: set[str] = set()
        for max_steps in range(20, 80):
            policy = policy_from_mapping({"limits": {"max_steps": max_steps}})
            lane, full = _both_ways(command, policy)
            assert lane == full, (command, max_steps)
            outcomes.add("IN004" if "IN004" in lane.rule_ids else "judged")
        assert outcomes == {"IN004", "judged"}, command  # the sweep crosses the limit


PLAIN_TOKENS = st.sampled_from(
    ["-rf", "-f", "/", "/etc", "/tmp/x", "src/", ".", "..", "--all", "-A", "main", "origin", "HEAD", ".env"]
    + [shape for shape in ARGUMENT_SHAPES if shape]
) | st.from_regex(r"[A-Za-z0-9_./:,=+-]{1,12}", fullmatch=True)


@given(
    name=st.sampled_from(_known_names()) | st.from_regex(r"[a-z][a-z0-9_.-]{0,8}", fullmatch=True),
    arguments=st.lists(PLAIN_TOKENS, max_size=6),
)
def test_generated_plain_commands_get_the_verdict_of_the_full_path(name: str, arguments: list[str]) -> None:
    command = " ".join([name, *arguments])
    assume(_takes_the_lane(command))
    lane, full = _both_ways(command, default_policy())
    assert lane == full


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
    assert _takes_the_lane(command)


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
    assert not _takes_the_lane(command)


def test_a_policy_with_a_step_limit_below_the_commands_cost_sends_it_to_the_full_path() -> None:
    assert _takes_the_lane("ls -la", default_policy())
    assert not _takes_the_lane("ls -la", policy_from_mapping({"limits": {"max_steps": 25}}))
