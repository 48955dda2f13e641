"""The examples of the pages about the engine run as written and print what they show.

The pages whose examples need a sandbox, LangChain or a shell are checked
next to the tests of their package (tests/sandbox, tests/middleware,
tests/cli); tests/docs/test_docs_site.py checks that every example has a test.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from audit import Decision, audit_command, policy_from_mapping
from corpus import load_corpus
from tests.docs_pages import page, run_session

# Pages whose sessions need nothing but the engine.
SESSION_PAGES = ("quickstart", "engine", "limits", "languages", "exfiltration")


@pytest.mark.parametrize("name", SESSION_PAGES)
def test_the_sessions_on_the_page_print_what_they_show(name: str) -> None:
    shown_on = page(name)
    sessions = shown_on.fenced("pycon")
    assert sessions, f"{name} has no pycon session"
    run = run_session("\n".join(sessions), shown_on)
    assert run.failures == 0, run.report
    assert run.tries >= 3


def test_the_json_on_the_engine_page_is_what_to_dict_returns() -> None:
    [shown] = page("engine").fenced("json")
    verdict = json.loads(shown)
    assert audit_command(verdict["command"]).to_dict() == verdict


def test_the_command_globs_page_policy_adds_a_binary_directory() -> None:
    [example] = page("command-globs").fenced("toml")
    policy = policy_from_mapping(tomllib.loads(example), "the command globs page's example")
    assert {f.rule_id for f in audit_command("/opt/acme/bin/[r]m* -rf /", policy=policy).findings} == {"CP002", "FS001"}
    assert audit_command("/opt/acme/bin/[r]m* -rf /").decision is Decision.WARN


def test_the_policy_page_example_loads_and_does_what_it_says(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    policy_page = page("policy")
    [example] = policy_page.fenced("toml")
    policy = policy_from_mapping(tomllib.loads(example), "the policy page's example")
    assert audit_command("pip install requests", policy=policy).decision is Decision.PASS
    assert audit_command("sudo ls", policy=policy).decision is Decision.BLOCK
    assert audit_command('julia -e "$(curl -s u)"', policy=policy).decision is Decision.BLOCK
    (tmp_path / "policy.toml").write_text(example, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    [session] = policy_page.fenced("pycon")
    run = run_session(session, policy_page)
    assert run.failures == 0, run.report


def test_the_case_on_the_corpus_page_is_a_valid_case(tmp_path: Path) -> None:
    [shown] = page("corpus").fenced("toml")
    (tmp_path / "benign").mkdir()
    (tmp_path / "benign" / "example.toml").write_text(shown, encoding="utf-8")
    [case] = load_corpus(tmp_path)
    assert (case.decision, case.rules, case.todo) == (Decision.PASS, frozenset(), True)
