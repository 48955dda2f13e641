"""What an execution-context handler is given (the command that runs the code)
and what it may ask of the walk (`ContextWalk`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Protocol

from ..._budget import Budget
from ..._model import Position, Span
from ..._named_tuple import NamedTuple
from ..._syntax import Origin, ast
from ..._tables import Tables
from .._state import Frame, WrittenScript
from .._subjects import Arg, Autorun, CodeFactSubject, DynamicPart, ExecContextSubject, Risk, Stdin


class Call(NamedTuple):
    """A command that may run code: its name (after wrappers), its arguments,
    where it is, and what feeds its standard input."""

    name: str
    args: tuple[Arg, ...]
    span: Span
    frame: Frame
    stdin: Stdin | None


class ContextWalk(Protocol):
    """What the walk does for a handler."""

    @property
    def tables(self) -> Tables: ...

    @property
    def reporting(self) -> bool:
        """False in a silent walk: what only a report needs (the run-time parts of code) is skipped."""
        ...

    @property
    def budget(self) -> Budget:
        """The audit's time budget (analysers of other languages stop when it runs out)."""
        ...

    @property
    def max_depth(self) -> int:
        """How deep code may nest in code before it is not audited."""
        ...

    def emit(self, subject: ExecContextSubject) -> None:
        """Hand a context to the rules."""

    def emit_code(self, subject: CodeFactSubject) -> None:
        """Hand what code in another language does to the rules."""

    def send_secrets(
        self, label: str, url: str | None, data_from: tuple[tuple[str, str | None], ...], span: Span, frame: Frame
    ) -> None:
        """Code in another language sends data (`data_from`: where it comes from, as the analyser
        says): hand the secrets it carries to the rules (`_secrets.SecretFlows.code_sender`)."""

    def too_deep(self, span: Span, frame: Frame, label: str) -> None:
        """Code nested past the depth limit: not audited, and said so."""

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
        """Parse shell code found in a context and walk it one level deeper (`positional`: its $0, $1...;
        `stdin`: what its commands read, when the code was handed its runner's standard input)."""
        ...

    def nested_command(
        self, argv: tuple[Arg, ...], span: Span, frame: Frame, label: str, stdin: Stdin | None = None
    ) -> frozenset[Risk]:
        """Walk an argv that runs as a command of its own, one level deeper (`find -exec CMD ;`)."""
        ...

    def nested_redirect(self, operator: str, target: Arg, span: Span, frame: Frame, label: str) -> None:
        """A file opened for writing the way the redirect `operator` opens it, one level deeper
        (`open(path, "w")` in code is `> path`)."""

    def dynamic_part(self, part: ast.WordPart, frame: Frame) -> DynamicPart:
        """A run-time part of code, with the risks of what it runs."""
        ...

    def arithmetic(
        self, parts: tuple[ast.WordPart, ...], frame: Frame, position: Position, label: str, span: Span
    ) -> frozenset[Risk]:
        """An arithmetic context: its operands' values are evaluated as code."""
        ...

    def check_downloaded(self, program: Arg | None, frame: Frame, label: str = "") -> None:
        """Running a file this command string downloaded or decoded."""

    @property
    def written_files(self) -> Mapping[str, WrittenScript]:
        """The files this command string wrote with known content, by clean path (empty: none)."""
        ...

    def remember_written(self, target: Arg, script: WrittenScript | None, append: bool) -> None:
        """A file this command string writes, with its content when known (None: not known)."""

    def written_script(self, value: str) -> WrittenScript | None:
        """What this command string wrote to the file `value` names, when known."""
        ...

    def runs_later(self, target: Arg) -> Autorun | None:
        """Whether a file written to `target` runs by itself later (a git hook, a unit...), and how it is read."""
        ...


Handler = Callable[[Call, ContextWalk], frozenset[Risk]]
"""Finds the code one kind of command runs, judges it, and returns the risks of what it runs."""
