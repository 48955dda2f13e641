"""System administration: processes (pkill, killall), accounts (getent),
scheduled jobs (crontab) and the sudoers editors (visudo, sudoedit)."""

from __future__ import annotations

from .._model import Span
from ._arg import Arg
from ._grammar import Syntax, flag, valued
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

SYSTEM_PROGRAMS: tuple[Program, ...] = (PKILL, KILLALL, GETENT, CRONTAB, VISUDO, SUDOEDIT)
