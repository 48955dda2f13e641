"""The fast path for plain words (audit/_syntax/_plain.py) against the full path.

The fast path builds a command's tree without tree-sitter. It is sound only
if it changes nothing: on the whole corpus, every rule example and generated
commands, the tree and the verdict (decision, findings with their rule ids,
spans and messages) are the ones tree-sitter's path gives.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import audit._syntax._parse
import audit._syntax._treesitter
from audit import Policy, Verdict, audit_command, default_policy, policy_from_mapping
from audit._budget import Budget
from audit._syntax import ParseResult, parse
from audit.rules import REGISTRY
from corpus import load_corpus


@contextmanager
def _full_path() -> Iterator[None]:
    """Every text through tree-sitter, as before the fast path (which the driver takes for
    the whole text, and tree-sitter's adapter for nested code)."""
    with pytest.MonkeyPatch.context() as patch:
        for module in (audit._syntax._parse, audit._syntax._treesitter):
            patch.setattr(module, "plain_script", lambda _ready, _session: None)
        yield


_LIFTED = {"time_budget_ms": 60_000}
_NO_BACKSTOP = policy_from_mapping({"limits": _LIFTED})


def _policy(document: Mapping[str, Any] | None) -> Policy:
    """The case's policy with the CPU-time backstop lifted: the two paths are compared on what they
    find, and the step limit (which they charge alike) still applies; a full suite run loaded
    enough to push a corpus command past the clock in one path only says nothing about them."""
    if document is None:
        return _NO_BACKSTOP
    return policy_from_mapping({**document, "limits": {**_LIFTED, **document.get("limits", {})}})


def _both_ways(command: str, policy: Policy) -> tuple[Verdict, Verdict]:
    fast = audit_command(command, policy=policy)
    with _full_path():
        full = audit_command(command, policy=policy)
    return fast, full


def _parsed_both_ways(command: str) -> tuple[ParseResult, ParseResult]:
    fast = parse(command, budget=Budget(60.0, 10**9))
    with _full_path():
        full = parse(command, budget=Budget(60.0, 10**9))
    return fast, full


def _commands() -> list[tuple[str, Policy]]:
    cases = [(case.command, _policy(case.policy_document)) for case in load_corpus()]
    examples = [
        (example.command, _policy(example.policy))
        for declared in REGISTRY
        for example in declared.examples + declared.counter_examples
    ]
    return cases + examples


def test_every_corpus_command_and_rule_example_gets_the_verdict_of_the_full_path() -> None:
    differing = []
    for command, policy in _commands():
        fast, full = _both_ways(command, policy)
        if fast != full:
            differing.append(command)
    assert not differing, differing[:5]


def test_the_fast_path_is_taken_for_plain_commands_and_not_for_others() -> None:
    for plain in ("ls -la src/", "git commit --amend --no-edit", "kubectl get pods -n kube-system"):
        assert audit._syntax._treesitter.plain_script is not None
        fast, full = _parsed_both_ways(plain)
        assert fast == full
    with pytest.MonkeyPatch.context() as patch:
        taken: list[str] = []
        original = audit._syntax._parse.plain_script

        def recording(ready: Any, session: Any) -> Any:
            script = original(ready, session)
            if script is not None:
                taken.append(ready.text)
            return script

        patch.setattr(audit._syntax._parse, "plain_script", recording)
        for command in ("ls -la", "a=1 ls", "export PATH=x", "ls > out", "echo $HOME", "ls  'a b'", " ls", "if x"):
            parse(command, budget=Budget(60.0, 10**9))
    assert taken == ["ls -la"]


PLAIN = "abcxyzABC019_./:,+%@-"
KEYWORDS = ("if", "then", "for", "in", "export", "local", "declare", "unset", "time", "function", "case", "!")
WORD = st.text(alphabet=PLAIN + "=", min_size=1, max_size=8) | st.sampled_from(KEYWORDS)
SEPARATOR = st.sampled_from([" ", "  ", "   "])


@st.composite
def _plain_looking(draw: st.DrawFn) -> str:
    words = draw(st.lists(WORD, min_size=1, max_size=6))
    text = words[0]
    for word in words[1:]:
        text += draw(SEPARATOR) + word
    return text


@given(_plain_looking())
@example("rm -rf /")
@example("ls a=b")
@example("x= ls")
@example("-- -x")
@example("ls -- =")
@example("sudo rm -rf /usr/local/lib")
@example("chmod -R 777 /")
@example("a+:")  # tree-sitter reads a first word with `+` as a broken assignment
@example("1@")
def test_generated_plain_commands_get_the_tree_and_verdict_of_the_full_path(command: str) -> None:
    fast, full = _parsed_both_ways(command)
    assert fast == full
    fast_verdict, full_verdict = _both_ways(command, default_policy())
    assert fast_verdict == full_verdict
