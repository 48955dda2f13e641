"""Version control and code hosting: git, and the GitHub and GitLab CLIs."""

from __future__ import annotations

import shlex

from ._arg import Arg
from ._grammar import Syntax, WordKind, attached, flag, lex, valued
from ._program import HelpForms, Program, Subcommand
from ._tree import leaf, tree
from .git_settings import CONFIG_ACTIONS

# What checkout, restore and switch share: how a checkout merges and reports, and tracking.
_QUIET_MERGE = (flag("-q", "--quiet"), flag("-m", "--merge"), attached("--recurse-submodules"), attached("--conflict"))
_TRACKING = (attached("-t", "--track"), flag("--no-track"), flag("--guess"), flag("--no-guess"))
_PATHSPECS = (flag("--ours"), flag("--theirs"), flag("--overlay"), flag("--no-overlay"), valued("--pathspec-from-file"))


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
            subcommands=(Subcommand(("deinit",), options=(flag("-f", "--force"), flag("--all"), flag("-q", "--quiet")), operands=("PATH...",)),),
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

# cobra (pflag): clusters of short flags, `--flag=value`, flags anywhere, no abbreviations.
_COBRA = Syntax()
_CONFIRM = (flag("-y", "--yes"), flag("--confirm"))
_REPOSITORY = valued("-R", "--repo")
_HTTP_METHOD = valued("-X", "--method")
_API_OPTIONS = (
    _HTTP_METHOD,
    valued("-f", "--raw-field"),
    valued("-F", "--field"),
    valued("-H", "--header"),
    valued("--input"),
    valued("-q", "--jq"),
    valued("-t", "--template"),
    valued("--hostname"),
    valued("--cache"),
    flag("-i", "--include"),
    flag("--paginate"),
    flag("--silent"),
    flag("--verbose"),
)

# Who sees a repository the host creates (gh and glab spell them alike).
_VISIBILITY = (flag("--public"), flag("--private"), flag("--internal"))
_GH_BODY = (valued("-b", "--body"), valued("-F", "--body-file"), valued("-t", "--title"), flag("-w", "--web"))
_GH_ISSUE_FIELDS = (
    valued("-a", "--assignee"), valued("-l", "--label"), valued("-m", "--milestone"), valued("-p", "--project"),
    valued("-T", "--template"),
)  # fmt: skip
GH = Program(
    ("gh",),
    syntax=_COBRA,
    options=(_REPOSITORY,),
    global_options_anywhere=True,
    subcommands=(
        Subcommand(("api",), options=_API_OPTIONS, operands=("ENDPOINT",)),
        *tree(
            leaf("repo delete", *_CONFIRM, operands=("REPOSITORY",)),
            leaf("repo archive", *_CONFIRM, operands=("REPOSITORY",)),
            leaf(
                "repo edit",
                valued("--visibility"),
                flag("--accept-visibility-change-consequences"),
                valued("--description"),
                operands=("REPOSITORY",),
            ),
            leaf(
                "repo create|new",
                *_VISIBILITY,
                valued("-d", "--description"), valued("-s", "--source"), valued("-r", "--remote"), valued("-p", "--template"),
                valued("-h", "--homepage"), valued("-t", "--team"), valued("-l", "--license"), valued("-g", "--gitignore"),
                flag("--push"), flag("-c", "--clone"), flag("--add-readme"), flag("--disable-issues"), flag("--disable-wiki"),
                flag("--include-all-branches"),
                operands=("NAME",),
            ),
            leaf("release delete", *_CONFIRM, flag("--cleanup-tag"), operands=("TAG",)),
            leaf("release delete-asset", *_CONFIRM, operands=("TAG", "ASSET")),
            leaf("secret delete|remove", valued("-e", "--env"), valued("-o", "--org"), flag("-u", "--user"), valued("-a", "--app"), operands=("NAME",)),
            leaf("variable delete", valued("-e", "--env"), valued("-o", "--org"), operands=("NAME",)),
            leaf("run delete", operands=("RUN",)),
            leaf("cache delete", flag("-a", "--all"), operands=("KEY",)),
            leaf("issue delete", *_CONFIRM, operands=("ISSUE",)),
            leaf("ssh-key delete", *_CONFIRM, operands=("ID",)),
            leaf("codespace delete", flag("--all"), flag("-f", "--force"), valued("-c", "--codespace"), operands=()),
            leaf("pr list", valued("-s", "--state"), valued("-L", "--limit"), valued("-B", "--base")),
            leaf("pr view", valued("--json"), flag("-w", "--web"), operands=("PR",)),
            leaf("repo view", valued("--json"), flag("-w", "--web"), operands=("REPOSITORY",)),
            # What gh uploads to GitHub (programs/sending.py): a gist, release assets, bodies.
            leaf("gist create|new", valued("-d", "--desc"), valued("-f", "--filename"), flag("-p", "--public"), flag("-w", "--web"), operands=("FILE...",)),
            leaf("release upload", flag("--clobber"), operands=("TAG", "FILE...")),
            leaf("issue create|new", *_GH_BODY, *_GH_ISSUE_FIELDS),
            leaf("issue comment", *_GH_BODY, flag("--edit-last"), operands=("ISSUE",)),
            leaf("pr create|new", *_GH_BODY, *_GH_ISSUE_FIELDS, valued("-B", "--base"), valued("-H", "--head"), valued("-r", "--reviewer"), flag("-d", "--draft"), flag("-f", "--fill")),
            leaf("pr comment", *_GH_BODY, flag("--edit-last"), operands=("PR",)),
            # Access and settings the platform.github pack judges: keys, names, workflows, secrets.
            leaf("ssh-key add", valued("-t", "--title"), valued("--type"), operands=("KEY_FILE",)),
            leaf("repo deploy-key add", flag("-w", "--allow-write"), valued("-t", "--title"), operands=("KEY_FILE",)),
            leaf("repo rename", *_CONFIRM, operands=("NEW_NAME",)),
            leaf("workflow disable", operands=("WORKFLOW",)),
            leaf("secret set", valued("-b", "--body"), valued("-f", "--env-file"), valued("-e", "--env"), valued("-o", "--org"), flag("-u", "--user"), valued("-a", "--app"), valued("-v", "--visibility"), operands=("NAME",)),
        ),
    ),
)  # fmt: skip

GLAB = Program(
    ("glab",),
    syntax=_COBRA,
    options=(_REPOSITORY,),
    global_options_anywhere=True,
    subcommands=(
        Subcommand(("api",), options=_API_OPTIONS, operands=("ENDPOINT",)),
        *tree(
            leaf("repo delete", *_CONFIRM, operands=("REPOSITORY",)),
            leaf("repo archive", operands=("REPOSITORY",)),
            leaf(
                "repo create|new",
                *_VISIBILITY,
                valued("-g", "--group"),
                valued("-n", "--name"),
                valued("-d", "--description"),
                valued("--defaultBranch"),
                valued("-t", "--tag"),
                flag("--readme"),
                flag("-s", "--skipGitInit"),
                operands=("PATH",),
            ),
            leaf("release delete", *_CONFIRM, flag("-t", "--with-tag"), operands=("TAG",)),
            leaf("variable delete", valued("-s", "--scope"), valued("-g", "--group"), operands=("KEY",)),
            leaf("mr delete|del", operands=("MR",)),
            leaf("issue delete|del", operands=("ISSUE",)),
            leaf("mr list", valued("-s", "--state")),
            leaf("ssh-key add", valued("-t", "--title"), valued("-e", "--expires-at"), operands=("KEY_FILE",)),
            leaf(
                "deploy-key add",
                flag("-c", "--can-push"),
                valued("-t", "--title"),
                valued("-e", "--expires-at"),
                operands=("KEY_FILE",),
            ),
        ),
    ),
)

VCS_PROGRAMS: tuple[Program, ...] = (GIT, GH, GLAB)
