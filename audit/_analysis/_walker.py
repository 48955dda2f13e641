"""The walk: find every command bash may run and hand each to the rules.

One traversal of the syntax tree (a `Visitor`) with a `Frame` per construct
(position, path, nesting depth, variables, what feeds standard input) and one
`WalkState` for what it has seen. Substitutions are walked where they sit,
in command position when their output becomes the command name. Each visit
returns the risks of what it runs, so a substitution's risks reach the
command that uses its output. Code that a command runs (eval, sh -c, a
heredoc into bash, find -exec, trap...) is found by the execution contexts
(`_contexts`) and walked one level deeper. A risk question (how risky is
this word?) is a silent walk: a walker on a copy of the state. The
word-level half (substitutions, expansions, the words of a command, the risk
questions) is `WordWalker` in `_word_walker.py`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from .._budget import Budget, command_steps
from .._model import CommandRecord, Position, Span
from .._syntax import Origin, ast
from ..programs.sending import SENDERS
from ._contexts import (
    code_string,
    contexts_of,
    program_environment,
    record_writes,
    run_written,
    startup_assignments,
    startup_code,
    variable_commands,
    wrapper_code,
    xargs_piped_code,
)
from ._downloaded_trees import downloaded_program, note_downloaded_tree
from ._loop_listings import each_item, loop_listings
from ._resolve import (
    CommandName,
    changed_directory,
    command_name,
    command_subjects,
    commands_run,
    constant_condition,
    display,
    endless,
    endless_xargs,
    peel,
    resolve,
    written_by,
)
from ._risks import NO_RISKS, PRODUCES_UNTRUSTED_DATA, command_risks
from ._secret_search import Written, writes_files
from ._secrets import socket_targets
from ._state import Frame, WrittenScript
from ._subjects import (
    Arg,
    Autorun,
    CodeFactSubject,
    CommandSubject,
    ContextKind,
    ExecContextSubject,
    FunctionSubject,
    LoopSubject,
    RedirectSubject,
    Risk,
    Stdin,
    StdinKind,
)
from ._word_walker import WordWalker
from ._wrappers import Unwrapped, XargsInput, xargs_input, xargs_replace_string

_DIRECTORY_CHANGERS = frozenset({"cd", "pushd", "popd"})


class Walker(WordWalker):
    """Walks syntax nodes for the rules; a node's visit returns the risks of what it runs.

    The words of a command are walked by `WordWalker`, which also answers the
    risk questions (`SilentWalk`); this class is also the `ContextWalk` the
    execution contexts ask.
    """

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
        last = len(commands) - 1
        for index, command in enumerate(commands):
            if index == 0:
                stage_frame = frame.with_stdin(stdin, piped, piped_on=index < last or frame.piped_on)
            else:
                feeder = Span(commands[0].span.start, commands[index - 1].span.end)
                operator = node.operators[index - 1] if index - 1 < len(node.operators) else "|"
                writer = commands[index - 1]
                stdin = Stdin(StdinKind.PIPE, feeder, operator, feeders=tuple(feeders), writer=writer, upstream=stdin)
                stage_frame = frame.with_stdin(stdin, True, piped_on=index < last or frame.piped_on)
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

    def visit_redirected(self, node: ast.Redirected, frame: Frame) -> frozenset[Risk]:
        stdin, risks = self.redirects(node.redirects, frame, None, emit=True)
        risks = risks | self.visit(node.command, frame.with_stdin(stdin, frame.in_pipeline).printing_to(node.redirects))
        if self.reporting and writes_files(node, ()):
            self.state.writes.append(Written(node, frame.env, frame.stdin, self.state.cwd))
        return risks

    # -- simple commands ---------------------------------------------------------------------

    def visit_simple_command(
        self, node: ast.SimpleCommand, frame: Frame, feeders: dict[str, None] | None = None
    ) -> frozenset[Risk]:
        """Walk one simple command; the risks of what it runs. The names it runs
        (when known) are added to `feeders`, for the pipeline stages after it."""
        self.config.budget.charge(
            command_steps(len(node.words), len(node.assignments), len(node.redirects)), "the analysis"
        )
        env = frame.env
        location = frame.location
        argv, index, unwrapped = resolve(node.words, env, self.tables)
        name_arg = argv[index] if index < len(argv) else None
        risks, name_risks = self.words(node, frame, name_arg.word if name_arg is not None else None)
        if node.assignments:
            risks = risks | self.prefix_assignments(node, bool(argv), frame)
        stdin = frame.stdin
        if node.redirects:
            stdin, found = self.redirects(node.redirects, frame, None, emit=False, writer=node)
            risks, frame = risks | found, frame.printing_to(node.redirects)
        name = command_name(name_arg, name_risks, env, lambda parts: self.tainted_span(parts, env))
        if self.reporting:
            assignments, redirects = command_subjects(node, argv, index, unwrapped, name, env, location, self.state.cwd)
            for assignment in assignments:
                self.sink.assignment(assignment)
                self.state.export(assignment)
            for redirect in redirects:
                self.sink.redirect(redirect)
        if feeders is not None:
            feeders.update(dict.fromkeys(each for each in name.names if each))
        if argv:
            for variable, value in startup_assignments(node, unwrapped, argv[0].value):
                risks = risks | startup_code(self, variable, value, node.span, frame, stdin)
        for label, command in variable_commands(node, argv, unwrapped, env):
            risks = risks | code_string(self, ContextKind.RUNNER, label, (command,), "shell", frame)
        environment = self.state.environment(program_environment(node, unwrapped, env)) if self.reporting else ()
        for command_argv in commands_run(argv, index, unwrapped, stdin, env):
            if self.reporting:
                record = CommandRecord(display(command_argv), node.span, location.position, location.path)
                self.state.records.append(record)
            found = self.run_command(
                command_argv, index, name, unwrapped, node.span, frame, stdin, node.redirects, environment
            )
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
        secrets = self.config.secrets
        for target in socket_targets(node.redirects, frame.env):
            flow = secrets.redirect_sender(node, target, frame.location, frame.env, frame.stdin, self.state.view())
            if flow is not None:
                self.sink.flow(flow)

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
        environment: tuple[tuple[str, str], ...] = (),
    ) -> frozenset[Risk]:
        """Hand one resolved command to the rules and open its code contexts (`CommandSubject.environment`)."""
        if unwrapped is not None:
            for place in unwrapped.places:  # `chroot /mnt CMD`: CMD runs in the chroot
                frame = frame.labelled(place)
        state = self.state
        wrappers = unwrapped.wrappers if unwrapped is not None else ()
        reporting = self.reporting
        program = argv[index] if index < len(argv) else None
        args = argv[index + 1 :]
        risks = self.report_program(program, name, unwrapped, span, frame, stdin) if reporting else NO_RISKS
        xargs = xargs_input(unwrapped, span) if reporting else None
        for each in name.names:
            if reporting:
                self.report_command(argv, index, each, name, wrappers, span, frame, stdin, xargs, environment)
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
                note_downloaded_tree(self, state, each, args, stdin, frame, downloaded_to)
        code_frame = frame.under_accounts(wrappers, self.tables.privilege)
        found = self.code_contexts(index < len(argv), args, name, unwrapped, span, code_frame, stdin)
        if found:
            risks = risks | found
        if len(name.names) == 1 and name.names[0] in _DIRECTORY_CHANGERS:
            entered = args[-1].value if args and name.names[0] != "popd" else None
            state.change_directory(changed_directory(state.cwd, name.names[0], args), entered)
        return risks

    def report_program(
        self,
        program: Arg | None,
        name: CommandName,
        unwrapped: Unwrapped | None,
        span: Span,
        frame: Frame,
        stdin: Stdin | None,
    ) -> frozenset[Risk]:
        """What a report asks of the program a command runs: a file this string downloaded or wrote, and
        what an endless xargs starts; the risks of the written file's content."""
        state = self.state
        if state.downloads or state.trees:
            self.check_downloaded(program, frame)
        risks = NO_RISKS
        if state.written and program is not None and "/" in (program.value or ""):
            # `./x.sh` after `echo ... > x.sh`: its content, in the language its #! line names.
            risks = run_written(self, program.display(), program, frame, None)
        if program is not None and endless_xargs(unwrapped, stdin, frame.env):
            # The loop rules judge what such an xargs starts, as what an endless loop starts in the background.
            spawns = tuple((each, span) for each in name.names if each is not None)
            self.sink.loop(LoopSubject(span, frame.location, True, spawns))
        return risks

    def report_command(
        self,
        argv: tuple[Arg, ...],
        index: int,
        each: str | None,
        name: CommandName,
        wrappers: tuple[str, ...],
        span: Span,
        frame: Frame,
        stdin: Stdin | None,
        xargs: XargsInput | None,
        environment: tuple[tuple[str, str], ...],
    ) -> None:
        """Hand the command run under one of its possible names to the rules, the call graph and the
        secret-flow checks (`xargs`: the input of the xargs that starts it)."""
        state = self.state
        subject = CommandSubject(
            argv, index, each, name.source, name.evidence, wrappers, span, frame.location, stdin,
            frame.piped_on, frame.background, state.cwd,
            tuple((path, script.text) for path, script in state.written.items()) if state.written else (),
            state.moved, environment, state.record_run(each, argv[index + 1 :]), tuple(state.root_owned),
            loop_listings(argv, frame.env), each_item(argv, frame.env), tuple(state.selected.items()), frame.stdout,
        )  # fmt: skip
        state.remember_effects(each, argv[index + 1 :])
        self.sink.command(subject)
        if state.functions or state.loops:
            state.track_call(each, span, in_pipeline=frame.in_pipeline, background=frame.background)
        if each in SENDERS:
            args = argv[index + 1 :]
            flow = self.config.secrets.sender(
                each, args, span, frame.location, frame.env, stdin, state.view(), xargs_input=xargs
            )
            if flow is not None:
                self.sink.flow(flow)

    def code_contexts(
        self,
        runs_command: bool,
        args: tuple[Arg, ...],
        name: CommandName,
        unwrapped: Unwrapped | None,
        span: Span,
        frame: Frame,
        stdin: Stdin | None,
    ) -> frozenset[Risk]:
        """Walk the code a command runs: its wrappers' code, xargs's command lines, its execution
        contexts and a function of this string it calls."""
        risks = NO_RISKS
        wrappers = unwrapped.wrappers if unwrapped is not None else ()
        if unwrapped is not None:
            found = wrapper_code(unwrapped, runs_command, span, frame, stdin, self)
            if found:
                risks = risks | found
        # xargs reads the pipe as arguments; the commands it starts read /dev/null (or the terminal with -o).
        code_stdin = None if "xargs" in wrappers else stdin
        if unwrapped is not None and unwrapped.xargs_options is not None:
            replace = xargs_replace_string(unwrapped.xargs_options)
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
        """Running a file this command string downloaded (`curl -o x u && ./x`), or one from a
        repository it cloned or an archive it downloaded and unpacked."""
        if program is not None and self.reporting and (self.state.downloads or self.state.trees):
            context = downloaded_program(program, frame.location, label, self.state)
            if context is not None:
                self.sink.context(context)

    @property
    def written_files(self) -> Mapping[str, WrittenScript]:
        return self.state.written

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
