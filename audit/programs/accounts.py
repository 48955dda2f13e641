"""Accounts and groups taken away: userdel, deluser, groupdel, gpasswd, chage and chsh (shadow-utils
and Debian's adduser). useradd, usermod and passwd are in system.py."""

from __future__ import annotations

from ._grammar import flag, valued
from ._program import Program

_ROOT_OPTIONS = (valued("-R", "--root"), valued("-P", "--prefix"), flag("-h", "--help"))

USERDEL = Program(
    ("userdel",),
    options=(flag("-f", "--force"), flag("-r", "--remove"), flag("-Z", "--selinux-user"), *_ROOT_OPTIONS),
    operands=("USER",),
)

# Debian's deluser: `deluser USER` deletes the account, `deluser USER GROUP` takes it out of the group.
DELUSER = Program(
    ("deluser", "delgroup"),
    options=(
        flag("--remove-home"), flag("--remove-all-files"), flag("--backup"), valued("--backup-to"), flag("--system"),
        flag("--group"), flag("--only-if-empty"), flag("-f", "--force"), flag("-q", "--quiet"), flag("--debug"),
        valued("--conf", "-c"), flag("-h", "--help"),
    ),
    operands=("USER", "GROUP"),
)  # fmt: skip

GROUPDEL = Program(("groupdel",), options=(flag("-f", "--force"), *_ROOT_OPTIONS), operands=("GROUP",))

GPASSWD = Program(
    ("gpasswd",),
    options=(
        valued("-a", "--add"), valued("-d", "--delete"), valued("-M", "--members"), valued("-A", "--administrators"),
        flag("-r", "--remove-password"), flag("-R", "--restrict"), valued("-Q", "--root"), flag("-h", "--help"),
    ),
    operands=("GROUP",),
)  # fmt: skip

CHAGE = Program(
    ("chage",),
    options=(
        valued("-E", "--expiredate"), valued("-d", "--lastday"), valued("-I", "--inactive"), valued("-m", "--mindays"),
        valued("-M", "--maxdays"), valued("-W", "--warndays"), flag("-l", "--list"), flag("-i", "--iso8601"),
        *_ROOT_OPTIONS,
    ),
    operands=("USER",),
)  # fmt: skip

CHSH = Program(
    ("chsh",),
    options=(valued("-s", "--shell"), valued("-R", "--root"), flag("-l", "--list-shells"), flag("-h", "--help")),
    operands=("USER",),
)

ACCOUNT_PROGRAMS: tuple[Program, ...] = (USERDEL, DELUSER, GROUPDEL, GPASSWD, CHAGE, CHSH)
