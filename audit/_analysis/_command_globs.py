"""Command names from pathname expansion.

Bash expands an unquoted glob in the command word before it looks the name
up, so `/bin/[r]m -rf /` runs /bin/rm. An absolute glob is matched against
the policy's standard binary directories and the programs the engine knows:
a glob that can only match one program is that program; one that matches
several (bash runs the first, with the others as its first arguments) or none
stays a glob, judged as every candidate it may be (up to the normaliser's
bound on a word's values; past it, as anything) and as a name known only at
run time. A relative glob depends on the files in the working directory: its
name is known only at run time.
"""

from __future__ import annotations

import re

from .._tables import Tables
from ._normalize import MAX_CANDIDATES, basename
from ._subjects import Arg

# A wildcard bash expands: `*`, `?`, or a bracket expression closed by `]` (a `]`
# right after `[` or `[!` is a member). A lone `[` (the test command) matches itself.
_WILDCARD = re.compile(r"[*?]|\[[!^]?.[^]]*\]")
# `[r]`: a bracket expression of one character matches only that character. A quoted
# glob character is kept as such a bracket (`"*"` is `[*]`): it stays one, read by fnmatch.
_ONE_CHARACTER_BRACKET = re.compile(r"\[([^]!^*?[])\]")


def written_program(text: str) -> str:
    """The program a command word written as plain text names, its one-character brackets read as the
    characters they match (`/usr/bin/[e]cho` is `echo`)."""
    return basename(_ONE_CHARACTER_BRACKET.sub(r"\1", text) if "[" in text else text)


def expand_command_name(argv: tuple[Arg, ...], index: int, tables: Tables) -> tuple[Arg, ...]:
    """`argv` with its command word at `index` expanded as bash would, as far as the tables tell.

    The expanded word keeps `pattern` only while the name is still a glob
    (several candidates in `values`, or none: known at run time).
    """
    if index >= len(argv):
        return argv
    arg = argv[index]
    if not arg.pattern or len(arg.values) != 1:
        return argv
    value = _ONE_CHARACTER_BRACKET.sub(r"\1", arg.values[0])
    if _WILDCARD.search(value) is None:
        # `/usr/bin/[i]conv`, `[`: the word matches only this text (or nothing, and bash looks for this name).
        expanded = arg._replace(values=(value,), pattern=False)
    elif value.startswith("/"):
        paths = tables.standard_programs_matching(value)
        if len(paths) == 1:
            expanded = arg._replace(values=paths, pattern=False)
        else:
            # Past MAX_CANDIDATES (`/usr/local/bin/*`) the glob may be anything: a name known only at run time.
            expanded = arg._replace(values=paths if len(paths) <= MAX_CANDIDATES else ())
    else:
        expanded = arg._replace(values=())
    return (*argv[:index], expanded, *argv[index + 1 :])


def glob_candidates(name_arg: Arg) -> tuple[str | None, ...] | None:
    """The names a command word still holding a glob may run (None: not a glob; (None,): unknown)."""
    if not name_arg.pattern:
        return None
    return tuple(dict.fromkeys(basename(value) for value in name_arg.values)) or (None,)
