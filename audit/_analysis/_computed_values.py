"""The values builtins set without an assignment, when what they are given is known:
`printf -v NAME FORMAT ARGS...` sets what printf would print, and `read -r NAME` the first
line of what feeds it (a here-string, a heredoc, the output of `echo` piped in)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._bindings import Binding, BindingKind
from ._static_output import static_output

if TYPE_CHECKING:
    from ._variables import Env


def computed_value(binding: Binding, env: Env) -> str | None:
    """The value a PRINTED or READ binding gives its name; None when it is known only at run time."""
    if binding.kind is BindingKind.PRINTED:
        argv = env.literal_argv(binding.words)
        return static_output(["printf", *argv]) if argv else None
    if binding.kind is BindingKind.READ and binding.whole_line:
        return _line_read(binding, env)
    return None


def _line_read(binding: Binding, env: Env) -> str | None:
    """What `read -r NAME` sets NAME to: the first line of a here-string or heredoc (the last input
    redirect wins), else of the output of the pipeline stage before it."""
    inputs = [redirect for redirect in binding.redirects if redirect.operator.startswith("<")]
    if inputs:
        text = env.document_text(inputs[-1])
    else:
        text = env.command_output(binding.feeders[-1]) if binding.feeders else None
    separators = env.field_separators()
    if text is None or separators is None:
        return None
    # The whitespace of IFS around the line is dropped; its other characters would split it.
    return text.split("\n", 1)[0].strip("".join(char for char in separators if char in " \t\n"))
