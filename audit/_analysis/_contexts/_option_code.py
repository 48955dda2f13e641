"""Options of ordinary programs whose value is a command the program runs: `rsync -e CMD`
(its remote shell), `tar --to-command=CMD` and `--checkpoint-action=exec=CMD`, `zip -TT CMD`
(its test command), vim's `-c '!CMD'` (an Ex command that starts a shell), the commands a
sed script runs (`e CMD`, `s/.../CMD/e`), and git's settings that hold a command
(`git -c core.pager=CMD log`, `git config core.fsmonitor CMD`: run now or by a later git).
The command is audited as shell code one level deeper, labelled with what runs it."""

from __future__ import annotations

from ...programs import Arg, read_command, sed_effects, sed_scripts
from ...programs.git_settings import git_setting_commands
from .._risks import NO_RISKS
from .._subjects import ContextKind, Risk
from ._call import Call, ContextWalk
from ._code import code_string

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


def option_code(call: Call, walk: ContextWalk) -> frozenset[Risk]:
    """The commands `call`'s options make its program run, judged as shell code."""
    risks = NO_RISKS
    for label, command in option_commands(call.name, call.args):
        risks = risks | code_string(walk, ContextKind.RUNNER, label, (command,), "shell", call.frame)
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
        return git_setting_commands(args)
    if name == "zip":
        return [("zip -TT", value) for value in _values_after(args, _ZIP_TEST_COMMAND)]
    return [(f"{name} -c", command) for command in _vim_shell_commands(args)]


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
    commands = _values_after(args, _VIM_COMMAND_OPTIONS)
    commands += [arg.suffix(1) for arg in args if (arg.value or "").startswith("+")]
    shell: list[Arg] = []
    for command in commands:
        text = command.value
        if text is None:
            continue
        ex = text.lstrip(": ")
        if ex.startswith("!"):
            shell.append(command.suffix(len(text) - len(ex) + 1))
    return shell


OPTION_CODE_PROGRAMS = frozenset({*_COMMAND_OPTIONS, "sed", "zip", "git", *_VIM_NAMES})
"""The programs `option_code` reads."""
