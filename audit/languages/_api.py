"""`analyse_code`: the one entry point, and the table of analysers."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Protocol

from .._budget import Budget
from .._model import Span
from ._facts import CodeReport, Fact, LanguageError, Unresolved, UnresolvedKind

if TYPE_CHECKING:
    from ._run import Run

# A step is one syntax node visited or evaluated. A 10,000-character snippet
# has a few thousand nodes; the limit only stops pathological input (and
# code that execs code that execs code...) when no time budget is given.
DEFAULT_MAX_STEPS = 100_000
# exec("exec('...')"): how many levels of code-in-a-literal are analysed.
DEFAULT_MAX_DEPTH = 4


class _Analyser(Protocol):
    @property
    def found(self) -> list[Fact]: ...

    def facts(self) -> list[Fact]: ...


class _AnalyserFactory(Protocol):
    def __call__(self, source: str, run: Run) -> _Analyser: ...


# language -> (module, class); modules are imported on first use so that
# `import audit.languages` costs nothing a command without such code pays for.
_ANALYSERS = {
    "python": ("._python", "PythonInterpreter"),
    "javascript": ("._javascript", "JavaScriptInterpreter"),
    "typescript": ("._javascript", "TypeScriptInterpreter"),
    "ruby": ("._ruby", "RubyInterpreter"),
    "php": ("._php", "PhpInterpreter"),
    "perl": ("._perl", "PerlInterpreter"),
    "lua": ("._lua", "LuaInterpreter"),
    "powershell": ("._powershell", "PowerShellInterpreter"),
    "cmd": ("._cmd", "CmdAnalyser"),
    "awk": ("._awk", "AwkAnalyser"),
    "applescript": ("._shell_calls", "AppleScriptAnalyser"),
    "r": ("._shell_calls", "RAnalyser"),
    "tcl": ("._shell_calls", "TclAnalyser"),
    "julia": ("._shell_calls", "JuliaAnalyser"),
    "c": ("._shell_calls", "CAnalyser"),
    "go": ("._shell_calls", "GoAnalyser"),
    "rust": ("._shell_calls", "RustAnalyser"),
    "swift": ("._shell_calls", "SwiftAnalyser"),
}

LANGUAGES = frozenset(_ANALYSERS)


def _factory(language: str) -> _AnalyserFactory:
    try:
        module_name, class_name = _ANALYSERS[language]
    except KeyError:
        known = ", ".join(sorted(_ANALYSERS))
        raise LanguageError(f"no analyser for language {language!r}; known: {known}") from None
    factory: _AnalyserFactory = getattr(importlib.import_module(module_name, __package__), class_name)
    return factory


def analyse_code(
    language: str,
    source: str,
    *,
    budget: Budget | None = None,
    max_steps: int = DEFAULT_MAX_STEPS,
    max_depth: int = DEFAULT_MAX_DEPTH,
    arguments: tuple[str | None, ...] | None = None,
    variables: tuple[tuple[str, str], ...] = (),
) -> CodeReport:
    """What `source`, a program in `language`, does that a shell audit must know.

    `arguments` are the program's command-line arguments (`python3 -c CODE ARG...`),
    None for one known only at run time; the default says they are not known at all.
    `variables` are the program's variables the command line sets before it starts, with their
    values (`awk -v NAME=VALUE`).

    Never raises on any `source`: code the analysis cannot follow is reported
    as `Unresolved`. When `budget` (the engine's time budget) or `max_steps`
    runs out, the facts found so far are reported with an `Unresolved`
    BUDGET fact. Raises `LanguageError` for a language not in `LANGUAGES`.
    """
    # Imported here, not at the top: `import audit.languages` stays as cheap as its fact types.
    from ._grammars import ParseCancelled
    from ._run import OutOfBudget, Run

    analyser = _factory(language)(source, Run(budget, max_steps, max_depth, arguments, variables))
    try:
        facts = analyser.facts()
    except (OutOfBudget, ParseCancelled):
        stopped = Unresolved(UnresolvedKind.BUDGET, "the analysis ran out of its budget", Span(0, len(source)))
        facts = [*analyser.found, stopped]
    return CodeReport(language, tuple(sorted(facts, key=lambda fact: (fact.span.start, fact.span.end))))
