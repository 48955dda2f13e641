"""Ways to hide a command from a reader while bash still runs it (issue 19, classes 1-5).

An `Obfuscation` rewrites a payload, one simple command, into a command that
runs it: its name as a glob (class 1), behind wrappers whose long options are
abbreviated (2), out of an array, an indirection or a name reference (3),
through standard input, a literal document or BASH_ENV (4), by a scheduler
or another runner (5). Hidden, the payload must keep its findings, and gain
only the obfuscation's own (`adds`: a privilege change...).

`in_oracle` marks the rewrites the bash oracle can confirm: bash itself, or
one of the sandbox's real programs (fuzz/oracle.py REAL_PROGRAMS), runs the
payload. The others (pkexec, parallel, tmux...) are not in the sandbox; what
they run is their manuals' word.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from hypothesis import strategies as st

from audit._syntax import Budget, ast, parse

from .bash_grammar import single_quoted
from .embeddings import RESERVED_WORDS, SHELL_BUILTINS
from .gnu_options import LONG_OPTIONS, abbreviations
from .properties import corpus_cases

_PLAIN_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.+-]*")
# Words an array literal and an unquoted `${a[*]}` both keep as they are.
_PLAIN_WORD = re.compile(r"[A-Za-z0-9_./:=@%+,~-]+")
_DELIMITER = "HIDDEN_EOF"
# Values that belong to the shell running the payload (its arguments, its pid, its counters),
# which differ in the shell that runs it hidden.
_SHELL_OWN = re.compile(r"\$(\{[#!]?)?([0-9@*#$]|(BASHPID|PPID|RANDOM|SRANDOM|SECONDS|LINENO|SHLVL|BASH_SUBSHELL)\b)")
# Unquoted characters bash expands (globs, braces, a leading tilde).
_EXPANDED = re.compile(r"[*?[{]|^~")


@dataclass(frozen=True, slots=True)
class Payload:
    """A simple command to hide: its text, its name and the text after the name."""

    text: str
    name: str
    rest: str
    words: tuple[str, ...]
    """Its words as written, when they are literals that an array keeps as they are: no
    expansions, no globs (bash expands those when the array is assigned), no redirects."""

    @property
    def plain(self) -> bool:
        """Every word a plain literal: the same words whoever splits them (env -S, `${a[*]}`)."""
        return bool(self.words) and self.one_line and all(_PLAIN_WORD.fullmatch(word) for word in self.words)

    @property
    def one_line(self) -> bool:
        return "\n" not in self.text


def payload_of(text: str) -> Payload | None:
    """`text` as a payload: one simple command named by a plain word, with no assignments."""
    script = parse(text, budget=Budget(10.0)).script
    if len(script.statements) != 1 or script.statements[0].background:
        return None
    command = script.statements[0].command
    if type(command) is not ast.SimpleCommand or not command.words or command.assignments:
        return None
    if _SHELL_OWN.search(text):
        return None
    first = command.words[0]
    name = first.source
    if not _PLAIN_NAME.fullmatch(name) or name in SHELL_BUILTINS or name in RESERVED_WORDS or first.span.start:
        return None
    literal = not command.redirects and all(_is_literal(word) for word in command.words)
    words = tuple(word.source for word in command.words) if literal else ()
    return Payload(text, first.source, text[first.span.end :], words)


def _is_literal(word: ast.Word) -> bool:
    return all(type(part) is ast.Literal and (part.quoted or not _EXPANDED.search(part.text)) for part in word.parts)


@dataclass(frozen=True, slots=True)
class Obfuscation:
    name: str
    issue_item: int
    hide: Callable[[Payload], str | None]
    """The hidden command, or None when this rewrite does not fit the payload."""
    adds: frozenset[str] = frozenset()
    in_oracle: bool = True


def _quoted(payload: Payload) -> str:
    return single_quoted(payload.text)


def _document(payload: Payload) -> str:
    """The payload as a quoted heredoc read back by cat (its delimiter kept out of the payload)."""
    delimiter = _DELIMITER
    while delimiter in payload.text:
        delimiter += "_"
    return f"$(cat <<'{delimiter}'\n{payload.text}\n{delimiter}\n)"


def _array(payload: Payload) -> str | None:
    return " ".join(payload.words) if payload.words else None


def _globbed(template: str) -> Callable[[Payload], str | None]:
    """The payload with its name spelled by `template` (`{first}`, `{middle}`, `{last}` letters)."""

    def hide(payload: Payload) -> str | None:
        name = payload.name
        if "/" in name or len(name) < 2:
            return None
        return template.format(first=name[0], middle=name[1:-1], last=name[-1]) + payload.rest

    return hide


def _abbreviated(payload: Payload) -> str | None:
    """The payload with each long option of a GNU program cut to a prefix the program still reads."""
    if payload.name not in LONG_OPTIONS or not payload.words:
        return None
    changed = False
    words = []
    for word in payload.words:
        option, equals, value = word.partition("=")
        shorter = abbreviations(payload.name, option[2:]) if option.startswith("--") else ()
        if shorter:
            word = f"--{shorter[len(shorter) // 2]}{equals}{value}"
            changed = True
        words.append(word)
    return " ".join(words) if changed else None


def _with(prefix: str) -> Callable[[Payload], str]:
    return lambda payload: f"{prefix} {payload.text}"


def _if(condition: Callable[[Payload], bool], hide: Callable[[Payload], str | None]) -> Callable[[Payload], str | None]:
    return lambda payload: hide(payload) if condition(payload) else None


def _one_line(payload: Payload) -> bool:
    return payload.one_line


OBFUSCATIONS: tuple[Obfuscation, ...] = (
    # 1. The name from pathname expansion: a bracket of one letter, `?` in the directory.
    Obfuscation("name: a bracketed first letter", 1, _globbed("/usr/bin/[{first}]{middle}{last}")),
    Obfuscation("name: a bracketed last letter", 1, _globbed("/usr/bin/{first}{middle}[{last}]")),
    Obfuscation("name: /usr/b?n", 1, _globbed("/usr/b?n/{first}{middle}{last}")),
    # 2. Abbreviated long options: the wrappers' (real in the sandbox) and the payload's own.
    Obfuscation("timeout --sig", 2, _with("timeout --sig KILL 60")),
    Obfuscation("timeout --kill-a", 2, _with("timeout --kill-a 1 60")),
    Obfuscation("nice --adj", 2, _with("nice --adj 1")),
    Obfuscation("env --unse", 2, _with("env --unse HIDDEN")),
    Obfuscation("env --split-s", 2, _if(lambda p: p.plain, lambda p: f"env --split-s {_quoted(p)}")),
    Obfuscation("flock --time", 2, _with("flock --time 5 /tmp/hidden.lock")),
    Obfuscation("setsid --wa", 2, _with("setsid --wa")),
    Obfuscation("sudo --us", 2, _with("sudo --us root"), adds=frozenset({"PR001"}), in_oracle=False),
    Obfuscation("stdbuf --outp", 2, _with("stdbuf --outp L"), in_oracle=False),
    Obfuscation("su --comm", 2, lambda p: f"su --comm {_quoted(p)} root", adds=frozenset({"PR001"}), in_oracle=False),
    Obfuscation("long options abbreviated", 2, _abbreviated, in_oracle=False),
    # 3. Arrays, indirection and name references.
    Obfuscation("array", 3, lambda p: (words := _array(p)) and f'_c=( {words} ); "${{_c[@]}}"'),
    Obfuscation("declare -a", 3, lambda p: (words := _array(p)) and f'declare -a _c=( {words} ); "${{_c[@]}}"'),
    Obfuscation("typeset -a", 3, lambda p: (words := _array(p)) and f'typeset -a _c=( {words} ); "${{_c[@]}}"'),
    Obfuscation("readonly -a", 3, lambda p: (words := _array(p)) and f'readonly -a _c=( {words} ); "${{_c[@]}}"'),
    Obfuscation("local -a", 3, lambda p: (words := _array(p)) and f'_f() {{ local -a _c=( {words} ); "${{_c[@]}}"; }}; _f'),
    Obfuscation("array slice", 3, lambda p: (words := _array(p)) and f'_c=( _ {words} ); "${{_c[@]:1}}"'),
    Obfuscation("unquoted [*]", 3, _if(lambda p: p.plain, lambda p: f"_c=( {' '.join(p.words)} ); ${{_c[*]}}")),
    Obfuscation("name by indirection", 3, lambda p: f'_v={p.name}; _n=_v; "${{!_n}}"{p.rest}'),
    Obfuscation("name by reference", 3, lambda p: f'declare -n _r=_v; _v={p.name}; "$_r"{p.rest}'),
    Obfuscation("name from an associative array", 3, lambda p: f'declare -A _m=([k]={p.name}); "${{_m[k]}}"{p.rest}'),
    # 4. Standard input, literal documents and BASH_ENV.
    Obfuscation("eval of a document", 4, lambda p: f'eval "{_document(p)}"'),
    Obfuscation("bash -c of a document", 4, lambda p: f'bash -c "{_document(p)}"'),
    Obfuscation("sh -c of a here-string", 4, lambda p: f'sh -c "$(cat <<< {_quoted(p)})"'),
    Obfuscation("echo into eval of cat", 4, lambda p: f'echo {_quoted(p)} | eval "$(cat)"'),
    Obfuscation("printf into bash", 4, lambda p: f"printf '%s\\n' {_quoted(p)} | bash"),
    Obfuscation("source /dev/stdin", 4, lambda p: f"source /dev/stdin <<< {_quoted(p)}"),
    Obfuscation("bash /dev/stdin", 4, lambda p: f"bash /dev/stdin <<< {_quoted(p)}"),
    Obfuscation(". /proc/self/fd/0", 4, lambda p: f". /proc/self/fd/0 <<< {_quoted(p)}"),
    Obfuscation("BASH_ENV", 4, lambda p: f"BASH_ENV=<(printf '%s\\n' {_quoted(p)}) bash -c :"),
    # 5. Schedulers and runners.
    Obfuscation("nohup", 5, _with("nohup")),
    Obfuscation("taskset", 5, _with("taskset -c 0")),
    Obfuscation("flock -c", 5, lambda p: f"flock /tmp/hidden.lock -c {_quoted(p)}"),
    Obfuscation("xargs sh -c", 5, lambda p: f"printf '%s' {_quoted(p)} | xargs -0 sh -c"),
    Obfuscation("pkexec", 5, _with("pkexec"), adds=frozenset({"PR001"}), in_oracle=False),
    Obfuscation("run0", 5, _with("run0"), adds=frozenset({"PR001"}), in_oracle=False),
    Obfuscation("doas", 5, _with("doas"), adds=frozenset({"PR001"}), in_oracle=False),
    Obfuscation("systemd-run", 5, _with("systemd-run --user --scope"), in_oracle=False),
    Obfuscation("faketime", 5, _with("faketime now"), in_oracle=False),
    Obfuscation("parallel :::", 5, _if(_one_line, lambda p: f"parallel ::: {_quoted(p)}"), in_oracle=False),
    Obfuscation("echo into parallel", 5, _if(_one_line, lambda p: f"echo {_quoted(p)} | parallel"), in_oracle=False),
    Obfuscation("tmux new", 5, lambda p: f"tmux new -d {_quoted(p)}", in_oracle=False),
    Obfuscation("screen -dm", 5, lambda p: f"screen -dm sh -c {_quoted(p)}", in_oracle=False),
)  # fmt: skip

OBFUSCATIONS_BY_NAME = {obfuscation.name: obfuscation for obfuscation in OBFUSCATIONS}


# Findings of the input or the analysis itself, and fork bombs (fuzz/fork_bombs.py), are not payloads.
_NOT_PAYLOAD_RULES = frozenset({"PA001", "IN001", "IN002", "IN003", "IN004", "IN005", "DO001", "DO002"})


@dataclass(frozen=True, slots=True)
class Hidden:
    """A reviewed command, its findings, and the command that hides it (`text`)."""

    payload: str
    rules: frozenset[str]
    obfuscation: str
    text: str

    @property
    def adds(self) -> frozenset[str]:
        return OBFUSCATIONS_BY_NAME[self.obfuscation].adds


@cache
def payload_seeds() -> tuple[tuple[frozenset[str], Payload], ...]:
    """Reviewed corpus commands that are one simple command, with their findings: blocked, warned and passed."""
    seeds = []
    for case in corpus_cases():
        if case.policy_document is None and not case.rules & _NOT_PAYLOAD_RULES:
            payload = payload_of(case.command)
            if payload is not None:
                seeds.append((case.rules, payload))
    return tuple(seeds)


@st.composite
def hidden_commands(draw: st.DrawFn, *, in_oracle: bool = False) -> Hidden:
    """A corpus payload hidden by one of the obfuscations that fit it (only the oracle's, if asked)."""
    rules, payload = draw(st.deferred(lambda: st.sampled_from(payload_seeds())))
    fitting = [
        (obfuscation, text)
        for obfuscation in OBFUSCATIONS
        if (obfuscation.in_oracle or not in_oracle) and (text := obfuscation.hide(payload)) is not None
    ]
    obfuscation, text = draw(st.sampled_from(fitting))
    return Hidden(payload.text, rules, obfuscation.name, text)
