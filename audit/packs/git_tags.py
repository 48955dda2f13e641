"""git's remote tags (part of the git pack): deleting a release tag on the remote, which the
builds, packages and deployments that pin it then cannot find."""

from __future__ import annotations

import re

from .._model import Severity
from ..programs import Arg
from ._invocation import Found, command, pack_rule

# A tag's full ref, or a name shaped like a release version (`v1.2.0`, `2.0.0-rc1`), which a
# repository's branches are not.
_VERSION = re.compile(r"v?\d+(\.\d+)+([-+][\w.]+)?")


def _deletes_a_tag(found: Found) -> Arg | None:
    """`git push REMOTE --delete v1.0.0`, `--delete tag v1.0.0`, `:refs/tags/v1.0.0`: the tag's word."""
    refspecs = found.reading.operands[1:]
    deleting = found.reading.has("--delete")
    for word in refspecs:
        value = word.value
        if value is None or value == "tag":
            continue
        if deleting or value.startswith(":"):
            ref = value.lstrip(":")
            if ref.startswith("refs/tags/") or _VERSION.fullmatch(ref):
                return word
    return None


DELETE_REMOTE_TAG = pack_rule(
    id="GT015",
    name="git-delete-remote-tag",
    severity=Severity.MEDIUM,
    summary="Deletes a tag on the remote (`git push origin --delete v1.0.0`, `:refs/tags/v1.0.0`).",
    rationale="Release tags are what builds, package managers and deployments pin; deleting one on the remote breaks them, and a tag pushed again may name other code.",
    safer_alternative="Leave published tags alone; tag a new release instead of moving an old one.",
    matches=(command("git", "push", unless=("--dry-run",), where=_deletes_a_tag),),
    message="deletes a tag on the remote",
    must_match=(
        "git push origin --delete v1.0.0 v1.1.0",
        "git push origin :refs/tags/v2.3.1",
        "git push --delete origin tag 1.4.0",
    ),
    must_not_match=(
        "git push origin --delete feature/old",
        "git push origin v1.0.0",
        "git push origin --tags",
        "git tag -d v1.0.0-local",
        "git push --dry-run origin --delete v1.0.0",
    ),
)
