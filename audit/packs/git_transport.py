"""git's `ext::` transport (part of the git pack): allowing it, so that a remote URL
`ext::COMMAND` runs COMMAND on this machine when git fetches, clones or pushes."""

from __future__ import annotations

from collections.abc import Iterator

from .._analysis import CommandSubject
from .._model import Severity
from .._tables import Tables
from ..programs.git_settings import git_settings, mentions_setting
from ..rules._paths import reading
from ..rules._rule import Hit, Inspects, rule

# The settings that let `ext::` through (`protocol.allow` is the default for every protocol), and
# the values that allow it: `always`, or `user` (allowed whenever a person, or an agent, runs git).
_ALLOWING_KEYS = frozenset({"protocol.ext.allow", "protocol.allow"})
_ALLOWING_VALUES = frozenset({"always", "user"})


def _names_a_protocol_setting(subject: CommandSubject) -> bool:
    return mentions_setting(subject.args, "protocol.")


@rule(
    id="GT017",
    name="git-ext-transport-allowed",
    severity=Severity.HIGH,
    summary="Allows git's `ext::` transport (`-c protocol.ext.allow=always`, `git config protocol.allow always`), whose URLs are shell commands git runs.",
    rationale=(
        "git disables `ext::` by default because a URL such as `ext::sh -c ...` is a command: with it "
        "allowed, cloning, fetching or updating a submodule from such a URL runs whatever it says, and a "
        "repository's `.gitmodules` can supply one."
    ),
    safer_alternative="Leave `protocol.ext.allow` at its default (`never`); reach remotes over https or ssh.",
    inspects=Inspects.COMMAND,
    commands=("git",),
    applies=_names_a_protocol_setting,
    must_match=(
        "git -c protocol.ext.allow=always clone 'ext::sh -c touch% /tmp/x' /tmp/x",
        "git config --global protocol.ext.allow always",
        "git -c protocol.allow=always fetch",
    ),
    must_not_match=(
        "git config --global protocol.version 2",
        "git -c protocol.ext.allow=never clone https://example.com/r.git",
        "git -c protocol.file.allow=always submodule update --init",
        "git config --get protocol.ext.allow",
    ),
)
def ext_transport_allowed(subject: CommandSubject, _tables: Tables) -> Iterator[Hit]:
    """A setting that allows `ext::` given for this command (`-c`) or written (`git config`); a value
    known only at run time may allow it."""
    for setting in git_settings(reading(subject)):
        if setting.key.lower() not in _ALLOWING_KEYS:
            continue
        value = setting.value.value
        if value is None or value.lower() in _ALLOWING_VALUES:
            yield Hit(setting.value.span, f"allows git's ext:: transport, whose URLs run commands (`{setting.key}`)")
