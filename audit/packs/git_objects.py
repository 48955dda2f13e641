"""git, continued (part of the git pack): what deletes the objects that lost work is recovered
from, what drops staged changes on a reset, and what deletes remote branches by pruning."""

from __future__ import annotations

from .._model import Severity
from ..programs import Arg
from ..rules._rule import Rule
from ._invocation import Found, Predicate, command, option_value, pack_rule

# `gc --prune=DATE` and `prune --expire=DATE` keep unreachable objects newer than DATE (gc keeps two
# weeks by default); these dates delete every one of them at once.
_AT_ONCE = ("now", "all")

PRUNE_UNREACHABLE = pack_rule(
    id="GT018",
    name="git-prune-unreachable-objects",
    severity=Severity.MEDIUM,
    summary="Deletes every unreachable object at once (`git gc --prune=now`, `git prune`): dropped stashes, commits no longer in a reflog, staged content never committed.",
    rationale="git keeps unreachable objects for two weeks so that a dropped stash or a lost commit can still be found with `git fsck`; pruning them now makes those losses permanent. Reflogs still protect what they name, so the command runs and the warning says what goes.",
    safer_alternative="`git gc` with its default grace period, or `git prune --dry-run` to see what would go.",
    matches=(
        command("git", "gc", unless=("--no-prune",), where=option_value("--prune", *_AT_ONCE)),
        # `git prune` without `--expire` deletes every unreachable loose object, whatever its age.
        command("git", "prune", unless=("--dry-run", "--expire")),
        command("git", "prune", unless=("--dry-run",), where=option_value("--expire", *_AT_ONCE)),
    ),
    message="deletes unreachable objects that lost work could be recovered from",
    must_match=("git gc --prune=now --aggressive", "git prune", "git prune --expire=now -v"),
    must_not_match=("git gc", "git gc --prune=2.weeks.ago", "git prune -n", "git prune --expire=2.weeks.ago"),
)

RESET_MERGE = pack_rule(
    id="GT019",
    name="git-reset-merge",
    severity=Severity.MEDIUM,
    summary="`git reset --merge` resets the index and the files that differ from the target commit, discarding changes that were staged and not modified since.",
    rationale="It keeps unstaged edits but not staged ones whose working copy matches the index: that staged work is left only as unreachable objects until they are pruned. Aborting a merge is routine, so the command runs and the warning says what goes.",
    safer_alternative="`git merge --abort` to abort a merge; `git reset --keep COMMIT`, which refuses to touch changed files, to move back; `git stash` first otherwise.",
    matches=(command("git", "reset", requires=("--merge",)),),
    message="`git reset --merge` discards staged changes",
    must_match=("git reset --merge HEAD~5", "git reset --merge", "git -C repo reset -q --merge ORIG_HEAD"),
    must_not_match=("git reset --keep HEAD~5", "git merge --abort", "git reset HEAD~1"),
)


def _prunes_branches(refspec: str) -> bool:
    """A refspec under which `--prune` may delete branches: the matching refspec `:`, or a pattern
    whose destination is a branch (`refs/heads/team/*`, `*`); a named branch prunes nothing, and a
    pattern into another namespace (`refs/tmp/*`) prunes no branch."""
    destination = refspec.removeprefix("+").rpartition(":")[2]
    if not destination:
        return ":" in refspec
    return "*" in destination and (destination.startswith("refs/heads/") or not destination.startswith("refs/"))


def push_prune(judged_elsewhere: Predicate) -> Rule:
    """GT020, for the prunes `judged_elsewhere` leaves (GT008 judges those that may delete a
    protected branch)."""

    def prunes_the_rest(found: Found) -> Arg | None:
        if judged_elsewhere(found) is not None:
            return None
        refspecs = found.reading.operands[1:]
        if not refspecs:  # the remote's configured push refspecs decide
            return next((word for word in found.subject.args if (word.value or "").startswith("--pru")), None)
        return next((word for word in refspecs if _prunes_branches(word.value or "")), None)

    return pack_rule(
        id="GT020",
        name="git-push-prune",
        severity=Severity.MEDIUM,
        summary="`git push --prune` deletes the remote's branches that have no local counterpart among those the push covers.",
        rationale="Which branches that is depends on the refspecs and the remote's configured push refspecs (`remote.NAME.push`): a branch a colleague pushed and you never fetched is deleted for everyone. Where a protected branch may be among them, GT008 blocks instead.",
        safer_alternative="Delete the branches you mean by name (`git push origin --delete BRANCH`) after `git push --prune --dry-run` shows them.",
        matches=(command("git", "push", requires=("--prune",), unless=("--dry-run",), where=prunes_the_rest),),
        message="deletes remote branches with no local counterpart",
        must_match=("git push --prune origin", "git push --prune origin 'refs/heads/feature/*:refs/heads/feature/*'"),
        must_not_match=(
            "git push --prune origin main",
            "git push --prune --dry-run origin",
            "git push --all --prune origin",
        ),
    )


OBJECT_RULES = (PRUNE_UNREACHABLE, RESET_MERGE)
"""GT018 and GT019; GT020 is built by `push_prune`."""
