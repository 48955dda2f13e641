"""Calls that start or signal processes: the `exec` family that replaces the program with another
(`os.execl`, `os.execv`), and a signal sent (`os.kill`, `process.kill`, `Process.kill`), judged as
the `kill` command that sends it."""

from __future__ import annotations

from ._values import Call, Command, Entry, Value


def signals(process: tuple[int | None, str | None], signal: tuple[int | None, str | None]) -> Entry:
    """Sends a signal to a process (`os.kill(pid, 9)`, `process.kill(pid)`, `Process.kill(:KILL, pid)`):
    judged as the `kill -SIGNAL PID` that does the same (TERM when none is given); a signal or process
    not written in the code is a word only known at run time."""

    def command(call: Call) -> Command | None:
        pid = call.arg(*process)
        if pid is None:
            return None
        sig = call.arg(*signal)
        name = "TERM" if sig is None else _integer_text(sig)
        option = Value(text=None if name is None else "-" + name.removeprefix("SIG"))
        return Command.argv((Value(text="kill"), option, Value(text=_integer_text(pid))))

    return Entry(command=command)


def _integer_text(value: Value) -> str | None:
    return str(value.number) if value.number is not None else value.text


def exec_list(path_at: int, *, drop_last: bool = False) -> Entry:
    """Python's os.execl(path, arg0, arg1...): runs `path` with arg1...; the `e` forms end with the environment."""

    def command(call: Call) -> Command | None:
        if not call.complete:
            return Command.argv(None)
        if len(call.args) <= path_at:
            return None
        end = len(call.args) - 1 if drop_last else len(call.args)
        return Command.argv((call.args[path_at], *call.args[path_at + 2 : end]))

    return Entry(command=command)


def exec_vector(path_at: int) -> Entry:
    """Python's os.execv(path, [arg0, arg1...]): runs `path` with arg1..."""

    def command(call: Call) -> Command | None:
        path = call.arg(path_at)
        vector = call.arg(path_at + 1)
        if path is None:
            return None
        if vector is None or vector.items is None:
            return Command.argv(None)
        return Command.argv((path, *vector.items[1:]))

    return Entry(command=command)
