"""The bubblewrap provider: one workspace per owner and thread, one fresh bwrap per command.

A sandbox is a workspace directory plus the provider's settings; nothing runs
between commands. Every `execute` audits the command, then starts a new bwrap
instance whose pid namespace ends with the command, so no process of one call
outlives it.
"""

# pyright: reportUnnecessaryIsInstance=false
# This module checks at run time the types its callers declare: values come from
# configuration files, run contexts and agents, and a wrong type must fail closed.

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import re
import threading
import uuid
from collections.abc import Callable, Generator
from pathlib import Path
from typing import BinaryIO

from audit import Decision, audit_command_cached
from sandbox._cgroup import RunCgroup
from sandbox._command_line import ExecutionDescriptors, bwrap_argv, generated_etc_files
from sandbox._files import (
    copy_workspace_file,
    ensure_owned_directory,
    open_workspace_file,
    remove_tree,
    require_searchable,
)
from sandbox._interface import (
    ExecResult,
    ExecStatus,
    SandboxConfigError,
    SandboxExecutionError,
    SandboxHardening,
    SandboxOwner,
    SandboxReleasedError,
    SandboxTypeError,
)
from sandbox._keyring import in_fresh_session_keyring
from sandbox._locate import BwrapLauncher, locate_bubblewrap
from sandbox._process import ProcessOutcome, RunControl, RunPipes, StopReason, run_bounded
from sandbox._settings import BubblewrapSettings

_WORKSPACE_NAME_PREFIX_CHARS = 40
_UNSAFE_NAME_CHARACTERS = re.compile(r"[^A-Za-z0-9_.-]+")
_RELEASE_WAIT_SECONDS = 10.0
"""How long `release` waits for killed commands to end before it refuses to delete their files."""


def workspace_name(thread_id: str, owner: SandboxOwner) -> str:
    """A directory name for the owner's thread: readable prefix, collision-free digest.

    Thread ids come from clients, so they are never used as paths directly
    (`../..`, `/`, NUL); the digest keeps two ids that clean up alike apart,
    and covers the owner, so another owner naming the same thread never
    finds this workspace.
    """
    readable = _UNSAFE_NAME_CHARACTERS.sub("_", thread_id).lstrip(".")[:_WORKSPACE_NAME_PREFIX_CHARS]
    keyed = f"{owner.key}\0{thread_id}".encode("utf-8", "surrogatepass")
    digest = hashlib.sha256(keyed).hexdigest()[:16]
    return f"{readable}-{digest}" if readable else digest


def exact_command(command: object) -> str:
    """`command` as an exact `str`: what the audit reads is what bwrap runs.

    A `str` subclass can override how it encodes or prints itself, showing
    the audit one command and handing subprocess another; a copy of its
    characters cannot.
    """
    if not isinstance(command, str):
        raise SandboxTypeError(f"command must be a str, got {type(command).__name__}")
    return str.__str__(command)


class BubblewrapSandbox:
    """An owner's thread workspace, run through bubblewrap one command at a time."""

    def __init__(
        self,
        sandbox_id: str,
        thread_id: str,
        owner: SandboxOwner,
        workspace: Path,
        provider: BubblewrapProvider,
        launcher: BwrapLauncher,
    ) -> None:
        self._id = sandbox_id
        self._thread_id = thread_id
        self._owner = owner
        self._workspace = workspace
        self._provider = provider
        self._launcher = launcher
        self._runs_lock = threading.Condition()
        self._runs: set[RunControl] = set()
        self._released = False

    def __repr__(self) -> str:
        return f"BubblewrapSandbox(id={self._id!r}, thread_id={self._thread_id!r})"

    @property
    def id(self) -> str:
        return self._id

    @property
    def thread_id(self) -> str:
        return self._thread_id

    @property
    def owner(self) -> SandboxOwner:
        return self._owner

    @property
    def workspace(self) -> Path:
        """The host directory that appears as /workspace inside.

        Its content is written by the sandbox: read files with `open_file`,
        `read_bytes`, `read_text` or `copy_file`, never by joining paths onto
        this one (a planted symlink would be followed, as root if the service
        is root).
        """
        return self._workspace

    def open_file(self, path: str | os.PathLike[str]) -> BinaryIO:
        """Open a workspace file for reading; symlinks, `..` and non-regular files raise `SandboxPathError`."""
        return open_workspace_file(self._workspace, path)

    def read_bytes(self, path: str | os.PathLike[str]) -> bytes:
        with self.open_file(path) as opened:
            return opened.read()

    def read_text(self, path: str | os.PathLike[str], encoding: str = "utf-8") -> str:
        return self.read_bytes(path).decode(encoding)

    def copy_file(self, path: str | os.PathLike[str], destination: str | os.PathLike[str]) -> None:
        """Copy a workspace file to a host path outside the workspace, with `open_file`'s refusals."""
        copy_workspace_file(self._workspace, path, Path(destination))

    def execute(self, command: str, *, timeout: float | None = None) -> ExecResult:
        """Audit `command`; unless blocked, run it with bash inside the sandbox.

        A blocked command returns a result with status BLOCKED, no exit code
        and the verdict; nothing is started. A warned command runs and its
        result carries the findings as `warnings`. `timeout` (seconds, at
        most the provider's `max_timeout_seconds`) defaults to the provider's
        `default_timeout_seconds`. Whatever interrupts the call (an exception
        in this thread included), the command's processes are killed before
        it returns or raises.
        """
        return self._execute(exact_command(command), timeout, RunControl())

    async def aexecute(self, command: str, *, timeout: float | None = None) -> ExecResult:
        """`execute` for asyncio; cancelling the task kills the command."""
        control = RunControl()
        exact = exact_command(command)
        try:
            return await asyncio.to_thread(self._execute, exact, timeout, control)
        except asyncio.CancelledError:
            control.stop(StopReason.CANCELLED)
            raise

    def _execute(self, command: str, timeout: float | None, control: RunControl) -> ExecResult:
        settings = self._provider.settings
        timeout_seconds = settings.resolve_timeout(timeout)
        # The middleware in front usually judged this command already: the cache answers.
        verdict = audit_command_cached(command, policy=settings.audit_policy)
        if verdict.decision is Decision.BLOCK:
            return ExecResult.of_blocked(verdict)
        outcome = run_isolated(self, command, timeout_seconds=timeout_seconds, control=control)
        if outcome.stopped is StopReason.RELEASED:
            raise SandboxReleasedError(f"sandbox {self._id} was released while the command ran; it was killed")
        return ExecResult(
            status=ExecStatus.COMPLETED if outcome.stopped is None else ExecStatus.TIMED_OUT,
            exit_code=outcome.exit_code,
            stdout=outcome.stdout.data.decode("utf-8", "replace"),
            stderr=outcome.stderr.data.decode("utf-8", "replace"),
            stdout_truncated=outcome.stdout.truncated,
            stderr_truncated=outcome.stderr.truncated,
            duration_seconds=outcome.duration_seconds,
            verdict=verdict,
        )

    @property
    def settings(self) -> BubblewrapSettings:
        return self._provider.settings

    @property
    def launcher(self) -> BwrapLauncher:
        """The bwrap binary, identity and hardening this sandbox's runs use."""
        return self._launcher

    @contextlib.contextmanager
    def registered_run(self, control: RunControl) -> Generator[None, None, None]:
        """Count the run as this sandbox's until it ends; refuse it once the sandbox is released."""
        with self._runs_lock:
            if self._released:
                raise SandboxReleasedError(f"sandbox {self._id} was released")
            self._runs.add(control)
        try:
            yield
        finally:
            with self._runs_lock:
                self._runs.discard(control)
                self._runs_lock.notify_all()

    def stop_runs(self) -> None:
        """Refuse new runs, kill the running ones and wait until they have ended."""
        with self._runs_lock:
            self._released = True
            for control in self._runs:
                control.stop(StopReason.RELEASED)
            if not self._runs_lock.wait_for(lambda: not self._runs, timeout=_RELEASE_WAIT_SECONDS):
                raise SandboxExecutionError(
                    f"sandbox {self._id}: {len(self._runs)} commands did not end within "
                    f"{_RELEASE_WAIT_SECONDS:g} s of being killed; the workspace was kept"
                )


def run_isolated(
    sandbox: BubblewrapSandbox,
    command: str,
    *,
    timeout_seconds: float,
    control: RunControl | None = None,
) -> ProcessOutcome:
    """Run `command` in the sandbox without auditing it: the isolation layer alone.

    `execute` calls this after the audit. The isolation tests call it
    directly, because the sandbox must hold for exactly the commands the
    audit would have stopped.
    """
    exact = exact_command(command)
    run_control = RunControl() if control is None else control
    launcher = sandbox.launcher
    with sandbox.registered_run(run_control):

        def run() -> ProcessOutcome:
            return _run_in_bwrap(sandbox, exact, timeout_seconds, run_control)

        if launcher.syscall_filter is None:
            return in_fresh_session_keyring(run, stop=lambda: run_control.stop(StopReason.CANCELLED))
        return run()


def _run_in_bwrap(
    sandbox: BubblewrapSandbox, command: str, timeout_seconds: float, control: RunControl
) -> ProcessOutcome:
    settings = sandbox.settings
    launcher = sandbox.launcher
    cgroup = None if launcher.memory_cgroup is None else launcher.memory_cgroup.start_run(settings.max_run_memory_bytes)
    try:
        with _RunDescriptors(settings, launcher.syscall_filter, gated=cgroup is not None) as descriptors:
            argv = bwrap_argv(launcher.executable, settings, sandbox.workspace, descriptors.for_bwrap, command)
            outcome = run_bounded(
                descriptors.gate_prefix + argv,
                timeout_seconds=timeout_seconds,
                max_output_bytes=settings.max_output_bytes,
                pass_fds=descriptors.take_passed(),
                pipes=descriptors.take_pipes(),
                identity=launcher.popen_identity(),
                control=control,
                on_started=None if cgroup is None else descriptors.admitting_into(cgroup),
            )
    finally:
        if cgroup is not None:
            cgroup.remove()
    if outcome.stopped is None and not outcome.started_marker_seen:
        raise SandboxExecutionError(
            "the sandbox could not start the command: " + outcome.stderr.data.decode("utf-8", "replace").strip()
        )
    return outcome


_GATE_SHELL = "/bin/bash"
"""bash, not sh: dash cannot redirect descriptors above 9."""


class _RunDescriptors:
    """The pipes of one run; whatever `run_bounded` has not taken over is closed on exit.

    With `gated`, the process first waits on a pipe (a tiny shell that then
    execs bwrap), so that it can be moved into its cgroup before it forks.
    """

    def __init__(self, settings: BubblewrapSettings, syscall_filter: bytes | None, *, gated: bool) -> None:
        self._owned: list[int] = []
        generated = {path: self._pipe_holding(content) for path, content in generated_etc_files(settings).items()}
        self._marker_read, marker_write = self._pipe()
        self._status_read, status_write = self._pipe()
        filter_read = None if syscall_filter is None else self._pipe_holding(syscall_filter)
        self.for_bwrap = ExecutionDescriptors(generated, marker_write, status_write, filter_read)
        self._passed = [marker_write, status_write, *generated.values()]
        if filter_read is not None:
            self._passed.append(filter_read)
        self.gate_prefix: list[str] = []
        self._go_write: int | None = None
        if gated:
            go_read, self._go_write = self._pipe()
            self._passed.append(go_read)
            # `read` fails at end of file, so a service that dies before the
            # admission leaves a gate that exits instead of running bwrap.
            self.gate_prefix = [_GATE_SHELL, "-c", f'read -r go <&{go_read} && exec "$0" "$@" {go_read}<&-']

    def _pipe(self) -> tuple[int, int]:
        read_end, write_end = os.pipe()
        self._owned += [read_end, write_end]
        return read_end, write_end

    def _pipe_holding(self, content: bytes) -> int:
        read_end, write_end = self._pipe()
        # Each content is far below a pipe's capacity, so this never blocks.
        os.write(write_end, content)
        self._close(write_end)
        return read_end

    def _close(self, descriptor: int) -> None:
        self._owned.remove(descriptor)
        os.close(descriptor)

    def take_passed(self) -> list[int]:
        """The descriptors bwrap inherits; `run_bounded` closes them once it has started it."""
        for descriptor in self._passed:
            self._owned.remove(descriptor)
        return self._passed

    def take_pipes(self) -> RunPipes:
        self._owned.remove(self._marker_read)
        self._owned.remove(self._status_read)
        return RunPipes(started_marker=self._marker_read, status=self._status_read)

    def admitting_into(self, cgroup: RunCgroup) -> Callable[[int], None]:
        def admit(pid: int) -> None:
            cgroup.admit(pid)
            if self._go_write is not None:
                os.write(self._go_write, b"go\n")

        return admit

    def __enter__(self) -> _RunDescriptors:
        return self

    def __exit__(self, *_: object) -> None:
        for descriptor in list(self._owned):
            self._close(descriptor)


class BubblewrapProvider:
    """Linux sandboxes built with bubblewrap; see `BubblewrapSettings` for the limits.

    The bwrap binary is found and probed on first use (`ensure_available`),
    so constructing a provider never fails on a host without bubblewrap.
    When this process is root, bwrap runs as `settings.unprivileged_uid`.
    Sandboxes are keyed by owner and thread: two owners naming one thread
    get two sandboxes and two workspaces.
    """

    def __init__(self, settings: BubblewrapSettings | None = None) -> None:
        self._settings = settings if settings is not None else BubblewrapSettings()
        self._lock = threading.Lock()
        self._launcher: BwrapLauncher | None = None
        self._live: dict[str, BubblewrapSandbox] = {}
        self._live_by_key: dict[tuple[SandboxOwner, str], str] = {}

    @property
    def settings(self) -> BubblewrapSettings:
        return self._settings

    @property
    def hardening(self) -> SandboxHardening:
        """The seccomp filter and memory cgroup this host allows (probes bwrap on first use)."""
        return self._ensure_launcher().hardening

    def ensure_available(self) -> None:
        """Find and probe bwrap once; raise `SandboxUnavailableError` if it cannot work here."""
        self._ensure_launcher()

    def acquire(self, thread_id: str, *, owner: SandboxOwner) -> BubblewrapSandbox:
        checked: object = thread_id
        if not isinstance(checked, str) or not checked or "\0" in checked:
            raise SandboxConfigError(f"thread_id must be a non-empty string, got {checked!r}")
        owner_checked: object = owner
        if not isinstance(owner_checked, SandboxOwner):
            raise SandboxTypeError(f"owner must be a SandboxOwner, got {type(owner_checked).__name__}")
        launcher = self._ensure_launcher()
        with self._lock:
            live_id = self._live_by_key.get((owner, thread_id))
            if live_id is not None:
                return self._live[live_id]
            workspace = self._prepare_workspace(thread_id, owner, launcher)
            sandbox = BubblewrapSandbox(f"bwrap-{uuid.uuid4().hex}", thread_id, owner, workspace, self, launcher)
            self._live[sandbox.id] = sandbox
            self._live_by_key[owner, thread_id] = sandbox.id
            return sandbox

    def get(self, sandbox_id: str) -> BubblewrapSandbox | None:
        with self._lock:
            return self._live.get(sandbox_id)

    def release(self, sandbox_id: str, *, remove_workspace: bool = False) -> None:
        """Kill the sandbox's running commands, wait for them, and forget it (an unknown id does nothing).

        A command running when it is released ends with `SandboxReleasedError`.
        The workspace stays on disk, and is found again by the next `acquire`
        for the same owner and thread, unless `remove_workspace` is true.
        """
        with self._lock:
            sandbox = self._live.pop(sandbox_id, None)
            if sandbox is None:
                return
            del self._live_by_key[sandbox.owner, sandbox.thread_id]
            # Under the lock: a new acquire for the same owner and thread
            # must not get the workspace while it is being removed.
            sandbox.stop_runs()
            if remove_workspace:
                remove_tree(sandbox.workspace)

    async def aacquire(self, thread_id: str, *, owner: SandboxOwner) -> BubblewrapSandbox:
        return await asyncio.to_thread(self.acquire, thread_id, owner=owner)

    async def aget(self, sandbox_id: str) -> BubblewrapSandbox | None:
        return self.get(sandbox_id)

    async def arelease(self, sandbox_id: str, *, remove_workspace: bool = False) -> None:
        await asyncio.to_thread(self.release, sandbox_id, remove_workspace=remove_workspace)

    def _ensure_launcher(self) -> BwrapLauncher:
        with self._lock:
            if self._launcher is None:
                self._launcher = locate_bubblewrap(self._settings)
            return self._launcher

    def _prepare_workspace(self, thread_id: str, owner: SandboxOwner, launcher: BwrapLauncher) -> Path:
        # 0711: bwrap resolves the workspace by path, as the unprivileged uid
        # when this process is root; nobody needs to list the directory.
        root = ensure_owned_directory(self._settings.workspaces, 0o711)
        workspace = root / workspace_name(thread_id, owner)
        workspace.mkdir(mode=0o700, exist_ok=True)
        if workspace.is_symlink() or not workspace.is_dir():
            raise SandboxConfigError(f"workspace {workspace} is not a plain directory")
        if launcher.run_as is not None:
            require_searchable(root, launcher.run_as)
            os.chown(
                workspace,
                launcher.run_as.uid,
                launcher.run_as.gid,
                follow_symlinks=False,
            )
        return workspace
