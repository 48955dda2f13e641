"""Kills that reach far more than the process meant (the system.machine pack): every process of a
language runtime or shell killed by its name (SC018: `pkill -f node`, `killall -9 python3`,
`taskkill /F /IM node.exe`), and whatever holds a database's or a system service's port killed
(SC019: `kill -9 $(lsof -t -i :5432)`, `fuser -k 3306/tcp`). A kill of one program by its command
line (`pkill -f 'node server.js'`) or of a development server's port passes."""

from __future__ import annotations

import re
from fnmatch import fnmatchcase
from itertools import pairwise

from ..._model import Severity
from ...programs import Arg
from .._invocation import Found, command, listed_by, pack_rule
from .processes import killed_by_listing, killed_by_name

# The runtimes and shells whose name every program written for them runs under: the editor's
# language servers, the agent itself, other projects' servers and the user's terminals.
_RUNTIMES = (
    "node", "nodejs", "python", "python2", "python3", "python3.10", "python3.11", "python3.12", "python3.13",
    "python3.14", "python3.8", "python3.9", "pythonw", "java", "javaw", "ruby", "perl", "php", "dotnet", "deno",
    "bun", "electron", "bash", "zsh", "sh", "fish", "pwsh", "powershell",
)  # fmt: skip


def _image_name(word: str) -> str:
    """`node.exe` as `node`, in lower case (Windows' names are case-insensitive)."""
    return word.lower().removesuffix(".exe")


def _windows_kill_of_runtime(found: Found) -> Arg | None:
    """`taskkill /IM node.exe` (a `*` wildcard allowed), `Stop-Process -Name python`: the name follows
    taskkill's `/IM` or a prefix of Stop-Process's `-Name` or `-ProcessName`, in any case."""
    words = found.reading.operands
    if any((word.value or "").lower() == "-whatif" for word in words):
        return None  # only says what it would stop
    names_follow = ("/im", "-im") if found.subject.name == "taskkill" else ()
    for before, word in pairwise(words):
        switch = (before.value or "").lower()
        follows = switch in names_follow or (
            found.subject.name == "stop-process"
            and len(switch) > 1
            and ("-name".startswith(switch) or ("-processname".startswith(switch) and len(switch) > 2))
        )
        if not follows or word.value is None:
            continue
        patterns = [_image_name(name) for name in word.value.split(",")]
        if any(fnmatchcase(runtime, pattern) for pattern in patterns for runtime in _RUNTIMES):
            return word
    return None


RUNTIME_KILLED_BY_NAME = pack_rule(
    id="SC018",
    name="every-process-of-a-runtime-killed",
    severity=Severity.MEDIUM,
    summary=(
        "Kills every process of a language runtime or a shell by its name: `pkill -f node`, `killall -9 "
        "python3`, `kill $(pgrep java)`, `taskkill /F /IM node.exe`, `Stop-Process -Name python -Force`."
    ),
    rationale=(
        "Every program written for the runtime runs under its name: the editor's language servers and "
        "extensions, the agent itself, other projects' servers and builds, and with a shell's name the "
        "user's terminals. Their unsaved work is lost with them. It warns: freeing a stuck dev server "
        "this way is common on a machine of one's own."
    ),
    safer_alternative=(
        "Kill the one program by its command line (`pkill -f 'node server.js'`) or by the PID you started "
        "(`kill $!`), or stop it the way it was started (`npm stop`, Ctrl-C in its terminal)."
    ),
    matches=(
        command(("pkill", "killall"), where=killed_by_name(*_RUNTIMES)),
        command("kill", unless=("-l", "-L"), where=killed_by_listing(*_RUNTIMES)),
        command(("taskkill", "stop-process"), where=_windows_kill_of_runtime),
    ),
    message="kills every process of a language runtime or shell, not only the one meant",
    must_match=(
        "pkill -f node",
        "killall -9 python3",
        "kill -9 $(pgrep java)",
        "taskkill /F /IM node.exe",
        "pkill -9 ruby",
    ),
    must_not_match=(
        "pkill -f 'node server.js'",
        "pkill -f 'python manage.py runserver'",
        "killall -9 myapp",
        "kill $(pgrep -f 'java -jar app.jar')",
        "taskkill /F /PID 4242",
        "taskkill /IM myapp.exe",
    ),
)

# The ports of databases, brokers and the system's own services: what listens there holds data
# or keeps the machine reachable (ssh, DNS).
_SERVICE_PORTS = frozenset({
    "22", "53", "1433", "1521", "2379", "3306", "5432", "5672", "5984", "6379", "7687", "8086", "9042", "9092",
    "9200", "9300", "11211", "15672", "27017", "28015",
})  # fmt: skip
_PORT = re.compile(r"(?:^|[:=@])(\d{1,5})(?:$|/)")


def _names_service_port(words: list[str]) -> bool:
    """An `lsof` listing of what holds one of the service ports (`lsof -t -i :5432`, `-ti tcp:3306`)."""
    return any(match.group(1) in _SERVICE_PORTS for word in words[1:] for match in [_PORT.search(word)] if match)


def _fuser_port(found: Found) -> Arg | None:
    """The service port a `fuser` names (`5432/tcp`, or `-n tcp 5432`)."""
    for word in found.reading.operands:
        if word.value is not None and word.value.partition("/")[0] in _SERVICE_PORTS:
            return word
    return None


SERVICE_PORT_OWNER_KILLED = pack_rule(
    id="SC019",
    name="service-port-owner-killed",
    severity=Severity.MEDIUM,
    summary=(
        "Kills whatever holds a database's, a message broker's or a system service's port: `kill -9 $(lsof "
        "-t -i :5432)`, `lsof -ti :6379 | xargs kill`, `fuser -k 3306/tcp`."
    ),
    rationale=(
        "The process on 5432, 3306, 6379 or 27017 is most likely the database itself: killed with -9 it "
        "loses what it had not written and may need recovery; on 22 or 53 it is ssh or the resolver. It "
        "warns: the port of a development server (3000, 8080) passes."
    ),
    safer_alternative=(
        "Stop the service the way it was started (`brew services stop postgresql`, `docker stop db`, "
        "`systemctl stop redis`), or look first (`lsof -i :5432`) and kill the one PID you mean."
    ),
    matches=(
        command("kill", unless=("-l", "-L"), where=listed_by("lsof", selects_all=_names_service_port)),
        command("fuser", requires=("--kill",), where=_fuser_port),
    ),
    message="kills whatever holds a database's or a system service's port",
    must_match=(
        "kill -9 $(lsof -t -i :5432)",
        "lsof -ti:6379 | xargs kill -9",
        "fuser -k 3306/tcp",
    ),
    must_not_match=(
        "kill -9 $(lsof -t -i :3000)",
        "lsof -i :5432",
        "fuser 5432/tcp",
        "fuser -k 8080/tcp",
    ),
)

BROAD_KILLS = (RUNTIME_KILLED_BY_NAME, SERVICE_PORT_OWNER_KILLED)
