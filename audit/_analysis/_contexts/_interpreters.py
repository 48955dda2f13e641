"""Interpreters (shells, python, perl, node, awk...): where each finds its
program (a code string, a script operand, a module, or standard input), read
with the family's declaration (audit/programs/interpreters.py).

Shell code is audited one level deeper. Other languages' code is judged by
its run-time parts for now; the other-language analysers (audit/languages)
plug in at `interpreter_code`, where the code string and its language are
known.
"""

from __future__ import annotations

from ..._named_tuple import NamedTuple
from ..._syntax import ast
from ...programs import Arg, InterpreterSpec, OptionUse, WordKind, lex
from .._resolve import known_input
from .._risks import NO_RISKS
from .._subjects import ContextKind, Risk, Stdin, StdinKind
from ._call import Call, ContextWalk
from ._code import code_string, piped_code, script_operand, stdin_code
from ._windows_shells import cmd_code, powershell_code


def interpreter_code(call: Call, spec: InterpreterSpec, walk: ContextWalk) -> frozenset[Risk]:
    """The program an interpreter runs: `-c CODE`, a script operand, and/or stdin."""
    if spec.language == "powershell":
        return powershell_code(call, spec, walk)
    if spec.language == "cmd":
        return cmd_code(call, walk)
    name, args = call.name, call.args
    invocation = read_invocation(spec, args)
    risks = NO_RISKS
    if invocation.code is not None:
        label = f"{name} {invocation.code_option}"
        after = _after(args, invocation.code)
        positional = (after or (Arg((name,), name, call.span),)) if spec.is_shell else after
        kind = ContextKind.CODE_STRING
        code = _positional_code(invocation.code, positional) if spec.is_shell else invocation.code
        variables = program_variables(invocation.assignments)
        risks = code_string(walk, kind, label, (code,), spec.language, call.frame, positional, variables=variables)
    elif invocation.script is not None:
        risks = script_operand(walk, name, invocation.script, call.span, call.frame, call.stdin, spec)
    if invocation.reads_stdin:
        risks = risks | stdin_code(walk, spec, name, call.stdin, call.span, call.frame)
    return risks


def xargs_line_as_code(
    call: Call, spec: InterpreterSpec, replace: str | None, stdin: Stdin | None, walk: ContextWalk
) -> None:
    """`curl u | xargs -I{} sh -c '{}'`, `curl u | xargs -0 bash -c`: a line of the pipe becomes the
    code the interpreter runs, as in `curl u | sh`, when the replace string stands first in the code
    string, or (no replace string) when the item xargs appends lands where the code string goes."""
    if stdin is None or stdin.kind is not StdinKind.PIPE or not walk.reporting:
        return
    if known_input(stdin, call.frame.env) is not None:
        return
    if replace is None:
        # xargs appends the items: the first is the code when the command ends with `-c`.
        item = Arg((), "ITEM", stdin.span)
        if read_invocation(spec, (*call.args, item)).code is not item:
            return
        runner = f"xargs {call.name} -c"
    else:
        code = read_invocation(spec, call.args).code
        first = code.value.lstrip().split(maxsplit=1) if spec.is_shell and code and code.value is not None else ()
        if not first or not first[0].startswith(replace):
            return
        runner = f"xargs -I {replace} {call.name} -c"
    piped_code(walk, stdin, runner, spec.language, call.span.end, call.frame.location)


def _positional_code(code: Arg, positional: tuple[Arg, ...]) -> Arg:
    """`sh -c "$1" _ 'CMD'`: a code string that is one positional parameter is the word bound to it."""
    word = code.word
    if code.values or word is None or len(word.parts) != 1:
        return code
    part = word.parts[0]
    if type(part) is not ast.ParamExpansion or part.operator or not part.name.isdigit():
        return code
    index = int(part.name)
    return positional[index] if index < len(positional) and positional[index].values else code


def _after(args: tuple[Arg, ...], code: Arg) -> tuple[Arg, ...]:
    """The arguments after the code string (`sh -c CODE $0 $1...`; without them $0 is the shell's name)."""
    for position, arg in enumerate(args):
        if arg is code:
            return args[position + 1 :]
    return ()


class Invocation(NamedTuple):
    """How an interpreter was asked to get its program."""

    spec: InterpreterSpec
    code: Arg | None
    code_option: str | None
    script: Arg | None
    reads_stdin: bool
    assignments: tuple[Arg, ...]
    """The values of the options that set a program variable before it starts (`awk -v NAME=VALUE`)."""


def read_invocation(spec: InterpreterSpec, args: tuple[Arg, ...]) -> Invocation:
    """Find the code string, script operand or stdin mode in `args`."""
    reader = _InterpreterOptions(spec, args)
    reader.run()
    stdin_default = (
        spec.reads_stdin_code and reader.code is None and reader.script is None and not reader.program_elsewhere
    )
    return Invocation(
        spec=spec,
        code=reader.code,
        code_option=reader.code_option,
        script=reader.script,
        reads_stdin=reader.explicit_stdin or stdin_default,
        assignments=tuple(reader.assignments),
    )


def program_variables(assignments: tuple[Arg, ...]) -> tuple[tuple[str, str], ...]:
    """`awk -v c='rm -rf ~'`: each variable the command sets to a known value (one known only at run
    time stays unknown to the program's analysis); a variable set twice keeps the last value, as awk does."""
    values: dict[str, str] = {}
    for assignment in assignments:
        text = assignment.value
        name, equals, value = (text or "").partition("=")
        if equals and name.isidentifier():
            values[name] = value
        elif text is None:
            # `-v "$SETTING"` or `-v c="$CMD"`: what it sets is only known at run time, so no value is known.
            return ()
    return tuple(values.items())


class _InterpreterOptions:
    """An interpreter's options up to its program (code, script, module or stdin), read
    with the family's grammar; what each option does is the spec's."""

    def __init__(self, spec: InterpreterSpec, args: tuple[Arg, ...]) -> None:
        self.spec = spec
        self.args = args
        self.index = 0
        self.code: Arg | None = None
        self.code_option: str | None = None
        self.script: Arg | None = None
        # A module, a server or an information option: whatever runs, it is not read from stdin.
        self.program_elsewhere = False
        self.explicit_stdin = False
        self.assignments: list[Arg] = []
        # A shell's -c is a flag: the first operand is then the code.
        self.shell_code_flag: str | None = None
        # `deno eval`, `deno run`: the subcommand read, after which the first operand is the code or script.
        self.subcommand: str | None = None

    def run(self) -> None:
        args = self.args
        while self.index < len(args) and not self._finished():
            arg = args[self.index]
            if arg.value == "-":
                self.explicit_stdin = True
                return
            lexed = lex(self.spec.grammar, args, self.index)
            if lexed.kind is WordKind.OPERAND:
                if self._subcommand(arg):
                    self.index += 1
                    continue
                self._operand(arg)
                return
            if lexed.kind is WordKind.END_OF_OPTIONS:
                if lexed.next_index < len(args):
                    self._operand(args[lexed.next_index])
                return
            self.index = lexed.next_index
            for use in lexed.uses:
                self._apply(use)
                if self._finished():
                    return

    def _finished(self) -> bool:
        return self.code is not None or self.script is not None or self.program_elsewhere

    def _subcommand(self, arg: Arg) -> bool:
        """`deno eval`, `deno run`: a first operand that says where the program comes next."""
        if self.subcommand is not None or arg.value is None:
            return False
        if arg.value in self.spec.code_subcommands or arg.value in self.spec.script_subcommands:
            self.subcommand = arg.value
            return True
        return False

    def _operand(self, arg: Arg) -> None:
        if self.subcommand is not None and self.subcommand in self.spec.code_subcommands:
            self.code = arg
            self.code_option = self.subcommand
        elif self.shell_code_flag is not None:
            self.code = arg
            self.code_option = self.shell_code_flag
        elif self.spec.code_operand:
            self.code = arg
            self.code_option = "program"
        else:
            self.script = arg

    def _apply(self, use: OptionUse) -> None:
        spec = self.spec
        option = use.spelling
        if option in spec.code_options:
            if spec.is_shell:
                self.shell_code_flag = option
            else:
                self.code = use.value
                self.code_option = option
        elif option in spec.module_options or option in spec.exit_options:
            self.program_elsewhere = True
        elif option in spec.script_options:
            if use.value is None:
                self.program_elsewhere = True  # `awk -f` and nothing after it: no program to find
            else:
                self.script = use.value
        elif option in spec.stdin_options:
            self.explicit_stdin = True
        elif option in spec.assignment_options and use.value is not None:
            self.assignments.append(use.value)
