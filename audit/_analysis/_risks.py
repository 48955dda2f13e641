"""Risk answers: how risky a command, a word, a redirect or a variable is.

A command is risky when it fetches from the network, decodes data, runs an
interpreter or uses a tainted variable (`command_risks`). A word, redirect or
command is as risky as the commands it would run, which a silent walk finds
(`SilentWalk`, done by the walker on a copy of its state). A variable is
tainted when any of its bindings is risky (`RiskAnswers.is_tainted`, answered
once per variable and scope).
"""

from __future__ import annotations

from typing import Protocol

from .._syntax import ast
from .._tables import Tables
from ..programs import InterpreterSpec, curl_prints_only_numbers, windows_download
from ._bindings import Binding
from ._subjects import Arg, NameSource, Risk
from ._variables import Env

NO_RISKS: frozenset[Risk] = frozenset()
PRODUCES_UNTRUSTED_DATA = frozenset({Risk.FETCH, Risk.DECODE})
_CODE_RUNNERS = frozenset({"eval", "source", "."})
_TAINTED = frozenset({Risk.TAINT})
# Python flags that change neither what a `-c` program prints nor where its code comes from
# (not -i, which goes on to read code from standard input).
_QUIET_PYTHON_FLAGS = frozenset({"-I", "-E", "-S", "-s", "-B", "-u", "-q", "-O", "-OO"})


def command_risks(name: str | None, args: tuple[Arg, ...], source: NameSource, tables: Tables) -> frozenset[Risk]:
    """Why the output of the command `name ARGS` must not become code."""
    found: set[Risk] = set()
    if source is NameSource.TAINTED:
        found.add(Risk.TAINT)
    if name is None:
        return frozenset(found)
    # A command whose output is numbers by construction carries no code, whatever evaluates it.
    fetches = name in tables.fetchers and not (name == "curl" and curl_prints_only_numbers(args))
    if fetches or windows_download(name, args):
        found.add(Risk.FETCH)
    flags = tables.decoders.get(name)
    if flags is not None and (not flags or any(_has_flag(arg, flags) for arg in args)):
        found.add(Risk.DECODE)
    spec = tables.interpreter(name)
    if name in _CODE_RUNNERS or (
        spec is not None and _runs_code(spec, args) and not _python_prints_only_integers(name, spec, args)
    ):
        found.add(Risk.INTERPRETER)
    return frozenset(found) if found else NO_RISKS


def _runs_code(spec: InterpreterSpec, args: tuple[Arg, ...]) -> bool:
    """Whether what the command prints may be a program's output: not a compiler's (`gcc`), nor, for a
    family with subcommands, another subcommand's than the one that runs code (`go env GOPATH`)."""
    if spec.compiles:
        return False
    runners = spec.code_subcommands | spec.script_subcommands
    if not runners:
        return True
    first = next((arg.value for arg in args if not (arg.value or "").startswith("-")), None)
    return first is None or first in runners


def _python_prints_only_integers(name: str, spec: InterpreterSpec, args: tuple[Arg, ...]) -> bool:
    """`python3 -c 'import sys; print(sys.version_info.minor)'`: a program that prints integers only."""
    # Not ipython or jython: their `-c` code is not plain Python (`!cmd`, `%magic`).
    if spec.family != "python" or not name.startswith(("python", "pypy")):
        return False
    for position, arg in enumerate(args):
        if arg.value == "-c":
            code = args[position + 1].value if position + 1 < len(args) else None
            # Imported here: a grammar loads only for a Python `-c` program.
            from ..languages import prints_only_integers

            return code is not None and prints_only_integers("python", code)
        if arg.value not in _QUIET_PYTHON_FLAGS:
            return False
    return False


def _has_flag(arg: Arg, flags: frozenset[str]) -> bool:
    """A decoder's decoding flag, whole (`--decode`) or in a cluster (`base64 -di`)."""
    value = arg.value
    if value is None:
        return False
    if value in flags:
        return True
    if value.startswith("-") and not value.startswith("--"):
        return any(len(flag) == 2 and flag[1] in value[1:] for flag in flags if flag.startswith("-"))
    return False


class SilentWalk(Protocol):
    """A walk that finds risks without reporting anything (the walker on a copy of its state)."""

    def word_risks(self, word: ast.Word, env: Env) -> frozenset[Risk]: ...

    def command_risks(self, command: ast.Command, env: Env) -> frozenset[Risk]: ...

    def redirect_risks(self, redirect: ast.Redirect, env: Env) -> frozenset[Risk]: ...


class RiskAnswers:
    """Which variables hold risky data, remembered per scope for one audit."""

    __slots__ = ("_in_progress", "_taint")

    def __init__(self) -> None:
        # By scope, then by name: no key is built for the (frequent) lookups.
        self._taint: dict[Env, dict[str, bool]] = {}
        self._in_progress: set[tuple[Env, str]] = set()

    def is_tainted(self, name: str, env: Env, walk: SilentWalk) -> bool:
        """Whether `$name` in `env` holds downloaded, decoded or interpreter-produced data."""
        if name.isdigit() or name in ("@", "*"):
            if env.arguments_unknown and name != "0" and "@" not in env.bindings:
                return False  # each call is walked with its own arguments
            if env.given_positional():
                return _positional_tainted(name, env, walk)
        if (name.isdigit() and name != "0") or name == "*":
            name = "@"  # `set -- ...` binds them all at once
        known_here = self._taint.get(env)
        if known_here is not None:
            known = known_here.get(name)
            if known is not None:
                return known
        bindings = env.bindings.get(name)
        if bindings is None:
            return self.is_tainted(name, env.parent, walk) if env.parent is not None else False
        key = (env, name)
        if key in self._in_progress:
            return False
        self._in_progress.add(key)
        try:
            # Every binding is walked (no early exit): a silent walk registers the
            # functions it meets, and which ones it meets must not depend on order.
            risky = [bool(_binding_risks(binding, env, walk)) for binding in bindings]
            # A `declare -n` name reference holds what the variable it names holds.
            risky += [self.is_tainted(target, env, walk) for target in env.reference_targets(bindings) or ()]
            tainted = any(risky)
        finally:
            self._in_progress.discard(key)
        self._taint.setdefault(env, {})[name] = tainted
        return tainted


def _positional_tainted(name: str, env: Env, walk: SilentWalk) -> bool:
    """`sh -c '...$1...' _ "$(curl u)"`: a parameter bound to a risky argument."""
    positional = env.positional or ()
    if name in ("@", "*"):
        args = positional[1:]
    else:
        index = int(name)
        args = positional[index : index + 1]
    # The arguments were written in the enclosing command: judge them there.
    outer = env.parent or env
    return any(arg.word is not None and walk.word_risks(arg.word, outer) for arg in args)


def _binding_risks(binding: Binding, env: Env, walk: SilentWalk) -> frozenset[Risk]:
    risks: set[Risk] = set()
    for word in binding.words:
        risks |= walk.word_risks(word, env)
    for feeder in binding.feeders:
        risks |= walk.command_risks(feeder, env)
    for redirect in binding.redirects:
        risks |= walk.redirect_risks(redirect, env)
    return frozenset(risks)


def with_taint(risks: frozenset[Risk], tainted: bool) -> frozenset[Risk]:
    return risks | _TAINTED if tainted else risks
