"""The code hosts' CLIs, `gh` (GitHub) and `glab` (GitLab): their API commands and the
subcommands the platform packs read (repositories, releases, keys, secrets...)."""

from __future__ import annotations

from ._grammar import Syntax, flag, valued
from ._program import Program, Subcommand
from ._tree import leaf, tree

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
            leaf("release create|new", valued("-n", "--notes"), valued("-F", "--notes-file"), valued("-t", "--title"), valued("--target"), valued("--discussion-category"), valued("--notes-start-tag"), flag("--verify-tag"), flag("-d", "--draft"), flag("-p", "--prerelease"), flag("--generate-notes"), flag("--latest"), operands=("TAG", "FILE...")),
            leaf("issue create|new", *_GH_BODY, *_GH_ISSUE_FIELDS),
            leaf("issue comment", *_GH_BODY, flag("--edit-last"), operands=("ISSUE",)),
            leaf("pr create|new", *_GH_BODY, *_GH_ISSUE_FIELDS, valued("-B", "--base"), valued("-H", "--head"), valued("-r", "--reviewer"), flag("-d", "--draft"), flag("-f", "--fill")),
            leaf("pr comment", *_GH_BODY, flag("--edit-last"), operands=("PR",)),
            leaf("pr merge", flag("--admin"), flag("--auto"), flag("--disable-auto"), flag("-d", "--delete-branch"), flag("-m", "--merge"), flag("-r", "--rebase"), flag("-s", "--squash"), valued("-b", "--body"), valued("-F", "--body-file"), valued("-t", "--subject"), valued("--match-head-commit"), valued("-A", "--author-email"), operands=("PR",)),
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

CODE_HOST_PROGRAMS: tuple[Program, ...] = (GH, GLAB)
