"""The walk: find every command bash may run and hand each to the rules.

One traversal of the syntax tree (a `Visitor`) with a `Frame` per construct
(position, path, nesting depth, variables, what feeds standard input) and one
`WalkState` for what it has seen. Substitutions are walked where they sit,
in command position when their output becomes the command name. Each visit
returns the risks of what it runs, so a substitution's risks reach the
command that uses its output. Code that a command runs (eval, sh -c, a
heredoc into bash, find -exec, trap...) is found by the execution contexts
(`_contexts`) and walked one level deeper. A risk question (how risky is
this word?) is a silent walk: a walker on a copy of the state.
"""

from __future__ import annotations

from collections.abc import Callable

from .._budget import STEPS_PER_COMMAND, Budget
from .._model import CommandRecord, Position, Span
from .._syntax import Origin, Visitor, ast
from ..programs.sending import SENDERS
from ._contexts import (
    STARTUP_VARIABLES,
    contexts_of,
    record_writes,
    run_written,
    startup_code,
    wrapper_code,
    xargs_piped_code,
)
from ._normalize import is_unresolved, normalize_word, parameter_values, part_source
from ._paths import literal_prefix
from ._prompt import prompt_parts
from ._resolve import (
    CommandName,
    changed_directory,
    command_name,
    command_subjects,
    commands_run,
    compares_arithmetically,
    constant_condition,
    display,
    endless,
    endless_xargs,
    peel,
    redirect_subject,
    resolve,
    stdin_of,
    written_by,
)
from ._risks import NO_RISKS, PRODUCES_UNTRUSTED_DATA, command_risks
from ._secrets import Written, writes_files
from ._state import Frame, WalkConfig, WalkState, WrittenScript
from ._subjects import (
    Arg,
    AssignmentSubject,
    Autorun,
    CodeFactSubject,
    CommandSubject,
    ContextKind,
    DynamicPart,
    ExecContextSubject,
    FunctionSubject,
    LoopSubject,
    RedirectSubject,
    Risk,
    Stdin,
    StdinKind,
)
from ._variables import Env
from ._wrappers import Unwrapped, xargs_replace_string

_DIRECTORY_CHANGERS = frozenset({"cd", "pushd", "popd"})
_TAINT = frozenset({Risk.TAINT})


class Walker(Visitor[Frame, frozenset[Risk]]):
    """Walks syntax nodes for the rules; a node's visit returns the risks of what it runs.

    It is also the `ContextWalk` the execution contexts ask and the
    `SilentWalk` the risk answers ask.
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

    # -- structure ---------------------------------------------------------------------------

    def visit_script(self, script: ast.Script, frame: Frame) -> frozenset[Risk]:
        risks = NO_RISKS
        for statement in script.statements:
            found = self.command(statement.command, frame.backgrounded() if statement.background else frame)
            if found:
                risks = risks | found
        return risks

    def command(self, command: ast.Command, frame: Frame) -> frozenset[Risk]:
        """Most commands are simple commands: those are called directly, not through the dispatch."""
        if type(command) is ast.SimpleCommand:
            return self.visit_simple_command(command, frame)
        return self.visit(command, frame)

    def visit_and_or_list(self, node: ast.AndOrList, frame: Frame) -> frozenset[Risk]:
        risks = NO_RISKS
        for command in node.commands:
            found = self.command(command, frame)
            if found:
                risks = risks | found
        return risks

    def visit_group(self, node: ast.Group, frame: Frame) -> frozenset[Risk]:
        return self.visit_script(node.body, frame)

    def visit_subshell(self, node: ast.Subshell, frame: Frame) -> frozenset[Risk]:
        with self.state.in_subshell():
            return self.visit_script(node.body, frame)

    def visit_pipeline(self, node: ast.Pipeline, frame: Frame) -> frozenset[Risk]:
        commands = node.commands
        piped = len(commands) > 1
        # The names the stages so far run, each once (a 2,000-stage pipeline
        # of one name must not copy 2,000 names into every stage's stdin).
        feeders: dict[str, None] = {}
        risks = NO_RISKS
        stdin = frame.stdin
        for index, command in enumerate(commands):
            if index == 0:
                stage_frame = frame.with_stdin(stdin, piped)
            else:
                feeder = Span(commands[0].span.start, commands[index - 1].span.end)
                operator = node.operators[index - 1] if index - 1 < len(node.operators) else "|"
                writer = commands[index - 1]
                stdin = Stdin(StdinKind.PIPE, feeder, operator, feeders=tuple(feeders), writer=writer, upstream=stdin)
                stage_frame = frame.with_stdin(stdin, True)
            if type(command) is ast.SimpleCommand:
                # The names a stage runs feed later stages' stdin (`sh -i | nc`).
                found = self.visit_simple_command(command, stage_frame, feeders)
            else:
                found = self.visit(command, stage_frame)
            if found:
                risks = risks | found
        return risks

    def visit_while_loop(self, node: ast.WhileLoop, frame: Frame) -> frozenset[Risk]:
        def walk() -> frozenset[Risk]:
            return self.visit_script(node.condition, frame) | self.visit_script(node.body, frame)

        return self.loop(node.span, frame, endless(node, frame.env), walk)

    def visit_arithmetic_for(self, node: ast.ArithmeticFor, frame: Frame) -> frozenset[Risk]:
        risks = self.arithmetic(node.header, frame, Position.VALUE, "for ((...))", node.span)
        endless_loop = constant_condition(node.condition)
        return risks | self.loop(node.span, frame, endless_loop, lambda: self.visit_script(node.body, frame))

    def loop(
        self, span: Span, frame: Frame, endless_loop: bool, walk: Callable[[], frozenset[Risk]]
    ) -> frozenset[Risk]:
        """Walk a loop, collecting what it starts in the background for the loop rules."""
        with self.state.in_loop() as scope:
            risks = walk()
        self.sink.loop(LoopSubject(span, frame.location, endless_loop, tuple(scope.spawns)))
        return risks

    def visit_function_definition(self, node: ast.FunctionDefinition, frame: Frame) -> frozenset[Risk]:
        self.state.definitions[node.name] = node
        body_frame = frame.labelled(f"{node.name}()", frame.env.function_body(node.name, node.body))
        with self.state.in_function(node.name) as scope:
            risks = self.visit(node.body, body_frame)
        # Only a reporting walk records calls: a silent one must not overwrite the call graph.
        spawns = self.state.recursive_spawns(scope) if self.reporting else ()
        self.sink.function(FunctionSubject(node.name, node.span, frame.location, spawns))
        return risks

    def visit_arithmetic_command(self, node: ast.ArithmeticCommand, frame: Frame) -> frozenset[Risk]:
        return self.arithmetic(node.parts, frame, Position.VALUE, "((...))", node.span)

    def visit_test_clause(self, node: ast.TestClause, frame: Frame) -> frozenset[Risk]:
        parts = tuple(part for word in node.words for part in word.parts)
        if compares_arithmetically(node):
            return self.arithmetic(parts, frame, Position.VALUE, "[[ ... ]]", node.span)
        return self.parts(parts, frame, Position.VALUE)

    def visit_redirected(self, node: ast.Redirected, frame: Frame) -> frozenset[Risk]:
        stdin, risks = self.redirects(node.redirects, frame, None, emit=True)
        risks = risks | self.visit(node.command, frame.with_stdin(stdin, frame.in_pipeline))
        if self.reporting and writes_files(node, ()):
            self.state.writes.append(Written(node, frame.env, frame.stdin, self.state.cwd))
        return risks

    # -- words -------------------------------------------------------------------------------

    def visit_word(self, word: ast.Word, frame: Frame) -> frozenset[Risk]:
        """A word of a compound command (`for` items, `case` subject and patterns): a value."""
        return self.parts(word.parts, frame, Position.VALUE)

    def parts(self, parts: tuple[ast.WordPart, ...], frame: Frame, position: Position) -> frozenset[Risk]:
        """Walk the substitutions in word parts; the risks of what they run."""
        risks = NO_RISKS
        for part in parts:
            if type(part) is ast.Literal:
                continue
            if type(part) is ast.CommandSubstitution or type(part) is ast.ProcessSubstitution:
                found = self.substitution(part, frame, position)
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
        self, part: ast.CommandSubstitution | ast.ProcessSubstitution, frame: Frame, position: Position
    ) -> frozenset[Risk]:
        if isinstance(part, ast.CommandSubstitution):
            label = "`...`" if part.backquoted else "$(...)"
        else:
            label = f"{part.direction}(...)"
        inner = frame.enter(position, label)
        if type(part) is ast.ProcessSubstitution and part.direction == ">":
            # What the enclosing command writes to the path is the body's standard input.
            inner = inner.with_stdin(Stdin(StdinKind.PIPE, part.span, label), False)
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

    # -- simple commands ---------------------------------------------------------------------

    def visit_simple_command(
        self, node: ast.SimpleCommand, frame: Frame, feeders: dict[str, None] | None = None
    ) -> frozenset[Risk]:
        """Walk one simple command; the risks of what it runs. The names it runs
        (when known) are added to `feeders`, for the pipeline stages after it."""
        self.config.budget.charge(STEPS_PER_COMMAND + len(node.words), "the analysis")
        env = frame.env
        location = frame.location
        argv, index, unwrapped = resolve(node.words, env, self.tables)
        name_arg = argv[index] if index < len(argv) else None
        risks, name_risks = self.words(node.words, frame, name_arg.word if name_arg is not None else None)
        if node.assignments:
            risks = risks | self.prefix_assignments(node, bool(argv), frame)
        stdin = frame.stdin
        if node.redirects:
            stdin, found = self.redirects(node.redirects, frame, None, emit=False)
            risks = risks | found
        name = command_name(name_arg, name_risks, env, lambda parts: self.tainted_span(parts, env))
        if self.reporting:
            assignments, redirects = command_subjects(node, argv, unwrapped, name, env, location, self.state.cwd)
            for assignment in assignments:
                self.sink.assignment(assignment)
            for redirect in redirects:
                self.sink.redirect(redirect)
        if feeders is not None:
            feeders.update(dict.fromkeys(each for each in name.names if each))
        if argv:
            for variable, value in _startup_assignments(node, unwrapped):
                risks = risks | startup_code(self, variable, value, node.span, frame, stdin)
        for command_argv in commands_run(argv, index, unwrapped, stdin, env):
            if self.reporting:
                record = CommandRecord(display(command_argv), node.span, location.position, location.path)
                self.state.records.append(record)
            found = self.run_command(command_argv, index, name, unwrapped, node.span, frame, stdin, node.redirects)
            if found:
                risks = risks | found
        if self.reporting:
            if node.redirects:
                self.redirect_senders(node, frame)
            if writes_files(node, name.names):
                self.state.writes.append(Written(node, env, frame.stdin, self.state.cwd))
        return risks

    def redirect_senders(self, node: ast.SimpleCommand, frame: Frame) -> None:
        """`cat key > /dev/tcp/HOST/PORT`: a redirect that sends the command's output over the network."""
        for redirect in node.redirects:
            target_word = redirect.target
            if (
                target_word is None
                or redirect.fd not in (None, "1")
                or not redirect.operator.startswith((">", "&>"))
                # The common case, a literal file (`> out.txt`), is ruled out before normalising it.
                or not target_word.parts
                or (type(target_word.parts[0]) is ast.Literal and not target_word.parts[0].text.startswith("/dev/"))
            ):
                continue
            for target in normalize_word(target_word, frame.env):
                known = target.value if target.value is not None else literal_prefix(target)
                if known.startswith(("/dev/tcp/", "/dev/udp/")):
                    state = self.state
                    flow = self.config.secrets.redirect_sender(
                        node, target, frame.location, frame.env, frame.stdin, state.view()
                    )
                    if flow is not None:
                        self.sink.flow(flow)

    def words(
        self, words: tuple[ast.Word, ...], frame: Frame, name_word: ast.Word | None
    ) -> tuple[frozenset[Risk], frozenset[Risk]]:
        """Walk the substitutions in a command's words: the risks of all, and of the name word's."""
        risks = name_risks = NO_RISKS
        for word in words:
            parts = word.parts
            if len(parts) == 1 and type(parts[0]) is ast.Literal:
                continue
            found = self.parts(parts, frame, Position.COMMAND if word is name_word else Position.VALUE)
            if word is name_word:
                name_risks = found
            if found:
                risks = risks | found
        return risks, name_risks

    def run_command(
        self,
        argv: tuple[Arg, ...],
        index: int,
        name: CommandName,
        unwrapped: Unwrapped | None,
        span: Span,
        frame: Frame,
        stdin: Stdin | None,
        redirects: tuple[ast.Redirect, ...] = (),
    ) -> frozenset[Risk]:
        """Hand one resolved command to the rules and open its code contexts."""
        if unwrapped is not None:
            for place in unwrapped.places:  # `chroot /mnt CMD`: CMD runs in the chroot
                frame = frame.labelled(place)
        state = self.state
        wrappers = unwrapped.wrappers if unwrapped is not None else ()
        reporting = self.reporting
        program = argv[index] if index < len(argv) else None
        if reporting and state.downloads:
            self.check_downloaded(program, frame)
        args = argv[index + 1 :]
        risks = NO_RISKS
        if reporting and state.written and program is not None and "/" in (program.value or ""):
            # `./x.sh` after `echo ... > x.sh`: its content, in the language its #! line names.
            risks = run_written(self, program.display(), program, frame, None)
        if reporting and program is not None and endless_xargs(unwrapped, stdin, frame.env):
            # The loop rules judge what such an xargs starts, as what an endless loop starts in the background.
            spawns = tuple((each, span) for each in name.names if each is not None)
            self.sink.loop(LoopSubject(span, frame.location, True, spawns))
        for each in name.names:
            if reporting:
                subject = CommandSubject(
                    argv, index, each, name.source, name.evidence, wrappers, span, frame.location, stdin,
                    frame.in_pipeline, frame.background, state.cwd,
                    tuple((path, script.text) for path, script in state.written.items()) if state.written else (),
                )  # fmt: skip
                self.sink.command(subject)
                if state.functions or state.loops:
                    state.track_call(each, span, in_pipeline=frame.in_pipeline, background=frame.background)
                if each in SENDERS:
                    flow = self.config.secrets.sender(each, args, span, frame.location, frame.env, stdin, state.view())
                    if flow is not None:
                        self.sink.flow(flow)
            own = command_risks(each, args, name.source, self.tables)
            downloaded_to = None
            if own:
                risks = risks | own
                if reporting and own & PRODUCES_UNTRUSTED_DATA:
                    # Where a download or decoder writes (`> f`, `curl -o f`, `wget URL`).
                    downloaded_to = written_by(each, args, redirects, frame.env)
                    state.remember_downloads(downloaded_to)
            if reporting:
                risks = risks | record_writes(self, each, args, redirects, stdin, frame, downloaded_to)
        if unwrapped is not None:
            found = wrapper_code(unwrapped, index < len(argv), span, frame, stdin, self)
            if found:
                risks = risks | found
        # xargs reads the pipe as arguments; the commands it starts read /dev/null (or the terminal with -o).
        code_stdin = None if "xargs" in wrappers else stdin
        xargs = unwrapped is not None and wrappers[-1:] == ("xargs",)
        replace = xargs_replace_string(unwrapped.innermost_options) if unwrapped is not None and xargs else None
        if replace is not None:
            for each in dict.fromkeys(name.names):
                if each is not None:
                    xargs_piped_code(each, args, span, frame, stdin, replace, self)
        for each in dict.fromkeys(name.names):
            if each is not None:
                found = contexts_of(each, args, span, frame, code_stdin, self)
                if found:
                    risks = risks | found
                found = self.call_function(each, args, span, frame)
                if found:
                    risks = risks | found
        if len(name.names) == 1 and name.names[0] in _DIRECTORY_CHANGERS:
            state.cwd = changed_directory(state.cwd, name.names[0], args)
        return risks

    def call_function(self, name: str, args: tuple[Arg, ...], span: Span, frame: Frame) -> frozenset[Risk]:
        """Walk a function defined in this command again, with a call's arguments as $1, $2...

        The definition was walked with unknown arguments; a call with known
        ones (`wipe() { rm -rf "$1"; }; wipe /`) can do more. A call from
        inside the same function's walk is not followed (recursion).
        """
        state = self.state
        definition = state.definitions.get(name)
        if definition is None or name in state.calls_in_progress or not any(arg.values for arg in args):
            return NO_RISKS
        call = (name, tuple(arg.values for arg in args))
        if call in state.walked_calls:
            return NO_RISKS
        state.walked_calls.add(call)
        env = frame.env.function_call(name, definition.body, (Arg((name,), name, span), *args))
        with state.calling(name):
            return self.visit(definition.body, frame.labelled(f"call {name}", env))

    def prefix_assignments(self, node: ast.SimpleCommand, has_command: bool, frame: Frame) -> frozenset[Risk]:
        form = "prefix" if has_command else "assignment"
        risks = NO_RISKS
        for assignment in node.assignments:
            value: Arg | None = None
            if assignment.value is not None:
                risks = risks | self.parts(assignment.value.parts, frame, Position.VALUE)
                if self.reporting:
                    fields = normalize_word(assignment.value, frame.env)
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
        self, redirects: tuple[ast.Redirect, ...], frame: Frame, command_name: str | None, *, emit: bool
    ) -> tuple[Stdin | None, frozenset[Risk]]:
        """Walk redirect words; what they make standard input, and their risks.

        For compound commands (`emit`) the redirect subjects are emitted here;
        simple commands emit them once their name is known.
        """
        stdin = frame.stdin
        risks = NO_RISKS
        for redirect in redirects:
            part_risks = NO_RISKS
            if redirect.target is not None:
                part_risks = self.parts(redirect.target.parts, frame, Position.VALUE)
            if redirect.heredoc is not None:
                part_risks = self.parts(redirect.heredoc.parts, frame, Position.VALUE)
            risks = risks | part_risks
            if emit and self.reporting:
                self.sink.redirect(redirect_subject(redirect, frame.env, command_name, frame.location, self.state.cwd))
            if redirect.fd not in (None, "0"):
                continue
            stdin = stdin_of(redirect, part_risks) or stdin
        return stdin, risks

    # -- what the execution contexts ask (ContextWalk) ----------------------------------------

    @property
    def budget(self) -> Budget:
        return self.config.budget

    @property
    def max_depth(self) -> int:
        return self.config.max_depth

    def emit(self, subject: ExecContextSubject) -> None:
        self.sink.context(subject)

    def emit_code(self, subject: CodeFactSubject) -> None:
        self.sink.code(subject)

    def send_secrets(
        self, label: str, url: str | None, data_from: tuple[tuple[str, str | None], ...], span: Span, frame: Frame
    ) -> None:
        secrets = self.config.secrets
        flow = secrets.code_sender(label, url, data_from, span, frame.location, frame.env, self.state.view())
        if flow is not None:
            self.sink.flow(flow)

    def too_deep(self, span: Span, frame: Frame, label: str) -> None:
        self.sink.too_deep(span, frame.location, label)

    def check_downloaded(self, program: Arg | None, frame: Frame, label: str = "") -> None:
        """Running a file this command string downloaded: `curl -o x u && ./x`."""
        if program is None or not self.reporting or not self.state.downloads:
            return
        for value in program.values:
            if "/" not in value and not label:
                continue  # a bare name is looked up in PATH, not in the working directory
            downloaded = self.state.downloaded(value)
            if downloaded is not None:
                kind = ContextKind.DOWNLOADED_FILE
                self.sink.context(
                    ExecContextSubject(kind, label or value, "file", program.span, frame.location, (), downloaded)
                )
                return

    @property
    def knows_written(self) -> bool:
        return bool(self.state.written)

    def remember_written(self, target: Arg, script: WrittenScript | None, append: bool) -> None:
        self.state.remember_written(target, script, append)

    def written_script(self, value: str) -> WrittenScript | None:
        return self.state.written_script(value) if self.state.written else None

    def runs_later(self, target: Arg) -> Autorun | None:
        return self.config.runs_later(target, self.state.cwd)

    def nested_code(
        self,
        code: str,
        origin: Origin,
        label: str,
        span: Span,
        frame: Frame,
        positional: tuple[Arg, ...] | None = None,
        stdin: Stdin | None = None,
    ) -> frozenset[Risk]:
        """Parse shell code found in a context and walk it one level deeper."""
        if not code.strip():
            return NO_RISKS
        if frame.depth + 1 > self.config.max_depth:
            self.sink.too_deep(span, frame.location, label)
            return NO_RISKS
        result = self.config.parse_code(code, origin)
        child = frame.nested_code(label, frame.env.child(result.script, positional), stdin)
        if result.troubles:
            self.sink.parse_troubles(result.troubles, child.location)
        risks = NO_RISKS
        for script in (result.script, *result.alternatives):
            with self.state.in_subshell():
                risks = risks | self.visit_script(script, child)
        return risks

    def nested_command(
        self, argv: tuple[Arg, ...], span: Span, frame: Frame, label: str, stdin: Stdin | None = None
    ) -> frozenset[Risk]:
        """An argv that runs as a command of its own, one level deeper (`find -exec CMD ;`)."""
        child = frame.nested_code(label, frame.env, stdin)
        if child.depth > self.config.max_depth:
            self.sink.too_deep(span, frame.location, label)
            return NO_RISKS
        argv, index, unwrapped = peel(argv, self.tables)
        name_arg = argv[index] if index < len(argv) else None
        name_risks = NO_RISKS
        if name_arg is not None and name_arg.word is not None:
            name_risks = self.parts(name_arg.word.parts, child, Position.COMMAND)
        env = frame.env
        name = command_name(name_arg, name_risks, env, lambda parts: self.tainted_span(parts, env))
        if self.reporting:
            self.state.records.append(CommandRecord(display(argv), span, child.location.position, child.location.path))
        if name_arg is None:
            return NO_RISKS
        return self.run_command(argv, index, name, unwrapped, span, child, stdin)

    def nested_redirect(self, operator: str, target: Arg, span: Span, frame: Frame, label: str) -> None:
        if self.reporting:
            location = frame.nested_code(label, frame.env).location
            self.sink.redirect(RedirectSubject(operator, None, target, span, None, location, self.state.cwd))

    def dynamic_part(self, part: ast.WordPart, frame: Frame) -> DynamicPart:
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

    # -- risk questions (SilentWalk) ------------------------------------------------------------

    def silent(self) -> Walker:
        """A walker for a risk question: it works on a copy of this walk's state and reports nothing."""
        return Walker(self.config, self.state.silenced())

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


def _startup_assignments(node: ast.SimpleCommand, unwrapped: Unwrapped | None) -> list[tuple[str, ast.Word]]:
    """`BASH_ENV=FILE cmd`, `env ENV=FILE cmd`: the start-up file set for the shells the command starts."""
    found = [
        (assignment.name, assignment.value)
        for assignment in node.assignments
        if assignment.name in STARTUP_VARIABLES and assignment.value is not None and assignment.subscript is None
    ]
    for arg in unwrapped.assignments if unwrapped is not None else ():
        first = arg.word.parts[0] if arg.word is not None and arg.word.parts else None
        if type(first) is not ast.Literal or arg.word is None:
            continue
        variable, _, rest = first.text.partition("=")
        if variable in STARTUP_VARIABLES:
            parts = ((first._replace(text=rest),) if rest else ()) + arg.word.parts[1:]
            found.append((variable, arg.word._replace(parts=parts)))
    return found
