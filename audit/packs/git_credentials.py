"""git's credential helper (part of the git pack): `credential.helper store`, which writes every password
and token git is given, in clear, to `~/.git-credentials` (GT023)."""

from __future__ import annotations

from collections.abc import Iterator

from .._analysis import CommandSubject
from .._model import Severity
from .._tables import Tables
from ..programs.git_settings import git_settings, mentions_setting
from ..rules._paths import reading
from ..rules._rule import Hit, Inspects, rule


def _names_the_credential_helper(subject: CommandSubject) -> bool:
    return mentions_setting(subject.args, "credential.")


@rule(
    id="GT023",
    name="git-credentials-stored-in-clear",
    severity=Severity.MEDIUM,
    summary=(
        "Sets git's credential helper to `store` (`git config --global credential.helper store`), which saves "
        "every password and token git is given, in clear, to `~/.git-credentials` (or the `--file` it names)."
    ),
    rationale=(
        "From then on each sign-in git makes leaves its token in a plain file of the home directory, for good: "
        "whatever reads the home (a backup, a sync tool, another program, a later command) has it. It warns: "
        "on a throwaway machine it is a common way to stop the prompts."
    ),
    safer_alternative=(
        "Use the system's keychain (`osxkeychain`, `manager`, `libsecret`), `cache` (kept in memory for a "
        "while), or `gh auth setup-git`."
    ),
    inspects=Inspects.COMMAND,
    commands=("git",),
    applies=_names_the_credential_helper,
    must_match=(
        "git config --global credential.helper store",
        "git config credential.helper 'store --file ~/.my-credentials'",
        "git -c credential.helper=store push origin main",
    ),
    must_not_match=(
        "git config --global credential.helper osxkeychain",
        "git config --global credential.helper 'cache --timeout=3600'",
        "git config --get credential.helper",
        "git config --global --unset credential.helper",
    ),
)
def credentials_stored_in_clear(subject: CommandSubject, _tables: Tables) -> Iterator[Hit]:
    """A `credential.helper` (or `credential.URL.helper`) setting whose helper is `store`."""
    for setting in git_settings(reading(subject)):
        key = setting.key.lower()
        if not (key.startswith("credential.") and key.endswith(".helper")):
            continue
        helper = (setting.value.value or "").split()
        if helper[:1] == ["store"]:
            yield Hit(setting.value.span, "stores git's passwords and tokens in clear in a file of the home")
