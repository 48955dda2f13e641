"""Code found in a context, judged the same way wherever it comes from: a code
string in argv (`eval`, `sh -c`, `su -c`), standard input (a pipe, a heredoc,
a here-string, `< <(...)`), or a script operand (`bash <(...)`, `. /dev/stdin`).

Literal shell code is parsed and walked one level deeper, code in another
language is judged by what it does (`_languages`); the run-time parts of the
code (substitutions, variables) are handed to the rules with their risks.
Code text keeps, for each character, the original offset it came from, so
findings inside it point at the user's command.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..._model import Span
from ..._syntax import Origin, ast
from ...programs import InterpreterSpec
from .._bindings import assigned_value, exports, split_assignment_word
from .._normalize import (
    as_held,
    basename,
    has_list_expansion,
    is_unresolved,
    normalize_word,
    parameter_values,
    part_source,
)
from .._resolve import known_input, piped_output
from .._risks import NO_RISKS
from .._state import Frame
from .._subjects import Arg, ContextKind, DynamicPart, ExecContextSubject, Location, Risk, Stdin, StdinKind
from .._variables import STDIN_PATHS, Env
from .._wrappers import Unwrapped
from ._call import ContextWalk
from ._languages import RUN_TIME_OUTPUT, RUN_TIME_VALUE, language_code


def code_string(
    walk: ContextWalk,
    kind: ContextKind,
    label: str,
    args: tuple[Arg, ...],
    language: str,
    frame: Frame,
    positional: tuple[Arg, ...] | None = None,
    stdin: Stdin | None = None,
    variables: tuple[tuple[str, str], ...] = (),
) -> frozenset[Risk]:
    """Code in argv: judge its run-time parts, audit its literal code.

    `positional` are the words after a `-c` string, bound to $0, $1... (for code in another
    language, its command-line arguments); `variables` are the program's variables the command
    sets before it starts (`awk -v NAME=VALUE`);
    `stdin` is what the shell code reads, when its runner hands it on
    (`ssh HOST bash -s <<EOF`).
    """
    span = Span(args[0].span.start, args[-1].span.end)
    if walk.reporting:
        dynamic: list[DynamicPart] = []
        for arg in args:
            if arg.values or arg.word is None:
                continue
            dynamic.extend(walk.dynamic_part(part, frame) for part in arg.word.parts if is_unresolved(part, frame.env))
        walk.emit(ExecContextSubject(kind, label, language, span, frame.location, tuple(dynamic)))
    # The code shares its runner's standard input unless the runner hands it another.
    stdin = stdin if stdin is not None else frame.stdin
    stdin_text = known_input(stdin, frame.env)
    reads_back = stdin is not None and _reads_stdin(args, frame.env)
    if stdin_text is None and stdin is not None and stdin.kind is StdinKind.PIPE and reads_back:
        # `curl | eval "$(cat)"`: the code is whatever the pipe carries, as in `curl | sh`.
        piped_code(walk, stdin, label, language, span.end, frame.location)
    risks = NO_RISKS
    shell = language == "shell"
    # `eval "$(cat)"`: cat read the input to its end to make the code, which then reads nothing.
    code_stdin = None if reads_back else stdin
    for variant in _candidate_variants(args):
        code, origin = code_text(variant, frame.env, _placeholder if shell else inert, stdin_text)
        if shell:
            found = walk.nested_code(code, origin, label, span, frame, positional, code_stdin)
        else:
            found = language_code(walk, label, code, origin, language, span, frame, positional, variables)
        if found:
            risks = risks | found
    return risks


def stdin_code(
    walk: ContextWalk, spec: InterpreterSpec, name: str, stdin: Stdin | None, span: Span, frame: Frame
) -> frozenset[Risk]:
    """An interpreter reading its program from standard input."""
    if stdin is None:
        return NO_RISKS
    if stdin.kind is StdinKind.FILE:
        return _file_on_stdin(walk, name, stdin, frame, spec)
    location = frame.location
    if stdin.kind is StdinKind.PIPE:
        whole = Span(stdin.span.start, span.end)
        label = f"{stdin.label} {name}"
        printed = piped_text(stdin, frame.env)
        if printed is None:
            piped_code(walk, stdin, name, spec.language, span.end, location)
            return NO_RISKS
        # `echo 'ls' | bash`, `echo 'import os; ...' | python3`: the program is what echo/printf print,
        # judged as a heredoc would be.
        walk.emit(ExecContextSubject(ContextKind.STDIN_DOCUMENT, label, spec.language, whole, location, ()))
        return audit_code(walk, label, printed[0], printed[1], spec.language, stdin.span, frame)
    dynamic = _dynamic_parts(walk, stdin.parts, frame, lambda part: is_unresolved(part, frame.env))
    if stdin.kind is StdinKind.PROCESS_SUBSTITUTION:
        risks = printed_script(walk, name, stdin.parts, frame, spec)
        label = f"{name} < <(...)"
        kind = ContextKind.SCRIPT_SUBSTITUTION
        walk.emit(ExecContextSubject(kind, label, spec.language, stdin.span, location, dynamic))
        return risks
    label = f"{name} {stdin.label}"
    walk.emit(ExecContextSubject(ContextKind.STDIN_DOCUMENT, label, spec.language, stdin.span, location, dynamic))
    if spec.is_shell:
        code, origin = text_of_parts(stdin.parts, stdin.span, frame.env, _placeholder)
        return walk.nested_code(code, origin, label, stdin.span, frame)
    # The outer shell expands an unquoted heredoc before the interpreter reads it.
    code, origin = text_of_parts(stdin.parts, stdin.span, frame.env, inert)
    return language_code(walk, label, code, origin, spec.language, stdin.span, frame)


def piped_code(walk: ContextWalk, stdin: Stdin, runner: str, language: str, end: int, location: Location) -> None:
    """`curl u | sh`, `curl u | make -f -`: `runner` runs, as code in `language`, whatever the pipe
    carries, unknown here; the rules judge the pipe from its first stage to `end` (`STDIN_PIPE`)."""
    whole = Span(stdin.span.start, end)
    label = f"{stdin.label} {runner}"
    walk.emit(ExecContextSubject(ContextKind.STDIN_PIPE, label, language, whole, location, (), stdin.span))


STARTUP_VARIABLES = ("BASH_ENV", "ENV")
"""Variables naming a file the shells a command starts run before their own code:
bash reads BASH_ENV when it runs a script or `-c` code, an interactive sh reads ENV."""


def prefix_assignments(
    node: ast.SimpleCommand, unwrapped: Unwrapped | None, wanted: Callable[[str], bool]
) -> list[tuple[str, ast.Word]]:
    """The variables `wanted` names that the command sets for the program it runs, or the shell
    for itself with no program (`BASH_ENV=FILE cmd`, `env ENV=FILE cmd`, `PAGER=CMD`), with their values
    (a shell assignment's as bash expands it, unsplit; `env`'s argument as bash split it)."""
    found = [
        (assignment.name, assigned_value(assignment.value))
        for assignment in node.assignments
        if wanted(assignment.name) and assignment.value is not None and assignment.subscript is None
    ]
    for arg in unwrapped.assignments if unwrapped is not None else ():
        first = arg.word.parts[0] if arg.word is not None and arg.word.parts else None
        if type(first) is ast.Literal and arg.word is not None:
            variable, _, rest = first.text.partition("=")
            if wanted(variable):
                parts = ((first._replace(text=rest),) if rest else ()) + arg.word.parts[1:]
                found.append((variable, arg.word._replace(parts=parts)))
        elif len(arg.values) == 1:
            # An assignment whose text an expansion gave (`_c=(env PAGER=CMD man); "${_c[@]}"`):
            # its value is one word, as bash passes it.
            variable, equals, rest = arg.values[0].partition("=")
            if equals and wanted(variable):
                found.append((variable, ast.Word((ast.Literal(rest, True, arg.span),), arg.span, rest)))
    return found


def startup_assignments(
    node: ast.SimpleCommand, unwrapped: Unwrapped | None, builtin: str | None
) -> list[tuple[str, ast.Word]]:
    """`BASH_ENV=FILE cmd`, `env ENV=FILE cmd`: the start-up file set for the shells the command
    starts; `export BASH_ENV=FILE`: for every shell started after it (`builtin`: argv's first word)."""
    found = prefix_assignments(node, unwrapped, STARTUP_VARIABLES.__contains__)
    if builtin is not None and exports(builtin, node.words[1:]):
        for word in node.words[1:]:
            split = split_assignment_word(word)
            if split is not None and split[0] in STARTUP_VARIABLES:
                found.append(split)
    return found


def program_environment(node: ast.SimpleCommand, unwrapped: Unwrapped | None, env: Env) -> tuple[tuple[str, str], ...]:
    """`NAME=value cmd`, `env NAME=value cmd`: the variables the command sets for the program it
    runs, with their values, in the order bash sets them; a value known only at run time is left out."""
    if not node.assignments and (unwrapped is None or not unwrapped.assignments):
        return ()  # most commands: nothing to look for
    found: list[tuple[str, str]] = []
    for variable, value in prefix_assignments(node, unwrapped, _any_variable):
        fields = normalize_word(value, env)
        if len(fields) == 1 and fields[0].value is not None:
            found.append((variable, fields[0].value))
    return tuple(found)


def _any_variable(_name: str) -> bool:
    return True


def startup_code(
    walk: ContextWalk, variable: str, value: ast.Word, span: Span, frame: Frame, stdin: Stdin | None
) -> frozenset[Risk]:
    """`BASH_ENV=<(curl u) make`: every shell the command starts runs the named file first, as a script operand."""
    shell = walk.tables.interpreter("bash")
    fields = normalize_word(value, frame.env)
    # `-` is a file of that name here, not standard input as for a script operand.
    if shell is None or len(fields) != 1 or fields[0].value == "-":
        return NO_RISKS
    script = fields[0]._replace(word=value)
    risks = NO_RISKS
    if _EXPANDS_TO_COMMANDS.search(script.value or ""):
        # The shell expands the value before it reads the file, command substitutions included
        # (`BASH_ENV='$(curl u | sh)' bash -c true` runs the curl): audited as an argument would be.
        start = Arg((":",), ":", Span(value.span.start, value.span.start))
        label = f"{variable} expanded by the shell it starts"
        risks = code_string(walk, ContextKind.RUNNER, label, (start, script), "shell", frame, stdin=stdin)
    return risks | script_operand(walk, variable, script, span, frame, stdin, shell)


_EXPANDS_TO_COMMANDS = re.compile(r"\$\(|`")


def _file_on_stdin(walk: ContextWalk, name: str, stdin: Stdin, frame: Frame, spec: InterpreterSpec) -> frozenset[Risk]:
    """`bash < x.sh`: the program is the file, as in `bash x.sh`, when this command downloaded or wrote it."""
    if stdin.file is None:
        return NO_RISKS
    script = Arg((stdin.file,), stdin.file, stdin.span)
    label = f"{name} < {stdin.file}"
    walk.check_downloaded(script, frame, label)
    return run_written(walk, label, script, frame, spec)


def script_operand(
    walk: ContextWalk,
    name: str,
    script: Arg,
    span: Span,
    frame: Frame,
    stdin: Stdin | None,
    spec: InterpreterSpec | None,
) -> frozenset[Risk]:
    """`bash <(curl u)`, `. <(curl u)`, `source /dev/stdin`, `bash ./downloaded.sh`, `bash ./written.sh`."""
    label = f"{name} {script.display()}"
    if spec is None or not spec.compiles:
        walk.check_downloaded(script, frame, label)
    if walk.written_script(script.value or "") is not None:
        return run_written(walk, label, script, frame, spec or walk.tables.interpreter("sh"))
    if script.value in STDIN_PATHS:
        return stdin_code(walk, spec, name, stdin, span, frame) if spec is not None else NO_RISKS
    parts = script.word.parts if script.word is not None else ()
    risks = printed_script(walk, name, parts, frame, spec)
    dynamic = _dynamic_parts(walk, parts, frame, lambda part: type(part) is ast.ProcessSubstitution)
    if dynamic:
        language = spec.language if spec is not None else "shell"
        label = f"{name} <(...)"
        walk.emit(ExecContextSubject(ContextKind.SCRIPT_SUBSTITUTION, label, language, span, frame.location, dynamic))
    return risks


def run_written(
    walk: ContextWalk, label: str, program: Arg, frame: Frame, spec: InterpreterSpec | None
) -> frozenset[Risk]:
    """Running a file this command string wrote (`bash x.sh`, `python3 x.py`, `./x.sh`): its content
    audited as `spec`'s language, or as its `#!` line says when run directly."""
    script = walk.written_script(program.value) if program.value is not None else None
    if script is None:
        return NO_RISKS
    language = spec.language if spec is not None else shebang_language(walk, script.text)
    return audit_code(walk, label, script.text, script.origin, language, script.span, frame)


def audit_code(
    walk: ContextWalk, label: str, text: str, origin: Origin, language: str, span: Span, frame: Frame
) -> frozenset[Risk]:
    """Code text in a language: shell walked one level deeper, another language judged by what it does."""
    if language == "shell":
        return walk.nested_code(text, origin, label, span, frame)
    return language_code(walk, label, text, origin, language, span, frame)


def shebang_language(walk: ContextWalk, text: str) -> str:
    """The language a script's `#!` line names (`#!/usr/bin/env python3`); shell without one."""
    if not text.startswith("#!"):
        return "shell"
    words = text[2:].partition("\n")[0].split()
    if words and basename(words[0]) == "env":
        words = [word for word in words[1:] if not word.startswith("-")]
    spec = walk.tables.interpreter(basename(words[0])) if words else None
    return spec.language if spec is not None else "shell"


def _dynamic_parts(
    walk: ContextWalk, parts: tuple[ast.WordPart, ...], frame: Frame, wanted: Callable[[ast.WordPart], bool]
) -> tuple[DynamicPart, ...]:
    """The run-time parts of code, for its report (none in a silent walk, which reports nothing)."""
    if not walk.reporting:
        return ()
    return tuple(walk.dynamic_part(part, frame) for part in parts if wanted(part))


def printed_script(
    walk: ContextWalk, name: str, parts: tuple[ast.WordPart, ...], frame: Frame, spec: InterpreterSpec | None
) -> frozenset[Risk]:
    """`bash <(echo 'rm -rf /')`, `python3 <(printf ...)`: a script whose text `echo`/`printf` prints is audited."""
    if len(parts) != 1 or type(parts[0]) is not ast.ProcessSubstitution:
        return NO_RISKS
    substitution = parts[0]
    output = frame.env.substitution_output(substitution.body)
    if output is None:
        return NO_RISKS
    origin = Origin.derived_from(substitution.span)
    label = f"{name} <(...)"
    if spec is None or spec.is_shell:
        return walk.nested_code(output, origin, label, substitution.span, frame)
    return language_code(walk, label, output, origin, spec.language, substitution.span, frame)


# -- code text ------------------------------------------------------------------------------


def _candidate_variants(args: tuple[Arg, ...]) -> list[tuple[Arg, ...]]:
    """One argument list per value of the first argument with several values.

    `c='ls'; c='rm -rf /'; eval "$c"` may run either: both are audited.
    """
    for position, arg in enumerate(args):
        if len(arg.values) > 1:
            return [
                (*args[:position], Arg((value,), arg.source, arg.span, arg.pattern, None), *args[position + 1 :])
                for value in arg.values
            ]
    return [args]


Placeholder = Callable[[ast.WordPart | None, str], str]
"""What a run-time part of code (the part, when it is one, and its source) reads as in the code text."""


def code_text(
    args: tuple[Arg, ...], env: Env, placeholder: Placeholder, stdin_text: str | None = None
) -> tuple[str, Origin]:
    """The code an eval/-c string holds, dynamic parts replaced by a placeholder (`stdin_text`: what
    `$(cat)` reads back, when the input is known)."""
    chars: list[str] = []
    offsets: list[int] = []
    for position, arg in enumerate(args):
        if position:
            chars.append(" ")
            offsets.append(arg.span.start)
        if arg.word is None and arg.written_as_is and arg.span.end - arg.span.start == len(arg.source):
            chars.extend(arg.source)  # an attached code string written as is: exact offsets
            offsets.extend(range(arg.span.start, arg.span.end))
            continue
        # A field of `"${c[@]}"` is one element, not the whole word: its known value is the code.
        if arg.word is None or (arg.value is not None and has_list_expansion(arg.word)):
            _append_text(
                chars, offsets, as_held(arg.value) if arg.value is not None else placeholder(None, arg.source), arg.span
            )
            continue
        for part in arg.word.parts:
            _append_part(chars, offsets, part, env, placeholder, stdin_text)
    end = args[-1].span.end if args else 0
    offsets.append(end)
    return "".join(chars), Origin(tuple(offsets), exact=True)


def piped_text(stdin: Stdin, env: Env) -> tuple[str, Origin] | None:
    """What `echo`/`printf` with literal words print into a pipe, directly or through filters (None for
    any other writer), and where each character came from: in the words `echo` prints as written, else
    the writing command."""
    writer = stdin.writer
    printed = piped_output(stdin, env)
    if printed is None:
        return None
    if not isinstance(writer, ast.SimpleCommand):  # `{ echo ls; echo pwd; }`
        return printed, Origin.derived_from(stdin.span)
    fields = [normalize_word(word, env) for word in writer.words[1:]]
    args = tuple(field[0] for field in fields if len(field) == 1)
    if len(args) == len(fields) and args:
        text, origin = code_text(args, env, inert)
        if text + "\n" == printed:  # echo without options or escapes: the words, as written
            return printed, origin
    return printed, Origin.derived_from(stdin.span)


def text_of_parts(
    parts: tuple[ast.WordPart, ...], span: Span, env: Env | None, placeholder: Placeholder
) -> tuple[str, Origin]:
    chars: list[str] = []
    offsets: list[int] = []
    for part in parts:
        _append_part(chars, offsets, part, env, placeholder)
    offsets.append(span.end)
    return "".join(chars), Origin(tuple(offsets), exact=True)


def _reads_stdin(args: tuple[Arg, ...], env: Env) -> bool:
    """Whether a substitution in the code reads standard input back (`$(cat)`, `$(< /dev/stdin)`)."""
    for arg in args:
        if arg.word is None:
            continue
        for part in arg.word.parts:
            if type(part) is ast.CommandSubstitution and env.read_back(part.body) == "-":
                return True
    return False


def _append_part(
    chars: list[str],
    offsets: list[int],
    part: ast.WordPart,
    env: Env | None,
    placeholder: Placeholder,
    stdin_text: str | None = None,
) -> None:
    if type(part) is ast.Literal:
        text = part.text
        span = part.span
        width = span.end - span.start
        if width == len(text):
            chars.extend(text)
            offsets.extend(range(span.start, span.end))
        elif width == len(text) + 2:
            chars.extend(text)
            offsets.extend(range(span.start + 1, span.end - 1))
        else:
            _append_text(chars, offsets, text, span)
        return
    if type(part) is ast.ParamExpansion and env is not None and not part.operator:
        values = parameter_values(part, env)
        if values is not None and len(values) == 1:
            _append_text(chars, offsets, as_held(values[0]), part.span)
            return
    if type(part) is ast.CommandSubstitution and env is not None:
        # `eval "$(echo rm -rf /)"`: the output of a literal echo/printf is the code.
        output = env.substitution_output(part.body)
        if output is None and stdin_text is not None and env.read_back(part.body) == "-":
            # `echo 'ls' | eval "$(cat)"`: the known input, read back.
            output = stdin_text.rstrip("\n")
        if output is not None:
            _append_text(chars, offsets, output, part.span)
            return
    _append_text(chars, offsets, placeholder(part, part_source(part)), part.span)


def _placeholder(part: ast.WordPart | None, source: str) -> str:
    """A run-time part of nested shell code, as one inert literal word showing its source.

    The nested code is judged with the part standing in as plain data; the
    part itself is judged by the context rules (EX002-EX007, TA002).
    """
    return "'" + source.replace("'", "") + "'"


def inert(part: ast.WordPart | None, source: str) -> str:
    """A run-time part of code in another language: an identifier, valid wherever the part stands."""
    return RUN_TIME_VALUE if type(part) is ast.ParamExpansion else RUN_TIME_OUTPUT


def _append_text(chars: list[str], offsets: list[int], text: str, span: Span) -> None:
    chars.extend(text)
    offsets.extend([span.start] * len(text))
