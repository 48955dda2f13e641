"""The state of one walk: where the walk is (`Frame`, passed down and never
changed) and what the walk has seen so far (`WalkState`, one object).

A silent walk (a risk question: how risky is this word?) works on its own
copy of the state, so what it sees never reaches the rules and what it changes
never leaks back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from .._budget import Budget
from .._model import CommandRecord, Position, Span
from .._named_tuple import NamedTuple
from .._syntax import Origin, ParseResult, ast
from .._tables import Tables
from ..programs import read_command
from ..programs.selections import SELECTORS, selection
from ._clean_paths import resolve_path
from ._output import stdout_of
from ._risks import RiskAnswers
from ._secret_search import WalkView, Written
from ._secrets import SecretFlows
from ._subjects import Arg, AssignmentSubject, Autorun, Location, Sink, Stdin
from ._variables import Env

ParseCode = Callable[[str, Origin], ParseResult]
"""Parses nested shell code (a `-c` string, a heredoc into bash) within the audit's budget."""
RunsLater = Callable[[Arg, str | None], Autorun | None]
"""Whether a file written to a path (given the working directory) runs by itself later, and how
it is read: asked of the policy's path tables, which the rules layer matches."""


def never_runs_later(target: Arg, cwd: str | None) -> Autorun | None:
    """For an analysis given no path tables: no written file runs later."""
    return None


class WrittenScript(NamedTuple):
    """What this command string wrote to a file, known without running anything:
    the text, where each character came from, and where the content is."""

    text: str
    origin: Origin
    span: Span


TOP = Location(Position.COMMAND, ())
"""Where the user's own command string sits."""
SILENT = Location(Position.VALUE, ())
"""Where a silent walk puts what it finds (nobody sees it)."""


class WalkConfig(NamedTuple):
    """What every walker of one audit shares and never changes."""

    tables: Tables
    max_depth: int
    budget: Budget
    parse_code: ParseCode
    answers: RiskAnswers
    secrets: SecretFlows
    runs_later: RunsLater = never_runs_later


class Frame(NamedTuple):
    """Where the walk is: position and path, nesting depth, variables, and what
    feeds standard input. Each construct passes a new frame down. `account_change`
    says that the code this command runs is run by a wrapper that changes the
    account (`sudo bash -c CODE`): that code's location says so."""

    location: Location
    depth: int
    env: Env
    stdin: Stdin | None
    in_pipeline: bool
    background: bool
    account_change: bool = False
    piped_on: bool = False
    """Whether what the commands here print goes to a later stage of a pipeline, not to the screen."""
    stdout: Arg | None = None
    """The file a redirect sends what the commands here print to (`{ ...; } > FILE`, `CMD > FILE`)."""

    def enter(self, position: Position, label: str, shown: bool = False) -> Frame:
        """Into a substitution: a subshell whose stdin is the outer one (`shown`: see `Location`)."""
        location = Location(position, (*self.location.path, label), self.location.other_account, shown)
        return Frame(location, self.depth, self.env, self.stdin, False, False)

    def nested_code(self, label: str, env: Env, stdin: Stdin | None = None) -> Frame:
        """Into code that something executes, one level deeper (reading `stdin` when it was handed one)."""
        other_account = self.location.other_account or self.account_change
        location = Location(Position.EXEC_CONTEXT, (*self.location.path, label), other_account)
        # What the code prints goes where the command that runs it sends its output.
        return Frame(location, self.depth + 1, env, stdin, False, False, stdout=self.stdout)

    def with_stdin(self, stdin: Stdin | None, in_pipeline: bool, *, piped_on: bool = False) -> Frame:
        return Frame(
            self.location, self.depth, self.env, stdin, in_pipeline, self.background, self.account_change, piped_on,
            self.stdout,
        )  # fmt: skip

    def printing_to(self, redirects: tuple[ast.Redirect, ...]) -> Frame:
        """The frame of commands with these redirects: what they print goes to the file one of them names."""
        stdout = stdout_of(redirects, self.env) if redirects else None
        if stdout is None:
            return self
        return Frame(
            self.location, self.depth, self.env, self.stdin, self.in_pipeline, self.background, self.account_change,
            self.piped_on, stdout,
        )  # fmt: skip

    def backgrounded(self) -> Frame:
        return Frame(
            self.location, self.depth, self.env, self.stdin, self.in_pipeline, True, self.account_change, self.piped_on,
            self.stdout,
        )  # fmt: skip

    def under_accounts(self, wrappers: tuple[str, ...], privilege: frozenset[str]) -> Frame:
        """The frame for the code a command's wrappers run, marked when one of them changes the
        account (`sudo bash -c CODE`: CODE runs as another user, whose USER and HOME may differ)."""
        if privilege.isdisjoint(wrappers):
            return self
        return Frame(
            self.location, self.depth, self.env, self.stdin, self.in_pipeline, self.background, True, self.piped_on,
            self.stdout,
        )  # fmt: skip

    @classmethod
    def silent(cls, env: Env) -> Frame:
        """Where a silent walk starts: nothing it finds is reported anywhere."""
        return cls(SILENT, 0, env, None, False, False)

    def labelled(self, label: str, env: Env | None = None) -> Frame:
        location = Location(
            self.location.position, (*self.location.path, label), self.location.other_account, self.location.shown
        )
        return Frame(
            location, self.depth, env or self.env, self.stdin, self.in_pipeline, self.background, self.account_change,
            self.piped_on, self.stdout,
        )  # fmt: skip


class Call(NamedTuple):
    """A command a function body runs: a function it may start, and whether in a new process of its own
    (in the background or in a pipeline)."""

    name: str
    span: Span
    spawned: bool


class FunctionScope(NamedTuple):
    """A function body being walked, and the commands it runs."""

    name: str
    calls: list[Call]


class LoopScope(NamedTuple):
    """A loop body being walked, and what it starts in the background."""

    spawns: list[tuple[str, Span]]


class WalkState:
    """Everything one walk changes as it goes.

    `definitions` and `calls_in_progress` are facts about the command string
    shared with silent walks (a function defined anywhere can be called; a
    call being walked must not be walked again inside itself); the rest is
    the walk's own.
    """

    __slots__ = (
        "call_graph",
        "calls_in_progress",
        "cwd",
        "definitions",
        "downloads",
        "exported",
        "functions",
        "loops",
        "moved",
        "records",
        "reporting",
        "root_owned",
        "runs",
        "selected",
        "sink",
        "trees",
        "walked_calls",
        "writes",
        "written",
    )

    def __init__(self, sink: Sink) -> None:
        self.sink = sink
        # False in a silent walk: work whose only use is a report is skipped.
        self.reporting = True
        self.records: list[CommandRecord] = []
        self.functions: list[FunctionScope] = []
        self.loops: list[LoopScope] = []
        # Functions defined so far, those whose call is being walked now, and
        # the calls already walked (name and argument values): a repeated
        # call adds nothing, and skipping it keeps call chains linear.
        self.definitions: dict[str, ast.FunctionDefinition] = {}
        self.calls_in_progress: set[str] = set()
        # What each function defined so far runs (its last definition's), to find functions that start each other.
        self.call_graph: dict[str, tuple[Call, ...]] = {}
        self.walked_calls: set[tuple[str, tuple[tuple[str, ...], ...]]] = set()
        # The working directory after the `cd` commands seen so far (None: unknown), and whether
        # one ran at all (`cd build`: somewhere other than the project, though unknown).
        self.cwd: str | None = None
        self.moved = False
        # Files this command string downloaded or decoded, by clean path.
        self.downloads: dict[str, Span] = {}
        # Directories it filled with downloaded code (a clone, an unpacked download), by clean path.
        self.trees: dict[str, Span] = {}
        # The commands so far that wrote files, for the secrets a later command sends from them.
        self.writes: list[Written] = []
        # Files this command string wrote with content known without running anything, by clean path.
        self.written: dict[str, WrittenScript] = {}
        # The arguments of the commands run so far, by program name (`CommandSubject.earlier`).
        self.runs: dict[str, list[tuple[Arg, ...]]] = {}
        # Files a `chown` of this command string gave to root, by clean path (`CommandSubject.root_owned`).
        self.root_owned: dict[str, Span] = {}
        # The targets commands so far selected for a tool (`CommandSubject.selected`), by setting.
        self.selected: dict[str, str] = {}
        # The variables an `export NAME=value` (`declare -x`) so far gave a literal value: every
        # program started after it gets them (`CommandSubject.environment`).
        self.exported: dict[str, str] = {}

    def silenced(self) -> WalkState:
        """A copy for a silent walk: nothing it finds is reported, nothing it changes leaks back."""
        silent = WalkState.__new__(WalkState)  # every field is set below: skip __init__'s fresh containers
        silent.sink = _SILENT_SINK
        silent.reporting = False
        silent.records = []
        silent.functions = []
        silent.loops = []
        silent.definitions = self.definitions
        silent.calls_in_progress = self.calls_in_progress
        silent.call_graph = self.call_graph
        # A call walked silently still has to be walked for the rules.
        silent.walked_calls = set(self.walked_calls)
        silent.cwd = self.cwd
        silent.moved = self.moved
        silent.downloads = dict(self.downloads)
        silent.trees = dict(self.trees)
        silent.writes = []  # only senders read them, and a silent walk reports none
        silent.written = dict(self.written)
        silent.runs = {}  # only reported commands are told what ran before them
        silent.root_owned = self.root_owned.copy()
        silent.exported = {}  # only reported commands are told their environment and selections
        silent.selected = {}
        return silent

    def record_run(self, name: str | None, args: tuple[Arg, ...]) -> tuple[tuple[Arg, ...], ...]:
        """Remember a command `name ARGS` the walk reports; the arguments of the earlier ones of that name."""
        if name is None:
            return ()
        runs = self.runs.setdefault(name, [])
        earlier = tuple(runs)
        runs.append(args)
        return earlier

    def export(self, assignment: AssignmentSubject) -> None:
        """After `export NAME=value` or `declare -x NAME=value` (not `env NAME=value CMD`, which sets it
        for one command): the value every later program gets, when known."""
        value = assignment.value.value if assignment.value is not None else None
        if assignment.exported and assignment.form != "env" and value is not None:
            self.exported[assignment.name] = value

    def environment(self, own: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
        """What a program gets: the variables exported so far, then those its command sets (`own`)."""
        return (*self.exported.items(), *own) if self.exported else own

    def remember_effects(self, name: str | None, args: tuple[Arg, ...]) -> None:
        """After a command, what it leaves for later ones: the target it selects for a tool
        (`CommandSubject.selected`), the files a `chown root` gives to root."""
        if name in SELECTORS:
            chosen = selection(name, args)
            if chosen is not None:
                self.selected[chosen[0]] = chosen[1]
        elif name == "chown":
            self._remember_owner(args)

    def _remember_owner(self, args: tuple[Arg, ...]) -> None:
        """After `chown root FILE...` (or `0`, `root:GROUP`): the files now root's, by clean path."""
        operands = read_command("chown", args).operands
        if not operands or (operands[0].value or "").partition(":")[0].partition(".")[0] not in ("root", "0"):
            return
        for target in operands[1:]:
            for value in target.values:
                self.root_owned[resolve_path(self.cwd, value)] = target.span

    def change_directory(self, cwd: str | None, entered: str | None = None) -> None:
        """After `cd`, `pushd` or `popd`: the working directory it leads to (None: unknown), and the
        directory operand it was given (`entered`)."""
        if self.trees:
            self._follow_into_tree(cwd, entered)
        self.cwd = cwd
        self.moved = True

    def _follow_into_tree(self, cwd: str | None, entered: str | None) -> None:
        """Where the working directory is unknown, `.` in `trees` stands for it: after
        `git clone URL tool && cd tool`, the program `./install.sh` is in the clone."""
        inside = self.downloaded_tree(entered + "/.") if cwd is None and entered is not None else None
        self.trees.pop(".", None)
        if inside is not None:
            self.trees["."] = inside

    def view(self) -> WalkView:
        """What a search for secrets needs of the state (`_secrets`)."""
        return WalkView(self.cwd, tuple(self.writes), self.definitions)

    def remember_downloads(self, targets: list[Arg]) -> None:
        """Files a download or decoder writes, by clean path (relative to the known working directory)."""
        for target in targets:
            for value in target.values:
                self.downloads[resolve_path(self.cwd, value)] = target.span

    def downloaded(self, value: str) -> Span | None:
        """Where the download that wrote the file `value` names is, if this command string wrote it."""
        return self.downloads.get(resolve_path(self.cwd, value))

    def remember_tree(self, directory: Arg, download: Span) -> None:
        """A directory a clone or an unpacked download filled (`.`: the working directory)."""
        for value in directory.values:
            self.trees[resolve_path(self.cwd, value)] = download

    def downloaded_tree(self, value: str) -> Span | None:
        """Where the download is that filled a directory the file `value` names is in."""
        path = resolve_path(self.cwd, value)
        for tree, download in self.trees.items():
            relative_inside_here = tree == "." and not path.startswith(("/", "~", ".."))
            if relative_inside_here or path == tree or path.startswith(tree + "/"):
                return download
        return None

    def remember_written(self, target: Arg, script: WrittenScript | None, append: bool) -> None:
        """A file written with known content (`script`), or with content the analysis cannot know
        (None: whatever was known of the file before is forgotten). Appended content is known
        content after what was known, or on its own when the file's start is not known."""
        for value in target.values:
            path = resolve_path(self.cwd, value)
            before = self.written.pop(path, None)
            if script is None:
                continue
            if append and before is not None:
                offsets = _offsets(before) + _offsets(script)
                origin = Origin((*offsets, script.origin.span(len(script.text), len(script.text)).end), exact=False)
                script = WrittenScript(before.text + script.text, origin, Span(before.span.start, script.span.end))
            self.written[path] = script

    def written_script(self, value: str) -> WrittenScript | None:
        """What this command string wrote to the file `value` names, when known."""
        return self.written.get(resolve_path(self.cwd, value))

    def in_subshell(self) -> _Subshell:
        """`with state.in_subshell():` a `cd` inside a subshell, substitution or child shell does not last."""
        return _Subshell(self)

    def in_function(self, name: str) -> _Entered[FunctionScope]:
        """`with state.in_function(name) as scope:` the body of a function being walked."""
        return _Entered(self.functions, FunctionScope(name, []))

    def recursive_spawns(self, scope: FunctionScope) -> tuple[Span, ...]:
        """Record what the function just walked runs; where a cycle of calls through it starts a new
        process (a fork bomb: `f() { f | f & }`, or `a() { b & }; b() { a & a; }`)."""
        self.call_graph[scope.name] = tuple(scope.calls)
        reached = self._reachable(scope.name, forward=True)
        reaching = self._reachable(scope.name, forward=False)
        return tuple(
            call.span
            for caller in reached
            for call in self.call_graph.get(caller, ())
            if call.spawned and call.name in reaching
        )

    def _reachable(self, start: str, *, forward: bool) -> set[str]:
        """The functions `start` calls, directly or not (forward), or those calling it; `start` included."""
        edges: dict[str, set[str]] = {}
        for caller, calls in self.call_graph.items():
            for call in calls:
                source, target = (caller, call.name) if forward else (call.name, caller)
                edges.setdefault(source, set()).add(target)
        seen = {start}
        frontier = [start]
        while frontier:
            for following in edges.get(frontier.pop(), ()):
                if following not in seen:
                    seen.add(following)
                    frontier.append(following)
        return seen

    def in_loop(self) -> _Entered[LoopScope]:
        """`with state.in_loop() as scope:` the body of a loop being walked."""
        return _Entered(self.loops, LoopScope([]))

    def calling(self, name: str) -> _Calling:
        """`with state.calling(name):` a call of a function defined in the command, being walked."""
        return _Calling(self.calls_in_progress, name)

    def track_call(self, name: str | None, span: Span, *, in_pipeline: bool, background: bool) -> None:
        """What the enclosing functions run and the loops start in the background."""
        if name is None:
            return
        call = Call(name, span, in_pipeline or background)
        for scope in self.functions:
            scope.calls.append(call)
        if background and self.loops:
            self.loops[-1].spawns.append((name, span))


Scope = TypeVar("Scope")


class _Entered(Generic[Scope]):
    """A scope on a stack while its construct is walked (classes, not generators: these run per construct)."""

    __slots__ = ("_scope", "_stack")

    def __init__(self, stack: list[Scope], scope: Scope) -> None:
        self._stack = stack
        self._scope = scope

    def __enter__(self) -> Scope:
        self._stack.append(self._scope)
        return self._scope

    def __exit__(self, *_: object) -> None:
        self._stack.pop()


class _Calling:
    __slots__ = ("_calls", "_name")

    def __init__(self, calls: set[str], name: str) -> None:
        self._calls = calls
        self._name = name

    def __enter__(self) -> None:
        self._calls.add(self._name)

    def __exit__(self, *_: object) -> None:
        self._calls.discard(self._name)


class _Subshell:
    """Restores the working directory when a subshell's walk ends (a class: this runs for every substitution)."""

    __slots__ = ("_cwd", "_state")

    def __init__(self, state: WalkState) -> None:
        self._state = state
        self._cwd = state.cwd

    def __enter__(self) -> None:
        return None

    def __exit__(self, *_: object) -> None:
        self._state.cwd = self._cwd


def _offsets(script: WrittenScript) -> tuple[int, ...]:
    """Where each character of a written script came from in the user's command."""
    return tuple(script.origin.span(index, index + 1).start for index in range(len(script.text)))


_SILENT_SINK = Sink()
