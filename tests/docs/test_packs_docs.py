"""The threat packs page: its generated table, its examples, and what rule pages say about packs."""

from __future__ import annotations

import tomllib
from pathlib import PurePosixPath

import markdown

from audit import Decision, audit_command, policy_from_mapping
from audit.rules import REGISTRY, Pack, Registry
from audit.rules._rule import Inspects, rule
from docs.reference import PACKS_TABLE_MARKER, expand_markers, packs_table, rule_page
from tests.docs_pages import page, run_session

PACKS_PAGE = PurePosixPath("packs.md")


def test_the_packs_page_shows_the_generated_table_once() -> None:
    assert page("packs").text.count(PACKS_TABLE_MARKER) == 1
    expanded = expand_markers(page("packs").text, PACKS_PAGE)
    assert PACKS_TABLE_MARKER not in expanded and "| pack | by default |" in expanded


def test_the_packs_table_names_every_pack_with_its_default_and_links_its_rules() -> None:
    rendered = markdown.markdown(packs_table(PACKS_PAGE), extensions=["tables"])
    rows = rendered.split("<tr>")[2:]
    assert len(rows) == len(REGISTRY.packs)
    for pack, row in zip(REGISTRY.packs, rows, strict=True):
        assert f"<code>{pack.name}</code>" in row
        assert ("<strong>on</strong>" in row) is pack.default
        for declared in pack.rules:
            assert f'<a href="rules/{declared.id}.md">{declared.id}</a>' in row


def test_a_new_pack_appears_in_the_table_without_a_change_to_the_generator() -> None:
    declared = rule(
        id="ZZ001",
        name="zz-rule",
        severity=REGISTRY.rules[0].severity,
        summary="Deletes *things*.",
        rationale="r.",
        safer_alternative="a.",
        inspects=Inspects.COMMAND,
        must_match=(),
        must_not_match=(),
    )(lambda subject, tables: ())
    registry = Registry([], (), [Pack("zz.new-pack", "Things | stuff.", False, "Rarely used.", (declared,))])
    table = markdown.markdown(packs_table(PACKS_PAGE, registry), extensions=["tables"])
    assert "<code>zz.new-pack</code>" in table and "Things | stuff." in table and "Rarely used." in table


def test_a_pack_rule_page_names_its_pack_and_its_corpus_file() -> None:
    declared = REGISTRY.get("GT001")
    assert declared is not None
    text = rule_page(declared)
    assert "[`git` pack](../packs.md)" in text and "corpus/packs/git.toml" in text
    core = REGISTRY.get("FS001")
    assert core is not None and "corpus/rules/FS001.toml" in rule_page(core) and "pack" not in rule_page(core)


def test_the_packs_section_example_does_what_the_page_says() -> None:
    [example] = page("packs").fenced("toml")
    policy = policy_from_mapping(tomllib.loads(example), "the packs page's example")
    assert {"payments.stripe", "cdn.cloudflare", "cdn.fastly"} <= policy.packs
    assert "platform.github" not in policy.packs and "git" in policy.packs
    assert audit_command("gh repo delete acme/api --yes", policy=policy).decision is Decision.PASS
    assert audit_command("stripe customers delete cus_1", policy=policy).decision is Decision.BLOCK


def test_the_session_on_the_packs_page_prints_what_it_shows() -> None:
    shown_on = page("packs")
    [session] = shown_on.fenced("pycon")
    run = run_session(session, shown_on)
    assert run.failures == 0, run.report
    assert run.tries >= 3


def test_the_declarations_on_the_packs_page_build_rules_that_do_what_their_examples_say() -> None:
    first, second = page("packs").fenced("python")
    pack_namespace: dict[str, object] = {}
    exec(first, pack_namespace)  # the page's own example, run as written
    built = pack_namespace["PACK"]
    assert isinstance(built, Pack) and [declared.id for declared in built.rules] == ["KU005"]
    vendor_namespace: dict[str, object] = {}
    exec(second, vendor_namespace)
    stripe = vendor_namespace["STRIPE"]
    assert isinstance(stripe, Pack) and not stripe.default
    for pack in (built, stripe):
        [declared] = pack.rules
        registered = REGISTRY.get(declared.id)
        assert registered is not None and registered.severity is declared.severity
        assert len(declared.examples) >= 2 and len(declared.counter_examples) >= 2
