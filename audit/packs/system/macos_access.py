"""system.macos: access to the Mac taken away. The invoking user taken out of the `admin` group, or
the group deleted (MA111, as SY033 judges `gpasswd -d $USER sudo` and `groupdel sudo`), an account deleted with its
home (MA112, as SY036 judges `userdel -r`), Remote Login (the ssh server) turned off (MA113, as
SC017 judges stopping sshd)."""

from __future__ import annotations

from ..._model import Severity
from ...programs import Arg
from ...rules._filesystem import own_account
from .._invocation import Found, command, pack_rule

_ADMIN_GROUP = frozenset({"admin", "/groups/admin"})
# launchd's names for the ssh server: the job's label and its file.
_SSH_JOB = ("com.openssh.sshd", "ssh.plist")
# launchctl's verbs that stop a job, and keep it from starting again.
_LAUNCHCTL_STOPS = frozenset({"unload", "bootout", "disable", "remove"})


def _lowered(found: Found) -> list[str]:
    return [(word.value or "").lower() for word in found.reading.args]


def _leaves_admin_group(found: Found) -> Arg | None:
    """`dseditgroup -o delete admin`, `dscl . -delete /Groups/admin`: the group deleted; `dseditgroup -o
    edit -d $USER -t user admin`, `dscl . -delete /Groups/admin GroupMembership $USER`: the invoking user
    taken out of it (another account taken out is how an administrator is retired). The word naming the
    admin group."""
    args, words = found.reading.args, _lowered(found)
    group = next((index for index, value in enumerate(words) if value in _ADMIN_GROUP), None)
    if group is None:
        return None
    if found.subject.name == "dseditgroup":
        if "delete" in words:
            return args[group]
        member = words.index("-d") + 1 if "-d" in words else len(args)
    else:
        if "-delete" not in words:
            return None
        member = group + 2 if group + 1 < len(words) and words[group + 1] == "groupmembership" else None
        if member is None:
            return args[group] if group == len(args) - 1 else None
    return args[group] if member < len(args) and own_account(args[member], "usermod") else None


ADMIN_RIGHTS_REMOVED = pack_rule(
    id="MA111",
    name="macos-admin-rights-removed",
    severity=Severity.HIGH,
    summary=(
        "Takes the invoking user out of the Mac's `admin` group, or deletes the group: `dseditgroup -o edit -d "
        "$USER -t user admin`, `dscl . -delete /Groups/admin GroupMembership $USER`, `dseditgroup -o delete admin`."
    ),
    rationale=(
        "The members of `admin` are who may use sudo and change the Mac's settings: the user's own account, or "
        "every administrator, loses that, and putting it back needs an administrator. Taking another account "
        "out is how an administrator is retired, and passes."
    ),
    safer_alternative="Leave administrators to the user, in System Settings.",
    matches=(command(("dseditgroup", "dscl"), where=_leaves_admin_group),),
    message="takes administrator rights away on the Mac",
    must_match=(
        "sudo dseditgroup -o edit -d $USER -t user admin",
        "sudo dscl . -delete /Groups/admin GroupMembership $(whoami)",
        "sudo dseditgroup -o delete admin",
    ),
    must_not_match=(
        "sudo dseditgroup -o edit -d olduser -t user admin",
        "sudo dseditgroup -o edit -d $USER -t user staff",
        "dscl . -read /Groups/admin GroupMembership",
        "dseditgroup -o checkmember -m me admin",
    ),
)


def _deleted_with_home(found: Found) -> Arg | None:
    """`sysadminctl -deleteUser NAME` (its home goes too unless `-keepHome`), `dscl . -delete /Users/NAME`:
    the word naming the account."""
    args, words = found.reading.args, _lowered(found)
    if found.subject.name == "sysadminctl":
        if "-deleteuser" not in words or "-keephome" in words:
            return None
        index = words.index("-deleteuser") + 1
        return args[index] if index < len(args) else None
    if "-delete" not in words:
        return None
    return next((word for word, value in zip(args, words, strict=True) if value.startswith("/users/")), None)


ACCOUNT_DELETED = pack_rule(
    id="MA112",
    name="macos-account-deleted",
    severity=Severity.MEDIUM,
    summary=(
        "Deletes an account of the Mac: `sysadminctl -deleteUser NAME` (its home with it, unless `-keepHome`), "
        "`dscl . -delete /Users/NAME`."
    ),
    rationale=(
        "The user's home goes with `sysadminctl`, as with `userdel -r` (SY036); `dscl` leaves an account's files "
        "without an owner, and the account may be how the Mac is administered. It warns: removing a test "
        "account is routine."
    ),
    safer_alternative="Keep the home (`sysadminctl -deleteUser NAME -keepHome`), or leave accounts to the user.",
    matches=(command(("sysadminctl", "dscl"), where=_deleted_with_home),),
    message="deletes an account of the Mac",
    must_match=("sudo sysadminctl -deleteUser olduser", "sudo dscl . -delete /Users/olduser"),
    must_not_match=("sudo sysadminctl -deleteUser olduser -keepHome", "dscl . -read /Users/me", "dscl . -list /Users"),
)


def _remote_login_off(found: Found) -> Arg | None:
    """`systemsetup [-f] -setremotelogin off`, `launchctl unload|bootout|disable` of the ssh server's job."""
    args, words = found.reading.args, _lowered(found)
    if found.subject.name == "systemsetup":
        if "-setremotelogin" not in words:
            return None
        index = words.index("-setremotelogin") + 1
        return args[index] if index < len(words) and words[index] == "off" else None
    if not words or words[0] not in _LAUNCHCTL_STOPS:
        return None
    return next((word for word, value in zip(args, words, strict=True) if value.endswith(_SSH_JOB)), None)


REMOTE_LOGIN_OFF = pack_rule(
    id="MA113",
    name="macos-remote-login-off",
    severity=Severity.HIGH,
    summary=(
        "Turns the Mac's Remote Login (its ssh server) off: `systemsetup -setremotelogin off`, `launchctl "
        "bootout system/com.openssh.sshd`, `launchctl unload -w /System/Library/LaunchDaemons/ssh.plist`."
    ),
    rationale=(
        "On a Mac reached over ssh (a build machine, a remote Mac mini) this ends every session, the agent's "
        "own included, and nobody can log in again without the screen: as stopping sshd does elsewhere (SC017)."
    ),
    safer_alternative="Leave Remote Login to the user, in System Settings > General > Sharing.",
    matches=(command(("systemsetup", "launchctl"), where=_remote_login_off),),
    message="turns the Mac's Remote Login off",
    must_match=(
        "sudo systemsetup -f -setremotelogin off",
        "sudo launchctl bootout system/com.openssh.sshd",
        "sudo launchctl unload -w /System/Library/LaunchDaemons/ssh.plist",
    ),
    must_not_match=(
        "sudo systemsetup -setremotelogin on",
        "systemsetup -getremotelogin",
        "launchctl unload ~/Library/LaunchAgents/com.me.job.plist",
    ),
)

ACCESS_RULES = (ADMIN_RIGHTS_REMOVED, ACCOUNT_DELETED, REMOTE_LOGIN_OFF)
