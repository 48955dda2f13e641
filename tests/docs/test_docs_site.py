"""The site as a whole: every runnable example has a test, the README's links lead to pages.

`mkdocs build --strict` (in .ci/run) checks the links between pages and the
nav; these tests cover what it cannot see: the README, which is not part of
the site, and the examples, which it does not run.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from tests.docs_pages import README, REPOSITORY, RUNNABLE_LANGUAGES, hand_written_pages, page

# Which test runs or checks the runnable blocks of each page. A page gaining a
# runnable block needs an entry here, and the named test must read that page.
EXAMPLE_TESTS = {
    ("README", "console"): "tests/cli/test_cli_docs.py",
    ("README", "python"): "tests/middleware/test_middleware_docs.py",
    ("quickstart", "console"): "tests/cli/test_cli_docs.py",
    ("quickstart", "pycon"): "tests/docs/test_docs_examples.py",
    ("cli", "console"): "tests/cli/test_cli_docs.py",
    ("engine", "pycon"): "tests/docs/test_docs_examples.py",
    ("engine", "json"): "tests/docs/test_docs_examples.py",
    ("limits", "pycon"): "tests/docs/test_docs_examples.py",
    ("languages", "pycon"): "tests/docs/test_docs_examples.py",
    ("exfiltration", "pycon"): "tests/docs/test_docs_examples.py",
    ("policy", "toml"): "tests/docs/test_docs_examples.py",
    ("command-globs", "toml"): "tests/docs/test_docs_examples.py",
    ("policy", "pycon"): "tests/docs/test_docs_examples.py",
    ("corpus", "toml"): "tests/docs/test_docs_examples.py",
    ("authz", "toml"): "tests/authz/test_authz_docs.py",
    ("authz", "pycon"): "tests/authz/test_authz_docs.py",
    ("sandbox", "pycon"): "tests/sandbox/test_sandbox_docs.py",
    ("middleware", "python"): "tests/middleware/test_middleware_docs.py",
    ("middleware", "pycon"): "tests/middleware/test_middleware_docs.py",
    ("agent-hooks", "json"): "tests/hooks/test_hook_docs.py",
    ("packs", "toml"): "tests/docs/test_packs_docs.py",
    ("packs", "pycon"): "tests/docs/test_packs_docs.py",
    ("packs", "python"): "tests/docs/test_packs_docs.py",
}
# The front door stays a front door; the rest belongs on a page under docs/.
README_MOST_LINES = 180


def test_every_runnable_example_in_the_docs_has_a_test_that_reads_its_page() -> None:
    first_lines = {
        (shown_on.name, fence.language): f"{shown_on.path.relative_to(REPOSITORY)}:{fence.line}"
        for shown_on in hand_written_pages()
        for fence in reversed(shown_on.fences)
        if fence.language in RUNNABLE_LANGUAGES
    }
    shown = first_lines.keys()
    untested = sorted(first_lines[key] for key in shown - EXAMPLE_TESTS.keys())
    assert not untested, f"runnable examples without a test (add one and list it in EXAMPLE_TESTS): {untested}"
    gone = sorted(EXAMPLE_TESTS.keys() - shown)
    assert not gone, f"EXAMPLE_TESTS lists examples the pages no longer show: {gone}"
    for (name, _), test_file in EXAMPLE_TESTS.items():
        assert f'"{name}"' in (REPOSITORY / test_file).read_text(encoding="utf-8"), f"{test_file} never reads {name}"


def test_every_link_of_the_readme_leads_to_a_file_that_exists() -> None:
    readme = page("README")
    local = [link for link in readme.links if not urlsplit(link).scheme]
    assert local, "the README links to no page"
    missing = [link for link in local if not (README.parent / urlsplit(link).path).exists()]
    assert not missing, f"README links to missing files: {missing}"


def test_the_readme_stays_a_front_door() -> None:
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= README_MOST_LINES, f"the README has {lines} lines; move the details to a page under docs/"


def test_the_quick_start_commands_are_the_same_in_the_readme_and_on_the_quick_start_page() -> None:
    [readme_commands] = page("README").fenced("sh")
    assert page("quickstart").fenced("sh")[0] == readme_commands
