"""The git commands that decide what a later `git push` sends and where: `git remote add` and
`git remote set-url` (where a remote name leads), `git add` (what goes into the next commit) and
`git commit` (its message). Declared apart from `vcs.py` to keep that module small; `GIT` lists them."""

from __future__ import annotations

from ._grammar import attached, flag, valued
from ._program import Subcommand

REMOTE = Subcommand(
    ("remote",),
    options=(flag("-v", "--verbose"),),
    subcommands=(
        Subcommand(
            ("add",),
            options=(
                valued("-t", "--track"), valued("-m", "--master"), flag("-f", "--fetch"), flag("--tags"),
                flag("--no-tags"), attached("--mirror"),
            ),
            operands=("NAME", "URL"),
        ),
        Subcommand(
            ("set-url",),
            options=(flag("--push"), flag("--add"), flag("--delete")),
            operands=("NAME", "NEWURL", "OLDURL"),
        ),
    ),
)  # fmt: skip

ADD = Subcommand(
    ("add",),
    options=(
        flag("-f", "--force"), flag("-A", "--all", "--no-ignore-removal"), flag("--no-all", "--ignore-removal"),
        flag("-u", "--update"), flag("-n", "--dry-run"), flag("-v", "--verbose"), flag("-p", "--patch"),
        flag("-i", "--interactive"), flag("-e", "--edit"), flag("-N", "--intent-to-add"), flag("--refresh"),
        flag("--ignore-errors"), flag("--ignore-missing"), flag("--renormalize"), flag("--sparse"),
        attached("--chmod"), valued("--pathspec-from-file"), flag("--pathspec-file-nul"),
    ),
    operands=("PATHSPEC...",),
)  # fmt: skip

COMMIT = Subcommand(
    ("commit",),
    options=(
        valued("-m", "--message"), valued("-F", "--file"), valued("-C", "--reuse-message"),
        valued("-c", "--reedit-message"), valued("--fixup"), valued("--squash"), valued("--author"),
        valued("--date"), valued("-t", "--template"), valued("--cleanup"), valued("--trailer"),
        valued("--pathspec-from-file"), attached("-u", "--untracked-files"), attached("-S", "--gpg-sign"),
        flag("-a", "--all"), flag("-q", "--quiet"), flag("-v", "--verbose"), flag("-s", "--signoff"),
        flag("--amend"), flag("--allow-empty"), flag("--allow-empty-message"), flag("-n", "--no-verify"),
        flag("-e", "--edit"), flag("--no-edit"), flag("-o", "--only"), flag("-i", "--include"),
        flag("--dry-run"), flag("-p", "--patch"), flag("-z", "--null"), flag("--porcelain"), flag("--short"),
        flag("--long"), flag("--branch"), flag("--reset-author"), flag("--no-gpg-sign"),
    ),
    operands=("PATHSPEC...",),
)  # fmt: skip
