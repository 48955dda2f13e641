"""Services stopped through their managers: `systemctl stop|disable|mask|kill UNIT` and `service UNIT
stop`, for the system packs that judge which units matter (security controls, lock-outs, the machine)."""

from __future__ import annotations

from collections.abc import Callable
from fnmatch import fnmatchcase

from ...programs import Arg
from .._invocation import Found

SERVICE_MANAGERS = ("systemctl", "service")
# What stops a unit now or at the next boot (`systemctl stop|disable|mask|kill`, `service X stop`).
_SYSTEMCTL_STOPS = frozenset({"stop", "disable", "mask", "kill"})
_SERVICE_STOPS = frozenset({"stop", "teardown"})


def _names_unit(arg: Arg, units: frozenset[str], patterns: tuple[str, ...]) -> bool:
    """`firewalld` or `firewalld.service`, or a unit a pattern matches (`*crowdstrike*`)."""
    for value in arg.values:
        unit = value.removesuffix(".service")
        if unit in units or any(fnmatchcase(unit.lower(), pattern) for pattern in patterns):
            return True
    return False


def stops_service(*names: str) -> Callable[[Found], Arg | None]:
    """`systemctl stop|disable|mask|kill UNIT...` or `service UNIT stop` for one of these units (a name
    with `*` is a pattern over the unit's name in lower case)."""
    units = frozenset(name for name in names if "*" not in name)
    patterns = tuple(name for name in names if "*" in name)

    def stops(found: Found) -> Arg | None:
        operands = found.reading.operands
        if found.subject.name == "service":
            unit, action = operands[:1], operands[1:2]
            named = (
                bool(unit and action) and action[0].value in _SERVICE_STOPS and _names_unit(unit[0], units, patterns)
            )
            return action[0] if named else None
        if not operands or operands[0].value not in _SYSTEMCTL_STOPS:
            return None
        return next((word for word in operands[1:] if _names_unit(word, units, patterns)), None)

    return stops
