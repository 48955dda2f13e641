"""Accounts with root's powers (SY011): a user created or changed to have user id 0 or root's
group, or added to a group that may use sudo. It is how a backdoor survives the agent's session:
a second root login that no one notices. An account's password deleted or set from a command line
(SY021) is the other way in: a login anyone who read the command can use."""

from __future__ import annotations

from collections.abc import Iterator

from .._analysis import Arg, CommandSubject
from .._model import Severity
from .._tables import Tables
from ._paths import reading
from ._rule import Hit, Inspects, rule

# Groups whose members may run anything as root (sudo on Debian, wheel on Red Hat and the BSDs,
# admin on older Ubuntu and macOS) or are root's own group.
_ADMIN_GROUPS = frozenset({"sudo", "wheel", "admin", "root", "0"})
_ID_OPTIONS = ("-u", "--uid", "-g", "--gid")
_GROUP_OPTIONS = ("-G", "--groups", "--ingroup")
_ACCOUNT_PROGRAMS = ("useradd", "adduser", "usermod", "gpasswd", "addgroup")


@rule(
    id="SY011",
    name="root-equivalent-account",
    severity=Severity.HIGH,
    summary="Creates or changes an account to have user id 0 or root's group, or adds a user to an administrators' group (sudo, wheel, admin).",
    rationale="A second account with root's powers is a persistent backdoor: it outlives the session and blends in with the real users.",
    safer_alternative="Create ordinary accounts (`useradd -m dev`); ask a human to grant administrator rights.",
    inspects=Inspects.COMMAND,
    commands=_ACCOUNT_PROGRAMS,
    must_match=(
        "useradd -o -u 0 -g 0 -M -s /bin/bash backdoor",
        "usermod -aG sudo deploy",
        "usermod --append --groups=wheel ci",
        "adduser deploy sudo",
        "gpasswd -a ci wheel",
        "useradd -u0 -o svc",
    ),
    must_not_match=(
        "useradd -m -s /bin/bash dev",
        "usermod -aG docker $USER",
        "adduser --disabled-password app",
        "gpasswd -a ci developers",
        "usermod -L olduser",
        "useradd -u 1500 build",
        "usermod -r -G wheel ops",
    ),
)
def root_equivalent_account(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    if subject.name == "usermod" and reading(subject).has("--remove"):
        return  # `usermod -r -G wheel U` takes the user out of the groups (SY033's)
    args = subject.args
    for index, arg in enumerate(args):
        for option, value in _option_values(args, index):
            if option in _ID_OPTIONS and value.value == "0":
                yield Hit(value.span, f"`{subject.name} {option} 0` gives the account root's {_id_kind(option)}")
                return
            if option in _GROUP_OPTIONS and _ADMIN_GROUPS & set((value.value or "").split(",")):
                yield Hit(value.span, f"`{subject.name}` adds the account to an administrators' group")
                return
        if (
            arg.value is not None
            and arg.value in _ADMIN_GROUPS
            and _names_group_operand(subject.name or "", args, index)
        ):
            yield Hit(arg.span, f"`{subject.name}` adds the account to the group `{arg.value}`")
            return


def _option_values(args: tuple[Arg, ...], index: int) -> list[tuple[str, Arg]]:
    """The (option, value) pairs the word at `index` gives: `-u 0`, `-u0`, `--uid=0`, `-aG sudo`."""
    text = args[index].value or ""
    following = args[index + 1] if index + 1 < len(args) else None
    if text.startswith("--"):
        name, equals, _ = text.partition("=")
        if equals:
            return [(name, args[index].suffix(len(name) + 1))]
        return [(text, following)] if following is not None else []
    if not text.startswith("-") or len(text) < 2:
        return []
    for position, letter in enumerate(text[1:], start=1):
        option = f"-{letter}"
        if option in (*_ID_OPTIONS, *_GROUP_OPTIONS):
            attached = text[position + 1 :]
            if attached:
                return [(option, args[index].suffix(position + 1))]
            return [(option, following)] if following is not None else []
    return []


def _names_group_operand(program: str, args: tuple[Arg, ...], index: int) -> bool:
    """`adduser USER GROUP` and `gpasswd -a USER GROUP`: the group is the last of two operands."""
    operands = [position for position, arg in enumerate(args) if not (arg.value or "-").startswith("-")]
    if program in ("adduser", "addgroup"):
        return len(operands) == 2 and operands[-1] == index
    if program == "gpasswd":
        return any(arg.value in ("-a", "--add") for arg in args) and operands[-1:] == [index]
    return False


def _id_kind(option: str) -> str:
    return "user id" if option in ("-u", "--uid") else "group"


def _password_change(subject: CommandSubject) -> str | None:
    """What the command does to a password, when it deletes it or sets one it was given."""
    read = reading(subject)
    if read.has("-h", "--help"):
        return None
    if subject.name == "chpasswd":
        return "sets the passwords of the `user:password` lines it reads"
    if subject.name == "usermod":
        hashes = read.values("--password")
        if not hashes:
            return None
        return "deletes the password" if hashes[-1].value == "" else "sets the password's hash it is given"
    if read.has("--delete"):
        return "deletes the password: the account logs in with none"
    return "sets the password it reads on its input" if read.has("--stdin") else None


@rule(
    id="SY021",
    name="account-password-deleted-or-set",
    severity=Severity.HIGH,
    summary=(
        "Deletes an account's password or sets one from the command line: `passwd -d`, `passwd --stdin`, "
        "`chpasswd`, `usermod -p HASH` (or `-p ''`)."
    ),
    rationale=(
        "An account without a password, or with one written into a command, a script or a log, is a "
        "login for whoever reads it: on root it is the machine. It blocks; changing your own password "
        "interactively (`passwd`) and locking an account (`passwd -l`) pass."
    ),
    safer_alternative="Let the account's owner run `passwd` interactively, or lock it (`passwd -l`, `usermod -L`).",
    inspects=Inspects.COMMAND,
    commands=("passwd", "chpasswd", "usermod"),
    must_match=(
        "passwd -d root",
        "echo 'root:toor' | chpasswd",
        "usermod -p '' root",
        "echo hunter2 | passwd --stdin deploy",
        "usermod --password $(openssl passwd -1 x) backup",
    ),
    must_not_match=("passwd", "passwd -l olduser", "passwd -S root", "usermod -L olduser", "chpasswd --help"),
)
def account_password_deleted_or_set(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    what = _password_change(subject)
    if what is not None:
        user = reading(subject).operands
        whose = f" of `{user[0].display()}`" if user and subject.name != "chpasswd" else ""
        yield Hit(subject.span, f"`{subject.name}` {what}{whose}")


_LOOPBACK_HOSTS = frozenset({"localhost", "localhost.localdomain", "ip6-localhost", "::1", "[::1]", "0.0.0.0"})


def _this_machine(destination: str) -> bool:
    """`localhost`, `me@127.0.0.1`, `[::1]`: the host part names this machine."""
    host = destination.rpartition("@")[2].lower()
    return host in _LOOPBACK_HOSTS or host.startswith("127.")


@rule(
    id="SY028",
    name="ssh-key-installed-on-this-machine",
    severity=Severity.HIGH,
    summary="Installs a key in this machine's own authorized_keys through ssh-copy-id (`ssh-copy-id -i KEY localhost`).",
    rationale=(
        "`ssh-copy-id` to the loopback appends the key to the user's own `~/.ssh/authorized_keys`: whoever "
        "holds the private key logs in as this user from then on, as writing the file directly does (SY005)."
    ),
    safer_alternative="Ask a human to grant SSH access to this machine; copy keys only to hosts you administer.",
    inspects=Inspects.COMMAND,
    commands=("ssh-copy-id",),
    must_match=(
        "ssh-copy-id -i evil.pub localhost",
        "ssh-copy-id -f -i k.pub root@127.0.0.1",
        "ssh-copy-id -p 2222 me@[::1]",
    ),
    must_not_match=("ssh-copy-id -i ~/.ssh/id_ed25519.pub deploy@build.example.com", "ssh-copy-id --help"),
)
def ssh_key_installed_here(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    destination = next((arg for arg in reversed(reading(subject).operands) if arg.value is not None), None)
    if destination is not None and destination.value is not None and _this_machine(destination.value):
        yield Hit(destination.span, f"`ssh-copy-id` adds a key to this machine's own logins (`{destination.value}`)")


ACCOUNT_RULES = (root_equivalent_account, account_password_deleted_or_set, ssh_key_installed_here)
