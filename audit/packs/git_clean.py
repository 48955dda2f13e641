"""git's clean (part of the git pack): untracked files deleted for good, unless the clean is limited to
the build output and caches a build makes again."""

from __future__ import annotations

from .._model import Severity
from ..programs import Arg
from ..rules._paths import DERIVED_NAMES
from ._invocation import Found, command, pack_rule


def _cleans_kept_files(found: Found) -> Arg | None:
    """A clean that may reach files nothing makes again: no pathspec (the whole tree), or one that
    is not a build output or cache directory (`git clean -fdx -- build/ dist/` only empties those)."""
    pathspecs = found.reading.operands
    if not pathspecs:
        return found.reading.args[-1]
    return next((word for word in pathspecs if not _is_derived(word)), None)


def _is_derived(word: Arg) -> bool:
    return bool(word.values) and all(
        value.rstrip("/").rpartition("/")[2] in DERIVED_NAMES and not value.startswith(":") for value in word.values
    )


CLEAN_FORCE = pack_rule(
    id="GT004",
    name="git-clean-force",
    severity=Severity.HIGH,
    summary=(
        "`git clean -f` deletes untracked files (with `-x` also ignored ones such as `.env`); a clean limited "
        "to build output or cache directories (`git clean -fdx -- build/ dist/`) passes."
    ),
    rationale="Untracked files are not in git at all: new source files, local configuration and secrets that `git clean` removes are gone for good.",
    safer_alternative="Look first with `git clean -n` (dry run), or delete the specific build directories you mean.",
    matches=(
        command("git", "clean", requires=("--force",), unless=("--dry-run", "--interactive"), where=_cleans_kept_files),
    ),
    message="`git clean -f` deletes untracked files",
    must_match=("git clean -fdx", "git clean -f", "git clean --force -d -e .venv", "git clean -fd -- build/ src/"),
    must_not_match=("git clean -n -d", "git clean -fdn", "git clean -i", "git clean -fdx -- build/ node_modules"),
)
