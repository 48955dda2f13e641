"""Where secrets travel: which secrets a command's output, a word, a variable or a file carries.

`SecretSearch` answers for one scope and one point of the walk (`WalkView`):
what a command prints given what it reads on standard input (pipes, filters
that keep their input, here-strings and heredocs), what a word expands to
(substitutions, variables, positional arguments), what a file holds (a
secret file of the policy's tables, a file written earlier in the command
string). Each answer is a set of `Trail`s, a secret and the steps it took.
`SecretFlows` (`_secrets.py`) asks it for what reaches a network sender.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from .._budget import Budget, command_steps
from .._model import Span
from .._named_tuple import NamedTuple
from .._syntax import Visitor, ast
from .._tables import Tables
from ..programs import WRITERS, Arg, read_command, written_files
from ..programs.environment_code import prints_whole_environment
from ..programs.find import exec_actions, find_scope, found_globs, given_files
from ..programs.readers import (
    ARCHIVERS,
    EXTRACTORS,
    KEEP_CREDENTIALS,
    PATH_ONLY,
    WORKING_DIRECTORY,
    command_inside,
    keeps_input,
    prints_environment,
    prints_repository,
    prints_typed,
    reads_directories,
)
from ._clean_paths import resolve_path
from ._normalize import basename, normalize_word
from ._paths import HARMLESS_DEVICES, path_holding, path_is, read_arguments
from ._resolve import resolve
from ._subjects import OUTPUT_REDIRECTS, Secret, SecretKind, Stdin, StdinKind, Trail
from ._variables import Env

Trails = frozenset[Trail]
NO_TRAILS: Trails = frozenset()
_STDIN_PATHS = frozenset({"/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"})
_INPUT_REDIRECTS = frozenset({"<", "<>"})
_POSITIONAL = frozenset({"@", "*"})
# How many ways one answer keeps: a secret found through a few paths is reported
# once per path, and a string of nested copies cannot grow the answer without bound.
_MAX_TRAILS = 16


class Written(NamedTuple):
    """A command that wrote files: what a search needs to know what it wrote."""

    command: ast.SimpleCommand | ast.Redirected
    env: Env
    stdin: Stdin | None
    cwd: str | None


_WRITING = frozenset(WRITERS) | ARCHIVERS


def writes_files(node: ast.SimpleCommand | ast.Redirected, names: Iterable[str | None]) -> bool:
    """Whether a command may write a file the command string later sends: an output
    redirect, or a program that writes the files it names (cp, tee, tar...)."""
    for redirect in node.redirects:
        if redirect.operator in OUTPUT_REDIRECTS and redirect.fd in (None, "1"):
            return True
    return any(name in _WRITING for name in names)


class WalkView(NamedTuple):
    """What a search needs of the walk's state at the sender."""

    cwd: str | None
    writes: tuple[Written, ...]
    definitions: dict[str, ast.FunctionDefinition]


class VariableSecrets(Protocol):
    """What a search asks of the audit's answers (`SecretFlows`): the tables, the budget, and the
    secrets a variable's bindings give it, remembered per scope."""

    @property
    def tables(self) -> Tables: ...

    @property
    def budget(self) -> Budget: ...

    def bound(self, scope: Env, name: str, state: WalkView) -> Trails: ...


def _via(trails: Iterable[Trail], step: str, *, narrowed: bool = False) -> Trails:
    return frozenset(trail.via(step, narrowed=narrowed) for trail in trails)


def bounded(trails: set[Trail] | Trails) -> Trails:
    if len(trails) <= _MAX_TRAILS:
        return frozenset(trails)
    return frozenset(sorted(trails, key=lambda trail: (len(trail.steps), trail.secret.span))[:_MAX_TRAILS])


class SecretSearch(Visitor[Trails, Trails]):
    """Which secrets the output of a command carries, given what it reads on
    standard input (the visit's context); words, variables and files too."""

    def __init__(self, flows: VariableSecrets, env: Env, state: WalkView) -> None:
        self.flows = flows
        self.tables = flows.tables
        self.env = env
        self.state = state
        self.calling: set[str] = set()

    def combine(self, results: list[Trails]) -> Trails:
        found: set[Trail] = set()
        for result in results:
            found |= result
        return bounded(found)

    # -- what commands print ---------------------------------------------------------------------

    def visit_script(self, script: ast.Script, stdin: Trails) -> Trails:
        return self.combine([self.visit(statement.command, stdin) for statement in script.statements])

    def visit_pipeline(self, node: ast.Pipeline, stdin: Trails) -> Trails:
        carried = stdin
        for index, command in enumerate(node.commands):
            carried = self.visit(command, _via(carried, "a pipe") if index else carried)
        return carried

    def visit_and_or_list(self, node: ast.AndOrList, stdin: Trails) -> Trails:
        return self.combine([self.visit(command, stdin) for command in node.commands])

    def visit_subshell(self, node: ast.Subshell, stdin: Trails) -> Trails:
        return self.visit_script(node.body, stdin)

    def visit_group(self, node: ast.Group, stdin: Trails) -> Trails:
        return self.visit_script(node.body, stdin)

    def visit_redirected(self, node: ast.Redirected, stdin: Trails) -> Trails:
        output = self.visit(node.command, self.redirected_input(node.redirects, stdin))
        return NO_TRAILS if _stdout_to_file(node.redirects) else output

    def visit_simple_command(self, node: ast.SimpleCommand, stdin: Trails) -> Trails:
        return self.simple_trails(node, stdin, into_file=False)

    # Nothing else prints: words, definitions and arithmetic are only walked for what they run.
    def _prints_nothing(self, node: object, stdin: Trails) -> Trails:
        return NO_TRAILS

    visit_word = visit_assignment = visit_redirect = visit_heredoc = _prints_nothing
    visit_function_definition = visit_arithmetic_command = visit_test_clause = _prints_nothing
    visit_literal = visit_param_expansion = visit_arithmetic_expansion = _prints_nothing
    visit_command_substitution = visit_process_substitution = _prints_nothing

    def simple(self, node: ast.SimpleCommand, stdin: Stdin | None, *, into_file: bool) -> Trails:
        """What a simple command prints (or, `into_file`, writes through its redirect), given its stdin."""
        return self.simple_trails(node, self.stdin(stdin), into_file=into_file)

    def simple_trails(self, node: ast.SimpleCommand, stdin: Trails, *, into_file: bool) -> Trails:
        self.flows.budget.charge(
            command_steps(len(node.words), len(node.assignments), len(node.redirects)), "the secrets analysis"
        )
        stdin = self.redirected_input(node.redirects, stdin)
        if not into_file and _stdout_to_file(node.redirects):
            return NO_TRAILS
        argv, index, unwrapped = resolve(node.words, self.env, self.tables)
        if not argv:
            # `$(< FILE)` prints the file.
            return stdin if any(redirect.operator in _INPUT_REDIRECTS for redirect in node.redirects) else NO_TRAILS
        if index >= len(argv):
            environment = unwrapped is not None and unwrapped.wrappers[-1:] == ("env",)
            return self.environment("env", node.span) if environment else NO_TRAILS
        name_arg = argv[index]
        args = argv[index + 1 :]
        names = [basename(value) for value in name_arg.values] or [None]
        return self.combine([self.command(name, args, node.span, stdin) for name in dict.fromkeys(names)])

    def command(self, name: str | None, args: tuple[Arg, ...], span: Span, stdin: Trails) -> Trails:
        """What `name ARGS` prints: the secrets it reads or prints, its words', and its stdin's,
        unless it only summarises what it reads (`wc`, `sha256sum`, `grep -c`)."""
        if name is None:
            return bounded(stdin | self.arguments(None, args))
        reading = read_command(name, args)
        if not keeps_input(name, reading):
            return NO_TRAILS
        found = set(self.arguments(name, args))
        if prints_environment(name, reading):
            found |= self.environment(name, span)
        inside = command_inside(name, reading)
        if inside and inside[0].value is not None:
            found |= _via(self.command(basename(inside[0].value), inside[1:], span, stdin), f"`{name}`")
        if name == "find":  # what its `-exec` commands print about the files found (`-exec cat {} +`)
            files = found_globs(find_scope(args))
            for action in exec_actions(args):
                run = given_files(action, files)
                found |= _via(self.command(basename(run[0].value or ""), run[1:], span, NO_TRAILS), "`find`")
        if self._code_reads_environment(name, args):
            found |= self.environment(name, span)
        typed = prints_typed(name, reading)
        if typed is not None:
            found.add(Trail(Secret(SecretKind.TYPED, typed, name, span)))
        repository = prints_repository(name, reading)
        if repository is not None:
            found.add(Trail(Secret(SecretKind.PROJECT, f"the repository (`{repository}`)", name, span)))
        if name == "printenv":
            for operand in reading.operands:
                if operand.value is not None and self.tables.is_secret_variable(operand.value):
                    found.add(Trail(Secret(SecretKind.VARIABLE, f"${operand.value}", name, span)))
        for words in self.tables.secret_printers.get(name, ()):
            if reading.selects(words):
                printed = " ".join((name, *words))
                found.add(Trail(Secret(SecretKind.TOKEN, printed, name, span)))
        if name not in PATH_ONLY and name not in KEEP_CREDENTIALS:
            recursive = reads_directories(name, reading)
            for arg in read_arguments(args):
                found |= self.file(arg, name, span, None, recursive=recursive, narrowed=name in EXTRACTORS)
        if stdin:
            found |= _via(stdin, f"`{name}`", narrowed=name in EXTRACTORS)
        definition = self.state.definitions.get(name)
        if definition is not None and name not in self.calling:
            self.calling.add(name)
            try:
                found |= self.visit(definition.body, stdin)
            finally:
                self.calling.discard(name)
        return bounded(found)

    def _code_reads_environment(self, name: str, args: tuple[Arg, ...]) -> bool:
        """`python3 -c 'print(dict(os.environ))'`, `perl -e 'print %ENV'`: code that reads every variable."""
        spec = self.tables.interpreter(name)
        if spec is None or spec.is_shell:
            return False
        # The contexts package imports this module (through the walk's state): imported on use.
        from ._contexts._interpreters import read_invocation

        code = read_invocation(spec, args).code
        return code is not None and code.value is not None and prints_whole_environment(spec.language, code.value)

    def arguments(self, name: str | None, args: tuple[Arg, ...]) -> Trails:
        """The secrets in a command's words (`echo "$TOKEN"`), which its output may hold."""
        found: set[Trail] = set()
        for arg in args:
            if arg.word is not None:
                found |= _via(self.word(arg.word), f"`{name or arg.source}`")
        return bounded(found)

    def environment(self, name: str, span: Span) -> Trails:
        return frozenset({Trail(Secret(SecretKind.ENVIRONMENT, "the environment", name, span))})

    # -- standard input ------------------------------------------------------------------------------

    def stdin(self, stdin: Stdin | None) -> Trails:
        """The secrets a command reads on standard input (what feeds a pipe, a redirect, a here-string)."""
        writers: list[tuple[ast.Command, bool]] = []
        while stdin is not None and stdin.kind is StdinKind.PIPE and stdin.writer is not None:
            writers.append((stdin.writer, stdin.through_path))
            stdin = stdin.upstream
        carried = self.document(stdin)
        # A long pipeline is folded from its first stage, not by recursion.
        for writer, through_path in reversed(writers):
            if through_path and type(writer) is ast.SimpleCommand:
                carried = _via(self.simple_trails(writer, carried, into_file=True), "a `>(...)` path")
            else:
                carried = _via(self.visit(writer, carried), "a pipe")
        return carried

    def document(self, stdin: Stdin | None) -> Trails:
        if stdin is None:
            return NO_TRAILS
        if stdin.kind is StdinKind.FILE and stdin.target is not None:
            found: set[Trail] = set()
            for target in normalize_word(stdin.target, self.env):
                found |= self.file(target, "<", stdin.span, None)
            return bounded(found)
        if stdin.kind in (StdinKind.HERESTRING, StdinKind.HEREDOC):
            step = "a here-string" if stdin.kind is StdinKind.HERESTRING else "a heredoc"
            return _via(self.parts(stdin.parts), step)
        if stdin.kind is StdinKind.PROCESS_SUBSTITUTION:
            return self.parts(stdin.parts, as_file=True)
        return NO_TRAILS

    def redirected_input(self, redirects: tuple[ast.Redirect, ...], stdin: Trails) -> Trails:
        """The standard input a command's own redirects give it (`< FILE`, `<<< WORD`, a heredoc)."""
        for redirect in redirects:
            if redirect.fd not in (None, "0"):
                continue
            if redirect.heredoc is not None:
                stdin = _via(self.parts(redirect.heredoc.parts), "a heredoc")
            elif redirect.operator == "<<<" and redirect.target is not None:
                stdin = _via(self.parts(redirect.target.parts), "a here-string")
            elif redirect.operator in _INPUT_REDIRECTS and redirect.target is not None:
                found: set[Trail] = set()
                for target in normalize_word(redirect.target, self.env):
                    found |= self.file(target, "<", redirect.span, None)
                found |= self.parts(redirect.target.parts, as_file=True)
                stdin = bounded(found)
        return stdin

    # -- words and variables -------------------------------------------------------------------------

    def word(self, word: ast.Word) -> Trails:
        parts = word.parts
        if len(parts) == 1 and type(parts[0]) is ast.Literal:
            return NO_TRAILS
        return self.parts(parts)

    def parts(self, parts: tuple[ast.WordPart, ...], *, as_file: bool = False) -> Trails:
        """The secrets in word parts: substitutions' output and variables' values (as text), or
        with `as_file` what a process substitution (`<(cmd)`, a path to its output) holds."""
        found: set[Trail] = set()
        for part in parts:
            if type(part) is ast.CommandSubstitution and not as_file:
                found |= _via(self.visit_script(part.body, NO_TRAILS), "a command substitution")
            elif type(part) is ast.ProcessSubstitution and as_file and part.direction == "<":
                found |= _via(self.visit_script(part.body, NO_TRAILS), "a process substitution")
            elif type(part) is ast.ParamExpansion and not as_file:
                for argument in part.argument:
                    found |= self.parts(argument.parts)
                if part.operator == "!":
                    # `${!name}` is the variable whose name `$name` holds: any of them, as the environment is.
                    found |= self.environment(f"${{!{part.name}}}", part.span)
                elif part.name:
                    found |= self.variable(part.name, part.span)
        return bounded(found)

    def variable(self, name: str, span: Span) -> Trails:
        env = self.env
        if (name.isdigit() and name != "0") or name in _POSITIONAL:
            return self.positional(name)
        scope: Env | None = env
        while scope is not None and name not in scope.bindings:
            scope = scope.parent
        if scope is None:
            if self.tables.is_secret_variable(name):
                return frozenset({Trail(Secret(SecretKind.VARIABLE, f"${name}", None, span))})
            return NO_TRAILS
        return _via(self.flows.bound(scope, name, self.state), f"the variable `${name}`")

    def bindings(self, name: str) -> Trails:
        """The secrets any binding of `name` in this search's scope gives it."""
        found: set[Trail] = set()
        for binding in self.env.bindings[name]:
            for word in binding.words:
                found |= self.parts(word.parts)
            carried = NO_TRAILS
            for index, feeder in enumerate(binding.feeders):
                carried = self.visit(feeder, _via(carried, "a pipe") if index else carried)
            if binding.feeders:
                found |= _via(carried, "a pipe")
            found |= self.redirected_input(binding.redirects, NO_TRAILS)
        return bounded(found)

    def positional(self, name: str) -> Trails:
        """`sh -c '... $1' _ "$(cat key)"`, a function's `$1`: the arguments, judged where they were written."""
        env = self.env
        if env.positional is None or not env.given_positional():
            return NO_TRAILS
        arguments = env.positional[1:] if name in _POSITIONAL else env.positional[int(name) : int(name) + 1]
        outer = SecretSearch(self.flows, env.parent or env, self.state)
        found: set[Trail] = set()
        for argument in arguments:
            if argument.word is not None:
                found |= outer.word(argument.word)
        return _via(found, f"the argument `${name}`")

    # -- files ---------------------------------------------------------------------------------------

    def file(
        self,
        arg: Arg,
        reader: str,
        span: Span,
        stdin: Stdin | None,
        *,
        recursive: bool = False,
        narrowed: bool = False,
    ) -> Trails:
        """The secrets in the file `arg` names, read by `reader`: a secret file of the
        policy, a directory holding one (`recursive`), a file this command string wrote
        secrets to, standard input (`/dev/stdin`), or a process substitution's output."""
        tables = self.tables
        cwd = self.state.cwd
        found: set[Trail] = set()
        if arg.word is not None and any(type(part) is ast.ProcessSubstitution for part in arg.word.parts):
            found |= self.parts(arg.word.parts, as_file=True)
        values = arg.values
        if any(value in _STDIN_PATHS for value in values):
            found |= self.stdin(stdin)
        if not values and not _may_be_path(arg):
            return bounded(found)
        shown = arg.display()
        environ = path_is(arg, tables.process_environment_files, cwd)
        if environ is not None:
            found.add(
                Trail(Secret(SecretKind.ENVIRONMENT, f"a process environment ({shown})", reader, span), (), narrowed)
            )
        elif path_is(arg, tables.secret_files + tables.credential_files, cwd) is not None or any(
            tables.is_secret_file_name(name) for name in _file_names(arg)
        ):
            # A token file holds one value, as a filter's pick does: as a request's credential it is used.
            token = narrowed or path_is(arg, tables.token_files, cwd) is not None
            found.add(Trail(Secret(SecretKind.FILE, shown, reader, span), (), token))
        elif recursive:
            held = path_holding(
                arg, tables.secret_files + tables.process_environment_files + tables.credential_files, cwd
            )
            if held is not None:
                found.add(Trail(Secret(SecretKind.FILE, shown, reader, span, held), (), narrowed))
            elif cwd is None and values and all(value in WORKING_DIRECTORY for value in values):
                # Where the command started (no `cd` moved it): the project, whole.
                found.add(Trail(Secret(SecretKind.PROJECT, f"the working directory (`{shown}`)", reader, span)))
        for value in values:
            found |= self.written(resolve_path(cwd, value))
        return bounded(found)

    def written(self, path: str) -> Trails:
        """What commands earlier in this command string wrote to `path` (`env > /tmp/vars`)."""
        writes = self.state.writes
        for index in range(len(writes) - 1, -1, -1):
            write = writes[index]
            # The writer reads what was written before it, never what it or later commands wrote.
            search = SecretSearch(self.flows, write.env, WalkView(write.cwd, writes[:index], self.state.definitions))
            if path in search.paths_written(write.command):
                return _via(search.content_written(write), f"the file `{path}`")
        return NO_TRAILS

    def paths_written(self, command: ast.SimpleCommand | ast.Redirected) -> set[str]:
        cwd = self.state.cwd
        paths: set[str] = set()
        for redirect in command.redirects:
            if redirect.operator in OUTPUT_REDIRECTS and redirect.target is not None:
                for target in normalize_word(redirect.target, self.env):
                    paths.update(resolve_path(cwd, value) for value in target.values if value not in HARMLESS_DEVICES)
        if type(command) is ast.SimpleCommand and command.words:
            argv, index, _ = resolve(command.words, self.env, self.tables)
            if index < len(argv):
                name = basename(argv[index].value or "")
                targets = written_files(read_command(name, argv[index + 1 :]))
                if name in ARCHIVERS and not targets:
                    targets = _archive_files(name, argv[index + 1 :])
                paths.update(resolve_path(cwd, value) for target in targets for value in target.values)
        return paths

    def content_written(self, write: Written) -> Trails:
        command = write.command
        stdin = self.stdin(write.stdin)
        if isinstance(command, ast.SimpleCommand):
            return self.simple_trails(command, stdin, into_file=True)
        return self.visit(command.command, self.redirected_input(command.redirects, stdin))


def _archive_files(name: str, args: tuple[Arg, ...]) -> tuple[Arg, ...]:
    """The archive `tar -cf FILE` (or `tar czf FILE`) / `zip FILE ...` / `7z a FILE ...` writes."""
    if name in ("tar", "bsdtar", "gtar"):
        first = (args[0].value or "") if args else ""
        if first and not first.startswith("-") and "f" in first:
            return args[1:2]  # old-style letters: `f`'s value is the next word
        return read_command("tar", args).values("--file")
    operands = [arg for arg in args if not (arg.value or "").startswith("-")]
    if name.startswith("7z"):
        operands = operands[1:]
    return tuple(operands[:1])


def _file_names(arg: Arg) -> list[str]:
    """The last path segment of each value (of the literal end of a run-time word: `"$DIR/.env"`)."""
    if arg.values:
        return [basename(value) for value in arg.values]
    if arg.word is None or not arg.word.parts or type(arg.word.parts[-1]) is not ast.Literal:
        return []
    tail = arg.word.parts[-1].text
    return [tail.rpartition("/")[2]] if "/" in tail else []


def _may_be_path(arg: Arg) -> bool:
    return bool(_file_names(arg)) or (arg.word is not None and "/" in arg.source)


def _stdout_to_file(redirects: tuple[ast.Redirect, ...]) -> bool:
    """Standard output goes to a file (or /dev/null), not to whoever reads the command's output."""
    return any(
        redirect.operator in OUTPUT_REDIRECTS and redirect.fd in (None, "1") and redirect.target is not None
        for redirect in redirects
    )
