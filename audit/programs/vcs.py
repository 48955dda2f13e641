"""Version control and code hosting: git, and the GitHub and GitLab CLIs."""

from __future__ import annotations

import shlex

from ._arg import Arg
from ._grammar import POSIX, WordKind, attached, flag, lex, valued
from ._program import HelpForms, Program, Subcommand
from .git_settings import CONFIG_ACTIONS
from .git_sharing import ADD, COMMIT, REMOTE

# What checkout, restore and switch share: how a checkout merges and reports, and tracking.
_QUIET_MERGE = (flag("-q", "--quiet"), flag("-m", "--merge"), attached("--recurse-submodules"), attached("--conflict"))
_TRACKING = (attached("-t", "--track"), flag("--no-track"), flag("--guess"), flag("--no-guess"))
_PATHSPECS = (flag("--ours"), flag("--theirs"), flag("--overlay"), flag("--no-overlay"), valued("--pathspec-from-file"))


# git clone's options (`_downloaded_trees.py` reads where a clone goes).
_CLONE_OPTIONS = (
    valued("-o", "--origin"), valued("-b", "--branch"), valued("-u", "--upload-pack"),
    valued("--reference"), valued("--reference-if-able"), valued("--separate-git-dir"),
    valued("--depth"), valued("--shallow-since"), valued("--shallow-exclude"), valued("-c", "--config"),
    valued("--filter"), valued("--template"), valued("-j", "--jobs"), valued("--server-option"),
    valued("--bundle-uri"), valued("--revision"), attached("--recurse-submodules"),
    flag("--bare"), flag("--mirror"), flag("-l", "--local"), flag("--no-hardlinks"), flag("-s", "--shared"),
    flag("-q", "--quiet"), flag("-v", "--verbose"), flag("-n", "--no-checkout"), flag("--progress"),
    flag("--single-branch"), flag("--no-single-branch"), flag("--no-tags"), flag("--shallow-submodules"),
    flag("--remote-submodules"), flag("--sparse"), flag("--dissociate"), flag("--reject-shallow"),
    flag("--also-filter-submodules"),
)  # fmt: skip


def _git_aliases(args: tuple[Arg, ...]) -> tuple[Arg, ...]:
    """`git -c alias.NAME=DEFINITION NAME ARGS...` runs the definition's words in place of NAME
    (through further aliases in turn). A definition starting with `!` is a shell command, and a
    declared subcommand's name is never an alias (git's own commands come first): both left as they are."""
    if not any("lias." in value for arg in args for value in arg.values):
        return args
    definitions: dict[str, str] = {}
    index = 0
    while index < len(args):
        lexed = lex(GIT.root.grammar, args, index)
        if lexed.kind is not WordKind.OPTIONS:
            break
        for use in lexed.uses:
            setting = use.value.value if use.value is not None and use.named("-c") else None
            key, equals, definition = (setting or "").partition("=")
            section, _, name = key.partition(".")
            if equals and section.lower() == "alias" and name:
                definitions[name.lower()] = definition
        index = lexed.next_index
    expanded: set[str] = set()
    while index < len(args):
        word = args[index]
        name = (word.value or "").lower()
        definition = definitions.get(name)
        if definition is None or name in expanded or name in GIT.root.children or definition.startswith("!"):
            break
        expanded.add(name)
        try:
            words = shlex.split(definition)
        except ValueError:
            break
        if not words:
            break
        args = (*args[:index], *(Arg((text,), text, word.span) for text in words), *args[index + 1 :])
    return args


# git's parse-options: clusters, `--long=value`, unique prefixes of long
# options, options anywhere before `--`.
GIT = Program(
    ("git",),
    aliases=_git_aliases,
    # parse-options shows the usage for `--help` (`-h` is an option of some commands: `git grep -h`).
    help_forms=HelpForms(("--help",)),
    options=(
        valued("-C"),
        valued("-c"),
        attached("--exec-path"),
        valued("--git-dir"),
        valued("--work-tree"),
        valued("--namespace"),
        valued("--config-env"),
        valued("--attr-source"),
        flag("-p", "--paginate"),
        flag("-P", "--no-pager"),
        flag("--bare"),
        flag("--no-replace-objects"),
        flag("--literal-pathspecs"),
        flag("--glob-pathspecs"),
        flag("--noglob-pathspecs"),
        flag("--icase-pathspecs"),
        flag("--no-optional-locks"),
    ),
    subcommands=(
        Subcommand(
            # `git config [SCOPE] KEY VALUE` and `git config set KEY VALUE` (`git_settings.py`).
            ("config",),
            options=(
                *(flag(f"--{scope}") for scope in ("global", "system", "local", "worktree")),
                valued("-f", "--file"),
                valued("--blob"),
                valued("--type"),
                valued("--default"),
                valued("--comment"),
                valued("--value"),
                *(flag(f"--{action}") for action in CONFIG_ACTIONS),
                *(flag(f"--{kind}") for kind in ("bool", "int", "bool-or-int", "path", "expiry-date", "no-type")),
                flag("--add", "--replace-all", "--append", "--all", "--fixed-value"),
                flag("-l", "--list"),
                flag("-e", "--edit"),
                flag("-z", "--null"),
                flag("--name-only", "--show-origin", "--show-scope", "--includes", "--no-includes"),
            ),
            operands=("WORD...",),
        ),
        Subcommand(
            # The repository is fetched into DIRECTORY, or a directory named after it (`_downloaded_trees.py`).
            ("clone",),
            options=_CLONE_OPTIONS,
            operands=("REPOSITORY", "DIRECTORY"),
        ),
        Subcommand(
            ("push",),
            options=(
                flag("-f", "--force"),
                attached("--force-with-lease"),
                flag("--no-force-with-lease"),
                flag("--force-if-includes"),
                flag("-d", "--delete"),
                flag("--mirror"),
                flag("--all", "--branches"),
                flag("--tags"),
                flag("--follow-tags"),
                flag("--prune"),
                flag("-u", "--set-upstream"),
                flag("-n", "--dry-run"),
                flag("--no-verify"),
                flag("--atomic"),
                flag("-q", "--quiet"),
                flag("-v", "--verbose"),
                valued("-o", "--push-option"),
                valued("--repo"),
                valued("--receive-pack", "--exec"),
                attached("--recurse-submodules"),
                attached("--signed"),
            ),
            operands=("REPOSITORY", "REFSPEC..."),
        ),
        REMOTE,
        ADD,
        COMMIT,
        Subcommand(
            ("reset",),
            options=(
                flag("--hard"),
                flag("--soft"),
                flag("--mixed"),
                flag("--keep"),
                flag("--merge"),
                flag("-q", "--quiet"),
                flag("-p", "--patch"),
                flag("-N", "--intent-to-add"),
                valued("--pathspec-from-file"),
            ),
            operands=("COMMIT", "PATHSPEC..."),
        ),
        Subcommand(
            ("clean",),
            options=(
                flag("-f", "--force"),
                flag("-d"),
                flag("-x"),
                flag("-X"),
                flag("-n", "--dry-run"),
                flag("-i", "--interactive"),
                flag("-q", "--quiet"),
                valued("-e", "--exclude"),
            ),
            operands=("PATHSPEC...",),
        ),
        Subcommand(
            ("checkout",),
            options=(
                flag("-f", "--force"),
                valued("-b"),
                valued("-B"),
                valued("--orphan"),
                flag("-l"),
                flag("-d", "--detach"),
                flag("-p", "--patch"),
                flag("--ignore-other-worktrees"),
                *_QUIET_MERGE,
                *_TRACKING,
                *_PATHSPECS,
            ),
            operands=("TREE_ISH", "PATHSPEC..."),
        ),
        Subcommand(
            ("restore",),
            options=(
                valued("-s", "--source"),
                flag("-S", "--staged"),
                flag("-W", "--worktree"),
                flag("-p", "--patch"),
                flag("--ignore-unmerged"),
                *_QUIET_MERGE,
                *_PATHSPECS,
            ),
            operands=("PATHSPEC...",),
        ),
        Subcommand(
            ("switch",),
            options=(
                valued("-c", "--create"),
                valued("-C", "--force-create"),
                valued("--orphan"),
                flag("-d", "--detach"),
                flag("-f", "--force", "--discard-changes"),
                *_QUIET_MERGE,
                *_TRACKING,
            ),
            operands=("BRANCH", "START_POINT"),
        ),
        Subcommand(
            ("branch",),
            options=(
                flag("-d", "--delete"),
                flag("-D"),
                flag("-f", "--force"),
                flag("-m", "--move"),
                flag("-M"),
                flag("-c", "--copy"),
                flag("-C"),
                flag("-r", "--remotes"),
                flag("-a", "--all"),
                flag("-l", "--list"),
                flag("-v", "--verbose"),
                flag("-q", "--quiet"),
                flag("--show-current"),
                flag("--unset-upstream"),
                valued("-u", "--set-upstream-to"),
                attached("-t", "--track"),
                flag("--no-track"),
                valued("--merged"),
                valued("--no-merged"),
                valued("--contains"),
                valued("--no-contains"),
                valued("--points-at"),
                valued("--sort"),
                valued("--format"),
                attached("--color"),
                attached("--column"),
            ),
            operands=("BRANCH...",),
        ),
        Subcommand(
            ("stash",),
            subcommands=(
                Subcommand(("clear",)),
                Subcommand(("drop",), options=(flag("-q", "--quiet"),), operands=("STASH",)),
                Subcommand(("pop",), options=(flag("--index"), flag("-q", "--quiet")), operands=("STASH",)),
                Subcommand(
                    ("push", "save"),
                    options=(
                        valued("-m", "--message"),
                        flag("-u", "--include-untracked"),
                        flag("-a", "--all"),
                        flag("-k", "--keep-index"),
                        flag("-S", "--staged"),
                        flag("-p", "--patch"),
                        flag("-q", "--quiet"),
                    ),
                    operands=("PATHSPEC...",),
                ),
                Subcommand(("apply",), options=(flag("--index"), flag("-q", "--quiet")), operands=("STASH",)),
                Subcommand(("list",)),
                Subcommand(("show",)),
            ),
        ),
        Subcommand(
            ("reflog",),
            subcommands=(
                Subcommand(
                    ("expire",),
                    options=(
                        valued("--expire"),
                        valued("--expire-unreachable"),
                        flag("--all"),
                        flag("--rewrite"),
                        flag("--updateref"),
                        flag("--stale-fix"),
                        flag("--single-worktree"),
                        flag("-n", "--dry-run"),
                        flag("--verbose"),
                    ),
                    operands=("REF...",),
                ),
                Subcommand(
                    ("delete",),
                    options=(flag("--rewrite"), flag("--updateref"), flag("-n", "--dry-run"), flag("--verbose")),
                    operands=("REF...",),
                ),
                Subcommand(("show",)),
            ),
        ),
        Subcommand(
            ("filter-branch",),
            options=(
                flag("-f", "--force"),
                valued("--env-filter"),
                valued("--tree-filter"),
                valued("--index-filter"),
                valued("--parent-filter"),
                valued("--msg-filter"),
                valued("--commit-filter"),
                valued("--tag-name-filter"),
                valued("--subdirectory-filter"),
                valued("--original"),
                valued("-d"),
                valued("--state-branch"),
                flag("--prune-empty"),
            ),
        ),
        Subcommand(
            ("filter-repo",),
            options=(
                flag("--force"),
                flag("--dry-run"),
                flag("--analyze"),
                flag("--invert-paths"),
                valued("--path"),
                valued("--path-glob"),
                valued("--path-regex"),
                valued("--path-rename"),
                valued("--replace-text"),
                valued("--replace-message"),
                valued("--subdirectory-filter"),
                valued("--to-subdirectory-filter"),
                valued("--source"),
                valued("--target"),
            ),
        ),
        Subcommand(
            ("worktree",),
            subcommands=(
                Subcommand(("remove",), options=(flag("-f", "--force"),), operands=("WORKTREE",)),
                Subcommand(("prune",), options=(flag("-n", "--dry-run"), flag("-v", "--verbose"), valued("--expire"))),
            ),
        ),
        Subcommand(
            ("rm",),
            options=(
                flag("-f", "--force"), flag("-r"), flag("-n", "--dry-run"), flag("--cached"), flag("-q", "--quiet"),
                flag("--ignore-unmatch"), flag("--sparse"), valued("--pathspec-from-file"),
            ),
            operands=("PATHSPEC...",),
        ),
        Subcommand(
            ("submodule",),
            subcommands=(
                Subcommand(("deinit",), options=(flag("-f", "--force"), flag("--all"), flag("-q", "--quiet")), operands=("PATH...",)),
                # The words after the options are one shell command, run in every submodule.
                Subcommand(("foreach",), options=(flag("--recursive"), flag("-q", "--quiet")), operands=("COMMAND...",), syntax=POSIX),
            ),
        ),
        # Subcommands that run a shell command they are given: rebase's `--exec` after each commit,
        # bisect's `run` at each step, difftool's `--extcmd` on each file.
        Subcommand(
            ("rebase",),
            options=(
                valued("-x", "--exec"), valued("--onto"), valued("-s", "--strategy"), valued("-X", "--strategy-option"),
                flag("-i", "--interactive"), flag("-r", "--rebase-merges"), flag("--autosquash"), flag("--no-autosquash"),
                flag("--autostash"), flag("--continue"), flag("--abort"), flag("--skip"), flag("--quit"),
                flag("--root"), flag("-f", "--force-rebase"), flag("-q", "--quiet"), flag("-v", "--verbose"),
                flag("--update-refs"), flag("--keep-base"), flag("--no-verify"),
            ),
            operands=("UPSTREAM", "BRANCH"),
        ),
        Subcommand(("bisect",), subcommands=(Subcommand(("run",), operands=("COMMAND...",), syntax=POSIX),)),
        Subcommand(
            ("difftool",),
            options=(
                valued("-x", "--extcmd"), valued("-t", "--tool"), flag("-y", "--no-prompt"), flag("--prompt"),
                flag("-d", "--dir-diff"), flag("-g", "--gui"), flag("--cached", "--staged"),
            ),
            operands=("COMMIT...",),
        ),
        # Plumbing that deletes or moves a ref with no check, and that writes the working tree.
        Subcommand(("update-ref",), options=(flag("-d"), valued("-m"), flag("--no-deref"), flag("--stdin"), flag("-z"), flag("--create-reflog")), operands=("REF", "NEWVALUE", "OLDVALUE")),
        # What deletes unreachable objects: `gc --prune=DATE` and the plumbing under it.
        Subcommand(("gc",), options=(attached("--prune"), flag("--no-prune"), flag("--aggressive"), flag("--auto"), flag("-q", "--quiet"), flag("--force"), flag("--keep-largest-pack"), attached("--cruft"))),
        Subcommand(("prune",), options=(flag("-n", "--dry-run"), flag("-v", "--verbose"), flag("--progress"), valued("--expire")), operands=("HEAD...",)),
        Subcommand(
            ("checkout-index",),
            options=(
                flag("-a", "--all"), flag("-f", "--force"), flag("-u", "--index"), flag("-q", "--quiet"),
                flag("-n", "--no-create"), flag("--temp"), flag("--stdin"), flag("-z"),
                flag("--ignore-skip-worktree-bits"), valued("--prefix"), valued("--stage"),
            ),
            operands=("FILE...",),
        ),
        Subcommand(
            ("read-tree",),
            options=(
                flag("-m"), flag("--reset"), flag("-u"), flag("-i"), flag("-n", "--dry-run"), flag("-v"),
                flag("--trivial"), flag("--aggressive"), flag("--empty"), flag("-q", "--quiet"),
                flag("--no-sparse-checkout"), valued("--prefix"), valued("--index-output"),
                attached("--recurse-submodules"),
            ),
            operands=("TREE-ISH...",),
        ),
    ),
)  # fmt: skip

VCS_PROGRAMS: tuple[Program, ...] = (GIT,)
