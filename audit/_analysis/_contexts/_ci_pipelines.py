"""The shell steps of a CI pipeline file, as the CI service hands them to a shell.

A workflow written into `.github/workflows/`, a `.gitlab-ci.yml`, a CircleCI, Bitbucket, Azure,
Drone, Travis or Buildkite pipeline runs on the next push, on the CI's machines, with the
repository's secrets in its environment: a step that sends them away runs there with no one
looking. The file is YAML (read with PyYAML, loaded on the first pipeline written); each string
under a key that holds shell commands (`run`, `script`, `before_script`, `after_script`,
`command`, `commands`, `bash`, `sh`) is a step, a list of them one step per entry. A fragment
appended to a pipeline (`echo '      - run: ...' >> ci.yml`) is read on its own.

GitHub's expressions are replaced before the shell sees the step: `${{ secrets.NAME }}` stands for
a variable a secret is in (`${CI_SECRET_NAME}`), `${{ github.token }}` for `${GITHUB_TOKEN}`, and any
other expression for a value known only when the workflow runs. This is a reading for the audit,
not the CI's: anchors, includes, templates and matrices are not followed.
"""

from __future__ import annotations

import re
from typing import cast

# The file names and directories CI services read their pipelines from.
_PIPELINE_FILES = frozenset({
    ".gitlab-ci.yml", "bitbucket-pipelines.yml", "azure-pipelines.yml", "azure-pipelines.yaml", ".drone.yml",
    ".travis.yml", "cloudbuild.yaml", "cloudbuild.yml", "buildspec.yml", "codemagic.yaml", ".woodpecker.yml",
})  # fmt: skip
_PIPELINE_DIRECTORIES = (".github/workflows/", ".circleci/", ".buildkite/", ".gitea/workflows/", ".forgejo/workflows/")
_YAML_SUFFIXES = (".yml", ".yaml")
# The keys whose values are shell commands, across the services.
_STEP_KEYS = frozenset({"run", "script", "before_script", "after_script", "command", "commands", "bash", "sh"})
# Compiled on first use (re's own cache), not at import: most commands write no pipeline.
_EXPRESSION = r"\$\{\{\s*(.*?)\s*\}\}"
# Collections opened inside each other this deep in flow style (`[[[...`): no pipeline is written so.
_FLOW_NESTING = r"(?:[\[{]\s*){64}"
_SECRET = r"secrets\.([A-Za-z_][A-Za-z0-9_]*)|secrets\[\s*'([^']+)'\s*\]"


def is_pipeline_file(path: str) -> bool:
    """Whether a CI service runs the file at `path` as a pipeline (`.github/workflows/ci.yml`)."""
    name = path.rpartition("/")[2]
    if name in _PIPELINE_FILES:
        return True
    directory = path[: len(path) - len(name)]
    return name.endswith(_YAML_SUFFIXES) and any(
        directory == pipelines or directory.endswith("/" + pipelines) for pipelines in _PIPELINE_DIRECTORIES
    )


def pipeline_steps(text: str) -> list[str]:
    """Each shell step of the pipeline `text`, with GitHub's expressions replaced as the runner would
    (none when the text is not YAML)."""
    import yaml  # loaded on the first pipeline written

    # PyYAML builds nested collections by recursion: a document nested past its reach is read as one
    # step instead, which fails toward a finding (it does not parse as shell), never toward an unread
    # pipeline; deep flow nesting (`[[[...`) is told before the parse, which it would slow down.
    if re.search(_FLOW_NESTING, text):
        return [text]
    # libyaml's loader where PyYAML was built with it: the pure-Python one is ten times slower.
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        document: object = yaml.load(text, Loader=loader)
    except yaml.YAMLError:
        return []
    except RecursionError:
        return [text]
    return [re.sub(_EXPRESSION, _expression_value, step) for step in _steps(document)]


def _steps(document: object) -> list[str]:
    """The strings under a step key, anywhere in the document, in order. A list or mapping is read
    once: YAML's aliases may share one many times over (nested aliases are exponential to walk)."""
    steps: list[str] = []
    seen: set[int] = set()
    pending: list[tuple[object, str | None]] = [(document, None)]
    while pending:
        node, key = pending.pop()
        if isinstance(node, str):
            if key in _STEP_KEYS:
                steps.append(node)
            continue
        if not isinstance(node, dict | list) or id(cast("object", node)) in seen:
            continue
        seen.add(id(cast("object", node)))
        if isinstance(node, dict):
            entries = cast("dict[object, object]", node).items()
            children = [(value, name if isinstance(name, str) else None) for name, value in entries]
        else:
            children = [(item, key) for item in cast("list[object]", node)]
        pending.extend(reversed(children))
    return steps


def _expression_value(match: re.Match[str]) -> str:
    """What the shell reads where an expression was: a secret's variable, or a run-time value. The
    runner pastes the value into the text, so the variable goes in as it stands, quoted or not."""
    expression = match.group(1)
    secret = re.fullmatch(_SECRET, expression)
    if secret is not None:
        return "${CI_SECRET_" + (secret.group(1) or secret.group(2)).upper() + "}"
    if expression == "github.token":
        return "${GITHUB_TOKEN}"
    return "${CI_EXPRESSION}"
