"""Code in another language (`python3 -c`, `node -e`, an awk program, a heredoc
into ruby...), judged by what it does.

`audit.languages` parses the code and reports facts; it is imported the first
time a command holds such code, so a command without any pays nothing. Each
fact is judged with the engine's own machinery, never with tables of its own:

* a shell string the code runs (`os.system("rm -rf ~")`) is shell code,
  walked one level deeper; an argument vector (`subprocess.run(["rm", ...])`)
  is a simple command;
* a file call is judged as the shell command that does the same thing, so the
  same rules and path tables apply: `shutil.rmtree(P)` as `rm -r -- P`,
  `os.remove(P)` as `rm -- P`, `os.rmdir(P)` as `rmdir -- P`, `open(P, "w")` as
  the redirect `> P`, `open(P, "a")` as `>> P`, `os.chmod(P, 0o755)` as
  `chmod -- 755 P`, `os.chown(P, U, G)` as `chown -- U:G P`, `os.rename(P, Q)`
  as `mv -- P Q`;
* running downloaded or decoded data as code, a reverse shell, a network send
  and code built from unknown data are handed to the rules as code facts.

Every finding's path says where: `python3 -c -> os.system`.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..._caches import CODE_REPORTS, Memo
from ..._model import Span
from ..._syntax import BudgetExceeded, Origin
from .._normalize import HOME
from .._risks import NO_RISKS
from .._state import Frame, WrittenScript
from .._subjects import Arg, CodeFactKind, CodeFactSubject, DataOrigin, Risk
from ._call import ContextWalk

if TYPE_CHECKING:
    from ...languages import (
        CodeReport,
        DataSource,
        DestructiveCall,
        DownloadExecute,
        FileRead,
        NetworkSend,
        ShellOut,
    )

RUN_TIME_VALUE = "__runtime_value__"
RUN_TIME_OUTPUT = "__runtime_output__"
"""What a run-time part of the code reads as in the analysed text: a variable
(`$CMD`) and a substitution's output (`$(cmd)`).

Identifiers in every analysed language and plain words in a shell string the
code runs: the part itself is judged where the outer shell expands it
(EX003, TA002), and stands in as data here. A variable that becomes the
shell string or the program the code runs is, like `eval "$cmd"`, code only
known at run time; a substitution's output there is judged by EX003 when it
is risky.
"""

# A report with the audit steps its analysis took: an audit that takes a report
# from here is charged those steps, so no verdict depends on what was audited before.
_ReportKey = tuple[str, str, int, tuple[str | None, ...] | None, tuple[tuple[str, str], ...]]
_REPORTS: Memo[_ReportKey, tuple[CodeReport, int]] = Memo(CODE_REPORTS)
_WARMED: set[str] = set()


def analysable(language: str) -> bool:
    """Whether `audit.languages` has an analyser for `language` (imports the package, not an analyser)."""
    from ...languages import LANGUAGES

    return language in LANGUAGES


def language_code(
    walk: ContextWalk,
    label: str,
    code: str,
    origin: Origin,
    language: str,
    span: Span,
    frame: Frame,
    arguments: tuple[Arg, ...] | None = None,
    variables: tuple[tuple[str, str], ...] = (),
) -> frozenset[Risk]:
    """Judge `code`, a program in `language` found at `span` (its text mapped by `origin`); the risks of what it runs.

    `arguments` are the words the command gives the program after its code (`python3 -c CODE ~`),
    `variables` the program's variables it sets before the program starts (`awk -v c=CMD`).
    """
    if not code.replace(RUN_TIME_VALUE, "").replace(RUN_TIME_OUTPUT, "").strip() or not analysable(language):
        return NO_RISKS  # no literal code (`python3 -c "$CODE"`): only its run-time parts, judged outside
    # Code run from a literal inside the code (`exec("...")`) nests like `bash -c` in `bash -c`.
    depth_left = max(1, walk.max_depth - frame.depth)
    report = _report(walk, language, code, depth_left, _argument_values(arguments), variables)
    return _Judge(walk, label, language, origin, frame).facts(report)


def _argument_values(arguments: tuple[Arg, ...] | None) -> tuple[str | None, ...] | None:
    """The program's arguments as it receives them, as far as they are known: the words up to the
    first that may become any number of words (a glob, a run-time value) or that the interpreter
    may read as an option of its own (`-x`, `--`); the positions from there on are not known."""
    if arguments is None:
        return None
    known: list[str | None] = []
    for argument in arguments:
        value = argument.value
        if value is None or argument.pattern or value.startswith("-"):
            break
        known.append(value)
    return tuple(known)


def _report(
    walk: ContextWalk,
    language: str,
    code: str,
    depth_left: int,
    arguments: tuple[str | None, ...] | None,
    variables: tuple[tuple[str, str], ...],
) -> CodeReport:
    from ...languages import UnresolvedKind, analyse_code

    key = (language, code, depth_left, arguments, variables)
    budget = walk.budget
    known = _REPORTS.get(key)
    if known is not None:
        report, steps = known
        if budget.first_time(key):
            budget.charge(steps, f"the {language} analysis")
        return report
    if language not in _WARMED:
        # The first snippet of a language loads its analyser and grammar: one-time work, not this audit's.
        with budget.paused():
            analyse_code(language, "")
        _WARMED.add(language)
    budget.first_time(key)
    steps_before = budget.steps_left
    report = analyse_code(language, code, budget=budget, max_depth=depth_left, arguments=arguments, variables=variables)
    if any(getattr(fact, "kind", None) is UnresolvedKind.BUDGET for fact in report.facts):
        raise BudgetExceeded(f"the {language} analysis exceeded the budget")
    return _REPORTS.remember(key, (report, steps_before - budget.steps_left))[0]


class _Judge:
    """Judges the facts of one snippet: walks what it runs, emits what the rules judge."""

    def __init__(self, walk: ContextWalk, label: str, language: str, origin: Origin, frame: Frame) -> None:
        self.walk = walk
        self.label = label
        self.language = language
        self.origin = origin
        self.frame = frame
        # What each shell-out ran, by its command line: a download-execute of a command's output asks it
        # (an argument vector by its words joined with blanks, as the analysers name the command in a data source).
        self.shell_out_risks: dict[str, frozenset[Risk]] = {}

    def facts(self, report: CodeReport) -> frozenset[Risk]:
        from ...languages import (
            DestructiveCall,
            DownloadExecute,
            FileRead,
            NetworkSend,
            ReverseShell,
            ShellOut,
            Unresolved,
            UnresolvedKind,
        )

        risks = NO_RISKS
        # Files written with known content or a download first, so that running one is judged as such
        # (`urlretrieve(u, p); os.system(p)`); then shell-outs: `exec(check_output("curl ..."))` reports
        # the exec before the call inside it.
        writes = [
            fact
            for fact in report.facts
            if isinstance(fact, DestructiveCall) and (fact.download is not None or fact.content is not None)
        ]
        for fact in writes:
            risks = risks | self.destructive_call(fact)
        for fact in report.facts:
            if isinstance(fact, ShellOut):
                risks = risks | self.shell_out(fact)
        for fact in report.facts:
            if isinstance(fact, DestructiveCall) and fact not in writes:
                risks = risks | self.destructive_call(fact)
            elif isinstance(fact, FileRead):
                self.file_read(fact)
            elif isinstance(fact, DownloadExecute):
                self.download_execute(fact)
            elif isinstance(fact, ReverseShell):
                self.emit(CodeFactKind.REVERSE_SHELL, fact.via, fact.span, "connects a network socket to a shell")
            elif isinstance(fact, NetworkSend):
                origins = _origins(fact.data_from)
                self.emit(
                    CodeFactKind.NETWORK_SEND, fact.via, fact.span, "sends data over the network", fact.url, origins
                )
                self.send_secrets(fact)
            elif isinstance(fact, Unresolved):
                if fact.kind is UnresolvedKind.DEPTH:
                    self.walk.too_deep(self.span(fact.span), self.frame, self.call_label(fact.kind.value))
                else:
                    # Dynamic code or names, and code the grammar cannot read (which may hide a call).
                    self.emit(
                        CodeFactKind.UNRESOLVED, "", fact.span, _UNRESOLVED_REASONS.get(fact.kind.value, fact.reason)
                    )
        return risks

    # -- facts turned into shell ----------------------------------------------------------

    def shell_out(self, fact: ShellOut) -> frozenset[Risk]:
        """A shell string is shell code; an argument vector a simple command (words only known at run
        time are dynamic words); a program or shell string built from unknown data is for the rules."""
        from ...languages import ShellOutKind

        command = fact.command if fact.command is not None else fact.words
        if command is None or (RUN_TIME_VALUE in command if isinstance(command, str) else command[0] in _UNKNOWN):
            what = "shell command" if fact.kind is ShellOutKind.SHELL_STRING else "program"
            self.emit(
                CodeFactKind.UNRESOLVED, fact.via, fact.span, f"runs a {what} built from data only known at run time"
            )
            return NO_RISKS
        label = self.call_label(fact.via)
        span = self.span(fact.span)
        if isinstance(command, str):
            if fact.command_span is not None:
                origin = self.origin.shifted(fact.command_span.start)
            else:
                origin = Origin.derived_from(span)  # escapes or concatenation: the call's span
            risks = self.walk.nested_code(command, origin, label, span, self.frame)
        else:
            argv = tuple(_argv_word(word, span) for word in command)
            risks = self.walk.nested_command(argv, span, self.frame, label) if argv else NO_RISKS
            program = command[0] if command else None
            if fact.via == "cmd" and program is not None:
                self.walk.check_downloaded(_cmd_program(program, span), self.frame, label)
        if fact.command is not None:
            line = fact.command if isinstance(fact.command, str) else " ".join(fact.command)
            self.shell_out_risks[line] = self.shell_out_risks.get(line, NO_RISKS) | risks
        return risks

    def destructive_call(self, fact: DestructiveCall) -> frozenset[Risk]:
        """The shell command a file call equals, judged by the same rules (a path only known at run
        time is not, unless a move's destination is known); a mode, owner or destination only known
        at run time is a run-time word, as `chmod "$MODE" PATH` has."""
        from ...languages import FileOperation

        operation = fact.operation
        if fact.path is None and (operation is not FileOperation.MOVE or fact.operand is None):
            return NO_RISKS
        span = self.span(fact.span)
        label = self.call_label(fact.via)
        if fact.path is None:
            target = _argv_word(None, span)
        else:
            # A pattern is the unquoted glob the shell would expand: `unlink glob("~/.ssh/*")` is `rm ~/.ssh/*`.
            target = Arg((_as_shell_sees(fact.path),), fact.path, span, pattern=fact.pattern)
        if operation is FileOperation.WRITE_FILE or operation is FileOperation.APPEND_FILE:
            operator = ">" if operation is FileOperation.WRITE_FILE else ">>"
            self.walk.nested_redirect(operator, target, span, self.frame, label)
            if fact.content is not None:
                # A script the code writes is known, as one `echo ... > FILE` writes: running it later is judged.
                script = WrittenScript(fact.content, Origin.derived_from(span), span)
                self.walk.remember_written(target, script, operation is FileOperation.APPEND_FILE)
            if fact.download is None:
                return NO_RISKS
            # Saving a download is `curl -so PATH URL`: the file is then known as downloaded, so running it
            # later in the command is running a download (EX009), as in the shell.
            curl = tuple(Arg((word,), fact.via, span) for word in ("curl", "-s", "-o"))
            return self.walk.nested_command(
                (*curl, target, _argv_word(fact.download.detail, span)), span, self.frame, label
            )
        program, options = _SHELL_FORMS[operation.value]
        argv = tuple(Arg((word,), fact.via, span) for word in (program, *options, "--"))
        if operation is FileOperation.MOVE:
            argv = (*argv, target, _argv_word(fact.operand, span))
        elif operation.value in _DELETES:
            argv = (*argv, target)
        else:
            argv = (*argv, _argv_word(fact.operand, span), target)
        return self.walk.nested_command(argv, span, self.frame, label)

    def file_read(self, fact: FileRead) -> None:
        """A file the code reads into memory, judged as `data=$(cat -- PATH)` is: read (a credential
        file, the password hashes), its data held and not shown (printing it is the code's business)."""
        path = _as_shell_sees(fact.path)
        home, rest = ("~/", path[2:]) if path.startswith("~/") else ("", path)
        shell = f"data=$(cat -- {home}{shlex.quote(rest)})"
        span = self.span(fact.span)
        self.walk.nested_code(shell, Origin.derived_from(span), self.call_label(fact.via), span, self.frame)

    # -- facts for the rules ----------------------------------------------------------------

    def download_execute(self, fact: DownloadExecute) -> None:
        from ...languages import SourceKind

        source = fact.source
        if source.kind is SourceKind.COMMAND_OUTPUT:
            ran = self.shell_out_risks.get(source.detail) if source.detail is not None else None
            if ran is None:
                self.emit(
                    CodeFactKind.UNRESOLVED,
                    fact.via,
                    fact.span,
                    "runs as code the output of a command built at run time",
                )
            elif ran - {Risk.INTERPRETER}:
                reasons = " and ".join(sorted(risk.value for risk in ran - {Risk.INTERPRETER}))
                detail = f"the output of `{source.detail}`, which {reasons}"
                self.emit(CodeFactKind.DOWNLOAD_EXECUTE, fact.via, fact.span, detail)
            return
        if source.kind in (SourceKind.FILE, SourceKind.ENVIRONMENT):
            if source.kind is SourceKind.FILE and source.detail is not None:
                # `exec(open("x.py").read())` after `curl -o x.py URL`: running a download.
                self.walk.check_downloaded(
                    Arg((source.detail,), source.detail, self.span(fact.span)), self.frame, self.call_label(fact.via)
                )
            self.emit(CodeFactKind.UNRESOLVED, fact.via, fact.span, f"runs as code data read from {_described(source)}")
            return
        self.emit(CodeFactKind.DOWNLOAD_EXECUTE, fact.via, fact.span, _described(source))

    def send_secrets(self, fact: NetworkSend) -> None:
        """The secrets the request carries (SE005), found with the walk's variables and written files."""
        if not self.walk.reporting:
            return
        # A path in the code, as the shell word for the same file (`$HOME/.netrc` is `~/.netrc`).
        data_from = tuple(
            (
                source.kind.value,
                _as_shell_sees(source.detail) if source.kind.value == "file" and source.detail else source.detail,
            )
            for source in fact.data_from
        )
        self.walk.send_secrets(self.call_label(fact.via), fact.url, data_from, self.span(fact.span), self.frame)

    def emit(
        self,
        kind: CodeFactKind,
        via: str,
        span: Span,
        detail: str,
        url: str | None = None,
        data_from: tuple[DataOrigin, ...] = (),
    ) -> None:
        if not self.walk.reporting:
            return
        location = self.frame.location
        subject = CodeFactSubject(
            kind, self.call_label(via), self.language, self.span(span), location, detail, url, data_from
        )
        self.walk.emit_code(subject)

    # -- where -------------------------------------------------------------------------------

    def span(self, span: Span) -> Span:
        """A span in the code, as a span in the user's command."""
        return self.origin.span(span.start, span.end)

    def call_label(self, via: str) -> str:
        return f"{self.label} -> {via}" if via else self.label


_UNRESOLVED_REASONS = {"syntax": "has code the grammar cannot read, which may hide what it runs"}

# A file call, as the shell command that does the same: program and options. The path comes after
# the mode or owner (`chmod -- MODE PATH`) and before a move's destination (`mv -- PATH DEST`).
_SHELL_FORMS: dict[str, tuple[str, tuple[str, ...]]] = {
    "delete-tree": ("rm", ("-r",)),
    "delete-file": ("rm", ()),
    "delete-dir": ("rmdir", ()),
    "change-mode": ("chmod", ()),
    "change-mode-tree": ("chmod", ("-R",)),
    "change-owner": ("chown", ()),
    "change-owner-tree": ("chown", ("-R",)),
    "move": ("mv", ()),
}
_DELETES = frozenset({"delete-tree", "delete-file", "delete-dir"})


def _as_shell_sees(word: str) -> str:
    """A path or argument written in code, as the normalised shell word for the same file.

    The analysers spell an environment read of the home as `$HOME`. A leading
    `~` is taken for the home too: the code may expand it (`expanduser`,
    `File.expand_path`), and a directory really named `~` is no agent's intent.
    """
    for spelling in ("$HOME", "${HOME}"):
        if word == spelling or word.startswith(spelling + "/"):
            return HOME + word[len(spelling) :]
    return word


_UNKNOWN = (None, RUN_TIME_VALUE)


def _argv_word(word: str | None, span: Span) -> Arg:
    """One word of an argument vector: its value, or a word only known at run time."""
    if word is None or RUN_TIME_VALUE in word or RUN_TIME_OUTPUT in word:
        return Arg((), word or RUN_TIME_VALUE, span)
    return Arg((_as_shell_sees(word),), word, span)


def _cmd_program(name: str, span: Span) -> Arg:
    """The files a program name of cmd's may run: cmd looks in the working directory before PATH, and
    `.exe` may be left out (`cmd /c p` runs `p.exe` there: `curl -o p.exe URL && cmd /c p`)."""
    path = name.replace("\\", "/").removeprefix("./")
    return Arg((path, path + ".exe") if "." not in path.rsplit("/", 1)[-1] else (path,), name, span)


def _described(source: DataSource) -> str:
    words = {
        "network": "a network read",
        "decoded": "a decoded blob",
        "socket": "a network socket",
        "file": "the file",
        "environment": "the environment variable",
        "command-output": "the output of",
        "argument": "the command-line argument",
    }
    described = words[source.kind.value]
    return f"{described} {source.detail}" if source.detail else described


def _origins(sources: Iterable[DataSource]) -> tuple[DataOrigin, ...]:
    return tuple(DataOrigin(source.kind.value, source.detail) for source in sources)
