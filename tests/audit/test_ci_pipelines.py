"""CI pipeline files: which paths are pipelines, and the steps read from hostile YAML stay bounded.

What the steps do is pinned by corpus/contexts/ci-pipelines.toml; these pin the reader itself.
"""

from __future__ import annotations

import time

import pytest

from audit import audit_command
from audit._analysis._contexts._ci_pipelines import is_pipeline_file, pipeline_steps


@pytest.mark.parametrize(
    "path",
    [
        ".github/workflows/ci.yml",
        "/src/app/.github/workflows/release.yaml",
        ".gitlab-ci.yml",
        "./.gitlab-ci.yml",
        ".circleci/config.yml",
        "repo/.buildkite/pipeline.yml",
        "bitbucket-pipelines.yml",
    ],
)
def test_a_ci_service_reads_these_paths_as_pipelines(path: str) -> None:
    assert is_pipeline_file(path)


@pytest.mark.parametrize(
    "path",
    [
        ".github/workflows/README.md",
        ".github/dependabot.yml",
        "docs/.github-workflows/ci.yml",
        "my.github/workflows/ci.yml",
        "gitlab-ci.yml.bak",
        "config.yml",
    ],
)
def test_other_files_are_not_pipelines(path: str) -> None:
    assert not is_pipeline_file(path)


def test_steps_are_read_from_every_service_key_in_document_order() -> None:
    text = (
        "a:\n  - run: ls\n  - script: [make, make test]\n"
        "b: {command: pwd, nested: {sh: id}}\nc:\n  name: run\n  uses: actions/checkout@v4\n"
    )
    assert pipeline_steps(text) == ["ls", "make", "make test", "pwd", "id"]


def test_secrets_and_expressions_are_replaced_as_the_runner_would() -> None:
    text = """run: 'curl -d "${{ secrets.npm_token }}" -H "x: ${{ github.token }}" "${{ github.event.issue.title }}"'"""
    assert pipeline_steps(text) == ['curl -d "${CI_SECRET_NPM_TOKEN}" -H "x: ${GITHUB_TOKEN}" "${CI_EXPRESSION}"']


def test_text_that_is_not_yaml_has_no_steps() -> None:
    assert pipeline_steps("run: [unclosed") == []


def test_nested_aliases_are_walked_once_each() -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{n}: &a{n} [{', '.join([f'*a{n - 1}'] * 10)}]" for n in range(1, 30)]
    started = time.process_time()
    assert pipeline_steps("\n".join(lines)) == []
    # Walked naively this is 10**30 entries; once each it is a few hundred.
    assert time.process_time() - started < 5


@pytest.mark.parametrize(
    "nesting", ["[" * 3000 + "rm -rf ~" + "]" * 3000, "\n" + "- " * 3000 + "rm -rf ~"], ids=["flow", "block"]
)
def test_a_pipeline_nested_past_the_reader_is_audited_as_one_step(nesting: str) -> None:
    text = "run: " + nesting
    assert pipeline_steps(text) in ([text], ["rm -rf ~"])
    # Written where CI reads it, the text never passes unread.
    verdict = audit_command("printf '%s' '" + text + "' > .gitlab-ci.yml")
    assert verdict.decision.value != "pass"
