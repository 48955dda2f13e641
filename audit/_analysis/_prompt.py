"""Prompt expansion (`${x@P}`) of a known value, statically.

Bash expands a prompt in two steps: first its backslash escapes (`\\u`, `\\w`,
`\\$`...), whose results it quotes, so that neither the user name nor the `$`
of `\\$` ever starts code; then, with `promptvars` on (the default), the
parameter expansions, command and arithmetic substitutions of the result, as
inside double quotes. The code a known value runs is what the second step
finds: the value with its escapes replaced by inert text, read as the body of
an unquoted here-document (expanded as double quotes are, with `"` literal).
"""

from __future__ import annotations

from collections.abc import Callable

from .._syntax import Origin, ParseResult, ast

# Escapes bash replaces with text of its own (user, host, directory, time, counters...).
_ESCAPE_LETTERS = frozenset("adehHjlnrstTuvVwW!#$@A")
_OCTAL_DIGITS = frozenset("01234567")
# What stands for an escape's quoted result: plain text, no code.
_INERT = "_"
_DELIMITER = "PROMPT_END"


def decoded_prompt(value: str) -> str:
    """`value` after the escape step, with every escape's result replaced by inert text.

    Two results are left unquoted, as bash leaves them (the bash oracle
    confirms both): an octal escape's character (`\\044(cmd)` runs cmd) and
    the backslash of `\\\\` (`\\\\$(cmd)` runs nothing: it quotes the `$`).
    """
    decoded: list[str] = []
    index = 0
    while index < len(value):
        char = value[index]
        following = value[index + 1] if index + 1 < len(value) else ""
        if char != "\\" or not following:
            decoded.append(char)
            index += 1
        elif following in "[]":  # readline's markers of non-printing text
            index += 2
        elif following == "\\":  # a backslash left unquoted: it quotes what follows in the next step
            decoded.append("\\")
            index += 2
        elif following == "D" and value.startswith("{", index + 2) and "}" in value[index + 3 :]:
            decoded.append(_INERT)
            index = value.index("}", index + 3) + 1
        elif following in _OCTAL_DIGITS:
            end = index + 1
            while end < len(value) and end < index + 4 and value[end] in _OCTAL_DIGITS:
                end += 1
            decoded.append(chr(int(value[index + 1 : end], 8) & 0xFF))
            index = end
        elif following in _ESCAPE_LETTERS:
            decoded.append(_INERT)
            index += 2
        else:  # not an escape: the backslash stays, for the next step to read
            decoded.append(value[index : index + 2])
            index += 2
    return "".join(decoded)


def prompt_parts(
    value: str, origin: Origin, parse: Callable[[str, Origin], ParseResult]
) -> tuple[ast.WordPart, ...] | None:
    """The word parts bash expands in the prompt expansion of `value`; None when they cannot be read."""
    text = decoded_prompt(value)
    lines = set(text.split("\n"))
    delimiter = _DELIMITER
    while delimiter in lines:
        delimiter += "_"
    result = parse(f": <<{delimiter}\n{text}\n{delimiter}\n", origin)
    statements = result.script.statements
    command = statements[0].command if len(statements) == 1 else None
    redirects = command.redirects if isinstance(command, ast.SimpleCommand | ast.Redirected) else ()
    heredocs = [redirect.heredoc for redirect in redirects if redirect.heredoc is not None]
    if result.troubles or len(heredocs) != 1 or heredocs[0].quoted:
        return None
    return heredocs[0].parts
