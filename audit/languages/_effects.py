"""What the calls of a snippet do: the facts a tree-sitter analyser reports.

`CallEffects` turns each call the `Interpreter` (`_interpreter.py`) resolved
into facts through its callee's catalogue entry: a shell-out, a file change,
code run (analysed again, one level deeper), a request that sends local data;
a command or code runner passed by reference runs on data the analysis cannot
see. Once every call is seen, a socket and a shell it feeds (or an
interactive shell) are a reverse shell, as are a socket made the standard input
and a command only known at run time (read from that input).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import replace
from typing import ClassVar

from .._model import Span
from ._facts import (
    DataSource,
    DestructiveCall,
    DownloadExecute,
    Fact,
    FileOperation,
    FileRead,
    NetworkSend,
    ReverseShell,
    ShellOut,
    ShellOutKind,
    SourceKind,
    Unresolved,
    UnresolvedKind,
    starts_interactive_shell,
)
from ._run import Run
from ._values import (
    UNKNOWN,
    Call,
    Command,
    Entry,
    FileChange,
    Request,
    Value,
    alternatives,
    each_choice,
    sources_of,
)

# Where run-time code comes from, most telling first.
_REMOTE_KINDS = (SourceKind.NETWORK, SourceKind.DECODED, SourceKind.COMMAND_OUTPUT)
# Data that is download-and-execute when it runs, as code or as a shell command, whatever it
# says: a network read, a decoded blob (whose text, when known, is audited as well).
_FOREIGN_KINDS = (SourceKind.NETWORK, SourceKind.DECODED)
_DELETES = frozenset({FileOperation.DELETE_TREE, FileOperation.DELETE_FILE, FileOperation.DELETE_DIR})
_WRITES = frozenset({FileOperation.WRITE_FILE, FileOperation.APPEND_FILE})
# Data that a plain download (GET) should not carry: sending it is an upload.
_LOCAL_KINDS = frozenset({SourceKind.FILE, SourceKind.ENVIRONMENT, SourceKind.COMMAND_OUTPUT})


def _each_command(command: Command) -> tuple[Command, ...]:
    """The command for each choice of its words (a loop over a literal list of programs or paths)."""
    words = command.words
    if words is None or not any(word.choices for word in words):
        return (command,)
    chosen = each_choice(words, lambda combination: Value(items=tuple(combination)))
    if chosen.choices is None:
        return (Command(command.kind, None),)
    return tuple(Command(command.kind, choice.items) for choice in chosen.choices)


def _download(data: Value | None) -> DataSource | None:
    """The network read whose data a write writes, if it writes one (the file is then a download)."""
    if data is None:
        return None
    return next((source for source in data.sources if source.kind is SourceKind.NETWORK), None)


class CallEffects:
    """The facts of one snippet, from its calls; `Interpreter` finds the calls and what they name."""

    callable_strings: ClassVar[bool]

    def __init__(self, run: Run, depth: int, via: str) -> None:
        self.run = run
        self.depth = depth
        self._via_prefix = via
        self._facts: list[Fact] = []
        self._sockets: list[Call] = []
        self._shells: list[tuple[ShellOut, bool]] = []
        # Whether the snippet made a socket its standard input (`STDIN->fdopen($socket, "r")`): then a
        # command it reads at run time comes from the socket.
        self._stdin_on_socket = False

    # ----- what the interpreter provides

    def entry(self, callee: str) -> Entry | None:
        """The catalogue entry of a callee."""
        raise NotImplementedError

    def module_name(self, text: str) -> str:
        """The catalogue's spelling of a module named in an import."""
        raise NotImplementedError

    def outer(self, span: Span) -> Span:
        """A span of this snippet as a span of the code handed to `analyse_code`."""
        raise NotImplementedError

    def nested_facts(self, code: str, via: str, place: Callable[[Span], Span]) -> list[Fact]:
        """The facts of code this snippet runs, analysed one level deeper; `place` maps its spans."""
        raise NotImplementedError

    # ----- the effects of calls

    def _effects(self, call: Call) -> None:
        entry = self.entry(call.callee)
        if entry is not None:
            self._entry_effects(call, entry)
        for argument in (*call.args, *call.keywords.values()):
            self._callback_effects(call, argument)

    def _entry_effects(self, call: Call, entry: Entry) -> None:
        via = self._via_prefix + call.callee
        span = self.outer(call.span)
        if entry.command is not None:
            command = entry.command(call)
            for each in _each_command(command) if command is not None else ():
                self._shell_out(call, each, via, span)
        if entry.file_changes is not None:
            for change in entry.file_changes(call):
                for path in alternatives(change.path):  # a loop over a literal list: each of its paths
                    self._file_change(change, path, via, span)
        if entry.returns is not None:
            self._files_read(call, entry.returns, via, span)
        if entry.code is not None:
            code = entry.code(call)
            if code is not None:
                self._run_code(code, via, span)
        if entry.request is not None:
            request = entry.request(call)
            if request is not None:
                self._request(request, via, span)
        if entry.socket:
            self._sockets.append(call)
        if entry.rebinds_stdin is not None:
            stdin = entry.rebinds_stdin(call)
            self._stdin_on_socket |= stdin is not None and stdin.has_source(SourceKind.SOCKET)

    def _files_read(self, call: Call, returns: Callable[[Call], Value], via: str, span: Span) -> None:
        """`open(p).read()`, `fs.readFileSync(p)`: a call whose value is a file's data it did not
        receive reads that file."""
        received = sources_of(call.all_values())
        for source in returns(call).sources - received:
            if source.kind is SourceKind.FILE and source.detail is not None:
                self._facts.append(FileRead(source.detail, via, span))

    def _file_change(self, change: FileChange, path: Value, via: str, span: Span) -> None:
        operation = change.operation
        if operation is FileOperation.READ_FILE:
            if path.text is not None:
                self._facts.append(FileRead(path.text, via, span))
            return
        if path.recursive and operation is FileOperation.DELETE_FILE:
            operation = FileOperation.DELETE_TREE  # each file at any depth: the tree emptied
        written = change.data if operation in _WRITES else None
        content = written.text if written is not None else None
        fact = DestructiveCall(
            operation, path.text, via, span, change.operand, path.pattern, _download(written), content
        )
        self._facts.append(fact)
        if operation in _DELETES and path.text is None and path.has_source(SourceKind.ARGUMENT):
            # Like a shell string built from them: what the command hands the code to delete is unknown here
            # (a write is not, as `> "$OUT"` is not in the shell).
            reason = f"{operation.value} of a path taken from command-line arguments not known here"
            self._facts.append(Unresolved(UnresolvedKind.DYNAMIC_PATH, reason, span))

    def _callback_effects(self, call: Call, argument: Value) -> None:
        """A command or code runner passed by reference runs on data the analysis cannot see."""
        callee = argument.name or (argument.text if self.callable_strings else None)
        if not callee or callee == call.callee:
            return
        callee = self.module_name(callee) if argument.name is None else callee
        entry = self.entry(callee)
        if entry is None or (entry.command is None and entry.code is None):
            return
        data = Value(sources=sources_of(call.all_values()))
        self._entry_effects(Call(callee, (data,), {}, None, call.span, complete=False), entry)

    def _shell_out(self, call: Call, command: Command, via: str, span: Span) -> None:
        words = command.words
        command_span = None
        foreign: DataSource | None = None
        resolved: str | tuple[str, ...] | None = None
        known_words: tuple[str | None, ...] | None = None
        if command.kind is ShellOutKind.SHELL_STRING:
            word = words[0] if words else UNKNOWN
            resolved = word.text
            if word.text is not None and word.literal is not None:
                command_span = self.outer(word.literal)
            foreign = _first_source(word, _FOREIGN_KINDS)
            if foreign is not None:
                self._facts.append(DownloadExecute(via, foreign, span))
        elif words is not None:
            known_words = tuple(word.text for word in words)
            if all(word is not None for word in known_words):
                resolved = tuple(word for word in known_words if word is not None)
            foreign = _foreign_code_word(words)
            if foreign is not None:
                self._facts.append(DownloadExecute(via, foreign, span))
        fact = ShellOut(command.kind, resolved, via, span, command_span, known_words)
        if resolved is not None or foreign is None:
            self._facts.append(fact)  # an unknown foreign string is the download-execute above, not unresolved
        socket_fed = any(value.has_source(SourceKind.SOCKET) for value in (*(words or ()), *call.all_values()))
        self._shells.append((fact, socket_fed))

    def _run_code(self, code: Value, via: str, span: Span) -> None:
        foreign = _first_source(code, _FOREIGN_KINDS)
        if code.text is not None:
            if foreign is not None:
                # A decoded literal: reported for what it is, and analysed for what it does.
                self._facts.append(DownloadExecute(via, foreign, span))
            self._run_literal_code(code.text, code.literal, via, span)
            return
        remote = _first_source(code, _REMOTE_KINDS)
        if remote is not None:
            self._facts.append(DownloadExecute(via, remote, span))
            return
        origins = ", ".join(sorted(str(source) for source in code.sources))
        reason = f"runs code built at run time{f' from {origins}' if origins else ''}"
        self._facts.append(Unresolved(UnresolvedKind.DYNAMIC_CODE, reason, span))

    def _run_literal_code(self, text: str, literal: Span | None, via: str, span: Span) -> None:
        """Code known as text, analysed one level deeper; `literal` is where it stands verbatim."""
        if self.depth >= self.run.max_depth:
            self._facts.append(
                Unresolved(UnresolvedKind.DEPTH, "code nested in code deeper than the analysis follows", span)
            )
            return
        if literal is None:
            # Built or decoded: nothing in it stands in the snippet, so every fact points at the call.
            nested = self.nested_facts(text, via + " -> ", lambda inner: span)
            self._facts.extend(
                replace(fact, command_span=None) if isinstance(fact, ShellOut) else fact for fact in nested
            )
            return
        base = literal.start

        def place(inner: Span) -> Span:
            return self.outer(Span(inner.start + base, inner.end + base))

        self._facts.extend(self.nested_facts(text, via + " -> ", place))

    def _request(self, request: Request, via: str, span: Span) -> None:
        carried = sources_of((request.url, *request.data))
        local = frozenset(source for source in carried if source.kind in _LOCAL_KINDS)
        if request.sends or local:
            data_from = sources_of(request.data) | local if request.sends else local
            self._facts.append(NetworkSend(via, request.url.text, tuple(sorted(data_from, key=str)), span))

    def _reverse_shells(self) -> None:
        if not self._sockets:
            return
        socket = self._sockets[0]
        socket_span = self.outer(socket.span)
        for shell, socket_fed in self._shells:
            reads_socket = self._stdin_on_socket and shell.command is None
            if socket_fed or reads_socket or starts_interactive_shell(shell):
                start = min(socket_span.start, shell.span.start)
                end = max(socket_span.end, shell.span.end)
                via = f"{self._via_prefix}{socket.callee} + {shell.via.removeprefix(self._via_prefix)}"
                self._facts.append(ReverseShell(via, Span(start, end)))
                return


# Shells and interpreters (by the last segment of the program's path, any version), and the options
# after which they take their code as the next word (`-c`, bash's `-lc`, perl's and node's `-e`,
# `--eval`, PowerShell's `-Command`).
_CODE_RUNNER = re.compile(
    r"(?:ba|da|z|k|mk|a|fi)?sh|busybox|(?:python|perl|ruby|node|php|lua|luajit)[\d.]*|pwsh|powershell"
)
_CODE_OPTION = re.compile(r"-[a-zA-Z]*[ce]|--eval|--command|-(?i:command)")


def _foreign_code_word(words: tuple[Value, ...]) -> DataSource | None:
    """The origin of a downloaded or decoded word an argument vector hands a shell or an interpreter as code
    (`subprocess.run(["sh", "-c", urlopen(URL).read()])`): download-and-execute, as a shell string is."""
    program = (words[0].text or "").rsplit("/", 1)[-1].lower().removesuffix(".exe") if words else ""
    if not _CODE_RUNNER.fullmatch(program):
        return None
    for option, code in itertools.pairwise(words):
        if option.text is not None and _CODE_OPTION.fullmatch(option.text):
            foreign = _first_source(code, _FOREIGN_KINDS)
            if foreign is not None:
                return foreign
    return None


def _first_source(value: Value, kinds: tuple[SourceKind, ...]) -> DataSource | None:
    """The origin of `value` of the first of `kinds` it has (in that order of preference)."""
    for kind in kinds:
        for source in sorted(value.sources, key=str):
            if source.kind is kind:
                return source
    return None
