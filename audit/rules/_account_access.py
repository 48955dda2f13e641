"""Accounts and administrators' rights taken away (SY family): an administrators' group deleted, its
members replaced or the invoking user taken out of it (SY033), a user's groups replaced by a list that drops the rest (SY034), the
invoking account's logins refused (SY035), an account deleted with its home (SY036), the keys ssh
lets in deleted or emptied (SY037).

The account may be the one the agent, or the human behind it, administers the machine with: the
command that would undo the change needs the rights or the login it took away. Where that is
certain (an administrators' group, the account the command runs as) it blocks; replacing a
user's groups and deleting an account with its files are routine for accounts that are no one's
way in, and warn; locking another account is how one is retired, and passes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .._analysis import Arg, CommandSubject
from .._model import Severity
from .._tables import Tables
from ..programs import REMOVERS, emptied_files, removed_files
from ._filesystem import own_account
from ._paths import path_is, reading
from ._rule import Hit, Inspects, rule

# Groups whose members may run anything as root: sudo on Debian, wheel on Red Hat and the BSDs,
# admin on older Ubuntu and macOS.
_ADMIN_GROUPS = frozenset({"sudo", "wheel", "admin"})
# Shells that refuse every login.
_REFUSING_SHELLS = frozenset({"nologin", "false"})
# An expiry date already past: days since 1970 before 2000, or a date of the last century.
_PAST_DATE = re.compile(r"^(?:\d{1,4}|1\d{3}-\d{2}-\d{2})$")


def _admin_group(arg: Arg | None) -> str | None:
    return arg.value if arg is not None and arg.value in _ADMIN_GROUPS else None


def _admin_rights_removed(subject: CommandSubject) -> tuple[Arg, str] | None:
    """The word naming the administrators' group the command deletes, replaces the members of, or takes
    the invoking user out of, and how (another user taken out is how an administrator is retired)."""
    read = reading(subject)
    operands = read.operands
    name = subject.name
    if name == "groupdel" or (name == "delgroup" and len(operands) == 1) or (name == "deluser" and read.has("--group")):
        group = operands[0] if operands else None
        return (group, "deletes the group") if group is not None and _admin_group(group) else None
    if name in ("deluser", "delgroup") and len(operands) == 2 and _admin_group(operands[1]):
        return (operands[1], "takes you out of the group") if own_account(operands[0], "usermod") else None
    if name == "gpasswd" and operands and _admin_group(operands[0]):
        if read.values("--members"):
            return operands[0], "replaces the group's members"
        removed = read.values("--delete")
        return (operands[0], "takes you out of the group") if removed and own_account(removed[-1], "usermod") else None
    if name == "usermod" and read.has("--remove") and operands and own_account(operands[-1], "usermod"):
        groups = read.values("--groups")
        if groups and _ADMIN_GROUPS & set((groups[-1].value or "").split(",")):
            return groups[-1], "takes you out of the group"
    return None


@rule(
    id="SY033",
    name="admin-rights-removed",
    severity=Severity.HIGH,
    summary=(
        "Deletes an administrators' group (sudo, wheel, admin), replaces its members, or takes the invoking "
        "user out of it: `groupdel sudo`, `gpasswd -M alice wheel`, `gpasswd -d $USER sudo`, `deluser $USER sudo`."
    ),
    rationale=(
        "The members of these groups are who may administer the machine: every one of them, or the agent's own "
        "account and its operator's, loses root, and putting it back needs the rights just removed. Taking "
        "another user out is how an administrator is retired, and passes."
    ),
    safer_alternative="Ask a human to change who administers the machine, with a root console at hand.",
    inspects=Inspects.COMMAND,
    commands=("groupdel", "delgroup", "deluser", "gpasswd", "usermod"),
    must_match=("groupdel sudo", "gpasswd -d $USER sudo", "deluser $(whoami) sudo", "gpasswd -M alice wheel"),
    must_not_match=("groupdel docker", "gpasswd -d olduser sudo", "deluser olduser", "gpasswd -a ci sudo"),
)
def admin_rights_removed(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    found = _admin_rights_removed(subject)
    if found is not None:
        group, what = found
        yield Hit(group.span, f"`{subject.name}` {what} `{group.display()}`: who may administer the machine")


@rule(
    id="SY034",
    name="user-groups-replaced",
    severity=Severity.MEDIUM,
    summary=(
        "Replaces a user's groups instead of adding one (`usermod -G docker ubuntu`, without `-a`): every "
        "group not listed is dropped, sudo or wheel among them."
    ),
    rationale=(
        "`usermod -G` sets the whole list; meant as `usermod -aG docker $USER`, it takes the user out of the "
        "administrators' group and every other, and their sudo with it."
    ),
    safer_alternative="Add the group with `usermod -aG GROUP USER` (or `gpasswd -a USER GROUP`).",
    inspects=Inspects.COMMAND,
    commands=("usermod",),
    must_match=("usermod -G docker ubuntu", "sudo usermod --groups docker,video $USER"),
    must_not_match=("usermod -aG docker $USER", "usermod -a -G docker ubuntu", "usermod -G sudo,docker ubuntu"),
)
def user_groups_replaced(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    read = reading(subject)
    groups = read.values("--groups")
    if not groups or read.has("--append", "--remove"):
        return
    listed = set((groups[-1].value or "").split(","))
    if groups[-1].value is not None and not _ADMIN_GROUPS & listed:
        yield Hit(groups[-1].span, f"`usermod -G {groups[-1].display()}` drops the user from every other group")


def _login_refused(subject: CommandSubject) -> tuple[Arg | None, str] | None:
    """The word that refuses an account's logins, and how: locked, expired, or a shell that refuses."""
    read = reading(subject)
    if read.has("--help"):
        return None
    if subject.name in ("usermod", "passwd") and read.has("--lock"):
        return None, "locks the account's password"
    for expiry in read.values("--expiredate") if subject.name in ("usermod", "chage") else ():
        if expiry.value is not None and _PAST_DATE.match(expiry.value):
            return expiry, "expires the account"
    for shell in read.values("--shell") if subject.name in ("usermod", "chsh") else ():
        if (shell.value or "").rpartition("/")[2] in _REFUSING_SHELLS:
            return shell, "gives the account a shell that refuses logins"
    return None


@rule(
    id="SY035",
    name="own-account-login-refused",
    severity=Severity.HIGH,
    summary=(
        "Locks the account the command runs as, expires it or gives it a shell that refuses logins: "
        "`usermod -L $USER`, `passwd -l $(whoami)`, `chage -E 0 $USER`, `usermod -s /usr/sbin/nologin $USER`."
    ),
    rationale=(
        "The account is the agent's own, and the human's it works for: their next login, and the sudo "
        "that would undo the change, are refused. Locking or retiring another account (`usermod -L "
        "olduser`) is routine and passes."
    ),
    safer_alternative="Lock or retire the account you mean by its name, from another administrator's session.",
    inspects=Inspects.COMMAND,
    commands=("usermod", "passwd", "chage", "chsh"),
    must_match=("usermod -L $USER", "passwd -l $(whoami)", "chage -E 0 $USER", "chsh -s /bin/false $LOGNAME"),
    must_not_match=("usermod -L olduser", "usermod -U $USER", "chage -E 2030-01-01 $USER", "chsh -s /bin/zsh $USER"),
)
def own_account_login_refused(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    users = reading(subject).operands
    if not users or not own_account(users[-1], "usermod"):
        return
    found = _login_refused(subject)
    if found is not None:
        word, what = found
        yield Hit(
            word.span if word is not None else users[-1].span,
            f"`{subject.name}` {what} `{users[-1].display()}`: your own",
        )


@rule(
    id="SY036",
    name="account-deleted-with-files",
    severity=Severity.MEDIUM,
    summary=(
        "Deletes an account with its home directory and mail (`userdel -r ubuntu`, `deluser --remove-home "
        "admin`) or every file it owns (`deluser --remove-all-files`)."
    ),
    rationale=(
        "The home goes as `rm -rf /home/USER` would (which blocks, FS001): the user's keys, projects and "
        "data with the account. It warns: removing a test account made for the task is routine."
    ),
    safer_alternative="Delete the account and keep its files (`userdel USER`), or archive the home first (`deluser --backup`).",
    inspects=Inspects.COMMAND,
    commands=("userdel", "deluser"),
    must_match=("userdel -r ubuntu", "deluser --remove-home admin", "userdel --remove --force olduser"),
    must_not_match=("userdel olduser", "deluser olduser", "deluser --remove-home --backup admin", "deluser ci docker"),
)
def account_deleted_with_files(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    read = reading(subject)
    if len(read.operands) != 1 or read.has("--backup", "--backup-to"):
        return
    if read.has("--remove", "--remove-home", "--remove-all-files"):
        user = read.operands[0]
        yield Hit(user.span, f"`{subject.name}` deletes `{user.display()}` with the files in its home")


@rule(
    id="SY037",
    name="authorized-keys-deleted",
    severity=Severity.HIGH,
    summary=(
        "Deletes, moves away or empties an account's `authorized_keys` (`rm ~/.ssh/authorized_keys`, "
        "`truncate -s 0 /root/.ssh/authorized_keys`, `cp /dev/null ~/.ssh/authorized_keys`)."
    ),
    rationale=(
        "The file lists the keys ssh lets log in to the account: without it every key-based login is "
        "refused, the one the agent's operator connects with included, and on a server that is often the "
        "only way in."
    ),
    safer_alternative="Ask a human to revoke access; to drop one key, take out its line and keep the operator's.",
    inspects=Inspects.COMMAND,
    commands=(*REMOVERS, "truncate", "cp", "install", "dd"),
    must_match=(
        "rm ~/.ssh/authorized_keys",
        "sudo rm -f /root/.ssh/authorized_keys",
        "truncate -s 0 /home/ubuntu/.ssh/authorized_keys",
        "mv ~/.ssh/authorized_keys /tmp/",
    ),
    must_not_match=("rm ~/.ssh/known_hosts", "cp ~/.ssh/authorized_keys backup/", "rm ./authorized_keys"),
)
def authorized_keys_deleted(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    read = reading(subject)
    for arg in (*removed_files(read), *emptied_files(read)):
        # A glob over the whole directory (`rm -rf ~/.ssh/*`) is the credential store's rule's (HM001).
        if not arg.pattern and path_is(arg, tables.authorized_keys_files, subject.cwd) is not None:
            yield Hit(arg.span, f"`{subject.name}` takes away `{arg.display()}`: the keys ssh lets log in")


ACCOUNT_ACCESS_RULES = (
    admin_rights_removed,
    user_groups_replaced,
    own_account_login_refused,
    account_deleted_with_files,
    authorized_keys_deleted,
)
