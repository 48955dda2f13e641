"""git's hooks directory (part of the git pack): pointing `core.hooksPath` outside the project,
so that every later commit, checkout, merge and push runs whatever that directory holds."""

from __future__ import annotations

from collections.abc import Iterator

from .._analysis import CommandSubject
from .._model import Severity
from .._tables import Tables
from ..programs.git_settings import git_settings
from ..rules._paths import reading
from ..rules._rule import Hit, Inspects, rule


def _names_the_hooks_path(subject: CommandSubject) -> bool:
    """The cheap first test: some word names the setting, as written or as expanded (`-c` is
    valid with every subcommand, so the rule cannot be keyed on one)."""
    for arg in subject.args:
        if "hookspath" in arg.source.lower() or any("hookspath" in value.lower() for value in arg.values):
            return True
    return False


@rule(
    id="GT016",
    name="git-hooks-path-outside-project",
    severity=Severity.MEDIUM,
    summary="Points git's hooks directory (`core.hooksPath`) outside the project: `/tmp/hooks`, `~/x`, `../x`.",
    rationale=(
        "Every executable file there runs at each later commit, checkout, merge or push, in this "
        "repository or (with `--global`) in all of them: a directory nobody reviews becomes code that "
        "runs on its own. A hook the same command wrote into that directory is audited as it will run "
        "(`printf '...curl ... | sh' > ~/.githooks/post-checkout` then blocks)."
    ),
    safer_alternative="Keep hooks in the repository (`git config core.hooksPath .githooks`) where they are reviewed.",
    inspects=Inspects.COMMAND,
    commands=("git",),
    applies=_names_the_hooks_path,
    must_match=(
        "git config --global core.hooksPath /tmp/evilhooks",
        "git config core.hooksPath ~/.hooks",
        "git -c core.hooksPath=/dev/shm/h commit -m x",
        "git config set core.hooksPath ../shared/hooks",
    ),
    must_not_match=(
        "git config core.hooksPath .githooks",
        "git config core.hooksPath .husky",
        "git config --get core.hooksPath",
        "git config --unset core.hooksPath",
        "git commit -m 'Add hooks/'",
    ),
)
def hooks_outside(subject: CommandSubject, _tables: Tables) -> Iterator[Hit]:
    """A `core.hooksPath` that is absolute, in the home directory, climbs out with `..`, or is
    known only at run time; a project's own directory (`.githooks`, `.husky`) is not."""
    for setting in git_settings(reading(subject)):
        if setting.key.lower() != "core.hookspath":
            continue
        path = setting.value.value
        if path is None or path.startswith(("/", "~")) or ".." in path.split("/"):
            yield Hit(
                setting.value.span, f"points git's hooks directory outside the project (`{setting.value.display()}`)"
            )
