"""filesystem.workspace: the working directory as a whole, which is the project an agent works in.

`rm -rf *` there deletes every file of the project; `rm -rf "$(pwd)"`, `rm -rf * .*`
and `find . -delete` delete its `.git` too, and with it every commit not pushed.
A command that first changes into another directory (`cd build && rm -rf *`)
deletes that directory's contents, not the project's: the rules stay silent
after any `cd`, known where or not.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..._analysis import Arg, CommandSubject
from ..._model import Severity
from ..._tables import Tables
from ...programs import TREE_REMOVERS, deletes_what_it_finds, find_scope
from ...rules._pack import Pack
from ...rules._rule import Hit, Inspects, rule
from ._deleted import deleted_targets

# Words that are the working directory itself as a run-time value, quoted or not: `$PWD`,
# `${PWD}`, `$(pwd)`, `` `pwd` ``, the repository's top level; then what follows it (`/`, `/*`).
_THE_DIRECTORY = re.compile(
    r"""["']?(?:\$PWD|\$\{PWD\}|\$\(\s*pwd\s*\)|`\s*pwd\s*`|\$\(\s*git\s+rev-parse\s+--show-toplevel\s*\))["']?(?P<rest>.*)"""
)
# Globs that match every visible entry of the working directory, and the hidden ones.
_EVERY_VISIBLE = frozenset({"*", "./*"})
# bash reads `[^...]` as `[!...]`.
_EVERY_HIDDEN = frozenset({".*", "./.*", ".[!.]*", "./.[!.]*", ".[^.]*", "./.[^.]*", ".??*", "./.??*"})


def _what_it_names(arg: Arg) -> str | None:
    """ "directory", "visible" or "hidden": the working directory itself, its visible entries
    (`*`, `"$PWD"/*`) or its hidden ones (`.*`), whether written relative or through `$PWD`."""
    value = arg.values[0] if len(arg.values) == 1 else None
    if arg.source.startswith("~+") and (len(arg.source) == 2 or arg.source[2] == "/"):
        value = "." + arg.source[2:]  # `~+` is bash's tilde for $PWD
        if value in (".", "./"):
            return "directory"
    spelled = _THE_DIRECTORY.fullmatch(arg.source)
    if spelled is not None:
        rest = spelled.group("rest").strip("\"'")
        if rest in ("", "/"):
            return "directory"
        value = "." + rest  # `"$PWD"/*` is `./*`
    if value in _EVERY_VISIBLE:
        return "visible"
    return "hidden" if value in _EVERY_HIDDEN else None


def _whole_project(starting_points: list[Arg]) -> Iterator[Arg]:
    """The starting points of a `find` that are the working directory (`.`, `"$PWD"`)."""
    return (arg for arg in starting_points if arg.values[:1] in ((".",), ("./",)) or _what_it_names(arg) == "directory")


def _recursive_targets(subject: CommandSubject) -> list[Arg]:
    """What an `rm -r` or an unnarrowed `find` that deletes (`-delete`, `-exec rm {} +`; without
    `-maxdepth`) deletes, when nothing says the command runs anywhere but in the project."""
    if subject.moved:
        return []
    if subject.name == "find":
        args = subject.args
        scope = find_scope(args)
        if not scope.unfiltered or any(arg.value == "-maxdepth" for arg in args) or not deletes_what_it_finds(args):
            return []
        return list(scope.starting_points)
    return [arg for arg, _, recursive in deleted_targets(subject) if recursive]


@rule(
    id="WS001",
    name="delete-working-directory",
    severity=Severity.HIGH,
    summary=(
        "Deletes the working directory itself or everything in it, hidden entries included: "
        '`rm -rf "$(pwd)"`, `rm -rf $PWD`, `rm -rf * .*`, `find . -delete`.'
    ),
    rationale=(
        "The working directory is the project: its `.git` goes too, and with it every commit, branch "
        "and stash not pushed, besides all uncommitted work."
    ),
    safer_alternative=(
        "Delete what you mean by name (`rm -rf build dist`), or let git remove what it does not track "
        "(`git clean -n` first, then `git clean -fd`)."
    ),
    inspects=Inspects.COMMAND,
    commands=("find", *TREE_REMOVERS),
    must_match=(
        'rm -rf "$(pwd)"',
        "rm -rf $PWD/",
        "rm -rf ~+",
        'rm -rf "$(git rev-parse --show-toplevel)"',
        "rm -rf * .*",
        "rm -rf .[!.]*",
        "find . -delete",
        "find . -mindepth 1 -delete",
    ),
    must_not_match=(
        "cd build && rm -rf *",
        "find . -name '*.pyc' -delete",
        "find . -maxdepth 1 -name '*.log' -delete",
        'rm -rf "$(pwd)/build"',
        "rm -rf .",
    ),
)
def delete_working_directory(subject: CommandSubject, _tables: Tables) -> Iterator[Hit]:
    targets = _recursive_targets(subject)
    if subject.name == "find":
        if not find_scope(subject.args).spares_history:  # else WS002's
            for arg in _whole_project(targets):
                yield Hit(arg.span, f"deletes everything below `{arg.display()}`, the project")
        return
    for arg in targets:
        named = _what_it_names(arg)
        if named == "directory":
            yield Hit(arg.span, f"deletes `{arg.display()}`, the working directory, `.git` included")
        elif named == "hidden":
            yield Hit(arg.span, "deletes every hidden entry of the working directory, `.git` included")


@rule(
    id="WS002",
    name="delete-working-directory-contents",
    severity=Severity.MEDIUM,
    summary=(
        "Deletes every visible entry of the working directory (`rm -rf *`, `rm -rf ./*`), or every file but "
        "`.git` (`find . -not -path './.git/*' -delete`): all of the project but its history."
    ),
    rationale=(
        "Every file of the project goes: committed files can be checked out again, but uncommitted work, "
        "ignored files (`.env`, local data) and untracked files are lost."
    ),
    safer_alternative="Delete what you mean by name (`rm -rf build dist`), or `git clean -n` then `git clean -fd`.",
    inspects=Inspects.COMMAND,
    commands=("find", *TREE_REMOVERS),
    must_match=(
        "rm -rf *",
        "rm -rf ./*",
        "rm -rf -- *",
        "sudo rm -r *",
        'rm -rf "$(pwd)"/*',
        "find . -type f -not -path './.git/*' -delete",
    ),
    must_not_match=(
        "cd dist && rm -rf *",
        "rm -rf build/*",
        "rm -f *.log",
        "rm -rf * .*",
        "find . -not -path './.git/*' -name '*.orig' -delete",
    ),
)
def delete_working_directory_contents(subject: CommandSubject, _tables: Tables) -> Iterator[Hit]:
    targets = _recursive_targets(subject)
    if subject.name == "find":
        if find_scope(subject.args).spares_history:
            for arg in _whole_project(targets):
                yield Hit(arg.span, f"deletes every file below `{arg.display()}` but `.git`")
        return
    named = [_what_it_names(arg) for arg in targets]
    if "directory" in named or "hidden" in named:
        return  # WS001's
    for arg, what in zip(targets, named, strict=True):
        if what == "visible":
            yield Hit(arg.span, "deletes every visible entry of the working directory")


PACK = Pack(
    name="filesystem.workspace",
    summary="The working directory as a whole: deleting the project, or everything in it.",
    default=True,
    reason="The working directory is the project the agent was asked to change; deleting all of it is never the task.",
    rules=(delete_working_directory, delete_working_directory_contents),
)
