"""system.windows: Windows' own tools run from bash (WSL, Git Bash, MSYS2) or from PowerShell code.

Persistence through the registry's autorun keys (WN101) and scheduled tasks (WN102, WN103),
Microsoft Defender turned off (WN104) or told to skip paths (WN105), the firewall turned off
(WN106), UAC turned off (WN107), boot recovery turned off (WN108), event logs cleared (WN109),
free space wiped (WN110); credentials, accounts and system downloaders (WN111-WN114) are in
windows_access.py; drives formatted, WSL distributions unregistered or stopped, PowerShell's script policy
opened and folders opened to every user (WN115-WN119) in windows_machine.py. The same words come from bash (`REG.EXE ADD ...`: a program named
`NAME.exe` is NAME) and from PowerShell and cmd code, whose analysers report each command they do
not follow as the program it runs (`pwsh -c "Set-MpPreference ..."`). Windows' switches ignore case,
so every word is read in lower case. Shadow copies deleted are the disks pack's (DK003); a
recursive delete of a drive root, `C:\\Windows` or a user's folder is FS001's, the analysers
reporting Windows paths as WSL mounts them. What a task or an autorun value runs is audited as a
command line where it is given (audit/_analysis/_contexts/_windows_shells.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..._model import Severity
from ...programs import Arg
from ...rules._pack import Pack
from .._invocation import Found, Predicate, command, pack_rule
from ._windows_words import after, all_of, has, lowered_words
from .windows_access import ACCOUNT_CREATED, ADMIN_ACCOUNT, CREDENTIAL_DUMP, SYSTEM_DOWNLOADER
from .windows_machine import MACHINE_RULES

_OFF = frozenset({"0", "false", "$false", "no", "off", "disable", "disabled"})


def _registry_value(keys: Iterable[str], names: Iterable[str] | None, data: Callable[[str], bool] | None) -> Predicate:
    """`reg add KEY /v NAME /d DATA` (and PowerShell's `New-ItemProperty -Path KEY -Name NAME -Value DATA`) on a
    key holding one of `keys`, for a value in `names` (any value when None), with data `data` accepts."""
    fragments = tuple(keys)
    wanted = None if names is None else frozenset(names)

    def sets(found: Found) -> Arg | None:
        words = lowered_words(found)
        key = next(((word, arg) for word, arg in words if any(fragment in word for fragment in fragments)), None)
        if key is None:
            return None
        name = after(words, "/v", "-name", "-n")
        if wanted is not None and (name is None or name.strip('"') not in wanted):
            return None
        value = after(words, "/d", "-value")
        if data is not None and (value is None or not data(value.strip('"'))):
            return None
        return key[1]

    return sets


def _switched_on(prefixes: tuple[str, ...]) -> Predicate:
    """`-DisableRealtimeMonitoring $true` (or no value, or `:1`): a parameter starting with a prefix, not turned off."""

    def on(found: Found) -> Arg | None:
        words = lowered_words(found)
        for index, (word, arg) in enumerate(words):
            name, colon, glued = word.partition(":")
            if not name.startswith(prefixes):
                continue
            value = glued if colon else (words[index + 1][0] if index + 1 < len(words) else "$true")
            if value not in _OFF:
                return arg
        return None

    return on


def _value_is(*values: str) -> Callable[[str], bool]:
    accepted = frozenset(values)
    return lambda value: value.lower() in accepted


_AUTORUN_KEYS = (
    "\\currentversion\\run",
    "\\currentversion\\policies\\explorer\\run",
    "\\currentversion\\winlogon",
    "\\image file execution options\\",
)
_AUTORUN_VALUES_ANYWHERE = ("\\currentversion\\run", "\\currentversion\\policies\\explorer\\run")

AUTORUN = pack_rule(
    id="WN101",
    name="windows-autorun-entry",
    severity=Severity.HIGH,
    summary=(
        "Adds a program to what Windows runs at every logon or start: a value under a `Run`/`RunOnce` key, "
        "Winlogon's `Userinit` or `Shell`, or a `Debugger` for a program under Image File Execution Options "
        "(`reg add`, PowerShell's `New-ItemProperty`/`Set-ItemProperty`)."
    ),
    rationale=(
        "The program then runs with the user's rights at every logon, long after the agent's task: the first "
        "step of malware that stays. Build and install steps do not write these keys."
    ),
    safer_alternative="Run the program when it is needed; an installer that must start at logon is the user's to run.",
    matches=(
        command("reg", where=all_of(has("add"), _registry_value(_AUTORUN_VALUES_ANYWHERE, None, None))),
        command("reg", where=all_of(has("add"), _registry_value(("\\winlogon",), ("userinit", "shell"), None))),
        command(
            "reg",
            where=all_of(has("add"), _registry_value(("\\image file execution options\\",), ("debugger",), None)),
        ),
        command(("new-itemproperty", "set-itemproperty"), where=_registry_value(_AUTORUN_KEYS, None, None)),
    ),
    message="makes Windows run a program at every logon",
    must_match=(
        r"reg add 'HKCU\Software\Microsoft\Windows\CurrentVersion\Run' /v Updater /d 'C:\Users\me\u.exe' /f",
        r'REG.EXE ADD "HKLM\SOFTWARE\Microsoft\Windows\CurrentVersion\RunOnce" /v x /t REG_SZ /d "C:\x.exe"',
        r"reg add 'HKLM\Software\Microsoft\Windows NT\CurrentVersion\Winlogon' /v Userinit /d 'C:\a.exe,' /f",
        r"pwsh -c 'Set-ItemProperty -Path HKCU:\Software\Microsoft\Windows\CurrentVersion\Run -Name U -Value C:\x.exe'",
    ),
    must_not_match=(
        r"reg query 'HKCU\Software\Microsoft\Windows\CurrentVersion\Run'",
        r"reg add 'HKCU\Software\MyApp' /v Theme /d dark /f",
        r"reg add 'HKLM\Software\Microsoft\Windows NT\CurrentVersion\Winlogon' /v AutoRestartShell /d 1 /f",
    ),
)

_LOGON_SCHEDULES = frozenset({"onlogon", "onstart", "onidle"})


def _task_at_logon(found: Found) -> Arg | None:
    """`schtasks /create /sc onlogon|onstart|onidle`, or a task that runs as SYSTEM."""
    words = lowered_words(found)
    schedule = after(words, "/sc")
    user = after(words, "/ru")
    if (schedule is not None and schedule in _LOGON_SCHEDULES) or (user is not None and user.strip('"') == "system"):
        return has("/create")(found)
    return None


TASK_AT_LOGON = pack_rule(
    id="WN102",
    name="windows-task-at-logon",
    severity=Severity.HIGH,
    summary=(
        "Creates a scheduled task that runs at logon, at start-up or when idle, or as SYSTEM (`schtasks /create "
        "/sc onlogon`, `/ru SYSTEM`); PowerShell's `Register-ScheduledTask`."
    ),
    rationale=(
        "A task at logon or start-up outlives the agent's session and runs again on every boot; one as SYSTEM runs "
        "with every right on the machine. It is how malware stays, and no build needs it."
    ),
    safer_alternative="Run the command now; a task the user wants is theirs to create (`schtasks /query` lists them).",
    matches=(command("schtasks", where=_task_at_logon), command("register-scheduledtask")),
    message="creates a scheduled task that runs at logon, at start-up or as SYSTEM",
    must_match=(
        "schtasks /create /sc onlogon /tn Updater /tr 'C:\\Users\\me\\u.exe'",
        "SCHTASKS.EXE /Create /SC ONSTART /TN x /TR 'C:\\x.exe' /RU SYSTEM",
        "schtasks /create /tn x /tr 'C:\\x.exe' /sc daily /ru system",
        "pwsh -c 'Register-ScheduledTask -TaskName x -Action $a -Trigger $t'",
    ),
    must_not_match=("schtasks /query /fo LIST", "schtasks /run /tn Backup", "schtasks /delete /tn x /f"),
)


def _task_on_timetable(found: Found) -> Arg | None:
    """`schtasks /create` of a task WN102 does not judge."""
    return has("/create")(found) if _task_at_logon(found) is None else None


TASK_CREATED = pack_rule(
    id="WN103",
    name="windows-task-created",
    severity=Severity.MEDIUM,
    summary="Creates a scheduled task on a timetable (`schtasks /create /sc daily|hourly|minute|once ...`).",
    rationale=(
        "The task keeps running its command after the agent's session: worth the user's look, though a "
        "timetable is less often how malware stays than a logon trigger (WN102)."
    ),
    safer_alternative="Run the command now, or leave scheduling to the user.",
    matches=(command("schtasks", where=_task_on_timetable),),
    message="creates a scheduled task",
    must_match=(
        "schtasks /create /sc daily /tn Cleanup /tr 'C:\\tools\\clean.bat' /st 02:00",
        "schtasks.exe /Create /SC HOURLY /TN Sync /TR 'C:\\tools\\sync.exe'",
    ),
    must_not_match=("schtasks /end /tn Cleanup", "schtasks /change /tn Cleanup /disable"),
)

_DEFENDER_SWITCHES = ("-disable",)
_DEFENDER_SERVICES = frozenset({"windefend", "wdnissvc", "sense", "wdboot", "wdfilter"})


def _defender_service_stopped(found: Found) -> Arg | None:
    """`sc stop WinDefend`, `sc config WinDefend start= disabled`, `sc delete WinDefend`."""
    words = lowered_words(found)
    if len(words) < 2 or words[1][0] not in _DEFENDER_SERVICES:
        return None
    verb = words[0][0]
    if verb in ("stop", "delete") or (verb == "config" and after(words, "start=") == "disabled"):
        return words[1][1]
    return None


DEFENDER_OFF = pack_rule(
    id="WN104",
    name="windows-defender-off",
    severity=Severity.HIGH,
    summary=(
        "Turns off Microsoft Defender: a `-Disable...` setting of `Set-MpPreference` (real-time monitoring, "
        "behaviour monitoring, script scanning...), a `Disable...` policy value under the `Windows Defender` "
        "key, or its service stopped, disabled or deleted (`sc`)."
    ),
    rationale="With the antivirus off, whatever runs next is not scanned: the step before a payload, never a build's.",
    safer_alternative="Leave Defender on; a false positive is reported to Microsoft or excluded by the user.",
    matches=(
        command("set-mppreference", where=_switched_on(_DEFENDER_SWITCHES)),
        command(
            "reg",
            where=all_of(
                has("add"), _registry_value(("\\windows defender",), None, _value_is("1", "0x1", "0x00000001"))
            ),
        ),
        command("sc", where=_defender_service_stopped),
    ),
    message="turns off Microsoft Defender",
    must_match=(
        "powershell -Command 'Set-MpPreference -DisableRealtimeMonitoring $true'",
        "pwsh -c 'set-mppreference -DisableIOAVProtection:1'",
        r"reg add 'HKLM\SOFTWARE\Policies\Microsoft\Windows Defender' /v DisableAntiSpyware /t REG_DWORD /d 1 /f",
        "sc config WinDefend start= disabled",
    ),
    must_not_match=(
        "pwsh -c 'Set-MpPreference -DisableRealtimeMonitoring $false'",
        "pwsh -c 'Set-MpPreference -SignatureUpdateInterval 4'",
        "sc query WinDefend",
    ),
)

DEFENDER_EXCLUSION = pack_rule(
    id="WN105",
    name="windows-defender-exclusion",
    severity=Severity.MEDIUM,
    summary="Tells Microsoft Defender to skip a path, process or extension (`Add-MpPreference -ExclusionPath`).",
    rationale=(
        "An exclusion is a blind spot: malware drops itself there. Developers add one for a build folder, so it "
        "warns: the user decides."
    ),
    safer_alternative="Exclude the narrowest folder, and let the user add it.",
    matches=(
        command(("add-mppreference", "set-mppreference"), where=has("-exclusionpath", "-exclusionprocess")),
        command(("add-mppreference", "set-mppreference"), where=has("-exclusionextension")),
    ),
    message="adds a Microsoft Defender exclusion",
    must_match=(
        "powershell -c 'Add-MpPreference -ExclusionPath C:\\'",
        "pwsh -c 'add-mppreference -ExclusionProcess powershell.exe'",
    ),
    must_not_match=(
        "pwsh -c 'Add-MpPreference -AttackSurfaceReductionOnlyExclusions C:\\x'",
        "pwsh -c 'Set-MpPreference -ScanAvgCPULoadFactor 30'",
    ),
)


def _netsh_firewall_off(found: Found) -> Arg | None:
    """`netsh advfirewall set PROFILE state off`, `netsh firewall set opmode disable`."""
    words = [word for word, _ in lowered_words(found)]
    if words[:2] == ["advfirewall", "set"] and after(lowered_words(found), "state") == "off":
        return has("state")(found)
    if words[:3] == ["firewall", "set", "opmode"] and any(word in ("disable", "mode=disable") for word in words[3:]):
        return has("opmode")(found)
    return None


def _profile_disabled(found: Found) -> Arg | None:
    """`Set-NetFirewallProfile -Enabled False`."""
    value = after(lowered_words(found), "-enabled")
    return has("-enabled")(found) if value is not None and value in _OFF else None


FIREWALL_OFF = pack_rule(
    id="WN106",
    name="windows-firewall-off",
    severity=Severity.HIGH,
    summary="Turns Windows' firewall off (`netsh advfirewall set allprofiles state off`, `Set-NetFirewallProfile -Enabled False`).",
    rationale="Every listening service is then reachable from the network; no task of an agent needs the host's firewall gone.",
    safer_alternative="Open the one port needed (`netsh advfirewall firewall add rule ... localport=8080`).",
    matches=(command("netsh", where=_netsh_firewall_off), command("set-netfirewallprofile", where=_profile_disabled)),
    message="turns off the Windows firewall",
    must_match=(
        "netsh advfirewall set allprofiles state off",
        "NETSH.EXE AdvFirewall Set CurrentProfile State Off",
        "netsh firewall set opmode disable",
        "pwsh -c 'Set-NetFirewallProfile -Profile Domain,Public,Private -Enabled False'",
    ),
    must_not_match=(
        "netsh advfirewall set allprofiles state on",
        'netsh advfirewall firewall add rule name="dev" dir=in action=allow protocol=TCP localport=8080',
        "netsh interface ip show config",
        "pwsh -c 'Set-NetFirewallProfile -Profile Public -Enabled True'",
    ),
)

UAC_OFF = pack_rule(
    id="WN107",
    name="windows-uac-off",
    severity=Severity.HIGH,
    summary=(
        "Turns off User Account Control, or its prompt for administrators, in the registry (`EnableLUA`, "
        "`ConsentPromptBehaviorAdmin` or `PromptOnSecureDesktop` set to 0 under `Policies\\System`)."
    ),
    rationale="Programs then get administrator rights without asking: a silent path to taking over the machine.",
    safer_alternative="Leave UAC on and run the one command that needs it elevated.",
    matches=(
        command(
            ("reg", "new-itemproperty", "set-itemproperty"),
            where=_registry_value(
                ("\\policies\\system",),
                ("enablelua", "consentpromptbehavioradmin", "promptonsecuredesktop"),
                _value_is("0", "0x0", "0x00000000"),
            ),
        ),
    ),
    message="turns off User Account Control",
    must_match=(
        r"reg add 'HKLM\SOFTWARE\Microsoft\Windows\CurrentVersion\Policies\System' /v EnableLUA /t REG_DWORD /d 0 /f",
        r"pwsh -c 'Set-ItemProperty -Path HKLM:\Software\Microsoft\Windows\CurrentVersion\Policies\System -Name ConsentPromptBehaviorAdmin -Value 0'",
    ),
    must_not_match=(
        r"reg add 'HKLM\SOFTWARE\Microsoft\Windows\CurrentVersion\Policies\System' /v EnableLUA /t REG_DWORD /d 1 /f",
        r"reg query 'HKLM\SOFTWARE\Microsoft\Windows\CurrentVersion\Policies\System' /v EnableLUA",
    ),
)


def _recovery_off(found: Found) -> Arg | None:
    """`bcdedit /set {default} recoveryenabled no`, `bootstatuspolicy ignoreallfailures`."""
    words = lowered_words(found)
    setting = after(words, "recoveryenabled")
    if setting is not None and setting in _OFF:
        return has("recoveryenabled")(found)
    if after(words, "bootstatuspolicy") == "ignoreallfailures":
        return has("bootstatuspolicy")(found)
    return None


RECOVERY_OFF = pack_rule(
    id="WN108",
    name="windows-boot-recovery-off",
    severity=Severity.HIGH,
    summary=(
        "Turns off Windows' boot recovery: `bcdedit ... recoveryenabled no`, `bootstatuspolicy "
        "ignoreallfailures`, or the recovery environment (`reagentc /disable`)."
    ),
    rationale="A machine that then fails to boot cannot repair itself; ransomware turns recovery off before it encrypts.",
    safer_alternative="Leave recovery on; `bcdedit /enum` shows the settings without changing them.",
    matches=(command("bcdedit", where=_recovery_off), command("reagentc", where=has("/disable"))),
    message="turns off Windows boot recovery",
    must_match=(
        "bcdedit /set {default} recoveryenabled no",
        "BCDEDIT.exe /set {default} bootstatuspolicy ignoreallfailures",
        "reagentc /disable",
    ),
    must_not_match=("bcdedit /enum", "bcdedit /set {default} recoveryenabled yes", "reagentc /info"),
)

EVENT_LOGS_CLEARED = pack_rule(
    id="WN109",
    name="windows-event-log-cleared",
    severity=Severity.HIGH,
    summary="Clears or removes a Windows event log (`wevtutil cl Security`, `Clear-EventLog`, `Remove-EventLog`).",
    rationale="The logs are the record of what happened on the machine; clearing them hides it, and it cannot be undone.",
    safer_alternative="Export the log first (`wevtutil epl Security backup.evtx`), and leave clearing to the administrator.",
    matches=(
        command("wevtutil", where=has("cl", "clear-log")),
        command("clear-eventlog"),
        command("remove-eventlog"),
    ),
    message="clears a Windows event log",
    must_match=(
        "wevtutil cl Security",
        "WEVTUTIL.EXE clear-log System",
        "pwsh -c 'Clear-EventLog -LogName Application'",
    ),
    must_not_match=("wevtutil qe Application /c:5 /f:text", "wevtutil el", "wevtutil epl Security backup.evtx"),
)

FREE_SPACE_WIPED = pack_rule(
    id="WN110",
    name="windows-free-space-wiped",
    severity=Severity.MEDIUM,
    summary="Overwrites a volume's free space (`cipher /w:C:`), so deleted files can no longer be recovered.",
    rationale=(
        "What was deleted by mistake is gone for good, and it is how an intruder erases their traces; the files "
        "still there are not touched, so it warns."
    ),
    safer_alternative="Let the user wipe free space when they mean to.",
    matches=(command("cipher", where=has("/w")),),
    message="wipes the free space of a volume",
    must_match=("cipher /w:C:", "CIPHER.EXE /W:'D:\\'"),
    must_not_match=("cipher /c secret.txt", "cipher /e '/s:C:\\private'"),
)

PACK = Pack(
    name="system.windows",
    summary=(
        "Windows' own tools, from bash or PowerShell: autorun keys and scheduled tasks, Defender, the firewall and "
        "UAC turned off, boot recovery off, event logs cleared, free space wiped, password hashes copied out, "
        "accounts created or made administrators, downloads by system tools, drives formatted, WSL distributions "
        "unregistered or stopped, PowerShell's script policy opened, folders opened to every user."
    ),
    default=True,
    reason=(
        "Each of these outlives the agent's task or takes down a protection of the machine; none is a step of "
        "building, testing or shipping code."
    ),
    rules=(
        AUTORUN,
        TASK_AT_LOGON,
        TASK_CREATED,
        DEFENDER_OFF,
        DEFENDER_EXCLUSION,
        FIREWALL_OFF,
        UAC_OFF,
        RECOVERY_OFF,
        EVENT_LOGS_CLEARED,
        FREE_SPACE_WIPED,
        CREDENTIAL_DUMP,
        ADMIN_ACCOUNT,
        ACCOUNT_CREATED,
        SYSTEM_DOWNLOADER,
        *MACHINE_RULES,
    ),
)
