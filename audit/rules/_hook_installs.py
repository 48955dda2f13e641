"""A git hook installed from a file (EX024): `cp tools/x.sh .git/hooks/post-checkout`.

git runs a hook by itself on every commit, checkout, merge or push, so what it holds runs again in
every later session. A hook written with known content is audited as it will run (the autorun
tables); one copied, moved or linked in has content the command does not show. Projects install
their own hooks under the hook's own name, or from a hooks directory (`cp scripts/pre-commit
.git/hooks/`, `ln -s ../../.githooks/pre-push .git/hooks/pre-push`): those pass.
"""

from __future__ import annotations

from collections.abc import Iterator

from .._analysis import CommandSubject
from .._model import Severity
from .._tables import Tables
from ..programs import Arg
from ._paths import copied_sources, placed_paths
from ._rule import Hit, Inspects, rule

_HOOKS = ".git/hooks/"


def _hook_names(target: Arg) -> tuple[str, ...]:
    """The hook names a written path takes in a repository's hooks directory (none outside it)."""
    return tuple(
        value.rpartition(_HOOKS)[2]
        for value in target.values
        if _HOOKS in f"/{value}" and value.rpartition(_HOOKS)[2] and "/" not in value.rpartition(_HOOKS)[2]
    )


def _named_for(source: Arg, hooks: tuple[str, ...], written: frozenset[str]) -> bool:
    """The project's own hook: a source from a hooks directory, or named as the hook it becomes
    (`scripts/pre-commit.sh` for pre-commit); or a file written earlier in the command with known
    text, which the hook is audited as."""
    if not source.values:
        return False
    for value in source.values:
        if value in written:
            continue
        directory, _, name = value.rpartition("/")
        if "hook" not in directory.lower() and name.partition(".")[0] not in hooks:
            return False
    return True


@rule(
    id="EX024",
    name="git-hook-installed-from-file",
    severity=Severity.MEDIUM,
    summary=(
        "Copies, moves or links a file into a repository's hooks directory under another name "
        "(`cp tools/x.sh .git/hooks/post-checkout`, `mv /tmp/x .git/hooks/pre-commit`)."
    ),
    rationale=(
        "git then runs the file by itself on every commit, checkout, merge or push, in every later session, "
        "and the command does not show what it holds. A project installs its own hooks from its hooks "
        "directory or under the hook's own name, which passes; a hook written with known content is audited "
        "as it will run."
    ),
    safer_alternative="Install the project's hooks with its own tool (`pre-commit install`, `npx husky`), or review the file first.",
    inspects=Inspects.COMMAND,
    commands=frozenset({"cp", "mv", "ln", "install", "rsync"}),
    must_match=(
        "cp tools/payload.sh .git/hooks/post-checkout",
        "mv /tmp/x .git/hooks/pre-commit",
        "ln -sf ~/.cache/u .git/hooks/post-merge",
        'install -m 755 "$f" app/.git/hooks/pre-push',
    ),
    must_not_match=(
        "cp scripts/pre-commit.sh .git/hooks/pre-commit",
        "ln -s ../../.githooks/pre-push .git/hooks/pre-push",
        "cp hooks/* .git/hooks/",
        "cp .git/hooks/pre-commit.sample .git/hooks/pre-commit",
        "cp tools/payload.sh build/",
    ),
)
def git_hook_installed(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    sources = copied_sources(subject)
    written = frozenset(path for path, _ in subject.written)
    for target in placed_paths(subject):
        hooks = _hook_names(target)
        if hooks and not all(_named_for(source, hooks, written) for source in sources):
            yield Hit(target.span, f"`{subject.name}` installs a git hook whose content the command does not show")
            return


HOOK_INSTALL_RULES = (git_hook_installed,)
