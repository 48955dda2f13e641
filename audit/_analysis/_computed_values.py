"""The values builtins set without an assignment, when what they are given is known:
`printf -v NAME FORMAT ARGS...` sets what printf would print, `read NAME...` the fields of
the first line of what feeds it (a here-string, a heredoc, the output of `echo` piped in), and
`mapfile NAME` (`readarray`) an element per line of it."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ._bindings import Binding, BindingKind, LineField
from ._static_output import static_output

if TYPE_CHECKING:
    from ._variables import Env


def computed_value(binding: Binding, env: Env) -> str | None:
    """The value a PRINTED or READ binding gives its name; None when it is known only at run time."""
    if binding.kind is BindingKind.PRINTED:
        argv = env.literal_argv(binding.words)
        return static_output(["printf", *argv]) if argv else None
    if binding.kind is BindingKind.READ and binding.line_field is not None:
        return _line_read(binding, binding.line_field, env)
    if binding.kind is BindingKind.READ and binding.lines is not None:
        elements = computed_elements(binding, env)
        return elements[0] if elements else None  # `$a` of an array is its first element
    return None


def computed_elements(binding: Binding, env: Env) -> tuple[str, ...] | None:
    """The elements `mapfile NAME` makes of the lines of what feeds it; None when they are unknown."""
    text = _fed_text(binding, env) if binding.lines is not None else None
    if binding.lines is None or text is None:
        return None
    return tuple(text.splitlines(keepends=binding.lines.keep_breaks))


def _fed_text(binding: Binding, env: Env) -> str | None:
    """What feeds a read: the here-string or heredoc (the last input redirect wins), else the output
    of the pipeline stage before it."""
    inputs = [redirect for redirect in binding.redirects if redirect.operator.startswith("<")]
    if inputs:
        return env.document_text(inputs[-1])
    return env.command_output(binding.feeders[-1]) if binding.feeders else None


def _line_read(binding: Binding, field: LineField, env: Env) -> str | None:
    """What `read NAME...` sets one name to, from the first line of what feeds it: the line split
    at IFS whitespace into as many fields as there are names, the last name taking the rest."""
    text = _fed_text(binding, env)
    separators = env.field_separators()
    if text is None or separators is None:
        return None
    line = _first_line(text, field.raw)
    if line is None:
        return None
    if field.names == 0:
        return line  # REPLY: the line as read, its whitespace kept
    whitespace = "".join(char for char in separators if char in " \t\n")
    if whitespace != separators and field.names > 1:
        return None  # IFS characters other than whitespace split differently: not modelled
    line = line.strip(whitespace)
    if field.names == 1 or not whitespace:
        return line if field.position == 0 else ""
    fields = re.split(f"[{re.escape(whitespace)}]+", line, maxsplit=field.names - 1)
    return fields[field.position] if field.position < len(fields) else ""


def _first_line(text: str, raw: bool) -> str | None:
    """The line `read` takes: up to the first newline; without `-r`, a backslash keeps the character
    after it (a newline after it joins the next line). None where a kept backslash would also stop
    word splitting (`a\\ b`), which is not modelled."""
    if raw:
        return text.split("\n", 1)[0]
    out: list[str] = []
    index = 0
    while index < len(text) and text[index] != "\n":
        char = text[index]
        if char == "\\" and index + 1 < len(text):
            following = text[index + 1]
            if following.isspace() and following != "\n":
                return None
            if following != "\n":
                out.append(following)
            index += 2
            continue
        out.append(char)
        index += 1
    return "".join(out)
