"""Machines worn out by load: processes created without end by another language's code (RE001),
memory filled without end by it (RE002), floods of packets at a host (RE003), and load or stress
generated on purpose (RE004). The shell's own fork bombs and spawning loops are DO001 and DO002;
a disk filled is SY025 and SY026.

The code tests read the code string an interpreter is given (`perl -e`, `python3 -c`, `node -e`),
as text with its string literals emptied: a loop that cannot end and a call that starts a process
without waiting for it. A loop bounded by a condition the text does not show (`while ok:`) is not
read as endless.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .._analysis import CommandSubject
from .._analysis._contexts._interpreters import read_invocation
from .._model import Severity
from .._tables import Tables
from ..programs.destinations import url_hosts
from ._pushes import foreign_host
from ._rule import Hit, Inspects, rule

# Per language: a loop with no condition that can turn false, and the calls that start a process
# (or a thread of work) without waiting for it.
# Python's iterators that never run out: `iter(int, 1)` (int() is never 1), `itertools.count()`,
# `cycle(...)`, `repeat(x)` without a count.
_PYTHON_ENDLESS_ITERATOR = (
    r"(iter\(\s*int\s*,\s*[1-9]\d*\s*\)|(itertools\.)?(count\(\s*\d*\s*\)|cycle\(|repeat\(\s*[^,()]*\)))"
)
_ENDLESS_LOOPS = {
    "python": rf"\bwhile\s*\(?\s*(True|1)\s*\)?\s*:|\bfor\s+[\w, ]+\s+in\s+{_PYTHON_ENDLESS_ITERATOR}",
    "perl": r"\bwhile\s*\(?\s*1\s*\)?|\bfor\s*\(\s*;\s*;\s*\)|\bloop\b|\bwhile\s*\(\s*\)|\buntil\s*\(?\s*0\s*\)?",
    "ruby": r"\bloop\b|\bwhile\s+(true|1)\b|\buntil\s+(false|nil)\b",
    "javascript": r"\bwhile\s*\(\s*(true|1|!0)\s*\)|\bfor\s*\(\s*;\s*;\s*\)|\bsetInterval\s*\(",
    "php": r"\bwhile\s*\(\s*(true|1)\s*\)|\bfor\s*\(\s*;\s*;\s*\)",
}
_SPAWNS = {
    "python": r"\bos\.fork\s*\(|\bfork\s*\(\s*\)|\bPopen\s*\(|\bProcess\s*\(|\bos\.spawn\w*\s*\(",
    "perl": r"\bfork\b",
    "ruby": r"\bfork\b|\bspawn\b|\bProcess\.spawn\b",
    "javascript": r"\b(spawn|fork|exec|execFile)\s*\(|\bnew\s+Worker\s*\(",
    "php": r"\bpcntl_fork\s*\(|\bproc_open\s*\(|\bpopen\s*\(",
}
# What bounds the loop or the processes in it: a wait, a pause, a way out.
_BOUNDED = re.compile(r"\b(wait\w*|join|sleep|usleep|break|last|exit|return|die|raise|throw|waitpid|Process\.wait)\b")
# Growth without end: appending to a collection or a string.
_GROWS = re.compile(r"\.(append|extend|push|concat)\s*\(|<<|\+=|\bpush\s*@|\.=")
# A Python list built by a comprehension over an endless iterator: `[bytearray(10**9) for _ in iter(int, 1)]`.
_PYTHON_ENDLESS_LIST = rf"\[[^\]]*\bfor\s+[\w, ]+\s+in\s+{_PYTHON_ENDLESS_ITERATOR}"
_READS_INPUT = re.compile(r"\b(input|readline|read|recv|gets|STDIN|stdin|accept|get)\b")


# A string literal of the code: what it says is data (`print "fork while 1"`), not code.
_STRING_LITERAL = re.compile(r""""(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'""")


def _code(subject: CommandSubject, tables: Tables) -> tuple[str, str] | None:
    """The code string an interpreter is given, with its language, when it is written out; its
    string literals emptied."""
    spec = tables.interpreter(subject.name)
    if spec is None or spec.language not in _ENDLESS_LOOPS:
        return None
    code = read_invocation(spec, subject.args).code
    if code is None or code.value is None:
        return None
    return _STRING_LITERAL.sub('""', code.value), spec.language


def _interpreter_names(tables: Tables) -> frozenset[str]:
    return frozenset(
        name for spec in tables.interpreter_families.values() if spec.language in _ENDLESS_LOOPS for name in spec.names
    )


@rule(
    id="RE001",
    name="processes-spawned-endlessly-in-code",
    severity=Severity.HIGH,
    summary=(
        "Code given to an interpreter starts processes in a loop that never ends, waiting for none: "
        "`perl -e 'fork while 1'`, `ruby -e 'loop { fork }'`, `python3 -c 'while True: os.fork()'`, "
        "`node -e 'while(true) spawn(...)'`."
    ),
    rationale=(
        "Each turn adds a process that runs on, so the process table and the memory fill in seconds "
        "and the machine stops answering, as the shell's fork bomb does (DO001). It blocks."
    ),
    safer_alternative="Start a fixed number of workers (a pool) and wait for them, or bound the loop.",
    inspects=Inspects.COMMAND,
    commands=_interpreter_names,
    must_match=(
        "perl -e 'fork while 1'",
        "ruby -e 'loop { fork { loop {} } }'",
        "python3 -c 'import os\nwhile True: os.fork()'",
        "node -e \"while(true){require('child_process').spawn('node',['-e','1'])}\"",
    ),
    must_not_match=(
        "perl -e 'my $pid = fork; waitpid($pid, 0) if $pid'",
        "python3 -c 'while True: subprocess.Popen(cmd).wait()'",
        "ruby -e 'loop { puts Time.now; sleep 1 }'",
        "node -e \"require('child_process').spawn('ls')\"",
    ),
)
def processes_spawned_endlessly(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    found = _code(subject, tables)
    if found is None:
        return
    code, language = found
    endless = re.search(_ENDLESS_LOOPS[language], code) is not None
    if endless and re.search(_SPAWNS[language], code) and _BOUNDED.search(code) is None:
        yield Hit(subject.span, f"`{subject.name}` starts processes in a loop that never ends")


@rule(
    id="RE002",
    name="memory-filled-endlessly-in-code",
    severity=Severity.MEDIUM,
    summary=(
        "Code given to an interpreter grows a list or a string in a loop that never ends and reads "
        "nothing (`python3 -c 'a=[]\\nwhile True: a.append(\" \" * 10**8)'`), or builds a list from an iterator "
        "that never ends (`python3 -c 'a = [bytearray(10**9) for _ in iter(int, 1)]'`)."
    ),
    rationale=(
        "The process takes memory until the machine swaps and the kernel kills something, not always "
        "the culprit. It warns: the kernel ends it in the end, and nothing is lost on disk."
    ),
    safer_alternative="Bound the loop, or measure memory with a fixed size (`bytearray(10**8)`).",
    inspects=Inspects.COMMAND,
    commands=_interpreter_names,
    must_match=(
        "python3 -c 'a=[]\nwhile True: a.append(\" \" * 10**8)'",
        "node -e 'let a=[]; for(;;) a.push(1)'",
        "python3 -c 'a = [bytearray(10**9) for _ in iter(int, 1)]'",
        "python3 -c 'import itertools\nb=[]\nfor i in itertools.count(): b.append(i)'",
    ),
    must_not_match=(
        "python3 -c 'while True:\n    line = input()\n    lines.append(line)'",
        "python3 -c 'a=[]\nfor i in range(10): a.append(i)'",
        "python3 -c 'import itertools\nprint(list(itertools.islice(itertools.count(), 5)))'",
        "python3 -c 'print([x for x in zip(range(3), itertools.repeat(0, 3))])'",
    ),
)
def memory_filled_endlessly(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    found = _code(subject, tables)
    if found is None:
        return
    code, language = found
    endless_list = language == "python" and re.search(_PYTHON_ENDLESS_LIST, code) is not None
    if not endless_list and (re.search(_ENDLESS_LOOPS[language], code) is None or _GROWS.search(code) is None):
        return
    if _BOUNDED.search(code) is None and _READS_INPUT.search(code) is None:
        yield Hit(subject.span, f"`{subject.name}` grows its memory in a loop that never ends")


def _floods(subject: CommandSubject) -> str | None:
    """hping3 sending as fast as it can (`--flood`, `--faster`, `-i u10`), ping's flood (`ping -f`)."""
    words = [arg.value or "" for arg in subject.args]
    if subject.name == "hping3":
        fast = any(word in ("--flood", "--faster") or word.startswith("-iu") for word in words)
        paced = any(word in ("-i", "--interval") and at + 1 < len(words) and words[at + 1].startswith("u")
                    for at, word in enumerate(words))  # fmt: skip
        return "`hping3` sends packets as fast as it can" if fast or paced else None
    flood = any(word.startswith("-") and not word.startswith("--") and "f" in word for word in words)
    return f"`{subject.name} -f` floods the host with packets" if flood else None


@rule(
    id="RE003",
    name="packet-flood",
    severity=Severity.HIGH,
    summary="Floods a host with packets: `hping3 --flood` (or `--faster`, `-i u10`), `ping -f`.",
    rationale=(
        "A flood saturates the target's link and the local network, and against a host the user does "
        "not own it is a denial-of-service attack, an offence in most places. It blocks."
    ),
    safer_alternative="Measure with a bounded rate and count (`ping -c 10`, `hping3 -c 5 -S -p 80 HOST`).",
    inspects=Inspects.COMMAND,
    commands=("hping3", "ping", "ping6"),
    must_match=("hping3 --flood -S -p 80 203.0.113.80", "sudo ping -f 192.0.2.1", "hping3 -i u100 -S -p 443 host"),
    must_not_match=("hping3 -c 3 -S -p 80 example.com", "ping -c 4 example.com", "ping6 -c 2 ::1"),
)
def packet_flood(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    flood = _floods(subject)
    if flood is not None:
        yield Hit(subject.span, flood)


# Load generators, pointed at a URL among their operands.
_LOAD_GENERATORS = ("ab", "wrk", "wrk2", "hey", "siege", "oha", "bombardier", "h2load", "autocannon")
_STRESS_TOOLS = ("stress", "stress-ng")
_ONLY_ASKS = frozenset({"-h", "--help", "-V", "--version", "--class", "--sequential-help"})


def _load(subject: CommandSubject, tables: Tables) -> str | None:
    words = [arg.value or "" for arg in subject.args]
    if subject.name in _STRESS_TOOLS:
        asks = not words or any(word in _ONLY_ASKS or word.endswith("?") for word in words)
        return None if asks else f"`{subject.name}` loads the machine's processors, memory or disks on purpose"
    for word in words:
        if word.startswith(("http://", "https://")) and any(foreign_host(host, tables) for host in url_hosts(word)):
            return f"`{subject.name}` sends a load of requests to `{word}`"
    return None


@rule(
    id="RE004",
    name="load-generated",
    severity=Severity.MEDIUM,
    summary=(
        "Generates load on purpose: a stress tool on this machine (`stress-ng --vm 8 --vm-bytes 100%`, "
        "`stress --cpu 8`), or a load generator at a foreign host (`ab -n 1000000 -c 1000 "
        "https://api.example.com/`, `wrk`, `hey`, `siege`)."
    ),
    rationale=(
        "A stress run takes every core or all the memory for as long as it lasts, on a machine others "
        "use; a load test against a service the user does not run is an attack on it, and on one they "
        "run it can take production down. It warns: load testing a staging service is routine."
    ),
    safer_alternative=(
        "Load-test a service on this machine or the private network, with a bounded count and time "
        "(`ab -n 1000 -c 10 http://localhost:8080/`), or ask a human."
    ),
    inspects=Inspects.COMMAND,
    commands=(*_LOAD_GENERATORS, *_STRESS_TOOLS),
    must_match=(
        "stress-ng --vm 8 --vm-bytes 100% --timeout 0",
        "ab -n 1000000 -c 1000 https://api.acme.com/v1/search",
        "hey -z 10m -c 500 https://shop.example.com/",
    ),
    must_not_match=(
        "ab -n 1000 -c 10 http://localhost:8080/",
        "wrk -t2 -c10 -d10s http://127.0.0.1:3000/",
        "stress-ng --help",
    ),
)
def load_generated(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    load = _load(subject, tables)
    if load is not None:
        yield Hit(subject.span, load)


EXHAUSTION_RULES = (processes_spawned_endlessly, memory_filled_endlessly, packet_flood, load_generated)
