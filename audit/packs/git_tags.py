"""git's remote tags and branches (part of the git pack): deleting a release tag on the remote, which
the builds, packages and deployments that pin it then cannot find, and deleting every tag or branch
a listing gives."""

from __future__ import annotations

import re

from .._model import Severity
from ..programs import Arg
from ._invocation import Found, command, listed_by, pack_rule

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


# git's listings of refs: every tag, every (remote) branch, every ref.
_REF_LISTINGS = frozenset({"tag", "branch", "for-each-ref", "ls-remote", "show-ref"})


def _lists_refs(words: list[str]) -> bool:
    """`git tag -l`, `git branch -r`, `git for-each-ref refs/tags`: a listing of tags or branches (a
    pattern still selects every one it matches; a `grep` or `sed` between them is a choice made)."""
    return len(words) > 1 and words[1] in _REF_LISTINGS


DELETE_LISTED_REFS = pack_rule(
    id="GT021",
    name="git-delete-listed-remote-refs",
    severity=Severity.HIGH,
    summary=(
        "Deletes on the remote every tag or branch a git listing gives "
        "(`git tag -l | xargs -n 1 git push --delete origin`, `git push origin --delete $(git branch -r)`, "
        "a `for` loop over such a listing), through stages that keep every line (`grep -v HEAD`, `sed 's#origin/##'`)."
    ),
    rationale=(
        "The listing holds every release tag and every branch, `main` and the release branches included: "
        "the remote loses them all at once, and every build, clone and pull request that tracks them breaks."
    ),
    safer_alternative="Delete the tags or branches you mean by name, after listing them (`git branch -r --merged`).",
    matches=(
        command(
            "git",
            "push",
            requires=("--delete",),
            unless=("--dry-run",),
            where=listed_by("git", selects_all=_lists_refs),
        ),
    ),
    message="deletes on the remote every tag or branch a listing gives",
    must_match=(
        "git tag -l | xargs -n 1 git push --delete origin",
        "git push origin --delete $(git tag)",
        "git branch -r | xargs git push origin -d",
    ),
    must_not_match=(
        "git tag -l | xargs -n 1 git push --dry-run --delete origin",
        "git push origin --delete feature/old",
        "git tag -l | grep '^tmp-' | xargs git push --delete origin",
    ),
)
