"""Where a command's standard output goes when a redirect sends it somewhere: `CMD > FILE`, `{ ...; } >> FILE`,
`CMD &> FILE`, `CMD 1>&2`. The rules that judge what a command shows on the screen (a secret printed where the
transcript keeps it) read it through `CommandSubject.stdout` (`rules/_paths.prints_to_screen`)."""

from __future__ import annotations

from .._syntax import ast
from ._normalize import normalize_word
from ._subjects import OUTPUT_REDIRECTS, Arg
from ._variables import Env

# `>&2`, `1>&2`: standard output joins standard error, which the terminal shows.
_TO_STDERR = ("/dev/stderr",)


def stdout_of(redirects: tuple[ast.Redirect, ...], env: Env) -> Arg | None:
    """The file the last of these redirects that moves standard output sends it to (None: none moves it).
    Redirects of other descriptors (`2> err.log`, `2>&1`) leave it where it was."""
    target: Arg | None = None
    for redirect in redirects:
        word = redirect.target
        if word is None or redirect.fd not in (None, "1"):
            continue
        duplicated = redirect.operator == ">&" and (word.source.isdigit() or word.source == "-")
        if redirect.operator in OUTPUT_REDIRECTS or (redirect.operator == ">&" and not duplicated):
            fields = normalize_word(word, env)  # `>&FILE` is `&> FILE`
            target = fields[0] if len(fields) == 1 else Arg((), word.source, word.span, False, word)
        elif duplicated and word.source != "1":
            # To standard error, or to another descriptor or closed: somewhere only run time knows.
            target = Arg(_TO_STDERR if word.source == "2" else (), word.source, word.span)
    return target
