"""Execution contexts: the places a command turns data into code.

For every command the walk resolves, `contexts_of` asks the handler for its
name (`HANDLERS`), or the interpreter handler when the policy's tables know
the name as an interpreter. A handler finds the code (in argv, standard
input, a script operand...), hands it to the machinery of `_code` (which
audits literal shell one level deeper and judges run-time parts) and returns
the risks of what the code runs. Wrappers that run code (`su -c`, `watch`,
`sudo -s`) are handled by `wrapper_code`.

Adding a context is local: write a handler `(Call, ContextWalk) -> risks` in
a module here and list it in `HANDLERS` under the program names that run the
code. Remote and container code (`_remote`: `ssh HOST CMD`, `docker exec C
CMD`, `kubectl exec P -- CMD`...) reads the argv with the program's
declaration and hands the command on with a label saying where it runs; code
in another language (`_languages`) is judged wherever its code and language
are known (a code string, standard input, a script written earlier). Files
written with known content are remembered and audited when run, or at once
where they run later by themselves (`_written`).
"""

from __future__ import annotations

from ..._model import Span
from .._risks import NO_RISKS
from .._state import Frame
from .._subjects import Arg, ContextKind, Risk, Stdin
from .._wrappers import Unwrapped
from ._builtins import alias_code, eval_code, let_arithmetic, sourced_file, test_arithmetic, trap_code
from ._call import Call, ContextWalk, Handler
from ._code import code_string, program_environment, run_written, startup_assignments, startup_code, stdin_code
from ._command_variables import variable_commands
from ._database_clients import DATABASE_CLIENT_NAMES, database_client_code
from ._find import find_exec, find_piped_to_remover
from ._interpreters import interpreter_code, xargs_line_as_code
from ._option_code import OPTION_CODE_PROGRAMS, option_code, option_commands
from ._remote import (
    ansible_code,
    cloud_run_code,
    container_code,
    fly_code,
    gcloud_code,
    heroku_code,
    kubectl_code,
    lxc_code,
    mosh_code,
    parallel_shell_code,
    salt_code,
    ssh_code,
    vagrant_code,
)
from ._runners import at_job, entr_code, parallel_code, screen_code, tmux_code
from ._windows_shells import scheduled_code
from ._written import WRITER_NAMES, crontab_code, record_writes

__all__ = [
    "HANDLERS",
    "OPTION_CODE_PROGRAMS",
    "WRITER_NAMES",
    "Call",
    "ContextWalk",
    "Handler",
    "code_string",
    "contexts_of",
    "option_commands",
    "program_environment",
    "record_writes",
    "run_written",
    "startup_assignments",
    "startup_code",
    "variable_commands",
    "wrapper_code",
    "xargs_piped_code",
]

HANDLERS: dict[str, Handler] = {
    **dict.fromkeys(DATABASE_CLIENT_NAMES, database_client_code),
    "eval": eval_code,
    "source": sourced_file,
    ".": sourced_file,
    "trap": trap_code,
    "find": find_exec,
    "alias": alias_code,
    "let": let_arithmetic,
    "test": test_arithmetic,
    "[": test_arithmetic,
    "ssh": ssh_code,
    "autossh": ssh_code,
    "mosh": mosh_code,
    "gcloud": gcloud_code,
    "aws": cloud_run_code,
    "az": cloud_run_code,
    "pdsh": parallel_shell_code,
    "pssh": parallel_shell_code,
    "parallel-ssh": parallel_shell_code,
    "clush": parallel_shell_code,
    "vagrant": vagrant_code,
    "heroku": heroku_code,
    "fly": fly_code,
    "flyctl": fly_code,
    "docker": container_code,
    "podman": container_code,
    "nerdctl": container_code,
    "docker-compose": container_code,
    "podman-compose": container_code,
    "kubectl": kubectl_code,
    "oc": kubectl_code,
    "lxc": lxc_code,
    "incus": lxc_code,
    "ansible": ansible_code,
    "salt": salt_code,
    "salt-ssh": salt_code,
    "salt-call": salt_code,
    "crontab": crontab_code,
    "at": at_job,
    "batch": at_job,
    "parallel": parallel_code,
    "tmux": tmux_code,
    "entr": entr_code,
    **dict.fromkeys(OPTION_CODE_PROGRAMS, option_code),
    "schtasks": scheduled_code,
    "reg": scheduled_code,
}
"""The handler of each program (by name after wrappers) that runs code it is given."""


def contexts_of(
    name: str, args: tuple[Arg, ...], span: Span, frame: Frame, stdin: Stdin | None, walk: ContextWalk
) -> frozenset[Risk]:
    """The code the command `name ARGS` runs, judged; the risks of what it runs."""
    handler = HANDLERS.get(name)
    if handler is not None:
        return handler(Call(name, args, span, frame, stdin), walk)
    spec = walk.tables.interpreter(name)
    if spec is None:
        return NO_RISKS  # most commands: no Call is made for them
    return interpreter_code(Call(name, args, span, frame, stdin), spec, walk)


def xargs_piped_code(
    name: str,
    args: tuple[Arg, ...],
    span: Span,
    frame: Frame,
    stdin: Stdin | None,
    replace: str | None,
    walk: ContextWalk,
) -> None:
    """`... | xargs [-I R] NAME ARGS`: whether the lines of an unknown pipe become the code NAME runs,
    and what a remover deletes of what a narrowed `find` prints."""
    if replace is None:
        find_piped_to_remover(Call(name, args, span, frame, stdin), walk)
    spec = walk.tables.interpreter(name)
    if spec is not None:
        xargs_line_as_code(Call(name, args, span, frame, stdin), spec, replace, stdin, walk)


def wrapper_code(
    unwrapped: Unwrapped, runs_command: bool, span: Span, frame: Frame, stdin: Stdin | None, walk: ContextWalk
) -> frozenset[Risk]:
    """Code the wrappers run themselves: `su -c CODE`, `watch 'CMD'`, the
    shell `sudo -s`/`su` start when no command follows (it reads stdin), and
    the text `screen -X stuff` types into a session."""
    risks = NO_RISKS
    for code in unwrapped.code:
        risks = risks | code_string(walk, ContextKind.RUNNER, code.label, code.args, "shell", frame)
    if unwrapped.shell_from_option is not None and not runs_command:
        shell = walk.tables.interpreter("sh")
        if shell is not None:
            risks = risks | stdin_code(walk, shell, unwrapped.shell_from_option, stdin, span, frame)
    if unwrapped.wrappers[-1:] == ("screen",) and not runs_command:
        # `screen -X stuff TEXT` runs no command of its own, but types into a session's window.
        risks = risks | screen_code(Call("screen", unwrapped.argv, span, frame, None), walk)
    return risks
