"""cmd.exe: the line `cmd /c LINE` runs (from WSL, Git Bash or MSYS2), read with cmd's own rules.

cmd has no grammar worth a parser: a line is commands joined by `&`, `&&`, `||` and `|`
(in parentheses for a block), words split at blanks outside double quotes, `^` escaping
the next character, `%NAME%` expanded from the environment. Its builtins that delete are
reported as deletions (`rd /s` a tree; `del /s` with a catch-all pattern the tree it
empties); `start`, `call` and `if ... COMMAND` run the command they name; any other
command is the program it runs, reported as an argument vector for the engine to judge.
Paths are reported as WSL mounts them (`_windows`).
"""

from __future__ import annotations

from .._model import Span
from .._named_tuple import NamedTuple
from ._facts import DestructiveCall, Fact, FileOperation, ShellOut, ShellOutKind
from ._run import Run
from ._windows import ENVIRONMENT_PATHS, program_name, windows_path

_SEPARATORS = frozenset("&|\n")
# A `(` opens a block at a command's start or after an `if`/`else` condition; elsewhere it is text (`iex(iwr u)`).
_BLOCK_AFTER = frozenset({"if", "else"})
# Builtins that neither delete nor start a program.
_QUIET = frozenset({
    "echo", "set", "cd", "chdir", "dir", "type", "copy", "move", "ren", "rename", "mkdir", "md", "cls", "exit",
    "pushd", "popd", "title", "ver", "vol", "path", "prompt", "setlocal", "endlocal", "goto", "rem", "pause",
    "color", "shift", "verify", "for", "else", "::",
})  # fmt: skip
# `if [/i] [not] CONDITION COMMAND`: the words of each condition.
_CONDITIONS = {"exist": 2, "errorlevel": 2, "defined": 2, "cmdextversion": 2}
_CATCH_ALL = frozenset({"*", "*.*"})


class _Word(NamedTuple):
    text: str | None
    """None when a `%VARIABLE%` in it is not known."""
    quoted: bool


class _Statement(NamedTuple):
    words: tuple[_Word, ...]
    span: Span


def _expand(text: str) -> str | None:
    """`%USERPROFILE%\\x`: the variables cmd expands, where the engine knows the folder they name."""
    if "%" not in text:
        return text
    pieces = text.split("%")
    out = [pieces[0]]
    for index in range(1, len(pieces), 2):
        if index + 1 >= len(pieces):
            out.append("%" + pieces[index])
            break
        known = ENVIRONMENT_PATHS.get(pieces[index].lower())
        if known is None:
            return None
        out.extend((known, pieces[index + 1]))
    return "".join(out)


def statements(line: str) -> list[_Statement]:
    """The commands of a line, each with its words and where it stands."""
    found: list[_Statement] = []
    words: list[_Word] = []
    current: list[str] = []
    quoted = started = in_quotes = False
    start = 0
    index = 0
    depth = 0

    def end_word() -> None:
        nonlocal current, quoted, started
        if started:
            words.append(_Word(_expand("".join(current)), quoted))
        current, quoted, started = [], False, False

    while index < len(line):
        char = line[index]
        if char == '"':
            in_quotes, quoted, started = not in_quotes, True, True
        elif char == "^" and not in_quotes and index + 1 < len(line):
            index += 1
            current.append(line[index])
            started = True
        elif not in_quotes and char in " \t":
            end_word()
        elif not in_quotes and (
            char in _SEPARATORS or (char == "(" and not started and _opens_block(words)) or (char == ")" and depth > 0)
        ):
            depth += (char == "(") - (char == ")")
            end_word()
            if words:
                found.append(_Statement(tuple(words), Span(start, index)))
            words = []
            start = index + 1
        else:
            current.append(char)
            started = True
        index += 1
    end_word()
    if words:
        found.append(_Statement(tuple(words), Span(start, len(line))))
    return found


def _opens_block(words: list[_Word]) -> bool:
    return not words or (words[0].text or "").lower() in _BLOCK_AFTER


class CmdAnalyser:
    """The facts of one cmd line."""

    def __init__(self, source: str, run: Run) -> None:
        self.source = source
        self.run = run
        self._facts: list[Fact] = []

    @property
    def found(self) -> list[Fact]:
        return self._facts

    def facts(self) -> list[Fact]:
        for statement in statements(self.source):
            self.run.step(len(statement.words))
            self._statement(list(statement.words), statement.span)
        return self._facts

    def _statement(self, words: list[_Word], span: Span) -> None:
        words = _without_redirections(words)
        while words:
            name = words[0].text
            if name is None:
                self._facts.append(ShellOut(ShellOutKind.ARGV, None, "cmd", span, None, (None,)))
                return
            program = program_name(name.lstrip("@"))
            if program == "if":
                words = _after_condition(words[1:])
            elif program in ("call", "start"):
                words = _started(words[1:]) if program == "start" else words[1:]
            else:
                self._command(program, words[1:], span)
                return

    def _command(self, program: str, args: list[_Word], span: Span) -> None:
        switches = {word.text.lower() for word in args if word.text is not None and word.text.startswith("/")}
        targets = [word.text for word in args if word.text is None or not word.text.startswith("/")]
        if program in ("rd", "rmdir"):
            operation = FileOperation.DELETE_TREE if "/s" in switches else FileOperation.DELETE_DIR
            for target in targets:
                path = None if target is None else windows_path(target)
                self._facts.append(DestructiveCall(operation, path, f"cmd {program}", span))
        elif program in ("del", "erase"):
            for target in targets:
                self._facts.append(_deletion(target, "/s" in switches, f"cmd {program}", span))
        elif program not in _QUIET:
            words = (program, *(word.text for word in args))
            known = None if any(word is None for word in words) else tuple(word for word in words if word is not None)
            self._facts.append(ShellOut(ShellOutKind.ARGV, known, "cmd", span, None, words))


def _deletion(target: str | None, subdirectories: bool, via: str, span: Span) -> DestructiveCall:
    """`del /s DIR\\*` empties the tree under DIR (as `rm -r` would, but for the folders); a narrower pattern or
    no /s deletes files."""
    if target is None:
        return DestructiveCall(FileOperation.DELETE_FILE, None, via, span)
    path = windows_path(target)
    folder, _, last = path.rpartition("/")
    if subdirectories and (last in _CATCH_ALL or "*" not in last):
        tree = (folder or "/") if last in _CATCH_ALL else path
        return DestructiveCall(FileOperation.DELETE_TREE, tree, via, span)
    return DestructiveCall(FileOperation.DELETE_FILE, path, via, span)


def _without_redirections(words: list[_Word]) -> list[_Word]:
    """The words without `>FILE`, `2>nul`, `<FILE` (what a redirection writes is not judged here)."""
    kept: list[_Word] = []
    skip_next = False
    for word in words:
        text = word.text or ""
        if skip_next:
            skip_next = False
            continue
        bare = text.lstrip("0123456789")
        if not word.quoted and bare.startswith((">", "<")):
            skip_next = bare.rstrip("&0123456789") in (">", ">>", "<")
            continue
        kept.append(word)
    return kept


def _after_condition(words: list[_Word]) -> list[_Word]:
    """`if [/i] [not] CONDITION COMMAND`: the command."""
    rest = [word for word in words if (word.text or "").lower() not in ("/i", "not")]
    first = (rest[0].text or "").lower() if rest else ""
    return rest[_CONDITIONS.get(first, 1) :]


def _started(words: list[_Word]) -> list[_Word]:
    """`start ["title"] [/switches] COMMAND`: the command (`/d PATH` takes a folder)."""
    if words and words[0].quoted:
        words = words[1:]
    index = 0
    while index < len(words) and (words[index].text or "").startswith("/"):
        index += 2 if (words[index].text or "").lower() == "/d" else 1
    return words[index:]
