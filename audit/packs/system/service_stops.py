"""Services stopped, or kept from starting at the next boot, by any of the service managers: systemd's
`systemctl`, `service`, and the init scripts' managers before it (Debian's update-rc.d, Red Hat's
chkconfig, OpenRC's rc-update). The system packs' rules name the units that matter to them."""

from __future__ import annotations

from collections.abc import Callable

from ...programs import Arg
from .._invocation import Found

SERVICE_MANAGERS = ("systemctl", "service", "update-rc.d", "chkconfig", "rc-update")
# What stops a unit now or at the next boot (`systemctl stop|disable|mask|kill`, `service X stop`).
_SYSTEMCTL_STOPS = frozenset({"stop", "disable", "mask", "kill"})
_SERVICE_STOPS = frozenset({"stop", "teardown"})
# What keeps an init script from starting at the next boot (`update-rc.d X remove`, `rc-update del X`).
_INIT_SCRIPT_REMOVALS = frozenset({"disable", "remove", "stop", "del", "delete"})


def _names_unit(arg: Arg, units: frozenset[str]) -> bool:
    """`firewalld` or `firewalld.service`."""
    return any(value.removesuffix(".service") in units for value in arg.values)


def stops_service(*names: str) -> Callable[[Found], Arg | None]:
    """`systemctl stop|disable|mask|kill UNIT...` or `service UNIT stop` for one of these units."""
    units = frozenset(names)

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


def _init_script_removed(found: Found, units: frozenset[str]) -> Arg | None:
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
