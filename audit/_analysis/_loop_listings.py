"""Loop variables over a listing: `for b in $(git branch -r); do git push origin --delete "$b"; done`
deletes every branch the listing gives, as `git push origin --delete $(git branch -r)` does. The rules
that judge everything-selectors (`audit/packs/_invocation.listed_by`) read the substitution through
the variable."""

from __future__ import annotations

from .._model import Span
from .._syntax import ast
from ._bindings import BindingKind
from ._subjects import Arg
from ._variables import Env


def loop_listings(argv: tuple[Arg, ...], env: Env) -> tuple[tuple[Span, ast.Word], ...]:
    """The arguments that are a loop variable taking a substitution's items (by their place), with it."""
    found = ((arg.span, _listing(arg.word, env)) for arg in argv if arg.word is not None and not arg.values)
    return tuple((span, listing) for span, listing in found if listing is not None)


def _listing(word: ast.Word, env: Env) -> ast.Word | None:
    """`"$b"`, when the command string gives `b` no value but the items of one substitution."""
    parts = word.parts
    if len(parts) != 1 or type(parts[0]) is not ast.ParamExpansion:
        return None
    part = parts[0]
    if part.operator or part.subscript is not None:
        return None
    scope: Env | None = env
    while scope is not None:
        bindings = scope.bindings.get(part.name)
        if bindings is not None:
            only = bindings[0] if len(bindings) == 1 else None
            if only is None or only.kind is not BindingKind.ITEMS or len(only.words) != 1:
                return None
            item = only.words[0]
            return item if len(item.parts) == 1 and type(item.parts[0]) is ast.CommandSubstitution else None
        scope = scope.parent
    return None
