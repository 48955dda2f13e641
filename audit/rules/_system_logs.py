"""The records of what happened on the machine: the system's logs and the shell's history file,
and writes that overwrite them (SY012, SY013); the systemd journal vacuumed to nothing (SY024); a
program's time stamp forged to hide when it was planted (SY030).

Deleting them (`rm`, `shred`, `find -delete`) or emptying them with
`truncate -s 0` is the filesystem.services pack's SV002. Overwriting or
editing them is core, as writes to system files are (SY001, SY002): a
redirect names no program (`: > /var/log/wtmp`), and the packs load by
program name. All three read the paths below.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .._analysis import Arg, CommandSubject, RedirectSubject
from .._model import Severity
from .._tables import Tables
from ..programs import WRITERS, Reading, read_command
from ._paths import path_is, path_under, reading, redirect_writes_file, writes_a_file, written_paths
from ._rule import Hit, Inspects, rule

SYSTEM_LOG_DIRECTORY = ("/var/log",)
# The logs of logins, authentication, the system at large and the audit system; an
# application's own logs below /var/log are not among them.
_AUDIT_TRAIL_FILES = (
    "/var/log/auth.log*",
    "/var/log/secure*",
    "/var/log/wtmp*",
    "/var/log/btmp*",
    "/var/log/lastlog",
    "/var/log/faillog",
    "/var/log/syslog*",
    "/var/log/messages*",
)
AUDIT_DIRECTORIES = ("/var/log/audit", "/var/log/journal")
# `syslog.1`, `auth.log.2.gz`, `messages-20240101.xz`: the archives log rotation deletes on its own
# schedule; deleting them sooner frees the disk and leaves the live records in place.
ROTATED_ARCHIVE = re.compile(r"(\.\d+|-\d{8})(\.(gz|xz|bz2|zst))?$|\.(gz|xz|bz2|zst|old)$")
# The programs that edit a file in place (`sed -i`, `perl -i`): nothing rewrites a live log that way
# but someone deleting its lines.
_IN_PLACE_EDITORS = frozenset({"sed", "perl", "ruby"})
# Where bash, zsh, ksh, tcsh and fish save the commands typed. The REPLs' histories
# (`.psql_history`, `.mysql_history`) are not among them: deleting one to drop a typed
# password is ordinary hygiene.
_SHELL_HISTORY_FILES = (
    "~/.bash_history",
    "~/.zsh_history",
    "~/.zhistory",
    "~/.histfile",
    "~/.sh_history",
    "~/.history",
    "~/.local/share/fish/fish_history",
)
SYSTEM_LOGS = "the system's logs"
SHELL_HISTORY = "the shell's history"


def audit_trail(arg: Arg, cwd: str | None) -> str | None:
    """Which record the word names: a log of logins, authentication, the system or the audit system
    (or anything in the audit directories), the shell's history file (also as its own `$HISTFILE`);
    None for any other file."""
    if path_is(arg, _AUDIT_TRAIL_FILES, cwd) is not None or path_under(arg, AUDIT_DIRECTORIES, cwd) is not None:
        return SYSTEM_LOGS
    if names_history_variable(arg) or (_says_history(arg) and path_is(arg, _SHELL_HISTORY_FILES, cwd) is not None):
        return SHELL_HISTORY
    return None


def _says_history(arg: Arg) -> bool:
    """A file name, or a glob that says it is about histories (`~/.*_history`): a glob over the
    whole home directory (`rm -rf ~/*`, FS001's) matches the history file too, and is not about it."""
    return not arg.pattern or any("hist" in value.rpartition("/")[2].lower() for value in arg.values)


def names_history_variable(arg: Arg) -> bool:
    """`$HISTFILE` or `"${HISTFILE}"`: the file the shell saves its history in, whatever it is."""
    return not arg.values and arg.source.strip('"') in ("$HISTFILE", "${HISTFILE}")


@rule(
    id="SY012",
    name="redirect-onto-system-log",
    severity=Severity.HIGH,
    summary=(
        "A redirect empties, overwrites or appends to the system's record of logins, authentication or "
        "the audit system (`: > /var/log/wtmp`, `> /var/log/auth.log`, `>> /var/log/secure`), or the "
        "shell's history file (`cat /dev/null > ~/.bash_history`)."
    ),
    rationale=(
        "`> FILE` empties the log whatever the command prints, which is how an intrusion is hidden; "
        "`>> FILE` writes entries that did not happen. No build or clean-up writes these files, and "
        "what is lost cannot be recovered: it blocks."
    ),
    safer_alternative=(
        "Let the log rotation handle them (`logrotate`, `journalctl --vacuum-time=7d`), write an entry "
        "with `logger`, or write the application's own log (`/var/log/myapp/app.log`); to drop one line "
        "of the shell's history, `history -d OFFSET`."
    ),
    inspects=Inspects.REDIRECT,
    applies=writes_a_file,
    must_match=(
        ": > /var/log/wtmp",
        "> /var/log/auth.log",
        "cat /dev/null > /var/log/secure",
        "echo -n > /var/log/audit/audit.log",
        "echo 'sshd: accepted' >> /var/log/auth.log",
        "sudo sh -c ': > /var/log/btmp'",
        "cat /dev/null > ~/.bash_history",
        "find /var/log -type f -exec sh -c ': > \"$1\"' _ {} \\;",
    ),
    must_not_match=(
        ": > /var/log/myapp/app.log",
        "echo started >> /var/log/myapp.log",
        "grep sshd /var/log/auth.log > logins.txt",
        "cat /var/log/syslog 2>&1",
        ": > ./var/log/wtmp",
        "history > ~/history-backup.txt",
        "echo x > /var/log/myapp/x.log",
    ),
)
def redirect_onto_system_log(subject: RedirectSubject, _tables: Tables) -> Iterator[Hit]:
    target = redirect_writes_file(subject)
    if target is None:
        return
    # A redirect onto /var/log itself writes nothing unless it stands for every file a `find` hands
    # over (`find /var/log -type f -exec sh -c ': > "$1"' _ {} ;`).
    whole = path_is(target, SYSTEM_LOG_DIRECTORY, subject.cwd) is not None
    record = audit_trail(target, subject.cwd) or (SYSTEM_LOGS if whole else None)
    if record is not None:
        verb = "appends to" if subject.operator.endswith(">>") else "overwrites"
        yield Hit(subject.span, f"redirect {verb} `{target.display()}`, {record}")


# The programs that write the files they name, but `touch`, which changes only a time stamp, and
# `truncate`, whose sizes SV002 reads (`truncate -s 0` empties, `-s 100M` keeps the record).
_LOG_WRITERS = tuple(name for name in WRITERS if name not in ("touch", "truncate"))


@rule(
    id="SY013",
    name="overwrite-system-log",
    severity=Severity.HIGH,
    summary=(
        "A program overwrites, replaces or edits the system's record of logins, authentication or the "
        "audit system (`cp /dev/null /var/log/wtmp`, `dd of=`), edits any live log below /var/log in place "
        "(`sed -i '/ADDRESS/d' /var/log/nginx/access.log`), or the shell's history file (`ln -sf /dev/null ~/.bash_history`, or `history -c; history -w`, "
        "which writes the list it just emptied over it)."
    ),
    rationale=(
        "Copying nothing over a log empties it, and deleting its lines about one address hides a login; "
        "either is how an intrusion is covered up. No build or clean-up writes these files, and what is "
        "lost cannot be recovered: it blocks."
    ),
    safer_alternative=(
        "Read the log instead (`grep sshd /var/log/auth.log`), copy it into the workspace, or let the "
        "log rotation handle it (`logrotate`, `journalctl --vacuum-time=7d`); to drop one line of the "
        "shell's history, `history -d OFFSET`."
    ),
    inspects=Inspects.COMMAND,
    commands=(*_LOG_WRITERS, "history"),
    must_match=(
        "cp /dev/null /var/log/wtmp",
        "history -c && history -w",
        "history -c; history -w ~/.bash_history",
        "sed -i '/203.0.113.9/d' /var/log/auth.log",
        "dd if=/dev/null of=/var/log/btmp",
        "ln -sf /dev/null /var/log/auth.log",
        "tee /var/log/secure < /dev/null",
        "ln -sf /dev/null ~/.bash_history",
        "sed -i '/198.51.100.20/d' /var/log/nginx/access.log",
    ),
    must_not_match=(
        "cp /var/log/auth.log ./incident/",
        "tee -a /var/log/myapp/deploy.log",
        "touch /var/log/wtmp",
        "sed -n '/sshd/p' /var/log/auth.log",
        "sed -i 's/x/y/' /var/log/nginx/access.log.1",
        "cp ~/.bash_history ./history-backup.txt",
        "history -w",
        "history -cw",
        "history -c; history -r; history -w",
    ),
)
def overwrite_system_log(subject: CommandSubject, _tables: Tables) -> Iterator[Hit]:
    if subject.name == "history":
        yield from _history_written_empty(subject)
        return
    for target in written_paths(subject):
        record = audit_trail(target, subject.cwd) or _live_log_edited(subject, target)
        if record is not None:
            yield Hit(target.span, f"`{subject.name}` overwrites or edits `{target.display()}`, {record}")


def _live_log_edited(subject: CommandSubject, target: Arg) -> str | None:
    """Any live log below /var/log edited in place (`sed -i '/ADDRESS/d' /var/log/nginx/access.log`);
    a rotated archive (`access.log.1`) is not the record being kept."""
    if subject.name not in _IN_PLACE_EDITORS or path_under(target, SYSTEM_LOG_DIRECTORY, subject.cwd) is None:
        return None
    return SYSTEM_LOGS if not any(ROTATED_ARCHIVE.search(value) for value in target.values) else None


def _history_written_empty(subject: CommandSubject) -> Iterator[Hit]:
    """`history -w [FILE]` when the history list is empty: cleared by an earlier `history -c` of the
    string and not read back since (`-r`, `-n`), or by `-c` in the same call with a FILE (bash
    clears and stops when `-c` comes with no operand: `history -cw` alone writes nothing). It writes
    nothing over the history file, or over the FILE named."""
    read = reading(subject)
    if not read.has("-w"):
        return
    if read.has("-c") and not read.operands:
        return
    cleared = read.has("-c")
    for args in () if cleared else subject.earlier:
        earlier = read_command("history", args)
        if earlier.has("-c"):
            cleared = True
        elif earlier.has("-r") or earlier.has("-n"):
            cleared = False
    if not cleared:
        return
    target = read.operands[0] if read.operands else None
    if target is None:
        yield Hit(subject.span, f"`history -w` writes the emptied history over the history file, {SHELL_HISTORY}")
        return
    record = audit_trail(target, subject.cwd)
    if record is not None:
        yield Hit(target.span, f"`history -w` writes the emptied history over `{target.display()}`, {record}")


# Below these, a vacuum deletes the journal rather than trimming it: a day's records, ten
# megabytes, one file (the active one, which --rotate has just emptied).
_KEPT_AT_LEAST_SECONDS = 86_400
_KEPT_AT_LEAST_BYTES = 10 * 1024 * 1024
_TIME_UNITS = {
    "us": 1e-6, "usec": 1e-6, "ms": 1e-3, "msec": 1e-3, "": 1, "s": 1, "sec": 1, "second": 1, "seconds": 1,
    "m": 60, "min": 60, "minute": 60, "minutes": 60, "h": 3600, "hr": 3600, "hour": 3600, "hours": 3600,
    "d": 86_400, "day": 86_400, "days": 86_400, "w": 604_800, "week": 604_800, "weeks": 604_800,
    "month": 2_630_016, "months": 2_630_016, "M": 2_630_016, "y": 31_557_600, "year": 31_557_600,
    "years": 31_557_600,
}  # fmt: skip
_SIZE_UNITS = {"": 1, "B": 1, "K": 1024, "M": 1024**2, "G": 1024**3, "T": 1024**4}
_QUANTITY = r"(\d+(?:\.\d+)?)\s*([A-Za-z]*)"


def _quantity(text: str, units: dict[str, float] | dict[str, int]) -> float | None:
    """`1s`, `2 weeks`, `500M`: the amount in the smallest unit; None for what systemd would refuse
    or what is known only at run time. A time may add parts (`1h 30min`)."""
    total, rest = 0.0, text.strip()
    while rest:
        match = re.match(_QUANTITY, rest)
        if match is None or match.group(2) not in units:
            return None
        total += float(match.group(1)) * units[match.group(2)]
        rest = rest[match.end() :].strip()
    return total if text.strip() else None


def _vacuum_empties(read: Reading) -> Arg | None:
    """The `--vacuum-*` value that keeps almost nothing (under a day, ten megabytes, or one file)."""
    for value in read.values("--vacuum-time"):
        seconds = _quantity(value.value or "", _TIME_UNITS)
        if seconds is not None and seconds < _KEPT_AT_LEAST_SECONDS:
            return value
    for value in read.values("--vacuum-size"):
        size = _quantity((value.value or "").upper().removesuffix("B") or "?", _SIZE_UNITS)
        if size is not None and size < _KEPT_AT_LEAST_BYTES:
            return value
    return next((value for value in read.values("--vacuum-files") if (value.value or "") in ("0", "1")), None)


@rule(
    id="SY024",
    name="journal-vacuumed-empty",
    severity=Severity.HIGH,
    summary=(
        "Deletes the systemd journal down to almost nothing: `journalctl --vacuum-time=1s` (under a day), "
        "`--vacuum-size=1K` (under ten megabytes), `--vacuum-files=1`, usually after `--rotate`."
    ),
    rationale=(
        "The journal holds every service's log and every login; vacuumed to a second or a kilobyte it "
        "holds nothing of what happened before, which is how an intrusion is covered up. It blocks, as "
        "the other erasures of the system's logs do (SV002, SY012, SY013); trimming the journal to "
        "days or hundreds of megabytes passes."
    ),
    safer_alternative="Trim it to what the disk can spare (`journalctl --vacuum-time=7d`, `--vacuum-size=500M`).",
    inspects=Inspects.COMMAND,
    commands=("journalctl",),
    must_match=(
        "journalctl --vacuum-time=1s",
        "journalctl --rotate && journalctl --vacuum-size=1K",
        "sudo journalctl --vacuum-files=1",
        "journalctl --vacuum-time '10 min'",
    ),
    must_not_match=(
        "journalctl --vacuum-time=7d",
        "journalctl --vacuum-size=500M",
        "journalctl -u nginx --since today",
        "journalctl --disk-usage",
        "journalctl --vacuum-time=$AGE",
    ),
)
def journal_vacuumed_empty(subject: CommandSubject, _tables: Tables) -> Iterator[Hit]:
    value = _vacuum_empties(reading(subject))
    if value is not None:
        yield Hit(value.span, f"`journalctl` vacuums the journal to `{value.display()}`: it keeps almost nothing")


@rule(
    id="SY030",
    name="timestamp-forged-on-program",
    severity=Severity.HIGH,
    summary=(
        "`touch` gives a file in a system or program directory a chosen time: another file's "
        "(`touch -r /bin/ls /usr/local/bin/.agent`, `--reference`) or a date (`-d`, `--date`, `-t`)."
    ),
    rationale=(
        "A program planted in /usr/local/bin or /usr/bin, dated like the system's own files, no longer "
        "shows up among the recently changed ones, where an investigation looks first (timestomping). "
        "No install or build sets these times by hand: it blocks. Dating a file of the project "
        "(`touch -r Makefile build/stamp`) passes."
    ),
    safer_alternative=(
        "Install the program with the package manager or `install`, and leave its time as it is; set "
        "times only on the project's own files."
    ),
    inspects=Inspects.COMMAND,
    commands=("touch",),
    must_match=(
        "touch -r /bin/ls /usr/local/bin/.agent",
        "touch --reference=/bin/bash /usr/sbin/helper",
        "sudo touch -d '2019-01-01 00:00' /usr/local/sbin/update-check",
        "touch -t 201901010000 ~/.local/bin/git",
    ),
    must_not_match=(
        "touch -r Makefile build/stamp",
        "touch -d '2 days ago' tests/fixtures/old.txt",
        "touch /usr/local/bin/.keep",
        "touch -r /bin/ls ./reference-time",
    ),
)
def timestamp_forged_on_program(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    read = reading(subject)
    if not read.has("-r", "-d", "-t"):
        return
    directories = (*tables.system_directories, *tables.binary_directories, *tables.program_directories)
    for target in read.operands:
        directory = path_under(target, directories, subject.cwd)
        if directory is not None:
            yield Hit(target.span, f"`touch` sets a chosen time on `{target.display()}`, under {directory}")


SYSTEM_LOG_RULES = (redirect_onto_system_log, overwrite_system_log, journal_vacuumed_empty, timestamp_forged_on_program)
