"""The machine's network interface taken down (`ip link set eth0 down`, `ifconfig eth0 down`,
`ifdown eth0`, `nmcli networking off`): the system.machine pack's SC011 asks."""

from __future__ import annotations

import re

from ...programs import Arg
from .._invocation import Found

# The names of a machine's wired and wireless interfaces (eth0, ens33, enp0s3, eno1, wlan0, wlp2s0,
# em1, bond0): taking one down cuts the machine off. Virtual ones (veth, docker0, tun0) are made and
# dropped by hand.
_MAIN_INTERFACE = re.compile(r"(eth|en[a-z]|wl|wlan|em|bond)[0-9a-z]*")


def _main_interface(word: Arg | None) -> Arg | None:
    return word if word is not None and word.value is not None and _MAIN_INTERFACE.fullmatch(word.value) else None


def ip_link_down(found: Found) -> Arg | None:
    """`ip link set [dev] eth0 down` (the object may be abbreviated: `ip l set`, `ip li set`)."""
    words = found.reading.operands
    values = [word.value for word in words]
    if len(words) < 4 or values[0] not in ("l", "li", "lin", "link") or values[1] != "set" or "down" not in values:
        return None
    device = words[3] if values[2] == "dev" else words[2]
    return _main_interface(device)


def ifconfig_down(found: Found) -> Arg | None:
    """`ifconfig eth0 down`."""
    words = found.reading.operands
    return _main_interface(words[0]) if len(words) >= 2 and words[-1].value == "down" else None


def nmcli_off(found: Found) -> Arg | None:
    """`nmcli networking off`, `nmcli radio all off`, `nmcli device disconnect eth0`."""
    words = found.reading.operands
    values = [word.value for word in words]
    if values[:2] in (["networking", "off"], ["n", "off"]) or (values[:1] == ["radio"] and values[-1:] == ["off"]):
        return words[-1]
    if values[:2] in (["device", "disconnect"], ["dev", "disconnect"], ["d", "disconnect"]) and len(words) > 2:
        return _main_interface(words[2])
    return None


def ifdown_main(found: Found) -> Arg | None:
    """`ifdown eth0`."""
    return _main_interface(next(iter(found.reading.operands), None))
