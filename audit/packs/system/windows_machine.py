"""system.windows, the rules about the machine itself: a volume formatted or a disk wiped (WN115), a WSL
distribution unregistered with its whole file system (WN116) or every distribution stopped (WN117),
PowerShell's script policy loosened for good (WN118), a folder opened to every user (WN119), and a
registry hive, a whole top-level key or a security service's key deleted (WN120). Words
are read in lower case, as Windows reads its switches (`_windows_words.py`)."""

from __future__ import annotations

import re
from collections.abc import Callable

from ..._model import Severity
from ...programs import Arg
from .._invocation import Found, command, pack_rule
from ._windows_words import after, all_of, has, lowered_words

# A drive as `format` takes it: `D:`, `d:\`.
_DRIVE = re.compile(r"[a-z]:\\?")


def _drive_operand(found: Found) -> Arg | None:
    return next((arg for word, arg in lowered_words(found) if _DRIVE.fullmatch(word.strip("'\""))), None)


def _first_word(found: Found) -> Arg | None:
    """Any use of the command (a cmdlet that only ever destroys); the evidence is its first word."""
    args = found.subject.args
    return args[0] if args else found.subject.argv[found.subject.command_index]


VOLUME_FORMATTED = pack_rule(
    id="WN115",
    name="windows-volume-formatted",
    severity=Severity.HIGH,
    summary=(
        "Formats a Windows drive (`format D: /q /y`, PowerShell's `Format-Volume`) or wipes a disk's partitions "
        "(`Clear-Disk`, `Remove-Partition`)."
    ),
    rationale=(
        "Every file on the volume is gone at once, with no recycle bin and no undo; `/y` even skips the question "
        "Windows asks. No build or test formats a drive."
    ),
    safer_alternative="Leave formatting to the user; `Get-Volume` and `Get-Disk` show the drives without changing them.",
    matches=(
        command(("format", "format.com"), where=_drive_operand),
        command(("format-volume", "clear-disk", "remove-partition"), where=_first_word),
    ),
    message="formats a drive or wipes a disk",
    must_match=(
        "cmd.exe /c 'format D: /FS:NTFS /Q /Y'",
        "format.com e: /q",
        "pwsh -c 'Format-Volume -DriveLetter D -FileSystem NTFS'",
        "powershell -c 'Clear-Disk -Number 1 -RemoveData -Confirm:$false'",
    ),
    must_not_match=("format --help", "pwsh -c 'Get-Volume'", "cmd /c 'chkdsk D:'"),
)

# wsl's own options that take a value; its first other word (or what follows `--`, `-e`, `--exec`) is a
# Linux command it runs (`wsl ls -t` lists by time: `-t` is not --terminate there).
_WSL_VALUED = frozenset({"-d", "--distribution", "-u", "--user", "--cd", "--shell-type"})
_WSL_COMMAND = frozenset({"--", "-e", "--exec"})


def _wsl_action(*actions: str) -> Callable[[Found], Arg | None]:
    """One of wsl's own `actions` (`--unregister`), before the Linux command it may be given."""
    wanted = frozenset(actions)

    def acts(found: Found) -> Arg | None:
        value_next = False
        for word, arg in lowered_words(found):
            if value_next:
                value_next = False
            elif word in _WSL_COMMAND or not word.startswith("-"):
                return None
            elif word in wanted:
                return arg
            else:
                value_next = word in _WSL_VALUED
        return None

    return acts


DISTRIBUTION_UNREGISTERED = pack_rule(
    id="WN116",
    name="wsl-distribution-unregistered",
    severity=Severity.HIGH,
    summary=(
        "Unregisters a WSL distribution (`wsl --unregister Ubuntu`, `wslconfig /unregister`), which deletes its "
        "whole Linux file system."
    ),
    rationale=(
        "The distribution's disk image goes with it: every project, home directory and database inside it, "
        "with no recycle bin. It is also the machine the agent itself may be running in."
    ),
    safer_alternative="Export it first (`wsl --export Ubuntu ubuntu.tar`), and leave unregistering to the user.",
    matches=(command("wsl", where=_wsl_action("--unregister")), command("wslconfig", where=has("/unregister", "/u"))),
    message="unregisters a WSL distribution and deletes its file system",
    must_match=("wsl.exe --unregister Ubuntu-22.04", "wslconfig.exe /u Debian", "cmd.exe /c 'wsl --unregister Arch'"),
    must_not_match=("wsl --list --verbose", "wsl --export Ubuntu backup.tar", "wslconfig /l"),
)

DISTRIBUTIONS_STOPPED = pack_rule(
    id="WN117",
    name="wsl-distributions-stopped",
    severity=Severity.MEDIUM,
    summary="Stops every WSL distribution (`wsl --shutdown`) or one of them (`wsl --terminate Ubuntu`, `wsl -t`).",
    rationale=(
        "Every process inside goes down without a chance to save: servers, databases, editors' sessions, and the "
        "agent's own shell when it runs there. Users do it to apply `.wslconfig`, so it warns: the user decides."
    ),
    safer_alternative="Stop the one service you mean inside the distribution, or ask the user to restart WSL.",
    matches=(command("wsl", where=_wsl_action("--shutdown", "--terminate", "-t")),),
    message="stops WSL distributions and every process in them",
    must_match=("wsl.exe --shutdown", "wsl --terminate Ubuntu", "wsl -t docker-desktop"),
    must_not_match=("wsl --status", "wsl -l -v", "wsl ls -t", "wsl -d Ubuntu -- sort -t , -k 2 data.csv"),
)

# Policies that run any script, signed or not, downloaded or not.
_OPEN_POLICIES = frozenset({"unrestricted", "bypass"})


def _policy_opened_for_good(found: Found) -> Arg | None:
    """`Set-ExecutionPolicy Unrestricted|Bypass` (positional or `-ExecutionPolicy`), for any scope but the
    current process (`-Scope Process` ends with the session)."""
    words = lowered_words(found)
    if after(words, "-scope") == "process":
        return None
    named = after(words, "-executionpolicy")
    return next((arg for word, arg in words if word in _OPEN_POLICIES and (named is None or word == named)), None)


EXECUTION_POLICY_OPENED = pack_rule(
    id="WN118",
    name="powershell-execution-policy-opened",
    severity=Severity.MEDIUM,
    summary=(
        "Sets PowerShell's execution policy to `Unrestricted` or `Bypass` for the user or the machine "
        "(`Set-ExecutionPolicy Unrestricted -Scope CurrentUser`); `-Scope Process` passes."
    ),
    rationale=(
        "Every script then runs without the signature check or the warning for downloaded ones, in every later "
        "session: a protection of the user's turned off for good. `RemoteSigned` is what developer tools ask for."
    ),
    safer_alternative="`Set-ExecutionPolicy RemoteSigned -Scope CurrentUser`, or `-Scope Process` for this session only.",
    matches=(command("set-executionpolicy", where=_policy_opened_for_good),),
    message="loosens PowerShell's execution policy for every later session",
    must_match=(
        "powershell.exe -c 'Set-ExecutionPolicy Unrestricted -Scope CurrentUser -Force'",
        "pwsh -c 'Set-ExecutionPolicy -ExecutionPolicy Bypass -Scope LocalMachine'",
    ),
    must_not_match=(
        "pwsh -c 'Set-ExecutionPolicy Bypass -Scope Process -Force'",
        "pwsh -c 'Set-ExecutionPolicy RemoteSigned -Scope CurrentUser'",
        "pwsh -c 'Get-ExecutionPolicy -List'",
    ),
)

# Every user of the machine, by name or SID: Everyone, Authenticated Users, Users, Guests.
_EVERY_USER = frozenset({
    "everyone", "*s-1-1-0", "authenticated users", "nt authority\\authenticated users", "*s-1-5-11", "users",
    "builtin\\users", "*s-1-5-32-545", "guests", "builtin\\guests", "*s-1-5-32-546",
})  # fmt: skip
# icacls' inheritance flags before the rights: `(OI)(CI)F`.
_INHERITANCE = re.compile(r"\((oi|ci|io|np|i)\)")
# Full control, modify, write.
_WRITE_RIGHTS = frozenset({"f", "m", "w"})


def _granted_to_every_user(found: Found) -> Arg | None:
    """`icacls PATH /grant[:r] Everyone:(OI)(CI)F`: a grant of write or more to every user."""
    words = lowered_words(found)
    granting = False
    for word, arg in words:
        if word.startswith("/"):
            granting = word in ("/grant", "/grant:r")
            continue
        principal, colon, rights = word.strip("'\"").rpartition(":")
        if granting and colon and principal in _EVERY_USER:
            listed = _INHERITANCE.sub("", rights).strip("()").split(",")
            if _WRITE_RIGHTS.intersection(listed):
                return arg
    return None


OPENED_TO_EVERY_USER = pack_rule(
    id="WN119",
    name="windows-folder-opened-to-everyone",
    severity=Severity.MEDIUM,
    summary=(
        "Gives every user of the machine write access or full control of a file or folder "
        "(`icacls C:\\Projects /grant Everyone:(OI)(CI)F /T`; `Users`, `Authenticated Users` and their SIDs too)."
    ),
    rationale=(
        "Any account or service on the machine can then change what is there, scripts and programs included: "
        "Windows' `chmod -R 777`. A permissions error has a narrower fix."
    ),
    safer_alternative="Grant the one account that needs it (`icacls DIR /grant %USERNAME%:(OI)(CI)M`).",
    matches=(command("icacls", where=_granted_to_every_user),),
    message="gives every user of the machine write access",
    must_match=(
        "/mnt/c/Windows/System32/icacls.exe 'C:\\Projects' /grant 'Everyone:(OI)(CI)F' /T",
        "icacls.exe D:\\data /grant:r '*S-1-1-0:(M)'",
        "cmd /c 'icacls C:\\inetpub /grant Users:F /t'",
    ),
    must_not_match=(
        "icacls C:\\Projects",
        "icacls C:\\Projects /grant 'Everyone:(OI)(CI)RX'",
        "icacls C:\\Projects /grant 'dev:(OI)(CI)F' /T",
        "icacls C:\\Projects /remove Everyone",
    ),
)

# The registry's roots by their short names (`reg` and PowerShell's drives take both spellings).
_HIVES = {
    "hkey_local_machine": "hklm", "hkey_current_user": "hkcu", "hkey_users": "hku", "hkey_classes_root": "hkcr",
    "hkey_current_config": "hkcc",
}  # fmt: skip
# Services whose keys hold the machine's defences: Defender, its network inspection and EDR sensor, the
# Security Center, the firewall and its filtering engine, the event log.
_SECURITY_SERVICES = frozenset({
    "windefend", "wdnissvc", "wdfilter", "wdboot", "sense", "securityhealthservice", "wscsvc", "mpssvc", "bfe",
    "eventlog",
})  # fmt: skip
_CONTROL_SET = re.compile(r"currentcontrolset|controlset\d{3}")


def _registry_key(word: str) -> list[str] | None:
    """A registry key's path in lower case, one entry a level (`HKLM:\\SOFTWARE` is `["hklm", "software"]`);
    None for a word that names no key of the registry's roots."""
    path = word.strip("'\"").removeprefix("registry::").replace("/", "\\").rstrip("\\")
    levels = [level for level in path.split("\\") if level]
    if not levels:
        return None
    root = levels[0].removesuffix(":")
    root = _HIVES.get(root, root)
    return [root, *levels[1:]] if root in _HIVES.values() else None


def _critical_key(levels: list[str]) -> bool:
    """A hive, a key right below one (`HKLM\\SOFTWARE`), a control set or its services or settings, or a
    security service's key: Windows cannot run, or defend itself, without them."""
    if len(levels) <= 2:
        return True
    if levels[:2] != ["hklm", "system"] or not _CONTROL_SET.fullmatch(levels[2]):
        return False
    return len(levels) <= 4 or (len(levels) == 5 and levels[3] == "services" and levels[4] in _SECURITY_SERVICES)


def _critical_key_deleted(found: Found) -> Arg | None:
    """`reg delete KEY` on a critical key."""
    for word, arg in lowered_words(found):
        levels = _registry_key(word)
        if levels is not None and _critical_key(levels):
            return arg
    return None


REGISTRY_KEY_DELETED = pack_rule(
    id="WN120",
    name="windows-registry-hive-deleted",
    severity=Severity.HIGH,
    summary=(
        "Deletes a registry hive or a key right below one (`reg delete HKLM\\SOFTWARE /f`), a control set's "
        "services or settings, or a security service's key (`...\\Services\\WinDefend`) with `reg delete`."
    ),
    rationale=(
        "Every program's and service's settings under the key go at once, with no recycle bin: Windows may not "
        "start again, and a deleted Defender, firewall or event log service stops defending or recording. An "
        "application's own key is a narrower delete."
    ),
    safer_alternative=(
        "Delete the application's own key (`reg delete HKCU\\Software\\MyApp /f`), after `reg export` of it."
    ),
    matches=(command("reg", where=all_of(has("delete"), _critical_key_deleted)),),
    message="deletes a registry hive or a key Windows needs",
    must_match=(
        "cmd /c 'reg delete HKLM\\SOFTWARE /f'",
        "reg.exe delete 'HKLM\\SYSTEM\\CurrentControlSet\\Services\\WinDefend' /f",
        "cmd.exe /c 'reg delete HKLM\\SYSTEM\\CurrentControlSet\\Control /f'",
        "reg delete 'HKEY_CURRENT_USER\\Software' /f",
    ),
    must_not_match=(
        "reg delete 'HKCU\\Software\\MyApp' /f",
        "reg query 'HKLM\\SOFTWARE\\Microsoft'",
        "reg delete 'HKCU\\Software\\MyApp' /v Theme /f",
        "reg delete 'HKLM\\SYSTEM\\CurrentControlSet\\Services\\MyAgent' /f",
    ),
)

MACHINE_RULES = (
    VOLUME_FORMATTED,
    DISTRIBUTION_UNREGISTERED,
    DISTRIBUTIONS_STOPPED,
    EXECUTION_POLICY_OPENED,
    OPENED_TO_EVERY_USER,
    REGISTRY_KEY_DELETED,
)
