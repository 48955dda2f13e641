"""git's hooks (part of the git pack): pointing `core.hooksPath` outside the project, so that every
later commit, checkout, merge and push runs whatever that directory holds (GT016); committing or
pushing with the hooks skipped (GT022)."""

from __future__ import annotations

from collections.abc import Iterator

from .._analysis import CommandSubject
from .._model import Severity
from .._tables import Tables
from ..programs import Arg
from ..programs.git_settings import git_settings, mentions_setting
from ..rules._paths import reading
from ..rules._rule import Hit, Inspects, rule
from ._invocation import Found, command, pack_rule


def _names_the_hooks_path(subject: CommandSubject) -> bool:
    return mentions_setting(subject.args, "hookspath")


def _hooks_turned_off(found: Found) -> Arg | None:
    """A variable the command sets that a hook manager reads as "run no hook" or "skip these hooks":
    pre-commit's `SKIP=gitleaks,...`, husky's `HUSKY=0` (`HUSKY_SKIP_HOOKS=1` before v5), lefthook's
    `LEFTHOOK=0` and `LEFTHOOK_EXCLUDE`, overcommit's `OVERCOMMIT_DISABLE=1`."""
    subject = found.subject
    for name, value in subject.environment:
        if (name in _SKIP_LISTS and value.strip()) or _OFF_SWITCHES.get(name) == value.strip():
            return Arg((f"{name}={value}",), f"{name}={value}", subject.span)
    return None


_SKIP_LISTS = frozenset({"SKIP", "LEFTHOOK_EXCLUDE"})
_OFF_SWITCHES = {"HUSKY": "0", "HUSKY_SKIP_HOOKS": "1", "LEFTHOOK": "0", "OVERCOMMIT_DISABLE": "1"}

HOOKS_SKIPPED = pack_rule(
    id="GT022",
    name="git-hooks-skipped",
    severity=Severity.MEDIUM,
    summary=(
        "Commits or pushes without the repository's hooks: `git commit --no-verify` (`-n`), `git push "
        "--no-verify`, or a hook manager told to skip them (`SKIP=gitleaks git commit`, `HUSKY=0`, "
        "`LEFTHOOK=0`, `OVERCOMMIT_DISABLE=1`)."
    ),
    rationale=(
        "The hooks are the project's checks before code leaves the machine: secret scanners (gitleaks, "
        "detect-secrets), linters, tests. Skipping them is how a committed key or a broken build gets "
        "through. It warns: skipping a slow hook for a work-in-progress commit is routine."
    ),
    safer_alternative="Fix what the hook reports, or skip only the one slow hook and never the secret scanner.",
    matches=(
        command("git", "commit", requires=("--no-verify",)),
        command("git", "push", requires=("--no-verify",)),
        command("git", "commit", where=_hooks_turned_off),
        command("git", "push", where=_hooks_turned_off),
    ),
    message="skips the repository's git hooks",
    must_match=(
        "git commit --no-verify -m 'quick fix'",
        "git commit -anm wip",
        "SKIP=gitleaks,detect-secrets git commit -m 'update fixtures'",
        "git push --no-verify origin feature/x",
        "HUSKY=0 git push",
    ),
    must_not_match=(
        "git commit -m 'fix: handle empty payload'",
        "git commit --amend --no-edit",
        "SKIP= git commit -m x",
        "HUSKY=1 git commit -m x",
        "git push origin main",
    ),
)


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
