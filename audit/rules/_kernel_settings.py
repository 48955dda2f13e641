"""The kernel's protections turned off, or a program it runs as root named, through its settings
(SY022, SY023): `sysctl -w kernel.randomize_va_space=0`, `echo 0 > /proc/sys/kernel/yama/ptrace_scope`,
`echo '|/tmp/x' | tee /proc/sys/kernel/core_pattern`.

A setting is judged when its value is known: sysctl's `KEY=VALUE` operands, or what `echo` or
`printf` with literal words prints into the file under /proc/sys (by a redirect, or piped to a
writer such as tee). Tuning a limit (`vm.max_map_count`, `fs.inotify.max_user_watches`) passes.
"""

from __future__ import annotations

from collections.abc import Iterator

from .._analysis import Arg, CommandSubject, RedirectSubject, static_output
from .._model import Severity
from .._syntax import ast
from .._tables import Tables
from ._paths import reading, redirect_writes_file, writes_a_file, written_paths
from ._rule import Hit, Inspects, rule

_PROC_SYS = "/proc/sys/"

# Settings whose value turns a protection off: the values that do, and what is lost.
_PROTECTIONS: dict[str, tuple[frozenset[str], str]] = {
    "kernel.randomize_va_space": (frozenset({"0"}), "turns address-space layout randomisation off"),
    "kernel.kptr_restrict": (frozenset({"0"}), "shows the kernel's addresses to every user"),
    "kernel.dmesg_restrict": (frozenset({"0"}), "lets every user read the kernel's log"),
    "kernel.yama.ptrace_scope": (frozenset({"0"}), "lets any process trace and read every other process of its user"),
    "kernel.perf_event_paranoid": (frozenset({"-1"}), "opens the kernel's performance events to every user"),
    "kernel.unprivileged_bpf_disabled": (frozenset({"0"}), "lets every user load BPF programs into the kernel"),
    "fs.protected_symlinks": (frozenset({"0"}), "lets symbolic links in shared directories redirect root's writes"),
    "fs.protected_hardlinks": (frozenset({"0"}), "lets any user hard-link files they cannot write"),
    "fs.protected_fifos": (frozenset({"0"}), "lets FIFOs in shared directories capture root's writes"),
    "fs.protected_regular": (frozenset({"0"}), "lets files in shared directories capture root's writes"),
    "fs.suid_dumpable": (frozenset({"1", "2"}), "lets setuid programs dump their memory, secrets included"),
    "vm.mmap_min_addr": (frozenset({"0"}), "lets programs map page zero, which turns kernel bugs into root"),
}
# Settings that name a program the kernel runs as root: at every crash (a core pattern that starts
# with `|`), whenever a module is asked for, or at every device event.
_ROOT_PROGRAMS = ("kernel.core_pattern", "kernel.modprobe", "kernel.hotplug")


def _key(text: str) -> str:
    """sysctl reads `/` and `.` alike as separators (`kernel/randomize_va_space`)."""
    return text.strip().replace("/", ".")


def _weakening(key: str, value: str) -> str | None:
    """What setting `key` to `value` does, when it turns a protection off or runs a program as root."""
    value = value.strip()
    if key in _ROOT_PROGRAMS:
        runs = value.startswith("|") if key == "kernel.core_pattern" else value != ""
        return f"makes the kernel run `{value.lstrip('|')}` as root" if runs else None
    protection = _PROTECTIONS.get(key)
    return protection[1] if protection is not None and value in protection[0] else None


def _literal_words(command: ast.Command | None) -> list[str] | None:
    """A simple command's words, when each is literal text."""
    if type(command) is not ast.SimpleCommand:
        return None
    words: list[str] = []
    for word in command.words:
        if not all(type(part) is ast.Literal for part in word.parts):
            return None
        words.append("".join(part.text for part in word.parts if type(part) is ast.Literal))
    return words


def _literal_argv(words: tuple[Arg, ...] | None) -> list[str] | None:
    """A redirect's command, when each of its words has one known value."""
    values = [arg.value for arg in words or ()]
    known = [value for value in values if value is not None]
    return known if words and len(known) == len(values) else None


def _printed(words: list[str] | None) -> str | None:
    return None if words is None else static_output(words)


def _proc_sys_key(target: Arg) -> str | None:
    value = target.value
    return _key(value[len(_PROC_SYS) :]) if value is not None and value.startswith(_PROC_SYS) else None


def _sysctl_settings(subject: CommandSubject) -> Iterator[tuple[Arg, str, str]]:
    for operand in reading(subject).operands:
        key, equals, value = (operand.value or "").partition("=")
        if equals:
            yield operand, _key(key), value


def _piped_settings(subject: CommandSubject) -> Iterator[tuple[Arg, str, str]]:
    """The files under /proc/sys a writer (tee, dd) writes, with what echo or printf pipes into it."""
    keyed = [(target, _proc_sys_key(target)) for target in written_paths(subject)]
    if not any(key for _, key in keyed):
        return
    stdin = subject.stdin
    value = _printed(_literal_words(stdin.writer)) if stdin is not None else None
    if value is None:
        return
    for target, key in keyed:
        if key is not None:
            yield target, key, value


@rule(
    id="SY022",
    name="kernel-protection-setting-off",
    severity=Severity.HIGH,
    summary=(
        "Turns a kernel protection off, or names a program the kernel runs as root, with sysctl or a "
        "writer: `sysctl -w kernel.randomize_va_space=0`, `kernel.yama.ptrace_scope=0`, "
        "`fs.protected_symlinks=0`, `kernel.core_pattern='|/tmp/x'`, `echo 0 | tee /proc/sys/...`."
    ),
    rationale=(
        "These settings are what stands between a bug or a local user and root: address randomisation, "
        "ptrace and link protections, hidden kernel addresses. A core pattern that starts with `|` "
        "or a `kernel.modprobe` path is a program the kernel runs as root, the next time anything "
        "crashes or asks for a module. It blocks; tuning a limit (`vm.max_map_count`) passes."
    ),
    safer_alternative=(
        "Leave the protections on; to debug one process, run it under the debugger "
        "(`gdb -p` needs no ptrace_scope change as root), or ask a human."
    ),
    inspects=Inspects.COMMAND,
    commands=("sysctl", "tee", "dd"),
    must_match=(
        "sysctl -w kernel.randomize_va_space=0",
        "sudo sysctl kernel.yama.ptrace_scope=0",
        "sysctl -w 'kernel.core_pattern=|/tmp/x %p'",
        "echo 0 | sudo tee /proc/sys/kernel/randomize_va_space",
    ),
    must_not_match=(
        "sysctl -w vm.max_map_count=262144",
        "sysctl kernel.randomize_va_space",
        "sysctl -w kernel.randomize_va_space=2",
        "echo 524288 | sudo tee /proc/sys/fs/inotify/max_user_watches",
        "sysctl -a",
    ),
)
def kernel_protection_setting_off(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    settings = _sysctl_settings(subject) if subject.name == "sysctl" else _piped_settings(subject)
    for word, key, value in settings:
        what = _weakening(key, value)
        if what is not None:
            yield Hit(word.span, f"`{key}={value.strip()}` {what}")


@rule(
    id="SY023",
    name="kernel-protection-redirect-off",
    severity=Severity.HIGH,
    summary=(
        "A redirect writes a value into /proc/sys that turns a kernel protection off or names a program "
        "the kernel runs as root (`echo 0 > /proc/sys/kernel/randomize_va_space`), or registers a "
        "binary format handler (`/proc/sys/fs/binfmt_misc/register`)."
    ),
    rationale=(
        "A file under /proc/sys is a kernel setting: writing it is `sysctl -w` (SY022). A binfmt_misc "
        "handler is a program the kernel runs for every file of a format that is executed."
    ),
    safer_alternative="Leave the kernel's protections on, or ask a human.",
    inspects=Inspects.REDIRECT,
    applies=writes_a_file,
    must_match=(
        "echo 0 > /proc/sys/kernel/randomize_va_space",
        "echo 0 > /proc/sys/fs/protected_regular",
        "printf '|/tmp/x' > /proc/sys/kernel/core_pattern",
        "cat handler > /proc/sys/fs/binfmt_misc/register",
    ),
    must_not_match=(
        "echo 2 > /proc/sys/kernel/randomize_va_space",
        "echo 262144 > /proc/sys/vm/max_map_count",
        "cat /proc/sys/kernel/randomize_va_space > saved.txt",
    ),
)
def kernel_protection_redirect_off(subject: RedirectSubject, tables: Tables) -> Iterator[Hit]:
    target = redirect_writes_file(subject)
    key = None if target is None else _proc_sys_key(target)
    if key is None:
        return
    if key.startswith("fs.binfmt_misc."):
        yield Hit(subject.span, "redirect registers a program the kernel runs for a binary format")
        return
    value = _printed(_literal_argv(subject.command_words))
    what = None if value is None else _weakening(key, value)
    if value is not None and what is not None:
        yield Hit(subject.span, f"redirect sets `{key}={value.strip()}`: it {what}")


KERNEL_SETTING_RULES = (kernel_protection_setting_off, kernel_protection_redirect_off)
