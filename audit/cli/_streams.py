"""Where `audit-cmd` reads and writes: plain text streams, and rich consoles made only when a report is drawn.

JSON, help and error lines are plain writes, so the paths that print nothing
else (`--json`, the agent hooks) never import rich.
"""

from __future__ import annotations

import io
import os
import sys
from typing import TYPE_CHECKING, Any, TextIO, cast

from .._named_tuple import NamedTuple
from ._base import PROGRAM

if TYPE_CHECKING:
    from rich.console import Console


class Streams(NamedTuple):
    """The process's standard streams; tests inject string buffers with a fixed width and no colour.

    `width` None follows the terminal; `colour` None follows the terminal and
    the NO_COLOR / FORCE_COLOR conventions, False never colours.
    """

    stdin: TextIO
    stdout: TextIO
    stderr: TextIO
    width: int | None = None
    colour: bool | None = None

    @classmethod
    def system(cls) -> Streams:
        # Undecodable bytes must become a per-line error, not a crash, and a
        # command's characters must never fail to encode on a narrow terminal.
        stdin: TextIO = sys.stdin if sys.stdin is not None else io.StringIO()
        _reconfigure(stdin, errors="surrogateescape", encoding="utf-8")
        _reconfigure(sys.stdout, errors="backslashreplace")
        _reconfigure(sys.stderr, errors="backslashreplace")
        return cls(stdin=stdin, stdout=sys.stdout, stderr=sys.stderr)

    def write(self, text: str) -> None:
        """Text that must reach stdout exactly as it is (JSON, help): no wrapping, no styling."""
        self.stdout.write(text)
        self.stdout.flush()

    def error(self, message: str, usage: str | None = None) -> None:
        """`audit-cmd: error: MESSAGE` on stderr, after the usage for a usage mistake."""
        self.stderr.write(f"{usage or ''}{PROGRAM}: error: {message}\n")
        self.stderr.flush()

    def stderr_is_terminal(self) -> bool:
        return self.colour is not False and is_terminal(self.stderr)

    def console(self, *, stderr: bool = False) -> Console:
        """A rich console on stdout (or stderr) for a report; command text is never read as markup or emoji."""
        from rich.console import Console

        options: dict[str, Any] = {"markup": False, "emoji": False, "highlight": False, "width": self.width}
        if self.colour is False:
            options.update(color_system=None, force_terminal=False, no_color=True)
        return Console(file=self.stderr if stderr else self.stdout, **options)


def _reconfigure(stream: TextIO, *, errors: str, encoding: str | None = None) -> None:
    """Change a standard stream's error handling (and encoding), when it is a real text stream."""
    if isinstance(stream, io.TextIOWrapper):
        cast("io.TextIOWrapper[Any]", stream).reconfigure(encoding=encoding, errors=errors)


def is_terminal(stream: TextIO) -> bool:
    """Whether a stream is a terminal; a closed or detached stream is not."""
    try:
        return stream.isatty()
    except (ValueError, OSError):
        return False


def silence_stdout() -> None:
    """The reader went away (`| head`): stop Python from failing again on the final flush."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, io.UnsupportedOperation):
        pass
