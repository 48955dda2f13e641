"""Ground truth from real bash (see fuzz/oracle.py for how the sandbox isolates it).

- generated scripts whose every command runs: the engine's commands are
  exactly bash's, and its command positions are where bash ran the output;
- corpus commands: bash runs only what the engine found, and the engine
  blocks whenever bash ran downloaded, decoded or interpreted output. The
  default run takes every fourth eligible case; `pytest -m slow` takes all;
- hidden commands (fuzz/obfuscations.py): bash runs the payload through the
  rewrite, and the engine keeps the payload's findings;
- fork bombs (fuzz/fork_bombs.py): bash could not finish exactly the scripts
  generated as bombs, and the engine blocks exactly those.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import pytest
from hypothesis import assume, given

from audit import audit_command
from corpus import Case

from .bash_grammar import PLAIN_PROGRAMS, RISKY_PROGRAMS, reachable_scripts
from .fork_bombs import Script, fork_bomb_scripts
from .known_gaps import (
    BOMBS_ORACLE,
    HIDDEN_ORACLE,
    ORACLE_CORPUS,
    ORACLE_GENERATED,
    excluded,
    pin_known_gaps,
    without_known_gaps,
)
from .obfuscations import Hidden, hidden_commands
from .oracle import FORWARDED_SHELLS, BashOracle, waiting
from .properties import (
    RUNAWAY_EXECUTIONS,
    bash_accepts,
    check_bash_ran_away,
    check_bash_ran_only_what_the_engine_found,
    check_bash_ran_the_hidden_payload,
    check_engine_matches_bash_exactly,
    check_fork_bomb_verdict,
    check_hidden_command_keeps_its_findings,
    corpus_cases,
)

pytestmark = pytest.mark.bwrap

PROGRAMS = (
    frozenset(PLAIN_PROGRAMS)
    | frozenset(program.split()[0] for program in RISKY_PROGRAMS)
    | frozenset(FORWARDED_SHELLS)
)
RISKY = frozenset(program.split()[0] for program in RISKY_PROGRAMS)
SAMPLE_STRIDE = 4
# Fork bombs and endless spawning loops exercise the sandbox, not the engine.
_SANDBOX_ONLY_RULES = frozenset({"DO001", "DO002"})


@pin_known_gaps
@given(without_known_gaps(ORACLE_GENERATED, reachable_scripts()).filter(bash_accepts))
def test_the_engine_finds_exactly_what_bash_runs_in_generated_scripts(oracle: BashOracle, script: str) -> None:
    check_engine_matches_bash_exactly(oracle.run(script), audit_command(script), PROGRAMS, RISKY)


def oracle_eligible(cases: tuple[Case, ...]) -> list[Case]:
    """The cases bash can run under the oracle (the fuzzing page states how many)."""
    return [
        case
        for case in cases
        if case.policy_document is None
        and not case.rules & _SANDBOX_ONLY_RULES
        and "\x00" not in case.command
        and not excluded(ORACLE_CORPUS, case.command)
    ]


def _check_cases(oracle: BashOracle, cases: list[Case]) -> None:
    """Run the cases in parallel sandboxes; report every disagreement at once."""

    def check(case: Case) -> str | None:
        try:
            check_bash_ran_only_what_the_engine_found(oracle.run(case.command), audit_command(case.command))
        except AssertionError as failure:
            return f"{case.id}: {failure}"
        return None

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        failures = [failure for failure in pool.map(check, cases) if failure is not None]
    assert not failures, f"{len(failures)} of {len(cases)} corpus cases disagree with bash:\n" + "\n".join(failures)


def test_bash_runs_only_what_the_engine_found_in_a_sample_of_the_corpus(oracle: BashOracle) -> None:
    _check_cases(oracle, oracle_eligible(corpus_cases())[::SAMPLE_STRIDE])


@pytest.mark.slow
def test_bash_runs_only_what_the_engine_found_in_the_whole_corpus(oracle: BashOracle) -> None:
    _check_cases(oracle, oracle_eligible(corpus_cases()))


# -- hidden commands and fork bombs (issue 19) -------------------------------------------------
# bash's side always runs: it confirms the generators. The engine's side waits while its
# class is a known gap.


def _synchronous(hidden: Hidden) -> bool:
    """A process substitution runs in the background, and setsid forks one when its caller leads a
    process group (under another setsid): the sandbox may end before either runs."""
    return "<(" not in hidden.payload and ">(" not in hidden.payload and not hidden.payload.startswith("setsid")


@pin_known_gaps
@given(hidden_commands(in_oracle=True).filter(lambda hidden: _synchronous(hidden) and bash_accepts(hidden.text)))
def test_bash_runs_a_hidden_command_and_the_engine_keeps_its_findings(oracle: BashOracle, hidden: Hidden) -> None:
    payload_run = oracle.run(hidden.payload)
    assume(not payload_run.cut_short)
    check_bash_ran_the_hidden_payload(payload_run, oracle.run(hidden.text))
    if not excluded(HIDDEN_ORACLE, hidden.text):
        check_hidden_command_keeps_its_findings(hidden.payload, hidden.rules, hidden.adds, hidden.text)


_BOMB_SECONDS = 2.0


# About a second a script: the slow tier and campaigns run it; the engine's side runs in CI
# without bash (fuzz_metamorphic.py).
@pytest.mark.slow
@pin_known_gaps
@given(fork_bomb_scripts().filter(lambda script: bash_accepts(script.text)))
def test_bash_and_the_engine_agree_on_what_is_a_fork_bomb(oracle: BashOracle, script: Script) -> None:
    run = oracle.run(waiting(script.text, RUNAWAY_EXECUTIONS, _BOMB_SECONDS), timeout=2 * _BOMB_SECONDS)
    check_bash_ran_away(run, script.is_bomb)
    if not excluded(BOMBS_ORACLE, script.text):
        check_fork_bomb_verdict(script.text, script.is_bomb)
