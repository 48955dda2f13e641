"""Who may read, write or run files, changed beyond a mode's everyday use (PE003 to PE006): the
system's files and root daemons' sockets, whole trees of the home directory, capabilities, and a
setuid shell.

A mode that lets every user write (PE001) or sets the setuid or setgid bit (PE002) warns on any
file (`_hygiene.py`); the home directory itself and the top-level system directories changed
recursively are FS005's (`_filesystem.py`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .._analysis import Arg, CommandSubject, basename, resolve_path
from .._model import Severity
from .._named_tuple import NamedTuple
from .._tables import Tables
from ._filesystem import own_account
from ._hygiene import mode_words, sets_setuid
from ._paths import TEMP_DIRECTORIES, path_is, path_under, per_subject, reading
from ._rule import Hit, Inspects, rule

_ACCESS_PROGRAMS = ("chmod", "chown", "chgrp", "chattr", "setfacl")
# GNU chmod reads `-x`, `-w`, `-rwx` as a mode, not as an option.
_MODE_OPTION = r"-[rwxXst]+"
_NUMERIC_MODE = r"[0-7]{3,4}"
_SYMBOLIC_CLAUSE = r"([ugoa]*)([-+=])([rwxXst]*)"
# The sockets of daemons that run as root: whoever may write one runs anything as root through it.
_ROOT_SOCKETS = (
    "/var/run/docker.sock", "/run/docker.sock", "/run/containerd/containerd.sock",
    "/var/run/containerd/containerd.sock", "/run/podman/podman.sock", "/var/run/crio/crio.sock",
)  # fmt: skip
_HOME = ("~",)


class AccessChange(NamedTuple):
    """What an access-changing command gives its files, and which files."""

    spec: Arg | None
    """The mode, owner, group or attributes as written; None for setfacl, whose ACLs are options."""
    spec_text: str | None
    """The spec's literal text (a chmod mode given as an option, `-x`, has no word of its own)."""
    targets: tuple[Arg, ...]
    recursive: bool


@per_subject
def access_change(subject: CommandSubject) -> AccessChange:
    """The spec and files of chmod, chown, chgrp, chattr (`+i` or `-i`) and setfacl."""
    read = reading(subject)
    operands, recursive = read.operands, read.has("-R")
    if subject.name == "setfacl":
        return AccessChange(None, None, operands, recursive)
    given_as_option = next(
        (use.spelling for use in read.options if not use.declared and re.fullmatch(_MODE_OPTION, use.spelling)), None
    )
    if given_as_option is not None and (subject.name == "chmod" or subject.name == "chattr"):
        return AccessChange(None, given_as_option, operands, recursive)
    if not operands:
        return AccessChange(None, None, (), recursive)
    return AccessChange(operands[0], operands[0].value, operands[1:], recursive)


def _fs005_has_the_directory(subject: CommandSubject, change: AccessChange) -> bool:
    """A recursive chmod, chown, chgrp or setfacl of a protected directory itself (`/`, `/etc`, `~`) is FS005's:
    these rules then report only what is strictly inside one."""
    return change.recursive and subject.name in ("chmod", "chown", "chgrp", "setfacl")


def _gives_access(subject: CommandSubject, change: AccessChange) -> bool:
    """Whether the command gives or locks anything: chattr taking an attribute away (`-i`) and
    setfacl only removing entries (`-x`, `-b`) give nobody more."""
    if subject.name == "chattr":
        return (change.spec_text or "")[:1] in ("+", "=")
    if subject.name == "setfacl":
        return reading(subject).has("--modify", "--modify-file", "--set", "--set-file")
    return True


@rule(
    id="PE003",
    name="system-file-access-changed",
    severity=Severity.HIGH,
    summary=(
        "Changes the mode, owner, ACL or attributes of a file in a system directory (/etc, /usr/bin, "
        "/bin...), of `/` itself, or of a root daemon's socket (`/var/run/docker.sock`)."
    ),
    rationale=(
        "`chmod 666 /etc/shadow` lets anyone set root's password, `chmod 000 /` or `chmod -x /bin/chmod` "
        "leaves the machine unable to run anything, `chmod 600 /etc/passwd` breaks every login, "
        "`chattr +i /etc/resolv.conf` stops the system from fixing its own settings, and a writable "
        "docker socket is root for every user. Writing those files blocks (SY001); so does changing who "
        "may use them."
    ),
    safer_alternative=(
        "Change files of the project or under /usr/local; ask a human to change a system file's "
        "permissions, or add your user to the group meant for a socket."
    ),
    inspects=Inspects.COMMAND,
    commands=_ACCESS_PROGRAMS,
    must_match=(
        "chmod 777 /etc/shadow",
        "chmod 000 /",
        "chmod -x /bin/chmod",
        "sudo chmod 600 /etc/passwd",
        "chown nobody /etc/sudoers",
        "chattr +i /etc/resolv.conf",
        "setfacl -m u:nobody:rw /etc/shadow",
        "chmod 666 /var/run/docker.sock",
    ),
    must_not_match=(
        "chmod 755 /usr/local/bin/tool",
        "chmod +x ./scripts/build.sh",
        "chattr -i /etc/resolv.conf",
        "setfacl -x u:nobody /etc/hosts",
        "stat /etc/shadow",
        "chmod 644 ./etc/app.conf",
        "chmod 755 /home",
    ),
)
def system_file_access_changed(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    change = access_change(subject)
    if not _gives_access(subject, change):
        return
    strictly, cwd = _fs005_has_the_directory(subject, change), subject.cwd
    for target in change.targets:
        where = (
            path_under(target, tables.system_directories, cwd, strictly=strictly)
            or (None if strictly else path_is(target, ("/",), cwd))
            or path_is(target, _ROOT_SOCKETS, cwd)
        )
        if where is not None:
            yield Hit(target.span, f"`{subject.name}` changes who may use `{target.display()}` ({where})")


def _takes_owner_read(mode: str) -> bool:
    """Whether the mode leaves the owner without read access: `000`, `044`, `u-r`, `a=`, `-r`."""
    if re.fullmatch(_NUMERIC_MODE, mode):
        return int(mode[-3]) & 4 == 0
    if re.fullmatch(_MODE_OPTION, mode):
        return "r" in mode
    for clause in mode.split(","):
        match = re.fullmatch(_SYMBOLIC_CLAUSE, clause)
        if match is None:
            continue
        who, operator, permissions = match.groups()
        owner = not who or "u" in who or "a" in who
        if owner and ((operator == "-" and "r" in permissions) or (operator == "=" and "r" not in permissions)):
            return True
    return False


_NAMED_ENTRY = re.compile(r"(?:d(?:efault)?:)?(?:u|user|g|group):([^:]+):([rwxX-]*)")
_OTHER_ENTRY = re.compile(r"(?:d(?:efault)?:)?(?:o|other):(?::)?([rwxX-]*)")


def _grants_others(subject: CommandSubject) -> str | None:
    """The ACL entry a setfacl gives another user, group or everyone (`u:nobody:rwx`, `o::rw`); a file
    of entries (`-M FILE`) counts. An entry naming a user known only at run time (`u:$USER:rwx`) is not judged."""
    read = reading(subject)
    if read.has("--modify-file", "--set-file"):
        return "a file of ACL entries"
    for acl in read.values("--modify", "--set"):
        for entry in (acl.value or "").split(","):
            named, other = _NAMED_ENTRY.fullmatch(entry), _OTHER_ENTRY.fullmatch(entry)
            permissions = named.group(2) if named else other.group(1) if other else ""
            if any(letter in permissions for letter in "rwxX"):
                return entry
    return None


def _what_it_takes_or_gives(subject: CommandSubject, change: AccessChange) -> str | None:
    """What a recursive change does that its owner cannot simply undo, or that opens the files to others."""
    name, text = subject.name, change.spec_text or ""
    if name == "chmod":
        return "takes the owner's read access away" if _takes_owner_read(text) else None
    if name in ("chown", "chgrp"):
        spec = change.spec
        return None if spec is None or own_account(spec, name) else f"gives the files to `{spec.source}`"
    if name == "chattr":
        locks = text[:1] in ("+", "=") and ("i" in text or "a" in text)
        return f"locks the files (`{text}`)" if locks else None
    entry = _grants_others(subject)
    return None if entry is None else f"grants `{entry}`"


@rule(
    id="PE004",
    name="home-tree-access-taken-or-given",
    severity=Severity.MEDIUM,
    summary=(
        "Recursively takes a tree under the home directory from its owner or opens it to others: "
        "`chmod -R 000`, `chown -R nobody`, `chattr -R +i`, `setfacl -R -m u:OTHER:rwx`."
    ),
    rationale=(
        "A project, a dotfile directory or the keys under the home directory become unreadable, "
        "owned by someone else, impossible to change, or readable by another account; undoing it "
        "needs root or a second pass over every file. It warns: the command names what it changes, "
        "and giving a tree to a service's user is sometimes meant. The home directory itself is FS005's."
    ),
    safer_alternative=(
        "Change the files you mean with the owner's access kept (`chmod -R go-w DIR`); give a tree back "
        "to yourself with `chown -R $USER`."
    ),
    inspects=Inspects.COMMAND,
    commands=_ACCESS_PROGRAMS,
    must_match=(
        "chmod -R 000 ~/projects",
        "chown -R nobody:nogroup ~/projects",
        "chattr -R +i ~/projects",
        "setfacl -R -m u:nobody:rwx ~/projects",
        "chmod -R a-r ~/.config",
    ),
    must_not_match=(
        "chmod -R 755 ~/projects/site",
        "sudo chown -R $USER:$USER ~/projects",
        "chmod -R go-w ~/projects",
        "chmod 000 ~/notes.txt",
        "chown -R nobody ./build",
        "setfacl -R -m u:$USER:rwx ~/shared",
    ),
)
def home_tree_access_taken_or_given(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    change = access_change(subject)
    if not change.recursive:
        return
    what = _what_it_takes_or_gives(subject, change)
    if what is None:
        return
    strictly = _fs005_has_the_directory(subject, change)
    for target in change.targets:
        if path_under(target, _HOME, subject.cwd, strictly=strictly) is not None:
            yield Hit(target.span, f"`{subject.name} -R` {what} in `{target.display()}`, under the home directory")


# Capabilities that amount to root: changing any user id or file owner, reading or writing any
# file, loading kernel code, tracing any process, the kernel's administration.
_ROOT_CAPABILITIES = frozenset({
    "cap_setuid", "cap_setgid", "cap_setfcap", "cap_setpcap", "cap_dac_override", "cap_dac_read_search",
    "cap_fowner", "cap_fsetid", "cap_chown", "cap_sys_admin", "cap_sys_ptrace", "cap_sys_module",
    "cap_sys_rawio", "cap_bpf", "cap_mknod", "cap_linux_immutable", "cap_mac_admin", "cap_mac_override",
    "cap_sys_boot",
})  # fmt: skip
_CAPABILITY_CLAUSE = re.compile(r"([a-z0-9_,]*)((?:[-+=][eip]*)+)")


def _root_capability(text: str) -> str | None:
    """The capability of root's a setcap text grants (`cap_setuid+ep`, `all=ep`, `=ep`: every one)."""
    for clause in text.lower().split():
        match = _CAPABILITY_CLAUSE.fullmatch(clause)
        if match is None:
            continue
        names, actions = match.group(1).split(","), match.group(2)
        if not re.search(r"[+=][eip]*[ep]", actions):
            continue
        if names == [""] or "all" in names:
            return "every capability"
        granted = next((name for name in names if name in _ROOT_CAPABILITIES), None)
        if granted is not None:
            return granted
    return None


@rule(
    id="PE005",
    name="root-capability-granted",
    severity=Severity.HIGH,
    summary=(
        "Gives a program a capability that amounts to root: `setcap cap_setuid+ep`, "
        "`cap_dac_read_search`, `cap_sys_admin`, `cap_sys_ptrace`, `all=ep`."
    ),
    rationale=(
        "A file capability is a setuid bit in pieces: `cap_setuid` on python3 lets every user run "
        "`os.setuid(0)`, `cap_dac_read_search` on tar lets every user read /etc/shadow and every key. "
        "It blocks; binding a low port (`cap_net_bind_service`) or raw sockets (`cap_net_raw`) pass."
    ),
    safer_alternative=(
        "Grant the one narrow capability the program needs (`cap_net_bind_service` to listen on port "
        "80), or run it with sudo when it needs root."
    ),
    inspects=Inspects.COMMAND,
    commands=("setcap",),
    must_match=(
        "setcap cap_setuid+ep /usr/bin/python3",
        "setcap cap_dac_read_search+ep /usr/bin/tar",
        "sudo setcap 'cap_net_bind_service,cap_sys_admin=eip' ./server",
        "setcap =ep /usr/bin/vim",
    ),
    must_not_match=(
        "setcap cap_net_bind_service=+ep ./server",
        "setcap cap_net_raw+ep /usr/bin/ping",
        "setcap -r /usr/bin/python3",
        "getcap /usr/bin/ping",
        "setcap cap_setuid-ep /usr/bin/python3",
    ),
)
def root_capability_granted(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    read = reading(subject)
    if read.has("-r", "-v"):
        return
    operands = read.operands
    for capabilities, target in zip(operands[::2], operands[1::2], strict=False):
        granted = _root_capability(capabilities.value or "")
        if granted is not None:
            yield Hit(capabilities.span, f"`setcap` gives {granted} to `{target.display()}`: root for every user")


def _setuid_files(subject: CommandSubject) -> tuple[Arg, ...]:
    """The files a setuid mode lands on, and for install the files it copies (`install -m 4755 /bin/bash X`)."""
    if subject.name == "install":
        return reading(subject).operands
    return access_change(subject).targets


def _shell_or_temp(target: Arg, tables: Tables, subject: CommandSubject) -> str | None:
    cwd = subject.cwd
    if path_under(target, TEMP_DIRECTORIES, cwd, strictly=True) is not None:
        return "a file in a directory every user may write"
    if subject.root_owned and any(resolve_path(cwd, value) in subject.root_owned for value in target.values):
        return "a file an earlier `chown` gave to root"
    names = (basename(value) for value in target.values)
    shell = next((name for name in names if tables.interpreter(name) is not None), None)
    return None if shell is None else f"the interpreter `{shell}`"


@rule(
    id="PE006",
    name="setuid-shell-or-temp-file",
    severity=Severity.HIGH,
    summary=(
        "Sets the setuid bit on a shell or interpreter (`chmod u+s /bin/bash`, `install -m 4755 /bin/bash "
        "/tmp/x`), on a file in /tmp, /var/tmp or /dev/shm (`chmod +s /tmp/b`), or on a file the same command "
        "gave to root (`chown root ./x && chmod +s ./x`)."
    ),
    rationale=(
        "A setuid shell or interpreter runs any code with its owner's rights: owned by root, it is a "
        "root shell for every user, the classic backdoor, and a setuid file where every user may write "
        "is one nobody installed. It blocks; PE002 warns on setuid bits elsewhere."
    ),
    safer_alternative="Grant the one command that needs root in sudoers, or ask a human.",
    inspects=Inspects.COMMAND,
    commands=("chmod", "install"),
    must_match=(
        "chmod u+s /bin/bash",
        "chmod +s /tmp/b",
        "chmod 4755 /tmp/rootsh",
        "install -m 4755 -o root /bin/bash /tmp/rootsh",
        "sudo chmod 4755 /usr/bin/python3",
        "chown root ./x && chmod +s ./x",
        "sudo chown root:root bin/helper; sudo chmod 4755 bin/helper",
    ),
    must_not_match=(
        "chmod 4755 ./tool",
        "chmod g+s /tmp/shared",
        "chmod +x /tmp/run.sh",
        "install -m 755 /bin/bash ./sandbox/bin/bash",
        "chmod 2775 shared/",
        "chown root ./x && chmod g+s ./x",
        "chown me ./x && chmod u+s ./x",
        "chown root ./a && chmod u+s ./b",
    ),
)
def setuid_shell_or_temp_file(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    if not any(mode.value is not None and sets_setuid(mode.value) for mode in mode_words(subject)):
        return
    for target in _setuid_files(subject):
        what = _shell_or_temp(target, tables, subject)
        if what is not None:
            yield Hit(target.span, f"`{subject.name}` makes {what} setuid: it runs with its owner's rights")
            return


PERMISSION_RULES = (
    system_file_access_changed,
    home_tree_access_taken_or_given,
    root_capability_granted,
    setuid_shell_or_temp_file,
)
