"""The shell command an ansible module's task equals, for the modules that remove or stop things.

`ansible web -m file -a 'path=/etc/nginx state=absent'` deletes the directory on every host the
pattern selects, as `rm -rf -- /etc/nginx` would on each; `-m user -a 'name=deploy state=absent
remove=yes'` is `userdel -r deploy`; `-m apt -a 'name=openssh-server state=absent'` is `apt-get
remove -y openssh-server`; `-m service -a 'name=sshd state=stopped'` is `systemctl stop sshd`. The
analysis judges that command on the hosts, so a module's task is judged exactly as its shell form
is (audit/_analysis/_contexts/_remote.py). Modules that only read, or create and update
(`ping`, `setup`, `copy`, `file state=directory`), have no such form and pass.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable, Mapping
from typing import cast

_Arguments = Mapping[str, str]
_Form = Callable[[_Arguments], tuple[str, ...] | None]

# Module names by collection: `file`, `ansible.builtin.file`, `ansible.legacy.file`.
_COLLECTIONS = ("ansible.builtin.", "ansible.legacy.")
_TRUE = frozenset({"yes", "true", "on", "1", "y", "t"})


def module_arguments(text: str) -> dict[str, str]:
    """An ad hoc task's `-a` text as ansible reads it: `key=value` words (quotes as a shell's),
    or a JSON object. Words without `=` (a command module's free form) are left out."""
    stripped = text.strip()
    if stripped.startswith("{"):
        try:
            loaded: object = json.loads(stripped)
        except ValueError:
            return {}
        if not isinstance(loaded, dict):
            return {}
        return {str(key): _text(value) for key, value in cast(dict[object, object], loaded).items()}
    try:
        words = shlex.split(stripped)
    except ValueError:  # an unclosed quote: ansible refuses the task
        return {}
    return dict(word.split("=", 1) for word in words if "=" in word)


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ",".join(str(each) for each in cast(list[object], value))
    return str(value)


def _absent(arguments: _Arguments) -> bool:
    return arguments.get("state", "").lower() == "absent"


def _names(arguments: _Arguments, *keys: str) -> tuple[str, ...]:
    """A list argument's items (`name=nginx,openssh-server`)."""
    for key in keys:
        if arguments.get(key):
            return tuple(each.strip() for each in arguments[key].split(",") if each.strip())
    return ()


def _file(arguments: _Arguments) -> tuple[str, ...] | None:
    """`file state=absent path=X`: X deleted, recursively when a directory."""
    paths = _names(arguments, "path", "dest", "name")
    return ("rm", "-rf", "--", paths[0]) if _absent(arguments) and paths else None


def _user(arguments: _Arguments) -> tuple[str, ...] | None:
    """`user name=U state=absent [remove=yes]`: the account deleted, with `remove` its home too."""
    names = _names(arguments, "name", "user")
    if not _absent(arguments) or not names:
        return None
    removes_home = arguments.get("remove", "").lower() in _TRUE
    return ("userdel", *(("-r",) if removes_home else ()), names[0])


def _group(arguments: _Arguments) -> tuple[str, ...] | None:
    names = _names(arguments, "name")
    return ("groupdel", names[0]) if _absent(arguments) and names else None


def _removal(program: str, verb: str) -> _Form:
    """A package module: `state=absent` removes the packages `name` lists, as `program verb -y` does."""

    def form(arguments: _Arguments) -> tuple[str, ...] | None:
        names = _names(arguments, "name", "pkg", "package")
        if not _absent(arguments) or not names:
            return None
        purges = program == "apt-get" and arguments.get("purge", "").lower() in _TRUE
        return (program, "purge" if purges else verb, "-y", *names)

    return form


def _service(arguments: _Arguments) -> tuple[str, ...] | None:
    """`service`/`systemd name=S state=stopped` is `systemctl stop S`; `enabled=no` alone, `systemctl disable S`."""
    names = _names(arguments, "name")
    if not names:
        return None
    if arguments.get("state", "").lower() == "stopped":
        return ("systemctl", "stop", names[0])
    if arguments.get("enabled", "").lower() in ("no", "false", "off", "0"):
        return ("systemctl", "disable", names[0])
    return None


def _reboot(arguments: _Arguments) -> tuple[str, ...] | None:
    return ("reboot",)


_FORMS: dict[str, _Form] = {
    "file": _file,
    "user": _user,
    "group": _group,
    "apt": _removal("apt-get", "remove"),
    "package": _removal("apt-get", "remove"),
    "yum": _removal("yum", "remove"),
    "dnf": _removal("dnf", "remove"),
    "pip": _removal("pip", "uninstall"),
    "service": _service,
    "systemd": _service,
    "systemd_service": _service,
    "reboot": _reboot,
}


def module_command(module: str, arguments: str) -> tuple[str, ...] | None:
    """The argv a module's task equals on each host, or None when the task removes and stops nothing."""
    for collection in _COLLECTIONS:
        if module.startswith(collection):
            module = module[len(collection) :]
            break
    form = _FORMS.get(module)
    return form(module_arguments(arguments)) if form is not None else None
