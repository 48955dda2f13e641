"""The generated pages: one per rule, the rule table and the policy reference, from the code.

Each page is rendered with Python-Markdown (what MkDocs uses) and read back as
text, so a test fails when the generator loses or mangles what it documents,
not only when it writes something different.
"""

from __future__ import annotations

import itertools
import tomllib
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import PurePosixPath
from typing import Any, cast

import markdown
import pytest

from audit import Severity
from audit.programs import INTERPRETERS, WRAPPERS
from audit.rules import REGISTRY, Example, Inspects, Registry, RetiredRule, Rule
from docs.reference import (
    ARCHITECTURE_PAGE,
    CONTRIBUTING_PAGE,
    DEFAULT_POLICY,
    DEFAULT_POLICY_MARKER,
    LONGEST_SHOWN_EXAMPLE,
    RULE_TABLE_MARKER,
    GenerationError,
    built_in_programs,
    expand_markers,
    generated_pages,
    policy_reference,
    policy_text,
    repository_document_page,
    rule_page,
    rule_page_path,
    rule_table,
)
from tests.docs_pages import page

RULE_INDEX = PurePosixPath("rules/index.md")
POLICY_REFERENCE = PurePosixPath("policy-reference.md")


class _Text(HTMLParser):
    """The text of rendered HTML, and the text of each <code> element."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.code: list[str] = []
        self._code_depth = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "code":
            self._code_depth += 1
            self.code.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "code":
            self._code_depth -= 1

    def handle_data(self, data: str) -> None:
        self.parts.append(data)
        if self._code_depth:
            self.code[-1] += data


class _Rows(HTMLParser):
    """The code spans of each table row of rendered HTML, one list per cell."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[list[str]]] = []
        self._in_cell = False
        self._in_code = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "tr":
            self.rows.append([])
        elif tag == "td":
            self._in_cell = True
            self.rows[-1].append([])
        elif tag == "code" and self._in_cell:
            self._in_code = True
            self.rows[-1][-1].append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "code":
            self._in_code = False
        elif tag == "td":
            self._in_cell = False

    def handle_data(self, data: str) -> None:
        if self._in_code:
            self.rows[-1][-1][-1] += data


def _rendered(source: str) -> _Text:
    text = _Text()
    text.feed(markdown.markdown(source, extensions=["tables", "fenced_code"]))
    return text


def _words(text: str) -> str:
    """Prose as a reader sees it: Markdown backticks gone, whitespace made single spaces."""
    return " ".join(text.replace("`", "").split())


def _rule(rule_id: str, name: str, summary: str, *examples: Example) -> Rule:
    return Rule(
        id=rule_id,
        name=name,
        severity=Severity.MEDIUM,
        summary=summary,
        rationale="Reads /proc/<pid>/environ with * and _ and | in it.",
        safer_alternative="Use `printenv NAME` instead [of this].",
        inspects=Inspects.INPUT,
        examples=examples or (Example("a"), Example("b")),
        counter_examples=(Example("c"), Example("d")),
    )


# -- rule pages ---------------------------------------------------------------------------------


def test_every_rule_and_retired_id_gets_a_page_and_nothing_else_is_generated_beside_the_repository_documents() -> None:
    paths = {generated.path for generated in generated_pages()}
    expected = {rule_page_path(declared.id) for declared in REGISTRY} | {
        rule_page_path(retired.id) for retired in REGISTRY.retired
    }
    assert paths == expected | {CONTRIBUTING_PAGE, ARCHITECTURE_PAGE}


@pytest.mark.parametrize("declared", list(REGISTRY), ids=lambda declared: declared.id)
def test_a_rule_page_shows_its_documentation_and_every_example_both_ways(declared: Rule) -> None:
    rendered = _rendered(rule_page(declared))
    text = _words("".join(rendered.parts))
    assert f"{declared.id} {declared.name}" in text
    assert f"{declared.severity.value} {declared.severity.decision.value} {declared.inspects.value}" in text
    for documentation in (declared.summary, declared.rationale, declared.safer_alternative):
        assert _words(documentation) in text, documentation
    shown = [code.rstrip("\n") for code in rendered.code]
    for example in (*declared.examples, *declared.counter_examples):
        if (len(example.command) <= LONGEST_SHOWN_EXAMPLE and example.command.isprintable()) or "\n" in example.command:
            assert example.command in shown or repr(example.command) in shown, example.command


def test_the_rule_table_links_every_rule_to_its_page() -> None:
    rendered = markdown.markdown(rule_table(RULE_INDEX), extensions=["tables"])
    for declared in REGISTRY:
        assert f'<a href="{declared.id}.md">{declared.id}</a>' in rendered


def test_a_new_rule_and_a_retired_id_appear_without_a_change_to_the_generator() -> None:
    registry = Registry(
        [_rule("ZZ001", "some-new-rule", "Catches `x | y` when <this> and *that* happen.")],
        [RetiredRule("ZZ002", "old-rule", "Merged into ZZ001.")],
    )
    pages = {generated.path: generated.markdown for generated in generated_pages(registry)}
    assert set(pages) == {rule_page_path("ZZ001"), rule_page_path("ZZ002"), CONTRIBUTING_PAGE, ARCHITECTURE_PAGE}
    text = _words("".join(_rendered(pages[rule_page_path("ZZ001")]).parts))
    assert "Catches x | y when <this> and *that* happen." in text
    assert "Reads /proc/<pid>/environ with * and _ and | in it." in text
    assert "Use printenv NAME instead [of this]." in text
    retired = _rendered(pages[rule_page_path("ZZ002")])
    assert "Retired: Merged into ZZ001." in _words("".join(retired.parts))
    table = markdown.markdown(rule_table(RULE_INDEX, registry), extensions=["tables"])
    assert table.count("<tr>") == 3, "a header and one row each for the rule and the retired id"
    assert '<a href="ZZ001.md">ZZ001</a>' in table


def test_invisible_characters_and_whitespace_only_examples_are_shown_as_escapes() -> None:
    declared = _rule("ZZ001", "some-rule", "S.", Example("ls\x00"), Example("\n\t \n"), Example("echo \u202eok"))
    shown = _rendered(rule_page(declared)).code
    assert "ls\\x00\n" in shown
    assert "'\\n\\t \\n'\n" in shown
    assert "echo \\u202eok\n" in shown


def test_a_long_example_is_shortened_and_says_how_long_it_was() -> None:
    declared = _rule("ZZ001", "some-rule", "S.", Example("echo " + "a" * 10_000), Example("b"))
    text = _words("".join(_rendered(rule_page(declared)).parts))
    assert "(10,005 characters, shortened here)" in text
    assert "a" * 200 not in text


def test_an_example_with_backticks_gets_a_longer_fence() -> None:
    declared = _rule("ZZ001", "some-rule", "S.", Example("echo ```x``` `y`"), Example("b"))
    assert "echo ```x``` `y`\n" in _rendered(rule_page(declared)).code


def test_an_example_with_a_policy_shows_the_policy_as_toml() -> None:
    declared = _rule("ZZ001", "some-rule", "S.", Example("ls", {"limits": {"max_length": 1}}), Example("b"))
    assert "[limits]\nmax_length = 1\n" in _rendered(rule_page(declared)).code


# -- the policy reference -----------------------------------------------------------------------


def _leaves(table: dict[str, Any], path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], object]]:
    for key, value in table.items():
        if isinstance(value, dict):
            yield from _leaves(cast("dict[str, Any]", value), (*path, key))
        else:
            yield (*path, key), value


def _settings_shown(code: list[str]) -> list[tuple[str, object]]:
    """Every `key = value` the page shows: in one code span or block, or as a key cell then a default cell."""
    candidates = [*code, *(f"{key} = {value}" for key, value in itertools.pairwise(code))]
    shown: list[tuple[str, object]] = []
    for candidate in candidates:
        try:
            shown.extend(tomllib.loads(candidate).items())
        except tomllib.TOMLDecodeError:
            continue
    return shown


def test_the_policy_reference_shows_every_key_of_the_default_policy_with_its_default() -> None:
    text = DEFAULT_POLICY.read_text(encoding="utf-8")
    rendered = _rendered(policy_reference(text, POLICY_REFERENCE))
    shown = _settings_shown([code.strip() for code in rendered.code])
    for path, value in _leaves(tomllib.loads(text)):
        assert (path[-1], value) in shown, f"{'.'.join(path)} = {value!r} is not on the page"


def test_each_interpreter_family_and_wrapper_has_one_row_with_exactly_its_settings() -> None:
    text = policy_text()
    rows = _Rows()
    rows.feed(markdown.markdown(policy_reference(text, POLICY_REFERENCE), extensions=["tables"]))
    settings_by_name = {cells[0][0]: cells[1] for cells in rows.rows if len(cells) == 2 and len(cells[0]) == 1}
    built_in = tomllib.loads(built_in_programs())
    assert {family.family for family in INTERPRETERS} == set(built_in["interpreters"])
    assert {wrapper.name for wrapper in WRAPPERS} == set(built_in["wrappers"])
    for family in ("interpreters", "wrappers"):
        for name, settings in built_in[family].items():
            assert name in settings_by_name, f"{family}.{name} has no row"
            assert tomllib.loads("\n".join(settings_by_name[name])) == settings, f"{family}.{name}"


def test_the_policy_reference_keeps_every_comment_of_the_default_policy() -> None:
    text = DEFAULT_POLICY.read_text(encoding="utf-8")
    rendered = _words("".join(_rendered(policy_reference(text, POLICY_REFERENCE)).parts))
    for line in text.splitlines():
        comment = line.strip().removeprefix("#").strip() if line.strip().startswith("#") else ""
        if not comment and "#" in line and not line.strip().startswith("#"):
            comment = line.split("#", 1)[1].strip()
        assert _words(comment) in rendered, comment


def test_a_comment_above_a_table_header_is_printed_before_that_table_not_inside_the_one_above() -> None:
    text = '[names]\nfetchers = ["curl"]\n\n# Wrappers run a command.\n[wrappers.nice]\nvalue_options = ["-n"]\n'
    reference = policy_reference(text, POLICY_REFERENCE)
    assert reference.index("`[wrappers.NAME]`") < reference.index("Wrappers run a command.") < reference.index("nice")


def test_a_commented_out_setting_is_shown_as_toml_and_rule_ids_link_to_their_pages() -> None:
    reference = policy_reference('[rules]\n# Change a rule, like PK001:\n# PK001 = "off"\n', POLICY_REFERENCE)
    assert "[PK001](rules/PK001.md)" in reference
    assert '```toml\nPK001 = "off"\n```' in reference


def test_a_policy_the_generator_cannot_document_fails_with_the_key() -> None:
    with pytest.raises(GenerationError, match=r"names\.decoders: arrays of tables"):
        policy_reference('[[names.decoders]]\nname = "x"\n', POLICY_REFERENCE)
    with pytest.raises(GenerationError, match="not valid TOML"):
        policy_reference("[names\n", POLICY_REFERENCE)


# -- markers and the contributing page ----------------------------------------------------------


def test_each_marker_stands_on_the_page_that_shows_its_content() -> None:
    assert page("rules/index").text.count(RULE_TABLE_MARKER) == 1
    assert page("policy-reference").text.count(DEFAULT_POLICY_MARKER) == 1


def test_a_marker_is_replaced_by_its_content_and_an_unknown_one_is_an_error_naming_the_page() -> None:
    expanded = expand_markers(f"# Rules\n\n{RULE_TABLE_MARKER}\n", RULE_INDEX)
    assert RULE_TABLE_MARKER not in expanded and "| id | name | severity |" in expanded
    with pytest.raises(GenerationError, match=r"docs/rules/index\.md: unknown marker"):
        expand_markers("<!-- generated: rule-tabel -->\n", RULE_INDEX)


def test_repository_document_links_into_docs_become_links_between_pages() -> None:
    assert repository_document_page("See [the corpus](docs/corpus.md#a-case).") == "See [the corpus](corpus.md#a-case)."
    assert repository_document_page("See [it](ARCHITECTURE.md#the-walk).") == "See [it](architecture.md#the-walk)."
