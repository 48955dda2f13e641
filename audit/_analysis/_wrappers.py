"""Peeling wrappers off a command (`sudo`, `env`, `timeout`, `xargs`...): each
wrapper's options are read with its declaration (audit/programs/wrappers.py);
what remains is the command that runs, plus the code strings and assignments
the wrappers were given. `xargs` with known input runs known commands."""

from __future__ import annotations

import shlex
from collections.abc import Sequence

from .._model import Span
from .._named_tuple import NamedTuple
from .._syntax._words import ansi_c_decode
from .._tables import Tables
from ..programs import MODULE_PROGRAMS, Arg, OptionUse, Takes, WordKind, WrapperSpec, lex, package_binary
from ._command_globs import expand_command_name
from ._normalize import basename


class CodeArgument(NamedTuple):
    """A code string found in argv (`su -c CODE`, `flock F -c CODE`)."""

    label: str
    args: tuple[Arg, ...]


class Unwrapped(NamedTuple):
    """The result of peeling wrappers off an argv (one for every command audited).

    `argv` may differ from the input when `env -S` split a string into words.
    `command_index` is the effective command's position (len(argv) when none runs).
    `places` say where the command runs when a wrapper runs it somewhere else
    (`in chroot /mnt`). `xargs_options` are the options of the last `xargs` among
    the wrappers, with their values (`xargs -I {}` gives `("-I", "{}")`), None
    when there is none: the items xargs reads end the whole command it starts,
    wrappers after it included (`echo /etc | xargs sudo rm -rf` runs `sudo rm -rf /etc`).
    """

    argv: tuple[Arg, ...]
    command_index: int
    wrappers: tuple[str, ...]
    assignments: tuple[Arg, ...]
    code: tuple[CodeArgument, ...]
    shell_from_option: str | None
    places: tuple[str, ...] = ()
    xargs_options: tuple[tuple[str, str | None], ...] | None = None


def is_assignment_word(value: str) -> bool:
    name, equals, _ = value.partition("=")
    return bool(equals) and bool(name) and (name[0].isalpha() or name[0] == "_") and name.replace("_", "a").isalnum()


def unwrap(argv: tuple[Arg, ...], tables: Tables) -> Unwrapped | None:
    """Peel the wrappers off `argv`; None when it does not start with one."""
    wrappers: list[str] = []
    assignments: list[Arg] = []
    code: list[CodeArgument] = []
    shell_option: str | None = None
    xargs_options: tuple[tuple[str, str | None], ...] | None = None
    places: list[str] = []
    index = 0
    while index < len(argv):
        argv = expand_command_name(argv, index, tables)
        value = argv[index].value
        spec = tables.wrappers.get(basename(value)) if value is not None else None
        if spec is None:
            if (module := _module_program(argv, index, tables)) is None:
                break
            argv, index = module
            wrappers.append(f"{basename(value or '')} -m")
            continue
        if (spec.subcommands or spec.own_commands) and not _runs_a_command(spec, argv, index + 1):
            break
        wrappers.append(spec.name)
        if spec.name == "coproc":
            # tree-sitter has no coproc grammar: `coproc NAME { cmd; }` arrives
            # as the words `coproc NAME { cmd`; the command starts after the brace.
            index = _after_coproc_name(argv, index + 1)
            continue
        parsed = _WrapperOptions(spec, argv, index + 1)
        parsed.run()
        if spec.name == "xargs":
            xargs_options = tuple(parsed.options)
        if spec.place:
            places.append(_place(spec, parsed))
        argv = parsed.argv
        assignments.extend(parsed.assignments)
        code.extend(parsed.code)
        if parsed.shell_option is not None:
            shell_option = f"{spec.name} {parsed.shell_option}"
        elif spec.starts_shell and not parsed.code and not parsed.command_mode:
            shell_option = spec.name
        if parsed.no_command or (spec.no_command and not parsed.command_mode):
            index = len(argv)
            break
        index = parsed.index
        if index < len(argv) and argv[index].value == "{":
            # tree-sitter reads `time { cmd; }` as the words `time { cmd`.
            index += 1
        if spec.joins_command and not parsed.exec_mode and index < len(argv):
            code.append(CodeArgument(spec.name, argv[index:]))
            index = len(argv)
            break
        if spec.runs_packages and index < len(argv):
            argv = _package_binary(argv, index)
    if not wrappers:
        return None
    argv = expand_command_name(argv, index, tables)
    peeled = (tuple(wrappers), tuple(assignments), tuple(code), shell_option)
    return Unwrapped(argv, index, *peeled, tuple(places), xargs_options)


def _runs_a_command(spec: WrapperSpec, argv: tuple[Arg, ...], index: int) -> bool:
    """Whether a wrapper with subcommands runs a command here: its first operand (after its own
    options) is one of them (`npm exec`), or, for a program that runs other words as commands
    (`own_commands`), not one of its own (`yarn cdk`, not `yarn install`)."""
    while index < len(argv):
        lexed = lex(spec.grammar, argv, index)
        if lexed.kind is not WordKind.OPTIONS:
            break
        index = lexed.next_index
    first = argv[index].value if index < len(argv) else None
    if first is None:
        return False
    return first in spec.subcommands or (bool(spec.own_commands) and first not in spec.own_commands)


def _module_program(argv: tuple[Arg, ...], index: int, tables: Tables) -> tuple[tuple[Arg, ...], int] | None:
    """`python3 -m pip install x`: an interpreter that runs a module which is a program of its own
    (`MODULE_PROGRAMS`) is peeled like a wrapper, and the module word becomes that program's name.
    The argv and the program's index; None for anything else the interpreter runs."""
    value = argv[index].value
    spec = tables.interpreter(basename(value)) if value is not None else None
    programs = MODULE_PROGRAMS.get(spec.family) if spec is not None else None
    if spec is None or programs is None:
        return None
    position = index + 1
    while position < len(argv):
        lexed = lex(spec.grammar, argv, position)
        if lexed.kind is not WordKind.OPTIONS:
            return None
        for use in lexed.uses:
            if use.spelling in spec.module_options:
                program = programs.get(use.value.value or "") if use.value is not None else None
                if program is None or use.value is None:
                    return None
                return _program_for_module(argv, position, lexed.next_index, use.value, program)
            if use.spelling in spec.code_options or use.spelling in spec.exit_options:
                return None
        position = lexed.next_index
    return None


def _program_for_module(
    argv: tuple[Arg, ...], position: int, after: int, module: Arg, program: str
) -> tuple[tuple[Arg, ...], int]:
    """argv with the module word named as its program, and that word's index. A module attached to its
    option (`-mpip`, `-Bmpip`) is split off the option word, so the option still shows."""
    named = module._replace(values=(program,), pattern=False, word=None)
    if after - 1 > position and argv[after - 1] is module:  # `-m pip`: the module is a word of its own
        return (*argv[: after - 1], named, *argv[after:]), after - 1
    option = argv[position]
    spelled = (option.value or "")[: -len(module.value or "")]  # `-m` of `-mpip`
    return (*argv[:position], Arg((spelled,), spelled, option.span), named, *argv[after:]), position + 1


def _package_binary(argv: tuple[Arg, ...], index: int) -> tuple[Arg, ...]:
    """`argv` with the package a runner names replaced by the binary it runs (`aws-cdk@2`: `cdk`)."""
    word = argv[index]
    if word.value is None:
        return argv
    binary = package_binary(word.value)
    if binary == word.value:
        return argv
    return (*argv[:index], word._replace(values=(binary,), pattern=False, word=None), *argv[index + 1 :])


def _place(spec: WrapperSpec, parsed: _WrapperOptions) -> str:
    """Where the wrapper runs its command: the place of the last option given that names one, else its own."""
    chosen, value = spec.place, ""
    named = dict(spec.option_places)
    for option, option_value in parsed.options:
        if option in named:
            chosen, value = named[option], option_value or ""
    return chosen.format(operand=parsed.operand or "", value=value)


def _after_coproc_name(argv: tuple[Arg, ...], index: int) -> int:
    for offset in (0, 1):
        if index + offset < len(argv) and argv[index + offset].value in ("{", "("):
            return index + offset + 1
    return index


class _WrapperOptions:
    """A wrapper's options up to the command it runs (`-uroot`, `--user=root`...), read
    with the wrapper's grammar; what each option does is the spec's."""

    def __init__(self, spec: WrapperSpec, argv: tuple[Arg, ...], index: int) -> None:
        self.spec = spec
        self.argv = argv
        self.index = index
        self.assignments: list[Arg] = []
        self.code: list[CodeArgument] = []
        self.no_command = False
        self.exec_mode = False
        self.command_mode = False
        self.shell_option: str | None = None
        self.positionals_left = spec.positionals
        self.subcommand_pending = bool(spec.subcommands or spec.own_commands)
        self.options: list[tuple[str, str | None]] = []
        self.operand: str | None = None
        self.becomes: str | None = None

    def run(self) -> None:
        spec = self.spec
        while self.index < len(self.argv) and not self.no_command:
            arg = self.argv[self.index]
            value = arg.value
            if spec.assignments and is_assignment_word(arg.source if value is None else value):
                # `env FOO=$BAR make`: an assignment whatever its value.
                self.assignments.append(arg)
                self.index += 1
                continue
            lexed = lex(spec.grammar, self.argv, self.index)
            if lexed.kind is WordKind.END_OF_OPTIONS:
                self.index = lexed.next_index
                self._operands()
                return
            if lexed.kind is WordKind.OPTIONS:
                self.index = lexed.next_index
                for use in lexed.uses:
                    self._apply(use)
                    if self.becomes is not None:
                        # `sudo -e FILE` is `sudoedit FILE`: that program reads the words after the option.
                        program = Arg((self.becomes,), arg.source, arg.span)
                        self.argv = (*self.argv[: self.index], program, *self.argv[self.index :])
                        return
                    if self.no_command:
                        return
            elif value == "-" and spec.permute:
                self.index += 1  # `su -`: a login shell
            elif self.subcommand_pending:
                # `npm exec CMD`: the subcommand, then the command; `yarn cdk`: the command itself.
                self.subcommand_pending = False
                if value not in spec.subcommands:
                    return
                self.index += 1
            elif self.positionals_left > 0:
                self._positional(value or "")
            elif spec.permute and not self.command_mode and value is not None:
                self.index += 1  # an operand (su's user); options may follow it
            else:
                return

    def _operands(self) -> None:
        while self.positionals_left > 0 and self.index < len(self.argv):
            value = self.argv[self.index].value
            self._positional(value or "")

    def _positional(self, value: str) -> None:
        self.positionals_left -= 1
        self.index += 1
        if self.operand is None:
            self.operand = value
        # `flock 9` locks a descriptor and runs nothing.
        if self.spec.name == "flock" and value.isdigit():
            self.no_command = True

    def _apply(self, use: OptionUse) -> None:
        spec = self.spec
        option = use.spelling
        if option in spec.no_command_options:
            self.no_command = True
            return
        for spelling, program in spec.program_options:
            if option == spelling:
                self.becomes = program
                return
        if option in spec.exec_options:
            self.exec_mode = True
        if option in spec.command_options:
            self.command_mode = True
        if option in spec.shell_options:
            self.shell_option = option
        value_arg = use.value if use.option.takes is not Takes.NOTHING else None
        self.options.append((option, value_arg.value if value_arg is not None else None))
        if value_arg is None:
            return
        if option in spec.code_options:
            self.code.append(CodeArgument(f"{spec.name} {option}", (value_arg,)))
        elif option in spec.split_options:
            self._split(value_arg)

    def _split(self, value_arg: Arg) -> None:
        """`env -S 'bash -c x'`: the string becomes words of the command line."""
        if value_arg.value is None:
            return
        try:
            words = shlex.split(value_arg.value)
        except ValueError:
            words = value_arg.value.split()
        split = tuple(Arg((word,), value_arg.source, value_arg.span, False, None) for word in words)
        self.argv = self.argv[: self.index] + split + self.argv[self.index :]


def xargs_unbounded(options: tuple[tuple[str, str | None], ...]) -> bool:
    """Whether `xargs` starts as many commands at once as its input asks for (`-P 0`; the last -P counts)."""
    limit: str | None = None
    for option, value in options:
        if option in ("-P", "--max-procs"):
            limit = value
    return limit is not None and limit.strip() == "0"


class XargsInput(NamedTuple):
    """Where the xargs that starts a command reads the arguments it adds: `file` (`-a FILE`),
    else its standard input."""

    file: Arg | None


def xargs_input(unwrapped: Unwrapped | None, span: Span) -> XargsInput | None:
    """The input of the xargs that starts the command (through any wrappers after it), if one does."""
    if unwrapped is None or unwrapped.xargs_options is None:
        return None
    file: Arg | None = None
    for option, value in unwrapped.xargs_options:
        if option in ("-a", "--arg-file") and value is not None:
            file = Arg((value,), value, span)
    return XargsInput(file)


def xargs_replace_string(options: tuple[tuple[str, str | None], ...]) -> str | None:
    """What `xargs -I R` (`--replace`, `-i`) replaces with each input line; None without it."""
    replace: str | None = None
    for option, value in options:
        if option in ("-I", "--replace", "-i"):
            replace = value or "{}"
    return replace


def xargs_commands(
    argv: tuple[Arg, ...], index: int, options: tuple[tuple[str, str | None], ...], data: str, data_span: Span
) -> list[tuple[Arg, ...]]:
    """The commands `xargs` runs when its input `data` is known.

    The input's items are appended to the command; with `-I R` (or
    `--replace`, `-i`) each input line makes one command with the line in
    place of R. Empty when the items come from a file (`-a`) or cannot be
    split (an unbalanced quote).
    """
    delimiter: str | None = None
    replace = xargs_replace_string(options)
    for option, value in options:
        if option in ("-a", "--arg-file"):
            return []
        if option in ("-0", "--null"):
            delimiter = "\0"
        elif option in ("-d", "--delimiter") and value:
            delimiter = ansi_c_decode(value)[:1]
    items = _xargs_items(data, delimiter, by_line=replace is not None)
    if not items:
        return []
    if replace is None:
        return [argv + tuple(Arg((item,), item, data_span) for item in items)]
    return replaced_per_item(argv, index, replace, items)


def replaced_per_item(
    argv: tuple[Arg, ...], index: int, replace: str, items: Sequence[str], *, globs: bool = False
) -> list[tuple[Arg, ...]]:
    """`xargs -I R CMD`: one command per input item, the item in place of R in the words of CMD
    (`globs`: the items are globs that stand for the names read, as a listing gives them)."""
    return [argv[:index] + tuple(_replaced(arg, replace, item, globs) for arg in argv[index:]) for item in items]


def _xargs_items(data: str, delimiter: str | None, *, by_line: bool) -> list[str]:
    """Split xargs input as xargs does: by the delimiter, by line for -I, else by
    blanks and newlines with quotes and backslashes honoured."""
    if delimiter:
        items = data.split(delimiter)
        return items[:-1] if items and not items[-1] else items
    if by_line:
        return [line.lstrip(" \t") for line in data.split("\n") if line.strip()]
    try:
        return shlex.split(data)
    except ValueError:
        return []


def _replaced(arg: Arg, replace: str, item: str, glob: bool) -> Arg:
    if not any(replace in value for value in arg.values):
        return arg
    # The word no longer matches the text: code built from it reads the values.
    values = tuple(value.replace(replace, item) for value in arg.values)
    return Arg(values, arg.source, arg.span, arg.pattern or glob, None)
