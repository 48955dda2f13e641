"""git: lost uncommitted work and rewritten shared history."""

from __future__ import annotations

import re
from fnmatch import fnmatchcase, translate

from .._caches import PATH_TABLES, Memo
from .._model import Severity
from .._named_tuple import NamedTuple
from ..programs import Arg, Reading
from ..rules._pack import Pack
from ._invocation import Found, command, operand, option_names, option_value, pack_rule, per_found
from .git_clean import CLEAN_FORCE
from .git_credentials import credentials_stored_in_clear
from .git_hooks import HOOKS_SKIPPED, hooks_outside
from .git_objects import OBJECT_RULES, push_prune
from .git_tags import DELETE_LISTED_REFS, DELETE_REMOTE_TAG
from .git_transport import ext_transport_allowed

# Pathspecs that name the whole working tree (from the top or from here).
_WHOLE_TREE = (".", "./", ":/", ":/.", ":/*", ":(top)", ":(top).", "*", "./*")
_DRY_RUN = ("--dry-run",)


def _is_whole_tree(word: Arg) -> bool:
    return any(value in _WHOLE_TREE for value in word.values)


def _after_double_dash(read: Reading) -> tuple[Arg, ...]:
    """The pathspecs after `--` (`git checkout main -- src/`: `src/`)."""
    if not read.end_of_options:
        return ()
    marker = max(index for index, word in enumerate(read.args) if word.value == "--")
    return read.args[marker + 1 :]


def _whole_tree(found: Found) -> Arg | None:
    return next((word for word in found.reading.operands if _is_whole_tree(word)), None)


def _file_pathspec_after_dashes(found: Found) -> Arg | None:
    return next((word for word in _after_double_dash(found.reading) if not _is_whole_tree(word)), None)


def _file_pathspec(found: Found) -> Arg | None:
    return next((word for word in found.reading.operands if not _is_whole_tree(word)), None)


# -- pushes -----------------------------------------------------------------------------------------


_PROTECTED: Memo[tuple[str, ...], re.Pattern[str]] = Memo(PATH_TABLES)


def _is_protected(branch: str, found: Found) -> bool:
    patterns = found.tables.protected_branches
    compiled = _PROTECTED.get(patterns)
    if compiled is None:
        # One expression for the policy's globs: several push rules ask about every refspec.
        compiled = _PROTECTED.remember(
            patterns, re.compile("|".join(translate(pattern) for pattern in patterns) or "(?!)")
        )
    return compiled.match(branch) is not None


def _may_be_protected(branch: str, found: Found) -> bool:
    """A protected branch, or a refspec pattern that covers one (`*` in `+refs/heads/*:refs/heads/*`
    covers `main`)."""
    if "*" not in branch:
        return _is_protected(branch, found)
    return any(fnmatchcase(pattern, branch) for pattern in found.tables.protected_branches)


def _destination(refspec: str) -> str | None:
    """The remote branch a refspec updates; None when that depends on the checkout (`HEAD`, `:`)."""
    spec = refspec.removeprefix("+")
    destination = spec.rpartition(":")[2] if ":" in spec else spec
    if destination in ("", "HEAD", "@"):
        return None
    return destination.removeprefix("refs/heads/")


class _Targets(NamedTuple):
    """Where a push goes, split in two: a word that sends it to a protected branch (or to one
    that depends on the checkout), and a word that sends it to a branch that is not protected."""

    protected: Arg | None
    unprotected: Arg | None


def _targets(found: Found, refspecs: tuple[Arg, ...]) -> _Targets:
    read = found.reading
    last = read.args[-1] if read.args else None
    if not refspecs:
        if read.has("--all", "--mirror"):
            return _Targets(last, None)
        # `--tags` alone pushes only tags; otherwise the current branch (push.default), which may well be main.
        return _Targets(None, last) if read.has("--tags") else _Targets(last, None)
    protected: Arg | None = None
    unprotected: Arg | None = None
    for word in refspecs:
        if word.value is not None and word.value.removeprefix("+").rpartition(":")[2].startswith("refs/tags/"):
            continue  # a tag is no branch's history
        branch = _destination(word.value) if word.value is not None else None
        if branch is None or _may_be_protected(branch, found):
            protected = protected or word
        else:
            unprotected = unprotected or word
    return _Targets(protected, unprotected)


def _refspecs(found: Found) -> tuple[Arg, ...]:
    """`git push [REPOSITORY [REFSPEC...]]`: the operands after the first."""
    return found.reading.operands[1:]


def _forced_refspecs(found: Found) -> tuple[Arg, ...]:
    """The refspecs forced one by one (`+main`)."""
    return tuple(word for word in _refspecs(found) if (word.value or "").startswith("+"))


def _has_plus_refspec(found: Found) -> Arg | None:
    return next((word for word in _refspecs(found) if (word.value or "").startswith("+")), None)


def _deletes_a_branch(found: Found) -> Arg | None:
    """`--delete` or a `:branch` refspec."""
    refspecs = _refspecs(found)
    if found.reading.has("--delete"):
        return refspecs[0] if refspecs else None
    return next((word for word in refspecs if (word.value or "").startswith(":")), None)


@per_found
def _every_target(found: Found) -> _Targets:
    """Where the push goes (worked out once per command: several push rules ask)."""
    return _targets(found, _refspecs(found))


def _to_protected(found: Found) -> Arg | None:
    return _every_target(found).protected


def _only_to_unprotected(found: Found) -> Arg | None:
    targets = _every_target(found)
    return targets.unprotected if targets.protected is None else None


def _plus_to_protected(found: Found) -> Arg | None:
    forced = _forced_refspecs(found)
    return _targets(found, forced).protected if forced else None


def _plus_only_to_unprotected(found: Found) -> Arg | None:
    forced = _forced_refspecs(found)
    if not forced:
        return None
    targets = _targets(found, forced)
    return targets.unprotected if targets.protected is None else None


def _prunes_protected(found: Found) -> Arg | None:
    """`git push --prune` deletes the remote branches with no local counterpart among those it
    pushes: with `--all`, or a refspec pattern that covers a protected branch, they may include it."""
    if "--all" in option_names(found.subject):
        return found.reading.args[-1] if found.reading.args else None
    for word in _refspecs(found):
        branch = _destination(word.value) if word.value is not None else None
        if branch is not None and "*" in branch and _may_be_protected(branch, found):
            return word
    return None


def _deletes_protected(found: Found) -> Arg | None:
    """`git push origin --delete main` or `git push origin :main`."""
    deleting = found.reading.has("--delete")
    for word in _refspecs(found):
        value = word.value
        if value is None:
            continue
        if deleting or value.startswith(":"):
            branch = value.lstrip(":").removeprefix("refs/heads/")
            if _is_protected(branch, found):
                return word
    return None


_NO_FORCE = ("--dry-run", "--force-with-lease")

RESET_HARD = pack_rule(
    id="GT001",
    name="git-reset-hard",
    severity=Severity.HIGH,
    summary="`git reset --hard` throws away every uncommitted change in the working tree and the index.",
    rationale="Uncommitted edits were never stored by git: after a hard reset no reflog or stash can bring them back.",
    safer_alternative="`git stash` first (or commit to a scratch branch), then reset; `git reset --soft` or `--keep` keep your changes.",
    matches=(command("git", "reset", requires=("--hard",)),),
    message="`git reset --hard` discards uncommitted changes",
    must_match=("git reset --hard origin/main", "git reset --hard", "git -C repo reset -q --hard HEAD~3"),
    must_not_match=("git reset --soft HEAD~1", "git reset HEAD file.txt", "git reset --keep HEAD~1"),
)

DISCARD_ALL = pack_rule(
    id="GT002",
    name="git-discard-all-changes",
    severity=Severity.HIGH,
    summary="Checks out, restores or force-switches over the whole working tree (or writes it from the index or a tree with plumbing), force-removes every tracked file (`git rm -rf .`) or every submodule's checkout (`git submodule deinit -f --all`), discarding uncommitted changes.",
    rationale="`git checkout -- .`, `git restore .` and `git switch --discard-changes` overwrite every modified file with the committed version; the edits were never stored.",
    safer_alternative="`git stash` (the changes stay recoverable), or restore only the files you mean to reset.",
    matches=(
        command("git", "checkout", where=_whole_tree),
        command("git", "checkout", requires=("--force",)),
        command("git", "restore", unless=("--staged",), where=_whole_tree),
        command("git", "restore", requires=("--staged", "--worktree"), where=_whole_tree),
        command("git", "switch", requires=("--force",)),
        # The plumbing under them: every file written over from the index, or index and tree reset to a commit.
        command("git", "checkout-index", requires=("--all", "--force"), unless=("--prefix", "--temp")),
        command("git", "read-tree", requires=("--reset", "-u"), unless=("--dry-run", "--prefix")),
        # Every tracked file deleted, modified ones included; every submodule's checkout removed.
        command("git", "rm", requires=("--force",), unless=("--cached", "--dry-run"), where=_whole_tree),
        command("git", "submodule deinit", requires=("--force", "--all")),
        command("git", "submodule deinit", requires=("--force",), where=_whole_tree),
    ),
    message="discards every uncommitted change in the working tree",
    must_match=(
        "git checkout -- .",
        "git restore .",
        "git checkout -f main",
        "git switch --discard-changes main",
        "git restore -SW :/",
        "git checkout-index -a -f",
        "git read-tree -u --reset HEAD",
        "git rm -rf .",
        "git submodule deinit -f --all",
    ),
    must_not_match=(
        "git rm -r --cached .",
        "git submodule deinit --all",
        "git restore --staged .",
        "git checkout main",
        "git checkout -b feature/x",
        "git switch main",
        "git checkout-index -a -f --prefix=/tmp/export/",
        "git read-tree -m -u HEAD",
    ),
)

DISCARD_FILES = pack_rule(
    id="GT003",
    name="git-discard-file-changes",
    severity=Severity.MEDIUM,
    summary="Restores named files from the index or a commit, or force-removes them (`git rm -f`, `git submodule deinit -f PATH`), discarding their uncommitted changes.",
    rationale="`git checkout -- file` and `git restore file` overwrite the working copy; the discarded edits cannot be recovered, but only these files are touched.",
    safer_alternative="Check `git diff -- FILE` first, or `git stash push -- FILE` to keep the changes recoverable.",
    matches=(
        command("git", "checkout", where=_file_pathspec_after_dashes),
        command("git", "restore", unless=("--staged",), where=_file_pathspec),
        command("git", "restore", requires=("--staged", "--worktree"), where=_file_pathspec),
        command("git", "rm", requires=("--force",), unless=("--cached", "--dry-run"), where=_file_pathspec),
        command("git", "submodule deinit", requires=("--force",), unless=("--all",), where=_file_pathspec),
    ),
    message="discards uncommitted changes to the named files",
    must_match=("git checkout -- src/app.py", "git restore README.md", "git checkout HEAD~2 -- config/"),
    must_not_match=("git restore --staged src/app.py", "git checkout feature/login", "git checkout -- ."),
)


FORCE_PUSH_PROTECTED = pack_rule(
    id="GT005",
    name="git-force-push-protected",
    severity=Severity.HIGH,
    summary="Force push (`--force`, `+refspec`, `--mirror`) to a protected branch, a pattern that covers one (`+refs/heads/*`), or whatever branch is checked out.",
    rationale="A force push replaces the remote branch's history; on `main` or a release branch it discards other people's commits for everyone who fetches next.",
    safer_alternative="Push to a feature branch, or use `git push --force-with-lease origin BRANCH` after checking what you overwrite.",
    matches=(
        command("git", "push", any_of=("--force",), unless=_DRY_RUN, where=_to_protected),
        command("git", "push", unless=_NO_FORCE, where=(_has_plus_refspec, _plus_to_protected)),
        command("git", "push", requires=("--mirror",), unless=_DRY_RUN),
    ),
    message="force push rewrites the history of a protected or the current branch",
    must_match=(
        "git push -f origin HEAD:main",
        "git push --force",
        "git push origin +master",
        "git push --mirror backup",
    ),
    must_not_match=(
        "git push origin main",
        "git push -f origin feature/login",
        "git push --force --dry-run origin main",
    ),
)

FORCE_PUSH_BRANCH = pack_rule(
    id="GT006",
    name="git-force-push-branch",
    severity=Severity.MEDIUM,
    summary="Force push to a named branch that is not protected.",
    rationale="Rewriting a feature branch is routine, but it drops any commit a collaborator pushed there meanwhile.",
    safer_alternative="`git push --force-with-lease origin BRANCH` refuses when the remote moved since you fetched.",
    matches=(
        command("git", "push", any_of=("--force",), unless=_DRY_RUN, where=_only_to_unprotected),
        command("git", "push", unless=_NO_FORCE, where=(_has_plus_refspec, _plus_only_to_unprotected)),
    ),
    message="force push rewrites the branch's history",
    must_match=("git push -f origin feature/login", "git push origin +fix/typo", "git push --force origin HEAD:topic"),
    must_not_match=(
        "git push --force-with-lease origin feature/x",
        "git push origin feature/login",
        "git push -f origin main",
    ),
)

LEASE_PUSH_PROTECTED = pack_rule(
    id="GT007",
    name="git-lease-push-protected",
    severity=Severity.MEDIUM,
    summary="`--force-with-lease` push to a protected branch, or to whatever branch is checked out.",
    rationale="The lease only checks that nobody pushed since your last fetch; the rewritten history of a shared branch still reaches everyone.",
    safer_alternative="Open a pull request, or push the rewrite to a new branch.",
    matches=(
        command("git", "push", requires=("--force-with-lease",), unless=("--force", "--dry-run"), where=_to_protected),
    ),
    message="rewrites a protected or the current branch (with a lease)",
    must_match=(
        "git push --force-with-lease origin main",
        "git push --force-with-lease",
        "git push --force-with-lease=main:abc123 origin main",
    ),
    must_not_match=(
        "git push --force-with-lease origin feature/x",
        "git push origin main",
        "git push --force-with-lease --dry-run origin main",
    ),
)

DELETE_PROTECTED = pack_rule(
    id="GT008",
    name="git-delete-protected-remote-branch",
    severity=Severity.HIGH,
    summary="Deletes a protected branch (`main`, `release/*`...) on the remote, by name or by `--prune` over `--all` or a pattern that covers one.",
    rationale="Deleting the remote `main` breaks every clone, pipeline and open pull request that tracks it.",
    safer_alternative="Delete only merged feature branches; protect important branches on the server too.",
    matches=(
        command("git", "push", unless=_DRY_RUN, where=(_deletes_a_branch, _deletes_protected)),
        command("git", "push", requires=("--prune",), unless=_DRY_RUN, where=_prunes_protected),
    ),
    message="deletes a protected branch on the remote",
    must_match=(
        "git push origin --delete main",
        "git push origin :master",
        "git push -d origin release/2.0",
        "git push --all --prune origin",
    ),
    must_not_match=("git push origin --delete feature/old", "git push origin :fix/typo", "git push origin main"),
)

STASH_CLEAR = pack_rule(
    id="GT009",
    name="git-stash-clear",
    severity=Severity.HIGH,
    summary="`git stash clear` deletes every stash entry.",
    rationale="Stashes often hold the only copy of set-aside work; once cleared they are unreachable and garbage collection removes them.",
    safer_alternative="`git stash list`, then `git stash drop stash@{N}` for entries you are sure about.",
    matches=(command("git", "stash clear"),),
    message="`git stash clear` deletes every stash",
    must_match=("git stash clear", "git -C repo stash clear"),
    must_not_match=("git stash list", "git stash pop", "git stash push -m wip"),
)

STASH_DROP = pack_rule(
    id="GT010",
    name="git-stash-drop",
    severity=Severity.MEDIUM,
    summary="`git stash drop` deletes one stash entry.",
    rationale="A dropped stash is only recoverable through `git fsck` before garbage collection; it may be the only copy of some work.",
    safer_alternative="`git stash show -p` first, or `git stash pop` to apply it while dropping it.",
    matches=(command("git", "stash drop"),),
    message="`git stash drop` deletes a stash",
    must_match=("git stash drop", "git stash drop stash@{2}"),
    must_not_match=("git stash pop", "git stash apply stash@{1}"),
)

BRANCH_FORCE_DELETE = pack_rule(
    id="GT011",
    name="git-branch-force-delete",
    severity=Severity.MEDIUM,
    summary="`git branch -D` (or `git update-ref -d refs/heads/BRANCH`) deletes a local branch even when it is not merged.",
    rationale="Commits only on that branch become unreachable; the reflog keeps them for a while, but they are easy to lose.",
    safer_alternative="`git branch -d` refuses to delete unmerged work.",
    matches=(
        command("git", "branch", requires=("-D",)),
        command("git", "branch", requires=("--delete", "--force")),
        # The plumbing under it: the ref removed with no check at all.
        command("git", "update-ref", requires=("-d",), where=operand(0, "refs/heads/*")),
    ),
    message="force-deletes a branch whether or not it is merged",
    must_match=("git branch -D feature/old", "git branch --delete --force spike", "git branch -df spike"),
    must_not_match=("git branch -d feature/old", "git branch -a", "git branch -f main origin/main"),
)

REFLOG_EXPIRE = pack_rule(
    id="GT012",
    name="git-reflog-expire",
    severity=Severity.HIGH,
    summary="Expires the reflog now (`git reflog expire --expire=now`), removing the record that lets lost commits be found.",
    rationale="The reflog is the safety net under reset, rebase and branch deletion; expiring it (usually before `gc --prune=now`) makes those losses permanent.",
    safer_alternative="Let git expire reflogs on its schedule; to shrink a repository use `git gc` without expiring reflogs.",
    matches=(
        command("git", "reflog expire", unless=_DRY_RUN, where=option_value("--expire", "now", "all", "0")),
        command("git", "reflog expire", unless=_DRY_RUN, where=option_value("--expire-unreachable", "now", "all", "0")),
    ),
    message="expires the reflog, so lost commits can no longer be recovered",
    must_match=(
        "git reflog expire --expire=now --all",
        "git reflog expire --expire-unreachable=now --all && git gc --prune=now",
    ),
    must_not_match=(
        "git reflog",
        "git reflog expire --expire=now --dry-run --all",
        "git reflog expire --expire=90.days.ago",
    ),
)

REWRITE_HISTORY = pack_rule(
    id="GT013",
    name="git-rewrite-history",
    severity=Severity.MEDIUM,
    summary="Rewrites every commit of the repository (`git filter-branch`, `git filter-repo`).",
    rationale="History rewriting changes every commit id; combined with a force push it invalidates every clone, and local refs left behind are easy to lose.",
    safer_alternative="Rewrite in a fresh clone and review the result before pushing; `git filter-repo --analyze` looks without changing.",
    matches=(
        command("git", "filter-branch"),
        command("git", "filter-repo", unless=("--dry-run", "--analyze")),
    ),
    message="rewrites the repository's history",
    must_match=(
        "git filter-branch --tree-filter 'rm -f secrets.txt' HEAD",
        "git filter-repo --path secrets.txt --invert-paths --force",
    ),
    must_not_match=("git filter-repo --analyze", "git log --all -- secrets.txt"),
)

WORKTREE_FORCE_REMOVE = pack_rule(
    id="GT014",
    name="git-worktree-force-remove",
    severity=Severity.MEDIUM,
    summary="`git worktree remove --force` deletes a worktree together with its uncommitted changes.",
    rationale="Without `--force` git refuses to remove a worktree with modified or untracked files; with it they are deleted.",
    safer_alternative="Commit or stash in the worktree, then `git worktree remove` without `--force`.",
    matches=(command("git", "worktree remove", requires=("--force",)),),
    message="removes a worktree and its uncommitted changes",
    must_match=("git worktree remove --force ../wt-fix", "git worktree remove -f hotfix"),
    must_not_match=("git worktree remove ../wt-fix", "git worktree prune"),
)

PACK = Pack(
    name="git",
    summary="Lost uncommitted work and rewritten shared history: hard resets, cleans, force pushes, stash and reflog deletion, unreachable objects pruned, remote tags and branches deleted; hooks run from outside the project or skipped, the `ext::` transport allowed, credentials stored in clear.",
    default=True,
    reason="Uncommitted work and a shared branch's history cannot be restored by the agent once they are gone.",
    rules=(
        RESET_HARD,
        DISCARD_ALL,
        DISCARD_FILES,
        CLEAN_FORCE,
        FORCE_PUSH_PROTECTED,
        FORCE_PUSH_BRANCH,
        LEASE_PUSH_PROTECTED,
        DELETE_PROTECTED,
        STASH_CLEAR,
        STASH_DROP,
        BRANCH_FORCE_DELETE,
        REFLOG_EXPIRE,
        REWRITE_HISTORY,
        WORKTREE_FORCE_REMOVE,
        DELETE_REMOTE_TAG,
        DELETE_LISTED_REFS,
        hooks_outside,
        HOOKS_SKIPPED,
        ext_transport_allowed,
        credentials_stored_in_clear,
        *OBJECT_RULES,
        push_prune(judged_elsewhere=_prunes_protected),
    ),
)
