"""The word-level half of the walk: what the words of a command run.

Substitutions (`$(...)`, `<(...)`), parameter expansions (`${x@P}`, a
tainted `$x`), arithmetic contexts (`$((...))`, `a[$(cmd)]`), the words,
prefix assignments and redirects of a simple command, and the risk questions
the risk answers ask (`SilentWalk`): how risky a word, a command or a
redirect is, answered by a silent walk. `Walker` (`_walker.py`) adds the
statements and simple commands; a substitution's body is a script it walks.
"""

from __future__ import annotations

from typing import Self

from .._model import Position, Span
from .._syntax import Origin, Visitor, ast
from ._bindings import assigned_value
from ._command_globs import written_program
from ._normalize import is_unresolved, normalize_word, parameter_values, part_source
from ._prompt import prompt_parts
from ._resolve import arithmetic_operands, redirect_subject, stdin_of
from ._risks import NO_RISKS
from ._state import Frame, WalkConfig, WalkState
from ._subjects import (
    OUTPUT_REDIRECTS,
    Arg,
    AssignmentSubject,
    ContextKind,
    DynamicPart,
    ExecContextSubject,
    Risk,
    Stdin,
    StdinKind,
)
from ._variables import Env

_TAINT = frozenset({Risk.TAINT})


class WordWalker(Visitor[Frame, frozenset[Risk]]):
    """Walks the words of commands; `Walker` extends it with statements and simple commands.

    It answers the risk questions (`SilentWalk`) with a silent walker of the
    same class, so a word's substitutions are walked in full.
    """

    def __init__(self, config: WalkConfig, state: WalkState) -> None:
        self.config = config
        self.tables = config.tables
        self.state = state
        self.sink = state.sink
        # False in a silent walk: what only a report needs is not worked out.
        self.reporting = state.reporting

    def combine(self, results: list[frozenset[Risk]]) -> frozenset[Risk]:
        risks = NO_RISKS
        for found in results:
            if found:
                risks = risks | found
        return risks

    def visit_script(self, script: ast.Script, frame: Frame) -> frozenset[Risk]:
        """The body of a substitution: the statement walk (`Walker`) defines it."""
        raise NotImplementedError

    # -- words -------------------------------------------------------------------------------

    def visit_word(self, word: ast.Word, frame: Frame) -> frozenset[Risk]:
        """A word of a compound command (`for` items, `case` subject and patterns): a value."""
        return self.parts(word.parts, frame, Position.VALUE)

    def parts(
        self,
        parts: tuple[ast.WordPart, ...],
        frame: Frame,
        position: Position,
        writer: ast.SimpleCommand | None = None,
    ) -> frozenset[Risk]:
        """Walk the substitutions in word parts; the risks of what they run. `writer` is the
        command whose argument the parts are: what it writes to a `>(...)` path."""
        risks = NO_RISKS
        for part in parts:
            if type(part) is ast.Literal:
                continue
            if type(part) is ast.CommandSubstitution or type(part) is ast.ProcessSubstitution:
                found = self.substitution(part, frame, position, writer)
            elif type(part) is ast.ParamExpansion:
                found = self.parameter(part, frame, position)
            elif type(part) is ast.ArithmeticExpansion:
                found = self.arithmetic(part.parts, frame, position, "$((...))", part.span)
            else:
                continue
            if found:
                risks = risks | found
        return risks

    def substitution(
        self,
        part: ast.CommandSubstitution | ast.ProcessSubstitution,
        frame: Frame,
        position: Position,
        writer: ast.SimpleCommand | None = None,
    ) -> frozenset[Risk]:
        if isinstance(part, ast.CommandSubstitution):
            label = "`...`" if part.backquoted else "$(...)"
        else:
            label = f"{part.direction}(...)"
        inner = frame.enter(position, label, _prints_captured(part, frame, position, writer))
        if type(part) is ast.ProcessSubstitution and part.direction == ">":
            # What the enclosing command writes to the path is the body's standard input, as if
            # piped: `tee >(nc HOST PORT) < FILE` sends FILE (tee writes its input to each path).
            stdin = Stdin(StdinKind.PIPE, part.span, label, writer=writer, upstream=frame.stdin, through_path=True)
            inner = inner.with_stdin(stdin, False)
        with self.state.in_subshell():
            return self.visit_script(part.body, inner)

    def parameter(self, part: ast.ParamExpansion, frame: Frame, position: Position) -> frozenset[Risk]:
        risks = NO_RISKS
        for word in part.argument:
            risks = risks | self.parts(word.parts, frame, position)
        if part.subscript is not None:
            risks = risks | self.arithmetic(part.subscript.parts, frame, position, "${...[...]}", part.span)
        if part.name and self.is_tainted(part, frame.env):
            risks = risks | _TAINT
        if part.operator.endswith("@P"):
            risks = risks | self.prompt_expansion(part, frame, position)
        return risks

    def prompt_expansion(self, part: ast.ParamExpansion, frame: Frame, position: Position) -> frozenset[Risk]:
        """`${x@P}`: a known value runs the substitutions it holds, walked where the expansion stands;
        an unknown one is a context for the rules (which see whether it holds downloaded data)."""
        values = parameter_values(_plain(part), frame.env)
        origin = Origin.derived_from(part.span)
        readings = [prompt_parts(value, origin, self.config.parse_code) for value in values or ()]
        if values is None or any(parts is None for parts in readings):
            if self.reporting:
                kind = ContextKind.PROMPT_EXPANSION
                dynamic = (self.dynamic_part(_plain(part), frame),)
                self.sink.context(ExecContextSubject(kind, "${...@P}", "prompt", part.span, frame.location, dynamic))
            return NO_RISKS
        risks = NO_RISKS
        for parts in readings:
            risks = risks | self.parts(parts or (), frame, position)
        return risks

    def arithmetic(
        self, parts: tuple[ast.WordPart, ...], frame: Frame, position: Position, label: str, span: Span
    ) -> frozenset[Risk]:
        """An arithmetic context: bash evaluates the *values* of its operands as
        arithmetic, and `a[$(cmd)]` inside such a value runs cmd. A download or
        a tainted variable here is code."""
        risks = self.parts(parts, frame, position)
        if not self.reporting:
            return risks
        env = frame.env
        dynamic = tuple(self.dynamic_part(part, frame) for part in parts if is_unresolved(part, env))
        if any(part.risks for part in dynamic):
            kind = ContextKind.ARITHMETIC
            self.sink.context(ExecContextSubject(kind, label, "arithmetic", span, frame.location, dynamic))
        return risks

    def visit_test_clause(self, node: ast.TestClause, frame: Frame) -> frozenset[Risk]:
        """`[[ ... ]]` and `[ ... ]`: the operands bash evaluates as arithmetic are arithmetic contexts."""
        arithmetic = arithmetic_operands(node.keyword, node.words)
        label = f"{node.keyword} ... {']]' if node.keyword == '[[' else ']'}"
        risks = NO_RISKS
        for index, word in enumerate(node.words):
            if index in arithmetic:
                risks = risks | self.arithmetic(word.parts, frame, Position.VALUE, label, node.span)
            else:
                risks = risks | self.parts(word.parts, frame, Position.VALUE)
        return risks

    def dynamic_part(self, part: ast.WordPart, frame: Frame) -> DynamicPart:
        """A part known only at run time, and its risks, for a context subject (the contexts ask it too)."""
        env = frame.env
        if type(part) is ast.ParamExpansion:
            tainted = bool(part.name) and self.is_tainted(part, env)
            nested = self.silent().parameter(part, Frame.silent(env), Position.VALUE)
            risks = nested | _TAINT if tainted else nested
            return DynamicPart(part.span, part_source(part), risks, part.name, tainted or Risk.TAINT in nested)
        risks = self.silent().parts((part,), Frame.silent(env), Position.VALUE)
        read_back = env.read_back(part.body) if type(part) is ast.CommandSubstitution else None
        reads_file = read_back is not None and read_back != "-"
        return DynamicPart(part.span, part_source(part), risks, None, Risk.TAINT in risks, reads_file)

    # -- the words of a simple command --------------------------------------------------------

    def words(
        self, command: ast.SimpleCommand, frame: Frame, name_word: ast.Word | None
    ) -> tuple[frozenset[Risk], frozenset[Risk]]:
        """Walk the substitutions in a command's words: the risks of all, and of the name word's."""
        risks = name_risks = NO_RISKS
        for word in command.words:
            parts = word.parts
            if len(parts) == 1 and type(parts[0]) is ast.Literal:
                continue
            found = self.parts(parts, frame, Position.COMMAND if word is name_word else Position.VALUE, command)
            if word is name_word:
                name_risks = found
            if found:
                risks = risks | found
        return risks, name_risks

    def prefix_assignments(self, node: ast.SimpleCommand, has_command: bool, frame: Frame) -> frozenset[Risk]:
        form = "prefix" if has_command else "assignment"
        risks = NO_RISKS
        for assignment in node.assignments:
            value: Arg | None = None
            if assignment.value is not None:
                risks = risks | self.parts(assignment.value.parts, frame, Position.VALUE)
                if self.reporting:
                    fields = normalize_word(assigned_value(assignment.value), frame.env)
                    value = fields[0] if len(fields) == 1 else None
            for item in assignment.items or ():
                risks = risks | self.parts(item.parts, frame, Position.VALUE)
            if assignment.subscript is not None:
                label = f"{assignment.name}[...]="
                found = self.arithmetic(assignment.subscript.parts, frame, Position.VALUE, label, assignment.span)
                risks = risks | found
            if self.reporting:
                subject = AssignmentSubject(assignment.name, value, has_command, form, assignment.span, frame.location)
                self.sink.assignment(subject)
        return risks

    def redirects(
        self,
        redirects: tuple[ast.Redirect, ...],
        frame: Frame,
        command_name: str | None,
        *,
        emit: bool,
        writer: ast.SimpleCommand | None = None,
    ) -> tuple[Stdin | None, frozenset[Risk]]:
        """Walk redirect words; what they make standard input, and their risks.

        For compound commands (`emit`) the redirect subjects are emitted here;
        simple commands emit them once their name is known. `writer`, the simple
        command redirected, writes its output to a `>(...)` its stdout goes to.
        """
        stdin = frame.stdin
        risks = NO_RISKS
        for redirect in redirects:
            part_risks = NO_RISKS
            if redirect.target is not None:
                stdout = redirect.fd in (None, "1") and redirect.operator in OUTPUT_REDIRECTS
                part_risks = self.parts(redirect.target.parts, frame, Position.VALUE, writer if stdout else None)
            if redirect.heredoc is not None:
                part_risks = self.parts(redirect.heredoc.parts, frame, Position.VALUE)
            risks = risks | part_risks
            if emit and self.reporting:
                self.sink.redirect(redirect_subject(redirect, frame.env, command_name, frame.location, self.state.cwd))
            if redirect.fd not in (None, "0"):
                continue
            stdin = stdin_of(redirect, part_risks) or stdin
        return stdin, risks

    # -- risk questions (SilentWalk) ------------------------------------------------------------

    def silent(self) -> Self:
        """A walker for a risk question: it works on a copy of this walk's state and reports nothing."""
        return type(self)(self.config, self.state.silenced())

    def is_tainted(self, part: ast.ParamExpansion, env: Env) -> bool:
        """Whether the parameter holds risky data; `${!name}` holds what the variables it names hold."""
        answers = self.config.answers
        if part.operator == "!" and part.subscript is None:
            targets = env.indirect_targets(part.name)
            if targets is not None:
                return any(answers.is_tainted(target, env, self) for target in targets)
        return answers.is_tainted(part.name, env, self)

    def tainted_span(self, parts: tuple[ast.WordPart, ...], env: Env) -> Span | None:
        for part in parts:
            if type(part) is ast.ParamExpansion and part.name and self.is_tainted(part, env):
                return part.span
        return None

    def word_risks(self, word: ast.Word, env: Env) -> frozenset[Risk]:
        return self.silent().parts(word.parts, Frame.silent(env), Position.VALUE)

    def command_risks(self, command: ast.Command, env: Env) -> frozenset[Risk]:
        return self.silent().visit(command, Frame.silent(env))

    def redirect_risks(self, redirect: ast.Redirect, env: Env) -> frozenset[Risk]:
        walker = self.silent()
        frame = Frame.silent(env)
        risks = NO_RISKS
        if redirect.target is not None:
            risks = walker.parts(redirect.target.parts, frame, Position.VALUE)
        if redirect.heredoc is not None:
            risks = risks | walker.parts(redirect.heredoc.parts, frame, Position.VALUE)
        return risks


def _plain(part: ast.ParamExpansion) -> ast.ParamExpansion:
    """`${x@P}` without its operator: the value that is expanded as a prompt."""
    return part._replace(operator="", argument=())


# The builtins that print their arguments: a substitution among them shows what it captured.
_PRINTERS = frozenset({"echo", "printf"})


def _prints_captured(
    part: ast.CommandSubstitution | ast.ProcessSubstitution,
    frame: Frame,
    position: Position,
    writer: ast.SimpleCommand | None,
) -> bool:
    """Whether `writer` prints what the substitution `part` captures where it is shown: `echo`
    or `printf` given it as an argument, printing to the screen (not piped on, not redirected,
    not itself captured by a substitution that does not show it)."""
    if type(part) is not ast.CommandSubstitution or position is not Position.VALUE or writer is None:
        return False
    name = writer.words[0].parts if writer.words else ()
    # `echo`, `/bin/echo`, `/usr/bin/[e]cho`: the same printer however its name is spelt.
    if len(name) != 1 or type(name[0]) is not ast.Literal or written_program(name[0].text) not in _PRINTERS:
        return False
    if frame.piped_on or any(
        redirect.operator in OUTPUT_REDIRECTS and redirect.fd in (None, "1") for redirect in writer.redirects
    ):
        return False
    return frame.location.position is not Position.VALUE or frame.location.shown
