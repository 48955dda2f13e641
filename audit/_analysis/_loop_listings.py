"""Loop variables over a listing: `for b in $(git branch -r); do git push origin --delete "$b"; done`
deletes every branch the listing gives, as `git push origin --delete $(git branch -r)` does. The rules
that judge everything-selectors (`audit/packs/_invocation.listed_by`) read the substitution through
the variable; the rules that judge one operation repeated for each item of a list (an HTTP DELETE per
id) ask which words take a listing's items (`each_item`)."""

from __future__ import annotations

import re

from .._model import Span
from .._syntax import ast
from ._bindings import Binding, BindingKind
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


# How many assignments deep a word is followed to a loop variable (`url="$API/users/$id"; curl "$url"`).
_MAX_HOPS = 3


def each_item(argv: tuple[Arg, ...], env: Env) -> tuple[Span, ...]:
    """The arguments that take a different item of a listing each time the command runs: words that use
    the variable of a `for` loop over a listing (a substitution, an array, a glob, a range) or a name a
    `while read` loop sets from each line of its input, directly or through an assignment. A loop over
    words written out (`for id in 3 7 9`) names each item: it is not a listing."""
    return tuple(arg.span for arg in argv if arg.word is not None and _uses_items(arg.word, env, _MAX_HOPS))


def _uses_items(word: ast.Word, env: Env, hops: int) -> bool:
    for part in word.parts:
        if type(part) is ast.CommandSubstitution:
            continue
        if type(part) is ast.ParamExpansion and _takes_items(part.name, env, hops):
            return True
    return False


def _takes_items(name: str, env: Env, hops: int) -> bool:
    scope: Env | None = env
    while scope is not None:
        bindings = scope.bindings.get(name)
        if bindings is not None:
            return any(_binding_takes_items(binding, env, hops) for binding in bindings)
        scope = scope.parent
    return False


def _binding_takes_items(binding: Binding, env: Env, hops: int) -> bool:
    kind = binding.kind
    if kind is BindingKind.READ:
        return binding.each_line
    if kind is BindingKind.ITEMS:
        return any(_lists(item) for item in binding.words)
    if kind is BindingKind.VALUE and hops > 0:
        return any(_uses_items(word, env, hops - 1) for word in binding.words)
    return False


def _lists(item: ast.Word) -> bool:
    """A `for` loop's word that stands for a list made at run time: a substitution, a parameter (an
    array, an unquoted value split into fields), a glob or a brace range (`{1..500}`)."""
    for part in item.parts:
        if type(part) is ast.Literal:
            if not part.quoted and (not _GLOB_CHARS.isdisjoint(part.text) or re.search(_RANGE, part.text)):
                return True
        elif type(part) is ast.CommandSubstitution or type(part) is ast.ParamExpansion:
            return True
    return False


_GLOB_CHARS = frozenset("*?[")
_RANGE = r"\{[^{}]*\.\.[^{}]*\}"  # a brace range (`{1..9}`), compiled on first use (re's cache)
