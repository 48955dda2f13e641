"""Runners that turn their arguments or their input into commands: the `at`/`batch`
queue (a job's shell code from standard input or `-f FILE`), GNU parallel (its
command with each input appended, or each input as a command line of its own),
tmux (a session's shell command, keys typed into a pane), screen's `-X stuff` (text
typed into a window) and entr (its utility,
or shell code with `-s`). What they run is audited as the command it is."""

from __future__ import annotations

import re
from itertools import islice, product

from ..._model import Span
from ...programs import AT_QUERIES, PARALLEL_SOURCES, TMUX_SHELL_COMMANDS, Arg, read_command
from .._normalize import quoted_for_shell
from .._risks import NO_RISKS
from .._subjects import ContextKind, Risk
from ._call import Call, ContextWalk
from ._code import code_string, run_written, stdin_code

_MAX_PARALLEL_JOBS = 16
"""How many of parallel's input combinations are audited (each is a command line)."""
# Compiled on first use (re's own cache), not at import: only some commands need these patterns.
_REPLACEMENT = r"\{(?:\d+)?(?:\.|/|//|/\.|\.\.|\+/|\+\.|\+\.\.)?\}"
"""GNU parallel's replacement strings (`{}`, `{.}`, `{/}`, `{2}`...): where an input goes in the command."""
_TMUX_ENTER_KEYS = frozenset({"Enter", "C-m", "KPEnter", "C-j"})
_TMUX_KEY_NAME = (r"^(?:[CMS]-.+|F\d+|Escape|Tab|BTab|BSpace|Up|Down|Left|Right|Home|End|[NP]Page|PgUp|PgDn"
                  r"|IC|DC|Space|Any)$")  # fmt: skip
"""Key names send-keys presses rather than types (anything else is typed as text)."""
_SCREEN_ENTER = r"\\[nr]|\^[MJ]|\\01[25]"
"""How `screen -X stuff` text spells the keys that end a line."""


def at_job(call: Call, walk: ContextWalk) -> frozenset[Risk]:
    """`at TIME` / `batch`: the job is the shell code on standard input, or the file `-f` names."""
    reading = read_command(call.name, call.args)
    if reading.has(*AT_QUERIES):
        return NO_RISKS
    shell = walk.tables.interpreter("sh")
    job_files = reading.values("-f")
    if job_files:
        job = job_files[-1]
        label = f"{call.name} -f {job.display()}"
        walk.check_downloaded(job, call.frame, label)
        return run_written(walk, label, job, call.frame, shell)
    if shell is None:
        return NO_RISKS
    return stdin_code(walk, shell, call.name, call.stdin, call.span, call.frame)


def parallel_code(call: Call, walk: ContextWalk) -> frozenset[Risk]:
    """GNU parallel: its command with each input appended (or put where `{}` says), run by a shell;
    without a command, each input is a command line. Inputs come after `:::`, or else from stdin."""
    reading = read_command(call.name, call.args)
    operands = reading.operands
    first_source = next((index for index, arg in enumerate(operands) if arg.value in PARALLEL_SOURCES), None)
    command = operands[:first_source] if first_source is not None else operands
    label = call.name
    if reading.has("--dry-run", "--version", "--help"):
        return NO_RISKS  # --dry-run prints the command lines instead of running them
    if reading.has("--pipe", "--pipepart"):
        # --pipe hands blocks of stdin to copies of the command: the input is data.
        return _shell_code(walk, label, command, call) if command else NO_RISKS
    groups = _argument_groups(operands[first_source:]) if first_source is not None else None
    if groups is None:  # the inputs are stdin's lines (or files parallel reads)
        if command:
            return _shell_code(walk, label, command, call)
        shell = walk.tables.interpreter("sh")
        if shell is None or reading.has("-a", "--arg-file"):
            return NO_RISKS
        return stdin_code(walk, shell, label, call.stdin, call.span, call.frame)
    replacement = reading.values("-I")
    marker = re.compile(re.escape(replacement[-1].value) if replacement and replacement[-1].value else _REPLACEMENT)
    # -q quotes each word of the command line parallel builds: the command runs with its words as given.
    quote = reading.has("--quote")
    risks = NO_RISKS
    for inputs in islice(product(*groups), _MAX_PARALLEL_JOBS):
        if command:
            words = _with_inputs(command, inputs, marker, quote)
            risks |= _shell_code(walk, label, tuple(_quoted(word) for word in words) if quote else words, call)
        else:
            risks |= _shell_code(walk, label, inputs, call)
    return risks


def _argument_groups(sources: tuple[Arg, ...]) -> list[tuple[Arg, ...]] | None:
    """The `:::` argument lists, one per group; None when a group's values are in files (`::::`)."""
    groups: list[list[Arg]] = []
    for arg in sources:
        if arg.value in PARALLEL_SOURCES:
            if arg.value.startswith("::::"):
                return None
            groups.append([])
        elif groups:
            groups[-1].append(arg)
    return [tuple(group) for group in groups if group] or None


def _with_inputs(
    command: tuple[Arg, ...], inputs: tuple[Arg, ...], marker: re.Pattern[str], quote: bool
) -> tuple[Arg, ...]:
    """The command line parallel builds: each input put at the replacement strings when the command
    has any, else appended; shell-quoted, unless every word is quoted afterwards (`quote`, -q)."""
    quoted = list(inputs) if quote else [_quoted(each) for each in inputs]
    if not any(arg.value is not None and marker.search(arg.value) for arg in command):
        return (*command, *quoted)
    words: list[Arg] = []
    for arg in command:
        value = arg.value
        if value is None or not marker.search(value):
            words.append(arg)
            continue
        replaced = marker.sub(lambda match: _input_for(match.group(0), quoted), value)
        words.append(Arg((replaced,), arg.source, arg.span, arg.pattern, None))
    return tuple(words)


def _input_for(replacement: str, quoted: list[Arg]) -> str:
    digits = "".join(char for char in replacement if char.isdigit())
    index = int(digits) - 1 if digits else 0
    chosen = quoted[index] if 0 <= index < len(quoted) else quoted[0]
    return chosen.display()


def _quoted(arg: Arg) -> Arg:
    """An input as parallel quotes it for the shell (an input known only at run time stays as it is)."""
    value = arg.value
    if value is None:
        return arg
    return Arg((quoted_for_shell(value),), arg.source, arg.span, False, None)


def _shell_code(walk: ContextWalk, label: str, words: tuple[Arg, ...], call: Call) -> frozenset[Risk]:
    return code_string(walk, ContextKind.RUNNER, label, words, "shell", call.frame)


def tmux_code(call: Call, walk: ContextWalk) -> frozenset[Risk]:
    """tmux: `-c CODE`, and each command of the line (`new -d CMD`, `send-keys 'CMD' Enter`; `;` separates
    commands): a shell command, or the lines typed into a pane."""
    risks = NO_RISKS
    start = 0
    args = call.args
    while start <= len(args):
        end = next((index for index in range(start, len(args)) if args[index].value in (";", "\\;")), len(args))
        risks |= _tmux_command(call, walk, args[start:end], global_options=start == 0)
        start = end + 1
    return risks


def _tmux_command(call: Call, walk: ContextWalk, args: tuple[Arg, ...], global_options: bool) -> frozenset[Risk]:
    reading = read_command(call.name, args)
    risks = NO_RISKS
    if global_options:
        risks |= _code_arguments(walk, reading.values("-c"), call)
    if not reading.path:
        return risks
    if reading.path[0] in TMUX_SHELL_COMMANDS:
        operands = reading.operands
        if len(operands) == 1:
            return risks | _shell_code(walk, call.name, operands, call)
        return risks | (walk.nested_command(operands, call.span, call.frame, call.name) if operands else NO_RISKS)
    if reading.has("-l"):
        typed = "".join(arg.value or "" for arg in reading.operands)
    else:
        typed = "".join(_typed(arg.value or "") for arg in reading.operands)
    lines, _, _ = typed.rpartition("\n")  # only lines ended by Enter run
    if not lines.strip():
        return risks
    span = reading.operands[0].span
    typed_arg = Arg((lines,), lines, Span(span.start, reading.operands[-1].span.end), False, None)
    return risks | _shell_code(walk, f"{call.name} send-keys", (typed_arg,), call)


def screen_code(call: Call, walk: ContextWalk) -> frozenset[Risk]:
    """`screen [-S SESSION] [-p WINDOW] -X stuff TEXT`: the text is typed into the session's window,
    and the lines a newline ends (`\\n`, `\\r`, `^M`, octal 012 or 015) run there."""
    words = [arg.value or "" for arg in call.args]
    for index in range(len(words) - 2):
        if words[index] == "-X" and words[index + 1] == "stuff":
            typed = call.args[index + 2]
            text = re.sub(_SCREEN_ENTER, "\n", words[index + 2])
            lines, _, _ = text.rpartition("\n")
            if lines.strip():
                return _shell_code(walk, "screen -X stuff", (Arg((lines,), lines, typed.span, False, None),), call)
    return NO_RISKS


def _typed(key: str) -> str:
    if key in _TMUX_ENTER_KEYS:
        return "\n"
    if key == "Space":
        return " "
    return "" if re.match(_TMUX_KEY_NAME, key) else key


def _code_arguments(walk: ContextWalk, codes: tuple[Arg, ...], call: Call) -> frozenset[Risk]:
    risks = NO_RISKS
    for code in codes:
        risks |= _shell_code(walk, call.name, (code,), call)
    return risks


def entr_code(call: Call, walk: ContextWalk) -> frozenset[Risk]:
    """entr runs its utility with its arguments on every change; `-s` hands the first operand to the shell."""
    reading = read_command(call.name, call.args)
    operands = reading.operands
    if not operands:
        return NO_RISKS
    if reading.has("-s"):
        return _shell_code(walk, call.name, operands[:1], call)
    return walk.nested_command(operands, call.span, call.frame, call.name)
