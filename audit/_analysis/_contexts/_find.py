"""`find ... -exec CMD {} ;|+`: CMD is a command of its own, run on every file found."""

from __future__ import annotations

from ...programs import EXEC_ACTIONS, find_scope
from .._resolve import recursing_like_find
from .._risks import NO_RISKS
from .._subjects import Arg, Risk
from ._call import Call, ContextWalk


def find_exec(call: Call, walk: ContextWalk) -> frozenset[Risk]:
    """Each `-exec`/`-execdir`/`-ok`/`-okdir` command, walked one level deeper.

    When no test narrows the search, `{}` stands for the starting points
    themselves (`find / -exec rm -rf {} +` deletes /), and an `rm` there removes
    everything below them (`find /var/log -type f -exec rm {} +` is `rm -r`).
    """
    args = call.args
    scope = find_scope(args)
    found = tuple(value for point in scope.starting_points for value in point.values)
    risks = NO_RISKS
    index = 0
    while index < len(args):
        action = args[index].value
        index += 1
        if action not in EXEC_ACTIONS:
            continue
        start = index
        while index < len(args) and args[index].value not in (";", "+"):
            index += 1
        command = args[start:index]
        index += 1
        if not command:
            continue
        if scope.unfiltered and found:
            substituted = tuple(
                Arg(found, arg.source, arg.span, False, None) if arg.value == "{}" else arg for arg in command
            )
            if substituted != command:
                command = recursing_like_find(substituted, 0, call.span)
        risks = risks | walk.nested_command(command, call.span, call.frame, f"find {action}")
    return risks
