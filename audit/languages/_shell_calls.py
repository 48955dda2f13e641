"""Languages read only for their calls that run a shell command or delete a path: AppleScript
(`osascript -e`), R (`Rscript -e`), Tcl and expect (`tclsh`, `expect -c`) and Julia (`julia -e`),
and the compiled languages whose source a command hands a compiler (`gcc -x c -`, `go run`,
`rustc -`, `swift -`): C and C++, Go, Rust and Swift.

No grammar: each language's calls are a table of patterns, each followed by a literal argument
(a string, Julia's backquoted command, Tcl's words up to the end of the command, a list of
strings: `exec.Command("rm", "-rf", dir)`, C's `execl`) or by one of
the expressions that give the home directory (`homedir()`, `$env(HOME)`). A shell-out whose
argument is not such a literal is code built at run time. A call inside a comment or a string
is read as a call too: the analysis errs towards reporting.

>>> from audit.languages import analyse_code
>>> [fact.command for fact in analyse_code("applescript", 'do shell script "ls -l"').facts]
['ls -l']
"""

from __future__ import annotations

import re
import shlex
from typing import ClassVar

from .._model import Span
from .._named_tuple import NamedTuple
from ._facts import DestructiveCall, Fact, FileOperation, ShellOut, ShellOutKind, Unresolved, UnresolvedKind
from ._run import Run


class _Call(NamedTuple):
    via: str
    start: re.Pattern[str]
    """Ends where the argument starts."""
    argument: str
    """How the argument is written: `string`, `words` (Tcl), `backquotes` (Julia) or `strings` (a list of
    string arguments: an argument vector)."""
    operation: FileOperation | None = None
    """A delete of the argument; None: the argument is a command that runs."""
    recursive: re.Pattern[str] | None = None
    """Makes the delete recursive when found before the call's end (`recursive = TRUE`)."""
    skipped: int = 0
    """Arguments of a `strings` list before the argument vector (C's `execl(PATH, ARGV0, ...)`: the path)."""


_R_RECURSIVE = re.compile(r"recursive\s*=\s*T(?:RUE)?\b")
_JULIA_RECURSIVE = re.compile(r"recursive\s*=\s*true\b")

_CALLS: dict[str, tuple[_Call, ...]] = {
    "applescript": (_Call("do shell script", re.compile(r"\bdo\s+shell\s+script\s+", re.IGNORECASE), "string"),),
    "r": (
        _Call("system", re.compile(r"\bsystem\s*\(\s*(?:command\s*=\s*)?"), "string"),
        _Call("shell", re.compile(r"\bshell\s*\(\s*(?:cmd\s*=\s*)?"), "string"),
        _Call("unlink", re.compile(r"\bunlink\s*\(\s*(?:x\s*=\s*)?"), "string", FileOperation.DELETE_FILE, _R_RECURSIVE),
    ),
    "tcl": (
        _Call("exec", re.compile(r"(?:^|[;\n\[{])\s*exec\s+"), "words"),
        _Call("spawn", re.compile(r"(?:^|[;\n\[{])\s*spawn\s+"), "words"),
        _Call("file delete", re.compile(r"(?:^|[;\n\[{])\s*file\s+delete\s+-force\s+(?:--\s+)?"), "words",
              FileOperation.DELETE_TREE),
        _Call("file delete", re.compile(r"(?:^|[;\n\[{])\s*file\s+delete\s+(?:--\s+)?(?!-)"), "words",
              FileOperation.DELETE_FILE),
    ),
    "julia": (
        _Call("run", re.compile(r"\brun\s*\(\s*"), "backquotes"),
        _Call("rm", re.compile(r"\brm\s*\(\s*"), "string", FileOperation.DELETE_FILE, _JULIA_RECURSIVE),
    ),
    # C and C++.
    "c": (
        _Call("system", re.compile(r"\b(?:std::)?system\s*\(\s*"), "string"),
        _Call("popen", re.compile(r"\bpopen\s*\(\s*"), "string"),
        _Call("execl", re.compile(r"\bexecl[pe]?\s*\(\s*"), "strings", skipped=1),
        _Call("remove", re.compile(r"\b(?:std::)?(?:remove|unlink)\s*\(\s*"), "string", FileOperation.DELETE_FILE),
        _Call("remove_all", re.compile(r"\bremove_all\s*\(\s*"), "string", FileOperation.DELETE_TREE),
        _Call("rmdir", re.compile(r"\brmdir\s*\(\s*"), "string", FileOperation.DELETE_DIR),
    ),
    "go": (
        _Call("exec.Command", re.compile(r"\bexec\.Command\s*\(\s*"), "strings"),
        _Call("os.RemoveAll", re.compile(r"\bos\.RemoveAll\s*\(\s*"), "string", FileOperation.DELETE_TREE),
        _Call("os.Remove", re.compile(r"\bos\.Remove\s*\(\s*"), "string", FileOperation.DELETE_FILE),
    ),
    "rust": (
        # `Command::new("sh").arg("-c").arg(CMD)`, `.args(["-c", CMD])`: a shell string.
        _Call("Command::new", re.compile(
            r"\bCommand::new\(\s*\"(?:/usr)?(?:/bin/)?(?:sh|bash|dash|zsh)\"\s*\)\s*"
            r"(?:\.arg\(\s*\"-c\"\s*\)\s*\.arg\(|\.args\(\s*&?(?:vec!)?\[\s*\"-c\"\s*,)\s*"), "string"),
        _Call("remove_dir_all", re.compile(r"\bremove_dir_all\s*\(\s*"), "string", FileOperation.DELETE_TREE),
        _Call("remove_file", re.compile(r"\bremove_file\s*\(\s*"), "string", FileOperation.DELETE_FILE),
    ),
    "swift": (
        # A Process whose arguments start with `-c`: a shell's (`launchPath = "/bin/sh"`).
        _Call("Process", re.compile(r"\barguments\s*[=:]\s*\[\s*\"-c\"\s*,\s*"), "string"),
        _Call("system", re.compile(r"\bsystem\s*\(\s*"), "string"),
        _Call("removeItem", re.compile(r"\bremoveItem\s*\(\s*atPath:\s*"), "string", FileOperation.DELETE_TREE),
    ),
}  # fmt: skip
# What a C-family list of arguments ends with.
_NULLS = frozenset({"NULL", "nullptr", "0", "(char*)NULL", "(char*)0", "(char*)nullptr"})
# The expressions that give the home directory, read as the shell's `$HOME`.
_HOMES: dict[str, re.Pattern[str]] = {
    "r": re.compile(r"Sys\.getenv\(\s*[\"']HOME[\"']\s*\)|path\.expand\(\s*[\"']~[\"']\s*\)"),
    "tcl": re.compile(r"\$(?:::)?env\(HOME\)|\$\{(?:::)?env\(HOME\)\}"),
    "julia": re.compile(r"homedir\(\s*\)|ENV\[\s*\"HOME\"\s*\]"),
    "c": re.compile(r"getenv\(\s*\"HOME\"\s*\)"),
    "go": re.compile(r"os\.Getenv\(\s*\"HOME\"\s*\)"),
    "rust": re.compile(r"env!\(\s*\"HOME\"\s*\)"),
    "swift": re.compile(r"NSHomeDirectory\(\s*\)|FileManager\.default\.homeDirectoryForCurrentUser\.path"),
}
_ESCAPES = {"n": "\n", "t": "\t"}
# Go's raw strings are backquoted.
_STRING_QUOTES = {"go": '"`'}
# A scan of this many characters costs about what a tree-sitter analyser's step does.
_CHARACTERS_PER_STEP = 16
_TCL_COMMAND_END = frozenset(";\n]")


class _Argument(NamedTuple):
    text: str | tuple[str | None, ...] | None
    """A string, the words of a command (None for one known only at run time), or not a literal."""
    end: int
    verbatim: bool
    """The string stands in the code as it is (no escapes): a finding can point into it."""


class ShellCallAnalyser:
    """The calls of one snippet in one of `_CALLS`'s languages (a subclass names it)."""

    language: ClassVar[str]

    def __init__(self, source: str, run: Run) -> None:
        self.source = source
        self.run = run
        self._facts: list[Fact] = []

    @property
    def found(self) -> list[Fact]:
        return self._facts

    def facts(self) -> list[Fact]:
        for call in _CALLS[self.language]:
            self.run.step(1 + len(self.source) // _CHARACTERS_PER_STEP)  # each pattern scans the whole snippet
            for match in call.start.finditer(self.source):
                self.run.step()
                start = match.start() + len(match.group()) - len(match.group().lstrip(";\n[{ \t"))
                self._fact(call, start, match.end())
        return self._facts

    def _fact(self, call: _Call, start: int, at: int) -> None:
        argument = self._argument(call.argument, at)
        span = Span(start, argument.end)
        if call.operation is not None:
            path = argument.text if isinstance(argument.text, str) else _first_word(argument.text)
            operation = call.operation
            if call.recursive is not None and call.recursive.search(self.source, argument.end, self._line_end(at)):
                operation = FileOperation.DELETE_TREE
            self._facts.append(DestructiveCall(operation, path, call.via, span))
        elif argument.text is None:
            self._facts.append(Unresolved(UnresolvedKind.DYNAMIC_CODE, "runs a command built at run time", span))
        elif isinstance(argument.text, str):
            literal = Span(at + 1, argument.end - 1) if argument.verbatim else None
            self._facts.append(ShellOut(ShellOutKind.SHELL_STRING, argument.text, call.via, span, literal))
        else:
            words = argument.text[call.skipped :]
            known = tuple(word for word in words if word is not None)
            command = known if len(known) == len(words) else None
            self._facts.append(ShellOut(ShellOutKind.ARGV, command, call.via, span, None, words))

    def _line_end(self, at: int) -> int:
        end = self.source.find("\n", at)
        return len(self.source) if end == -1 else end

    def _argument(self, kind: str, at: int) -> _Argument:
        home = _HOMES.get(self.language)
        found = home.match(self.source, at) if home is not None else None
        if found is not None:
            return _Argument("$HOME" if kind != "words" else ("$HOME",), found.end(), False)
        if kind == "words":
            return self._tcl_words(at)
        if kind == "strings":
            return self._strings(at)
        quotes = (
            "`" if kind == "backquotes" else ("\"'" if self.language == "r" else _STRING_QUOTES.get(self.language, '"'))
        )
        quoted = self._quoted(at, quotes)
        if quoted is None or kind != "backquotes" or not isinstance(quoted.text, str):
            return quoted or _Argument(None, at, False)
        # Julia splits a command literal into words as a shell would, and runs no shell.
        if "$" in quoted.text:
            return _Argument(None, quoted.end, False)
        try:
            return _Argument(tuple(shlex.split(quoted.text)), quoted.end, False)
        except ValueError:
            return _Argument(None, quoted.end, False)

    def _quoted(self, at: int, quotes: str) -> _Argument | None:
        """A string literal at `at` with backslash escapes; None when none starts there."""
        source = self.source
        if at >= len(source) or source[at] not in quotes:
            return None
        quote, index, text = source[at], at + 1, list[str]()
        while index < len(source) and source[index] != quote:
            self.run.step()
            if source[index] == "\\" and index + 1 < len(source):
                index += 1
                text.append(_ESCAPES.get(source[index], source[index]))
            else:
                text.append(source[index])
            index += 1
        end = min(index + 1, len(source))
        value = "".join(text)
        return _Argument(value, end, value == source[at + 1 : index])

    def _strings(self, at: int) -> _Argument:
        """The arguments from `at` to the call's `)`: each string literal's text, None for any other
        expression (known only at run time); C's terminating null ends the list."""
        source, index, words = self.source, at, list[str | None]()
        quotes = _STRING_QUOTES.get(self.language, '"')
        while index < len(source) and source[index] != ")":
            self.run.step()
            quoted = self._quoted(index, quotes)
            end = quoted.end if quoted is not None else index
            if quoted is None and source.startswith("(", index):  # a cast: `(char *)NULL`
                end = source.find(")", index) + 1 or len(source)
            while end < len(source) and source[end] not in ",)":
                end += 1
            if quoted is None and source[index:end].replace(" ", "") in _NULLS:
                break
            words.append(quoted.text if quoted is not None and isinstance(quoted.text, str) else None)
            index = end + 1 if end < len(source) and source[end] == "," else end
            while index < len(source) and source[index] in " \t\n":
                index += 1
        return _Argument(tuple(words), index, False)

    def _tcl_words(self, at: int) -> _Argument:
        """The words of a Tcl command from `at` to its end: braces quote without substitution,
        a word with `$` or `[` is known only at run time."""
        source, index, words = self.source, at, list[str | None]()
        while index < len(source) and source[index] not in _TCL_COMMAND_END:
            self.run.step()
            if source[index] in " \t":
                index += 1
                continue
            if source[index] == "{":
                close = source.find("}", index)
                close = len(source) if close == -1 else close
                words.append(source[index + 1 : close])
                index = close + 1
                continue
            quoted = self._quoted(index, '"')
            end = index
            while (
                quoted is None
                and end < len(source)
                and source[end] not in " \t"
                and source[end] not in _TCL_COMMAND_END
            ):
                end += 1
            word = quoted.text if quoted is not None else source[index:end]
            index = quoted.end if quoted is not None else end
            words.append(_tcl_word(word))
        return _Argument(tuple(words), index, False)


def _tcl_word(word: object) -> str | None:
    """A Tcl word's text: the home directory's variable read as `$HOME`, any other substitution
    (`$dir`, `[cmd]`) only known at run time."""
    if not isinstance(word, str):
        return None
    rest = _HOMES["tcl"].sub("", word)
    return None if "$" in rest or "[" in rest else _HOMES["tcl"].sub("$HOME", word)


def _first_word(words: str | tuple[str | None, ...] | None) -> str | None:
    if isinstance(words, str):
        return words
    return words[0] if words else None


class AppleScriptAnalyser(ShellCallAnalyser):
    language = "applescript"


class RAnalyser(ShellCallAnalyser):
    language = "r"


class TclAnalyser(ShellCallAnalyser):
    language = "tcl"


class JuliaAnalyser(ShellCallAnalyser):
    language = "julia"


class CAnalyser(ShellCallAnalyser):
    language = "c"


class GoAnalyser(ShellCallAnalyser):
    language = "go"


class RustAnalyser(ShellCallAnalyser):
    language = "rust"


class SwiftAnalyser(ShellCallAnalyser):
    language = "swift"
