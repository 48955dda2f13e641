"""The commands an Emacs startup file runs: `(shell-command "CMD")` and its kin hand a string to
the shell, `(call-process "PROGRAM" INFILE DESTINATION DISPLAY ARGS...)`, `(start-process NAME
BUFFER "PROGRAM" ARGS...)` and `(process-lines "PROGRAM" ARGS...)` run a program with its arguments.
Each is given as the shell command line it amounts to. A call whose command is not a string
literal (a variable, a nested form) is not known here and is left out."""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator

# The forms that run a shell string, by where the string is among their arguments.
_SHELL_STRING_AT = {
    "shell-command": 0,
    "async-shell-command": 0,
    "shell-command-to-string": 0,
    "call-process-shell-command": 0,
    "process-file-shell-command": 0,
    "start-process-shell-command": 2,
    "start-file-process-shell-command": 2,
}
# The forms that run a program: where the program is, and where its arguments start.
_PROGRAM_AT = {"call-process": (0, 4), "process-file": (0, 4), "start-process": (2, 3), "process-lines": (0, 1)}
_CALL = re.compile(r"\((" + "|".join(sorted({*_SHELL_STRING_AT, *_PROGRAM_AT}, key=len, reverse=True)) + r")[\s)]")
_STRING_ESCAPES = {"n": "\n", "t": "\t", "\n": ""}


def emacs_commands(text: str) -> Iterator[str]:
    """The shell command line of each command the Lisp text runs with literal strings."""
    for call in _CALL.finditer(text):
        name = call.group(1)
        arguments = _arguments(text, call.end() - 1)
        if name in _SHELL_STRING_AT:
            at = _SHELL_STRING_AT[name]
            code = arguments[at] if at < len(arguments) else None
            if code:
                yield code
            continue
        program_at, rest_at = _PROGRAM_AT[name]
        words = [arguments[program_at] if program_at < len(arguments) else None, *arguments[rest_at:]]
        known = [word for word in words if word]
        if len(known) == len(words):
            yield " ".join(shlex.quote(word) for word in known)


def _arguments(text: str, at: int) -> list[str | None]:
    """A form's arguments from `at` to its closing parenthesis: each string literal's value, and None
    for anything else (a symbol, `nil`, a nested form)."""
    arguments: list[str | None] = []
    while at < len(text):
        char = text[at]
        if char == ")":
            break
        if char.isspace():
            at += 1
        elif char == '"':
            value, at = _string(text, at + 1)
            arguments.append(value)
        elif char == "(":
            at = _past_form(text, at)
            arguments.append(None)
        else:
            while at < len(text) and not text[at].isspace() and text[at] not in "()":
                at += 1
            arguments.append(None)
    return arguments


def _string(text: str, at: int) -> tuple[str, int]:
    """A Lisp string's value from just after its opening quote, and where it ends."""
    chars: list[str] = []
    while at < len(text) and text[at] != '"':
        if text[at] == "\\" and at + 1 < len(text):
            at += 1
            chars.append(_STRING_ESCAPES.get(text[at], text[at]))
        else:
            chars.append(text[at])
        at += 1
    return "".join(chars), at + 1


def _past_form(text: str, at: int) -> int:
    """Past the parenthesised form starting at `at` (strings inside it skipped whole)."""
    depth = 0
    while at < len(text):
        char = text[at]
        if char == '"':
            _, at = _string(text, at + 1)
            continue
        depth += {"(": 1, ")": -1}.get(char, 0)
        at += 1
        if depth == 0:
            break
    return at
