"""Accounts with root's powers (SY011): a user created or changed to have user id 0 or root's
group, or added to a group that may use sudo. It is how a backdoor survives the agent's session:
a second root login that no one notices."""

from __future__ import annotations

from collections.abc import Iterator

from .._analysis import Arg, CommandSubject
from .._model import Severity
from .._tables import Tables
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
    ),
)
def root_equivalent_account(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
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


ACCOUNT_RULES = (root_equivalent_account,)
