"""Services stopped, or kept from starting at the next boot, by any of the service managers: systemd's
`systemctl`, `service`, and the init scripts' managers before it (Debian's update-rc.d, Red Hat's
chkconfig, OpenRC's rc-update). The system packs' rules name the units that matter to them."""

from __future__ import annotations

from collections.abc import Callable
from fnmatch import fnmatchcase

from ..._named_tuple import NamedTuple
from ...programs import Arg
from .._invocation import Found

SERVICE_MANAGERS = ("systemctl", "service", "update-rc.d", "chkconfig", "rc-update")
# What stops a unit now or at the next boot (`systemctl stop|disable|mask|kill`, `service X stop`).
_SYSTEMCTL_STOPS = frozenset({"stop", "disable", "mask", "kill"})
_SERVICE_STOPS = frozenset({"stop", "teardown"})
# What keeps an init script from starting at the next boot (`update-rc.d X remove`, `rc-update del X`).
_INIT_SCRIPT_REMOVALS = frozenset({"disable", "remove", "stop", "del", "delete"})


class _Units(NamedTuple):
    """The units a rule names: exactly, or by a pattern over the name in lower case (`*crowdstrike*`)."""

    names: frozenset[str]
    patterns: tuple[str, ...]


def _names_unit(arg: Arg, units: _Units) -> bool:
    """`firewalld` or `firewalld.service`, or a unit a pattern matches."""
    for value in arg.values:
        unit = value.removesuffix(".service")
        if unit in units.names or any(fnmatchcase(unit.lower(), pattern) for pattern in units.patterns):
            return True
    return False


def stops_service(*names: str) -> Callable[[Found], Arg | None]:
    """`systemctl stop|disable|mask|kill UNIT...`, `service UNIT stop` or an init script's removal for one
    of these units (a name with `*` is a pattern over the unit's name in lower case)."""
    units = _Units(frozenset(name for name in names if "*" not in name), tuple(name for name in names if "*" in name))

    def stops(found: Found) -> Arg | None:
        operands = found.reading.operands
        name = found.subject.name
        if name == "service":
            unit, action = operands[:1], operands[1:2]
            named = bool(unit and action) and action[0].value in _SERVICE_STOPS and _names_unit(unit[0], units)
            return action[0] if named else None
        if name in ("update-rc.d", "chkconfig", "rc-update"):
            return _init_script_removed(found, units)
        if not operands or operands[0].value not in _SYSTEMCTL_STOPS:
            return None
        return next((word for word in operands[1:] if _names_unit(word, units)), None)

    return stops


def _init_script_removed(found: Found, units: _Units) -> Arg | None:
    """`update-rc.d [-f] UNIT disable|remove`, `chkconfig UNIT off`, `chkconfig --del UNIT`, `rc-update
    del UNIT`: the unit's word, when it is kept from starting at the next boot."""
    read = found.reading
    operands = read.operands
    if found.subject.name == "rc-update":
        unit, action = operands[1:2], operands[:1]
    else:
        unit, action = operands[:1], operands[1:]
    if not unit or not _names_unit(unit[0], units):
        return None
    if found.subject.name == "chkconfig":
        return unit[0] if read.has("--del") or (action and action[-1].value == "off") else None
    return unit[0] if action and action[0].value in _INIT_SCRIPT_REMOVALS else None
