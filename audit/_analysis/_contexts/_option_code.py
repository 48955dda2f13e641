"""Options of ordinary programs whose value is a command the program runs: `rsync -e CMD`
(its remote shell), `tar --to-command=CMD` and `--checkpoint-action=exec=CMD`, `zip -TT CMD`
(its test command), vim's `-c '!CMD'` (an Ex command that starts a shell), `man -P CMD` (its
pager), gdb's `-ex 'shell CMD'` and `-ex '!CMD'`, the recipes of `make --eval='T: ; CMD'` and of
the makefile make reads from standard input (`make -f - <<EOF`),
less's `+'!CMD'`, a terminal's `-e CMD` (`xterm -e 'CMD'`), the commands a
sed script runs (`e CMD`, `s/.../CMD/e`), the commands git's subcommands run (`rebase --exec`,
`difftool --extcmd`, `filter-branch`'s filters, `submodule foreach CMD...`, `bisect run CMD...`),
and git's settings that hold a command
(`git -c core.pager=CMD log`, `git config core.fsmonitor CMD`: run now or by a later git, and the
files written earlier into the directory `core.hooksPath` makes git's hooks),
and the scripts npm writes into package.json (`npm pkg set scripts.postinstall=CMD`).
The command is audited as shell code one level deeper, labelled with what runs it."""

from __future__ import annotations

from ..._model import Span
from ..._syntax import Origin
from ...programs import Arg, read_command, sed_effects, sed_scripts
from ...programs.git_settings import git_setting_commands, git_settings
from .._normalize import quoted_for_shell
from .._resolve import known_input
from .._risks import NO_RISKS
from .._subjects import ContextKind, Risk, StdinKind
from .._variables import STDIN_PATHS
from ._call import Call, ContextWalk
from ._code import code_string, piped_code
from ._makefile import recipe_lines
from ._written import hooks_directory_code

# Per declared program: the options whose value is a command line, and the prefix the value
# carries when it is one (tar's `--checkpoint-action` runs a command only as `exec=CMD`).
_COMMAND_OPTIONS: dict[str, tuple[tuple[tuple[str, ...], str], ...]] = {
    "rsync": ((("--rsh", "--rsync-path"), ""),),
    "tar": (
        (("--to-command", "--use-compress-program", "--info-script", "--rsh-command"), ""),
        (("--checkpoint-action",), "exec="),
    ),
}
_ZIP_TEST_COMMAND = ("-TT", "--unzip-command")
_VIM_COMMAND_OPTIONS = ("-c", "--cmd")
_VIM_NAMES = frozenset({"vim", "vi", "nvim", "ex", "view", "vimdiff"})
# man's pager is a shell command it pipes the page to (`man -P 'CMD' ls`).
_MAN_PAGER = ("-P", "--pager")
# gdb's commands given on its command line; `shell CMD` and `!CMD` run CMD in a shell.
_GDB_COMMAND_OPTIONS = ("-ex", "--ex", "-eval-command", "--eval-command", "-iex", "--iex", "-init-eval-command",
                        "--init-eval-command")  # fmt: skip
_GDB_NAMES = frozenset({"gdb", "gdb-multiarch"})
# make reads `--eval=TEXT` as a makefile line before the others: its recipes run in a shell.
_MAKE_EVAL = ("--eval", "-E")
_MAKE_NAMES = frozenset({"make", "gmake"})
_MAKE_FILE_OPTIONS = ("-f", "--file", "--makefile")
# less runs a `+CMD` given on its command line as its own command; `!CMD` is a shell command.
_LESS_NAMES = frozenset({"less"})
# git's subcommands that run shell code: the options whose value is a command, and the two whose
# operands are one (`submodule foreach`, `bisect run`).
_GIT_COMMAND_OPTIONS = {
    "rebase": ("--exec",),
    "difftool": ("--extcmd",),
    "filter-branch": (
        "--tree-filter", "--index-filter", "--env-filter", "--msg-filter", "--commit-filter", "--parent-filter",
        "--tag-name-filter",
    ),
}  # fmt: skip
_GIT_RUNNERS = frozenset({*_GIT_COMMAND_OPTIONS, "foreach", "bisect"})
# Terminal emulators run the words after `-e` in the new window (one word: a shell command line).
_TERMINAL_NAMES = frozenset({"xterm", "uxterm", "rxvt", "urxvt", "x-terminal-emulator", "konsole", "alacritty", "st"})


def option_code(call: Call, walk: ContextWalk) -> frozenset[Risk]:
    """The commands `call`'s options make its program run, judged as shell code; for git, also the
    files written earlier that a `core.hooksPath` it sets makes its hooks."""
    risks = NO_RISKS
    for label, command in option_commands(call.name, call.args):
        risks = risks | code_string(walk, ContextKind.RUNNER, label, (command,), "shell", call.frame)
    if call.name == "git" and walk.written_files:
        for setting in git_settings(read_command("git", call.args)):
            if setting.key.lower() == "core.hookspath":
                risks = risks | hooks_directory_code(walk, setting.value, call.frame)
    if call.name in _MAKE_NAMES:
        risks = risks | _stdin_makefile(call, walk)
    return risks


def _stdin_makefile(call: Call, walk: ContextWalk) -> frozenset[Risk]:
    """`make -f - <<EOF`, `printf ... | make -f /dev/stdin`: the recipes of the makefile make reads
    from its standard input; a makefile piped from elsewhere (`curl u | make -f -`) runs unseen, as with `sh`."""
    stdin = call.stdin
    if stdin is None or not any(file.value in STDIN_PATHS for file in _values_after(call.args, _MAKE_FILE_OPTIONS)):
        return NO_RISKS
    label = f"{call.name} -f -"
    text = known_input(stdin, call.frame.env)
    if text is None:
        if stdin.kind is StdinKind.PIPE:
            piped_code(walk, stdin, label, "shell", call.span.end, call.frame.location)
        return NO_RISKS
    # make's expansion of the recipe keeps no offsets into the source: findings point at the input.
    origin = Origin.derived_from(stdin.span)
    risks = NO_RISKS
    for line in recipe_lines(text):
        risks = risks | walk.nested_code(line, origin, f"{label}: a recipe", stdin.span, call.frame)
    return risks


def option_commands(name: str, args: tuple[Arg, ...]) -> list[tuple[str, Arg]]:
    """The commands the options (or sed script) of `name ARGS` make it run, with their labels."""
    if name in _COMMAND_OPTIONS:
        reading = read_command(name, args)
        found: list[tuple[str, Arg]] = []
        for spellings, prefix in _COMMAND_OPTIONS[name]:
            for use in reading.options:
                value = use.value
                if value is None or not use.named(*spellings):
                    continue
                if not prefix:
                    found.append((f"{name} {use.spelling}", value))
                elif value.value is not None and value.value.startswith(prefix):
                    found.append((f"{name} {use.spelling}", value.suffix(len(prefix))))
        return found
    if name == "sed":
        return _sed_commands(args)
    if name == "git":
        return [*git_setting_commands(args), *_git_run_commands(args)]
    if name == "npm":
        return _package_scripts(args)
    if name == "zip":
        return [("zip -TT", value) for value in _values_after(args, _ZIP_TEST_COMMAND)]
    if name == "man":
        return [("man -P", value) for value in _values_after(args, _MAN_PAGER)]
    if name in _GDB_NAMES:
        return [(f"{name} -ex", command) for command in _gdb_shell_commands(args)]
    if name in _MAKE_NAMES:
        return [(f"{name} --eval", recipe) for recipe in _make_eval_recipes(args)]
    if name in _TERMINAL_NAMES:
        command = _terminal_command(args)
        return [(f"{name} -e", command)] if command is not None else []
    if name in _LESS_NAMES:
        return [(f"{name} +", command) for command in _shell_escapes(_plus_commands(args))]
    return [(f"{name} -c", command) for command in _vim_shell_commands(args)]


def _git_run_commands(args: tuple[Arg, ...]) -> list[tuple[str, Arg]]:
    """The shell commands git subcommands are given to run: `rebase --exec CMD` after each commit,
    `difftool --extcmd CMD` on each file, `filter-branch`'s filters on each commit, and the command
    words of `submodule foreach CMD...` (in each submodule) and `bisect run CMD...` (at each step)."""
    if not any(arg.value in _GIT_RUNNERS for arg in args):
        return []  # the cheap test: `git status`, `git push`
    reading = read_command("git", args)
    if reading.path in (("submodule", "foreach"), ("bisect", "run")):
        line = _command_line(reading.operands)
        return [(f"git {' '.join(reading.path)}", line)] if line is not None else []
    return [
        (f"git {reading.path[0]} {use.spelling}", use.value)
        for use in reading.options
        if use.value is not None and reading.path[:1] and use.named(*_GIT_COMMAND_OPTIONS.get(reading.path[0], ()))
    ]


def _package_scripts(args: tuple[Arg, ...]) -> list[tuple[str, Arg]]:
    """The scripts `npm pkg set scripts.NAME=CMD` and `npm set-script NAME CMD` write into package.json:
    npm runs each in a shell, a lifecycle script (`postinstall`...) at the next install by itself."""
    reading = read_command("npm", args)
    if reading.path == ("set-script",) and len(reading.operands) == 2:
        return [(f"npm set-script {reading.operands[0].display()}", reading.operands[1])]
    if reading.path != ("pkg", "set"):
        return []
    found: list[tuple[str, Arg]] = []
    for field in reading.operands:
        # A value known only at run time still names its field in the source.
        key, equals, _ = (field.value if field.value is not None else field.source).partition("=")
        if equals and key.startswith("scripts."):
            found.append((f"npm pkg set {key}", field.suffix(len(key) + 1)))
    return found


def _sed_commands(args: tuple[Arg, ...]) -> list[tuple[str, Arg]]:
    """The shell commands of sed's scripts (none with `--sandbox`), located at their script."""
    reading = read_command("sed", args)
    if reading.has("--sandbox"):
        return []
    return [
        ("sed e", Arg((command,), command, script.span))
        for script in sed_scripts(reading)
        if script.value is not None
        for command in sed_effects(script.value).commands
    ]


def _values_after(args: tuple[Arg, ...], spellings: tuple[str, ...]) -> list[Arg]:
    """The values of undeclared options given as `OPT VALUE` or `--long=VALUE`."""
    values: list[Arg] = []
    for index, arg in enumerate(args):
        text = arg.value or ""
        if text in spellings and index + 1 < len(args):
            values.append(args[index + 1])
        elif text.startswith("--") and text.partition("=")[0] in spellings and "=" in text:
            values.append(arg.suffix(len(text.partition("=")[0]) + 1))
    return values


def _vim_shell_commands(args: tuple[Arg, ...]) -> list[Arg]:
    """vim's Ex commands (`-c CMD`, `--cmd CMD`, `+CMD`) that run a shell: `!CMD`, `:!CMD`."""
    return _shell_escapes([*_values_after(args, _VIM_COMMAND_OPTIONS), *_plus_commands(args)])


def _plus_commands(args: tuple[Arg, ...]) -> list[Arg]:
    """The commands given as `+CMD` words (vim's and less's start-up commands)."""
    return [arg.suffix(1) for arg in args if (arg.value or "").startswith("+")]


def _shell_escapes(commands: list[Arg]) -> list[Arg]:
    """The shell commands of editor or pager commands written `!CMD` (or `:!CMD`)."""
    shell: list[Arg] = []
    for command in commands:
        text = command.value
        if text is None:
            continue
        escaped = text.lstrip(": ")
        if escaped.startswith("!"):
            shell.append(command.suffix(len(text) - len(escaped) + 1))
    return shell


def _gdb_shell_commands(args: tuple[Arg, ...]) -> list[Arg]:
    """gdb's command-line commands that run a shell: `!CMD`, `shell CMD`, `pipe CMD | SHELL_CMD`."""
    commands = _values_after(args, _GDB_COMMAND_OPTIONS)
    shell = _shell_escapes(commands)
    for command in commands:
        text = command.value or ""
        stripped = text.lstrip()
        if stripped.startswith("shell "):
            shell.append(command.suffix(len(text) - len(stripped) + len("shell ")))
        elif stripped.startswith("pipe ") and "|" in text:
            # `pipe GDB_COMMAND | SHELL_COMMAND`: the shell command follows the first bar.
            shell.append(command.suffix(text.index("|") + 1))
    return shell


def _terminal_command(args: tuple[Arg, ...]) -> Arg | None:
    """The command line after a terminal's `-e`."""
    start = next((index + 1 for index, arg in enumerate(args) if arg.value == "-e"), len(args))
    return _command_line(args[start:])


def _command_line(words: tuple[Arg, ...]) -> Arg | None:
    """The shell command line a program runs from its words: one word as written, several quoted
    back into one (None when there is none, or a word is known only at run time)."""
    values = [word.value for word in words]
    if not words or any(value is None for value in values):
        return None
    if len(words) == 1:
        return words[0]
    line = " ".join(quoted_for_shell(value) for value in values if value is not None)
    return Arg((line,), line, Span(words[0].span.start, words[-1].span.end))


def _make_eval_recipes(args: tuple[Arg, ...]) -> list[Arg]:
    """The recipe lines of the makefile text `make --eval=TEXT` reads, as the shell gets them."""
    return [
        Arg((line,), line, text.span)
        for text in _values_after(args, _MAKE_EVAL)
        if text.value is not None
        for line in recipe_lines(text.value)
    ]


OPTION_CODE_PROGRAMS = frozenset(
    {
        *_COMMAND_OPTIONS, "sed", "zip", "git", "man", "npm",
        *_VIM_NAMES, *_GDB_NAMES, *_MAKE_NAMES, *_LESS_NAMES, *_TERMINAL_NAMES,
    }
)  # fmt: skip
"""The programs `option_code` reads."""
