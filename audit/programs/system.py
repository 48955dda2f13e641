"""System administration: processes (pkill, killall, fuser), accounts (getent, passwd, chpasswd, usermod),
scheduled jobs (crontab), the sudoers editors (visudo, sudoedit), access beyond the mode bits
(setcap, setfacl, chattr), the kernel's settings (sysctl) and the journal (journalctl)."""

from __future__ import annotations

from .._model import Span
from ._arg import Arg
from ._grammar import Syntax, attached, flag, valued
from ._program import Program, Reading

# `pkill -9 name`: a signal given as a number is one option.
_PROCPS = Syntax(abbreviations=True, numbers=True)

PKILL = Program(
    ("pkill", "pgrep"),
    syntax=_PROCPS,
    options=(
        valued("-u", "--euid"), valued("-U", "--uid"), valued("-g", "--pgroup"), valued("-G", "--group"),
        valued("-P", "--parent"), valued("-s", "--session"), valued("-t", "--terminal"), valued("-F", "--pidfile"),
        valued("--signal"), valued("--ns"), valued("--nslist"), valued("-d", "--delimiter"), flag("-f", "--full"),
        flag("-x", "--exact"), flag("-n", "--newest"), flag("-o", "--oldest"), flag("-i", "--ignore-case"),
        flag("-c", "--count"), flag("-e", "--echo"), flag("-v", "--inverse"), flag("-l", "--list-name"),
        flag("-a", "--list-full"),
    ),
    operands=("PATTERN",),
)  # fmt: skip

KILLALL = Program(
    ("killall",),
    syntax=_PROCPS,
    options=(
        valued("-u", "--user"), valued("-s", "--signal"), valued("-o", "--older-than"),
        valued("-y", "--younger-than"), valued("-n", "--ns"), valued("-Z", "--context"), flag("-e", "--exact"),
        flag("-g", "--process-group"), flag("-i", "--interactive"), flag("-l", "--list"), flag("-q", "--quiet"),
        flag("-r", "--regexp"), flag("-v", "--verbose"), flag("-w", "--wait"), flag("-I", "--ignore-case"),
    ),
    operands=("NAME...",),
)  # fmt: skip

# fuser: which processes hold a file or port open (`fuser 5432/tcp`), and with `-k` kills them.
FUSER = Program(
    ("fuser",),
    syntax=_PROCPS,
    options=(
        flag("-k", "--kill"), valued("-n", "--namespace"), flag("-a", "--all"), flag("-i", "--interactive"),
        flag("-m", "--mount"), flag("-M", "--ismountpoint"), flag("-s", "--silent"), flag("-u", "--user"),
        flag("-v", "--verbose"), flag("-w", "--writeonly"), flag("-4", "--ipv4"), flag("-6", "--ipv6"),
    ),
    operands=("NAME...",),
)  # fmt: skip

GETENT = Program(
    ("getent",),
    options=(valued("-s", "--service"), flag("-i", "--no-idn")),
    operands=("DATABASE", "KEY..."),
)

CRONTAB = Program(
    ("crontab",),
    syntax=Syntax(),
    options=(valued("-u"), flag("-l"), flag("-r"), flag("-e"), flag("-i"), valued("-n"), flag("-c"), flag("-T")),
    operands=("FILE",),
)

SUDOERS = "/etc/sudoers"


def implicit_file(path: str) -> Arg:
    """A file a program writes without a word naming it (visudo's /etc/sudoers): an empty span, which a
    rule reports at the command itself."""
    return Arg((path,), path, Span(0, 0))


def _visudo_writes(reading: Reading) -> tuple[Arg, ...]:
    """visudo saves what its editor ($SUDO_EDITOR, $VISUAL, $EDITOR: any program) left in the file."""
    if reading.has("-c", "--check", "-h", "--help", "-V", "--version"):
        return ()
    return reading.values("-f", "--file") or (implicit_file(SUDOERS),)


VISUDO = Program(
    ("visudo",),
    options=(
        valued("-f", "--file"), flag("-c", "--check"), flag("-q", "--quiet"), flag("-s", "--strict"),
        flag("-I", "--no-includes"), flag("-O", "--owner"), flag("-P", "--perms"), flag("-h", "--help"),
        flag("-V", "--version"),
    ),
    writes=_visudo_writes,
)  # fmt: skip

# sudoedit (sudo -e) copies each file, runs the editor on the copy and writes it back as root.
SUDOEDIT = Program(
    ("sudoedit",),
    options=(valued("-u", "--user"), valued("-g", "--group"), valued("-h", "--host"), valued("-C", "--close-from"),
             valued("-D", "--chdir"), valued("-p", "--prompt"), flag("-n", "--non-interactive"),
             flag("-k", "--reset-timestamp"), flag("-S", "--stdin")),
    operands=("FILE...",),
    writes=lambda reading: reading.operands,
)  # fmt: skip

# libcap's setcap: pairs of CAPABILITIES FILE (`setcap cap_net_raw+ep /usr/bin/ping`); `-r FILE` removes them.
SETCAP = Program(
    ("setcap",),
    syntax=Syntax(permute=False),
    options=(flag("-q"), flag("-v"), flag("-r"), valued("-n"), flag("-h")),
    operands=("CAPABILITIES", "FILE..."),
)

# acl's setfacl: `-m`/`-x` take an ACL, `-M`/`-X` a file of them, `--set` replaces the ACL.
SETFACL = Program(
    ("setfacl",),
    options=(
        valued("-m", "--modify"), valued("-M", "--modify-file"), valued("-x", "--remove"),
        valued("-X", "--remove-file"), valued("--set"), valued("--set-file"), flag("-b", "--remove-all"),
        flag("-k", "--remove-default"), flag("-n", "--no-mask"), flag("--mask"), flag("-d", "--default"),
        flag("-R", "--recursive"), flag("-L", "--logical"), flag("-P", "--physical"), flag("--test"),
        flag("--restore"), flag("-v", "--version"), flag("-h", "--help"),
    ),
    operands=("FILE...",),
)  # fmt: skip

# e2fsprogs' chattr: `+i` and `=ai` are operands; `-i` (taking an attribute away) reads as an
# undeclared option, which is what it does: nothing is locked.
CHATTR = Program(
    ("chattr",),
    options=(flag("-R"), flag("-V"), flag("-f"), valued("-v"), valued("-p")),
    operands=("MODE", "FILE..."),
)

# shadow-utils' passwd: `-d` deletes the password (a login with none), `--stdin` reads a new one.
PASSWD = Program(
    ("passwd",),
    options=(
        flag("-a", "--all"), flag("-d", "--delete"), flag("-e", "--expire"), flag("-k", "--keep-tokens"),
        flag("-l", "--lock"), flag("-u", "--unlock"), flag("-S", "--status"), flag("-q", "--quiet"),
        flag("--stdin"), valued("-i", "--inactive"), valued("-n", "--mindays"), valued("-w", "--warndays"),
        valued("-x", "--maxdays"), valued("-r", "--repository"), valued("-R", "--root"), valued("-P", "--prefix"),
        flag("-h", "--help"),
    ),
    operands=("USER",),
)  # fmt: skip

# chpasswd reads `user:password` lines on its standard input and sets them.
CHPASSWD = Program(
    ("chpasswd",),
    options=(
        valued("-c", "--crypt-method"), flag("-e", "--encrypted"), flag("-m", "--md5"), valued("-s", "--sha-rounds"),
        valued("-R", "--root"), valued("-P", "--prefix"), flag("-h", "--help"),
    ),
)  # fmt: skip

USERMOD = Program(
    ("usermod",),
    options=(
        flag("-a", "--append"), flag("-r", "--remove"), flag("-U", "--unlock"), flag("-L", "--lock"), flag("-m", "--move-home"),
        flag("-o", "--non-unique"), valued("-c", "--comment"), valued("-d", "--home"), valued("-e", "--expiredate"),
        valued("-f", "--inactive"), valued("-g", "--gid"), valued("-G", "--groups"), valued("-l", "--login"),
        valued("-p", "--password"), valued("-R", "--root"), valued("-P", "--prefix"), valued("-s", "--shell"),
        valued("-u", "--uid"), valued("-Z", "--selinux-user"), flag("-h", "--help"),
    ),
    operands=("USER",),
)  # fmt: skip

# procps' sysctl: `-w KEY=VALUE`, or `KEY=VALUE` operands (a bare KEY only reads it); `-p FILE`
# loads a file of settings.
SYSCTL = Program(
    ("sysctl",),
    options=(
        flag("-w", "--write"), flag("-a", "-A", "-X", "--all"), flag("-n", "--values"), flag("-e", "--ignore"),
        flag("-N", "--names"), flag("-q", "--quiet"), flag("-b", "--binary"), flag("-r", "--pattern"),
        attached("-p", "--load"), flag("--system"), flag("-h", "--help"), flag("-V", "--version"),
    ),
    operands=("SETTING...",),
)  # fmt: skip

# systemd's journalctl: `--vacuum-time`, `--vacuum-size` and `--vacuum-files` delete archived journal
# files down to what they keep; `--rotate` archives the active ones first.
JOURNALCTL = Program(
    ("journalctl",),
    options=(
        valued("--vacuum-time"), valued("--vacuum-size"), valued("--vacuum-files"), flag("--rotate"),
        flag("--flush"), flag("--sync"), flag("--relinquish-var"), flag("--smart-relinquish-var"),
        valued("-u", "--unit"), valued("--user-unit"), valued("-n", "--lines"), valued("-p", "--priority"),
        valued("-S", "--since"), valued("-U", "--until"), valued("-o", "--output"), valued("-t", "--identifier"),
        valued("-g", "--grep"), valued("-D", "--directory"), valued("--file"), valued("-M", "--machine"),
        valued("--root"), valued("--image"), valued("--namespace"), valued("--output-fields"),
        valued("--cursor"), valued("--after-cursor"), valued("--cursor-file"), attached("-b", "--boot"),
        flag("-f", "--follow"), flag("-e", "--pager-end"), flag("-r", "--reverse"), flag("-k", "--dmesg"),
        flag("-x", "--catalog"), flag("-a", "--all"), flag("-q", "--quiet"), flag("-m", "--merge"),
        flag("--user"), flag("--system"), flag("--no-pager"), flag("--no-tail"), flag("--utc"),
        flag("--disk-usage"), flag("--list-boots"), flag("--verify"), flag("-h", "--help"), flag("--version"),
    ),
    operands=("MATCH...",),
)  # fmt: skip

# util-linux's fallocate reserves `-l LENGTH` bytes of the disk for FILE.
FALLOCATE = Program(
    ("fallocate",),
    options=(
        valued("-l", "--length"), valued("-o", "--offset"), flag("-n", "--keep-size"), flag("-p", "--punch-hole"),
        flag("-c", "--collapse-range"), flag("-d", "--dig-holes"), flag("-i", "--insert-range"),
        flag("-z", "--zero-range"), flag("-x", "--posix"), flag("-v", "--verbose"),
    ),
    operands=("FILE",),
)  # fmt: skip

# OpenSSH's ssh-copy-id: the destination is the last operand.
SSH_COPY_ID = Program(
    ("ssh-copy-id",),
    options=(
        valued("-i"), valued("-p"), valued("-F"), valued("-o"), valued("-t"), flag("-f"), flag("-n"), flag("-s"),
        flag("-x"), flag("-h", "-?", "--help"),
    ),
    operands=("DESTINATION",),
)  # fmt: skip

# The init scripts' managers before systemd: Debian's update-rc.d (`update-rc.d -f NAME remove`), Red Hat's
# chkconfig (`chkconfig NAME off`, `chkconfig --del NAME`) and OpenRC's rc-update (`rc-update del NAME`).
UPDATE_RC_D = Program(("update-rc.d",), options=(flag("-f"), flag("-n")), operands=("NAME", "ACTION..."))
CHKCONFIG = Program(
    ("chkconfig",),
    options=(flag("--add"), flag("--del"), flag("--list"), valued("--level"), flag("--override")),
    operands=("NAME", "STATE"),
)
RC_UPDATE = Program(("rc-update",), options=(flag("-u", "--update"),), operands=("ACTION", "NAME", "RUNLEVEL..."))

SYSTEM_PROGRAMS: tuple[Program, ...] = (
    PKILL, KILLALL, FUSER, GETENT, CRONTAB, VISUDO, SUDOEDIT, SETCAP, SETFACL, CHATTR, PASSWD, CHPASSWD, USERMOD, SYSCTL,
    JOURNALCTL, FALLOCATE, SSH_COPY_ID, UPDATE_RC_D, CHKCONFIG, RC_UPDATE,
)  # fmt: skip
