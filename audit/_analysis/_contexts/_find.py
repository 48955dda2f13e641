"""`find ... -exec CMD {} ;|+`: CMD is a command of its own, run on every file found."""

from __future__ import annotations

from ..._syntax import ast
from ...programs import EXEC_ACTIONS, FILE_DESTROYERS, find_scope
from ...programs.find import exec_actions, found_globs, given_files
from ...programs.sending import SENDERS
from .._normalize import basename
from .._resolve import recursing_like_find
from .._risks import NO_RISKS
from .._subjects import Arg, Risk, StdinKind
from ._call import Call, ContextWalk

# Programs that change who may use a file: whatever a test picks, each file they are handed is one
# of the starting points' (`find /usr -perm -4000 -exec chmod u-s {} +` changes files of /usr).
_ACCESS_CHANGERS = frozenset({"chmod", "chown", "chgrp", "chattr", "setfacl"})


def find_exec(call: Call, walk: ContextWalk) -> frozenset[Risk]:
    """Each `-exec`/`-execdir`/`-ok`/`-okdir` command, walked one level deeper.

    When no test narrows the search, `{}` stands for the starting points
    themselves (`find / -exec rm -rf {} +` deletes /), and an `rm` there removes
    everything below them (`find /var/log -type f -exec rm {} +` is `rm -r`).
    When tests narrow it, `{}` given to a program that changes access stands
    for the files found in the starting points: `START/NAME` for name tests
    alone (`~/.ssh/*.pub`), `START/*` for any other. Given to a network sender,
    it stands for those files however the search is narrowed (`START/*` when it
    is not): what the sender sends is the files, not the directories.
    """
    args = call.args
    scope = find_scope(args)
    found = tuple(value for point in scope.starting_points for value in point.values)
    picked = found_globs(scope)
    risks = NO_RISKS
    for action in exec_actions(args):
        command = action.command
        if picked and basename(command[0].value or "") in SENDERS:
            command = given_files(action, picked)
        elif scope.unfiltered and found:
            substituted = tuple(
                Arg(found, arg.source, arg.span, False, None) if arg.value == "{}" else arg for arg in command
            )
            if substituted != command:
                command = recursing_like_find(substituted, 0, call.span)
        elif picked and basename(command[0].value or "") in _ACCESS_CHANGERS:
            command = tuple(
                Arg(picked, arg.source, arg.span, True, None) if arg.value == "{}" else arg for arg in command
            )
        risks = risks | walk.nested_command(command, call.span, call.frame, f"find {action.action}")
    return risks


def find_piped_to_remover(call: Call, walk: ContextWalk) -> None:
    """`find / -name '*.db' | xargs rm -f`: the remover xargs runs destroys each file a narrowed find
    prints, so the find deletes what it finds, and is walked as `find / -name '*.db' -delete` (an
    unnarrowed find's files are rm's operands already: `_resolve.commands_run`)."""
    stdin = call.stdin
    if call.name not in FILE_DESTROYERS or stdin is None or stdin.kind is not StdinKind.PIPE:
        return
    writer = stdin.writer
    argv = call.frame.env.literal_argv(writer.words) if type(writer) is ast.SimpleCommand else None
    if not argv or basename(argv[0]) != "find" or any(word in EXEC_ACTIONS or word == "-delete" for word in argv):
        return
    words = tuple(Arg((word,), word, stdin.span) for word in (*argv, "-delete"))
    if not find_scope(words[1:]).unfiltered:
        walk.nested_command(words, call.span, call.frame, f"find | xargs {call.name}")
