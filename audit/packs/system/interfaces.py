"""The machine cut off its network: its interface taken down (`ip link set eth0 down`, `ifconfig
eth0 down`, `ifdown eth0`, `nmcli networking off`), its default route removed (`ip route del
default`), or a firewall rule that drops ssh or every connection out (`iptables -I INPUT -p tcp
--dport 22 -j DROP`, `ufw deny ssh`): the system.machine pack's SC011 asks."""

from __future__ import annotations

import re

from ..._named_tuple import NamedTuple
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


_ROUTE_OBJECTS = frozenset({"r", "ro", "rou", "rout", "route"})
_DEFAULT_ROUTES = frozenset({"default", "0/0", "0.0.0.0/0", "::/0", "all"})


def default_route_removed(found: Found) -> Arg | None:
    """`ip route del default`, `ip route flush all` (or `default`, `table main`, `dev eth0`): the
    route every connection to another network takes. A flush of the route cache or of another
    table (a VPN's) leaves it."""
    words = found.reading.operands
    values = [word.value for word in words]
    if len(words) < 3 or values[0] not in _ROUTE_OBJECTS:
        return None
    if values[1] in ("del", "delete") or (values[1] == "flush" and values[2] != "table"):
        return words[2] if values[2] in _DEFAULT_ROUTES or (values[2] == "dev" and _flushed_main(words)) else None
    if values[1] == "flush" and len(words) > 3 and values[3] in ("main", "all"):
        return words[3]
    return None


def _flushed_main(words: tuple[Arg, ...]) -> bool:
    return len(words) > 3 and _main_interface(words[3]) is not None


# The ports whose loss cuts the machine off: ssh coming in; ssh, DNS and the web going out.
_SSH_PORTS = frozenset({"22", "ssh"})
_OUTBOUND_LIFELINES = frozenset({"22", "ssh", "53", "domain", "80", "http", "443", "https"})
_DROPPING = frozenset({"DROP", "REJECT"})


class _DroppingRule(NamedTuple):
    """An iptables rule that drops or rejects: its jump word, its chain, whether it is inserted first."""

    jump: Arg
    chain: str
    inserted: bool


def _dropping_rule(found: Found) -> _DroppingRule | None:
    """An iptables rule of the filter table, appended or inserted, that drops or rejects on the
    machine's own link. A rule only for some connections' state (`--ctstate INVALID`) or for
    another interface (`-i docker0`) is None."""
    read = found.reading
    jumps = read.values("--jump")
    if not jumps or not _DROPPING.intersection(jumps[-1].values) or read.values("--table"):
        return None
    if _narrowed(read.args, read.values("--in-interface") + read.values("--out-interface")):
        return None
    inserted = read.values("--insert")
    chain = (inserted or read.values("--append"))[-1:]
    if not chain:
        return None
    name = next((value for value in ("INPUT", "OUTPUT") if value in chain[0].values), "")
    return _DroppingRule(jumps[-1], name, bool(inserted))


def firewall_drops_ssh(found: Found) -> Arg | None:
    """An iptables rule that drops or rejects ssh coming in from every address (`-I INPUT -p tcp
    --dport 22 -j DROP`), or every connection coming in when inserted first (`-I INPUT -j DROP`;
    appended, that is the usual last rule of a firewall). A rule for one address (`-s`) or another
    port bans or blocks only that."""
    dropping = _dropping_rule(found)
    if dropping is None or dropping.chain != "INPUT" or found.reading.values("--source"):
        return None
    port = _destination_port(found.reading.args)
    return dropping.jump if port in _SSH_PORTS or (port is None and dropping.inserted) else None


def firewall_cuts_outbound(found: Found) -> Arg | None:
    """An iptables rule that drops or rejects ssh, DNS, the web or everything going out to every
    address (`-A OUTPUT -p tcp --dport 443 -j DROP`); a rule for one destination (`-d`) blocks only that."""
    dropping = _dropping_rule(found)
    if dropping is None or dropping.chain != "OUTPUT" or found.reading.values("--destination"):
        return None
    port = _destination_port(found.reading.args)
    return dropping.jump if port is None or port in _OUTBOUND_LIFELINES else None


def _narrowed(args: tuple[Arg, ...], interfaces: tuple[Arg, ...]) -> bool:
    """A rule only for some connections' state (`--ctstate INVALID`) or for an interface that is not
    the machine's own link (`-i docker0`, `-o lo`)."""
    if any(_main_interface(interface) is None for interface in interfaces):
        return True
    return any(arg.value in ("--ctstate", "--state") for arg in args)


def _destination_port(args: tuple[Arg, ...]) -> str | None:
    """The port `--dport 22` (or `--destination-port`) names; None when the rule names none."""
    for index, arg in enumerate(args[:-1]):
        if arg.value in ("--dport", "--destination-port"):
            return args[index + 1].value or "?"
    return None


def ufw_denies_ssh(found: Found) -> Arg | None:
    """`ufw deny ssh`, `ufw reject 22/tcp`, `ufw deny in 22`: ssh refused from every address."""
    rule = found.reading.operands
    words = [word.value for word in rule]
    if "from" in words:
        return None
    return next((word for word in rule if (word.value or "").partition("/")[0] in (*_SSH_PORTS, "OpenSSH")), None)
