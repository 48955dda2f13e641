"""A recursive delete that reaches a protected directory when a variable is empty (FS006).

`rm -rf "$BUILD_DIR"/*` deletes `/*` when BUILD_DIR is unset or empty: a
variable the command does not set is, for an agent's shell, whatever the
environment holds, often nothing (`$1` at the top level always is). The
rule reads the operand as bash would with the variable empty; a guard
(`${BUILD_DIR:?}`, `${BUILD_DIR:-build}`) or a value the command sets
makes it something else, and then FS001 judges what it is.
"""

from __future__ import annotations

from collections.abc import Iterator

from .._analysis import Arg, CommandSubject
from .._model import Severity
from .._syntax import ast
from .._tables import Tables
from ..programs import TREE_REMOVERS, removed_trees
from ._paths import contents_glob, path_is, reading
from ._rule import Hit, Inspects, rule

# Variables bash itself sets, which are never empty in a shell (`$PWD/x` is the working directory's).
_NEVER_EMPTY = frozenset({"PWD", "HOME", "UID", "EUID", "PPID", "HOSTNAME", "BASH", "BASHPID"})


def _if_empty(arg: Arg) -> tuple[str, str] | None:
    """`("BUILD_DIR", "/*")` for `"$BUILD_DIR"/*`, `("SUBDIR", "/")` for `/$SUBDIR`, `("DIR", "~/")` for
    `~/$DIR` or `"$HOME/$DIR"`: the first unguarded variable of a run-time operand made of variables
    and literal text, and the absolute or home path left when its variables are empty; None for
    anything else."""
    if arg.values or arg.word is None:
        return None  # known values are FS001's
    variables: list[str] = []
    left: list[str] = []
    for index, part in enumerate(arg.word.parts):
        if type(part) is ast.Literal:
            if index == 0 and part.text[:1] == "~" and not _names_home(part):
                return None  # `"~/..."` or `~user/...`: not the home this rule can name
            left.append(part.text)
        elif type(part) is ast.ParamExpansion and not part.operator and part.subscript is None:
            if part.name == "HOME":
                left.append("~")
                continue
            if part.name in _NEVER_EMPTY:
                return None
            variables.append(part.name)
        else:
            return None
    path = "".join(left)
    return (variables[0], path) if variables and path.startswith(("/", "~")) else None


def _names_home(part: ast.Literal) -> bool:
    """An unquoted leading `~` or `~/...`: bash expands it to the home directory."""
    return not part.quoted and (part.text == "~" or part.text.startswith("~/"))


@rule(
    id="FS006",
    name="delete-through-empty-variable",
    severity=Severity.MEDIUM,
    summary=(
        "Recursively deletes a path that is `/`, everything in it, or another protected directory when a variable "
        'the command does not set is empty: `rm -rf "$BUILD_DIR"/*`, `rm -rf $PREFIX/usr`, `rm -rf /$SUBDIR`, '
        "`rm -rf ~/$PROJECT` (the home)."
    ),
    rationale=(
        "An unset or empty variable expands to nothing, and what is left is the root's contents; the "
        "command cannot know what the environment holds, and `$1` is empty at the top level."
    ),
    safer_alternative=(
        'Guard the variable so an empty one stops the command: `rm -rf "${BUILD_DIR:?}"/*`, or set it in '
        'the same command (`BUILD_DIR=build; rm -rf "$BUILD_DIR"/*`).'
    ),
    inspects=Inspects.COMMAND,
    commands=TREE_REMOVERS,
    must_match=(
        'rm -rf "$BUILD_DIR"/*',
        "rm -rf $STEAMROOT/*",
        'rm -rf "$1"/',
        "rm -r ${PREFIX}/usr",
        'rm -rf "$VENV/lib"',
        "rm -rf /$SUBDIR",
        'rm -rf "/opt/$APP"',
        "rm -rf ~/$PROJECT",
        'rm -rf "$HOME/$CACHE_DIR"',
    ),
    must_not_match=(
        'rm -rf "${BUILD_DIR:?}"/*',
        'BUILD_DIR=out; rm -rf "$BUILD_DIR"/*',
        'rm -rf "$VENV_DIR/lib/python3.12/site-packages/pkg"',
        'rm -rf "$PWD"/build',
        'rm -rf "$DIR"',
        'rm -f "$LOG_DIR"/*',
        'rm -rf "/tmp/$BUILD_ID"',
        'rm -rf "/opt/$APP/releases/$OLD"',
        'rm -rf "$HOME/.cache/$APP"',
        'rm -rf "~/$DIR"',
    ),
)
def delete_through_empty_variable(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    protected = tables.protected_directories
    for arg in removed_trees(reading(subject)):
        empty = _if_empty(arg)
        if empty is None or path_is(arg, protected, subject.cwd) is not None:
            continue  # FS001 judges what the word is whatever the variable holds (`"$DIR"/../../../..`)
        variable, left = empty
        path = Arg((left,), left, arg.span, "*" in left)
        if path_is(path, protected) is not None or contents_glob(path, protected) is not None:
            yield Hit(arg.span, f"deletes `{left}` if ${variable} is empty or unset")


EMPTY_VARIABLE_RULES = (delete_through_empty_variable,)
