"""The plain-command lane gives the full path's verdict on any plain command it takes.

Commands are a program name the engine knows (or any plain word) and words
taken from the corpus and the rule examples, so the arguments rules look for
(roots, secrets, devices, branches, options that force or run code) come up
often. A campaign explores this with fresh seeds; CI runs the `ci` profile.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import audit._engine
from audit import Policy, Verdict, audit_command, default_policy
from audit._analysis import plain_command
from audit._analysis._contexts import HANDLERS
from audit.packs._index import PACKS_BY_COMMAND
from audit.programs import KNOWN, WRITERS
from audit.programs.sending import SENDERS
from audit.rules import REGISTRY

from .properties import corpus_cases

_PLAIN_WORD = re.compile(r"[A-Za-z0-9_./:,=+-]+")


@contextmanager
def without_the_lane() -> Iterator[None]:
    """Every command through the full path (parse, walk, rules)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(audit._engine, "plain_command", lambda _text, _tables, _steps: None)
        yield


def through_the_lane_and_the_full_path(command: str, policy: Policy | None = None) -> tuple[Verdict, Verdict]:
    lane = audit_command(command, policy=policy)
    with without_the_lane():
        full = audit_command(command, policy=policy)
    return lane, full


def takes_the_lane(command: str, policy: Policy | None = None) -> bool:
    policy = policy or default_policy()
    return plain_command(command, policy.tables, policy.limits.max_steps) is not None


@functools.cache
def known_program_names() -> tuple[str, ...]:
    """Every program name the engine knows something about, and every corpus command's first word."""
    tables = default_policy().tables
    names = set(tables.program_names) | set(tables.wrappers) | set(tables.interpreters_by_name)
    names |= set(HANDLERS) | set(SENDERS) | set(WRITERS) | set(PACKS_BY_COMMAND) | set(KNOWN)
    for declared in REGISTRY:
        listed = declared.commands
        if listed is not None and not callable(listed):  # a predicate names no program
            names |= set(listed)
    names |= {case.command.split(" ", 1)[0] for case in corpus_cases()}
    return tuple(sorted(name for name in names if _PLAIN_WORD.fullmatch(name)))


@functools.cache
def plain_words_of_the_corpus() -> tuple[str, ...]:
    """The plain words of every corpus command and rule example."""
    commands = [case.command for case in corpus_cases()]
    commands += [example.command for declared in REGISTRY for example in declared.examples + declared.counter_examples]
    words = {word for command in commands for word in command.split() if _PLAIN_WORD.fullmatch(word)}
    return tuple(sorted(words))


NAMES = st.deferred(lambda: st.sampled_from(known_program_names())) | st.from_regex(
    r"[a-z][a-z0-9_.-]{0,8}", fullmatch=True
)
WORDS = st.deferred(lambda: st.sampled_from(plain_words_of_the_corpus())) | st.from_regex(_PLAIN_WORD, fullmatch=True)


@given(name=NAMES, arguments=st.lists(WORDS, max_size=6))
def test_the_plain_command_lane_gives_the_verdict_of_the_full_path(name: str, arguments: list[str]) -> None:
    command = " ".join([name, *arguments])
    assume(takes_the_lane(command))
    lane, full = through_the_lane_and_the_full_path(command)
    assert lane == full, (command, lane.rule_ids, full.rule_ids)
