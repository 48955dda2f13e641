"""The machine's operators locked out (SC017): ssh stopped or killed, the network taken down,
ssh dropped by the firewall. The system.machine pack holds the rule; the predicates over
interfaces, routes and firewall rules are in `interfaces.py`, the kills by name in `processes.py`."""

from __future__ import annotations

from ..._model import Severity
from .._invocation import command, option_values, pack_rule
from .controls import IPTABLES_NAMES
from .interfaces import (
    default_route_removed,
    firewall_drops_ssh,
    ifconfig_down,
    ifdown_main,
    ip_link_down,
    nmcli_off,
    ufw_denies_ssh,
)
from .processes import killed_by_listing, killed_by_name
from .service_stops import SERVICE_MANAGERS, stops_service

# Units whose loss leaves nobody able to log in from elsewhere: the ssh server, and the
# services that bring the interfaces up and take them all down when stopped (Debian's
# `networking`, Red Hat's `network`). NetworkManager and systemd-networkd leave the
# interfaces configured when they stop: SC011's.
LOCKOUT_UNITS = ("ssh", "sshd", "ssh.socket", "sshd.socket", "networking", "network")
# The ssh server's processes: its listener and every session's.
_SSH_SERVER = ("sshd",)

REMOTE_ACCESS_CUT = pack_rule(
    id="SC017",
    name="remote-access-cut",
    severity=Severity.HIGH,
    summary=(
        "Cuts the machine off from its operators: stops, disables or kills the ssh server (`systemctl stop "
        "sshd`, `killall -9 sshd`) or the networking service, takes the interface or default route away "
        "(`ip link set eth0 down`, `ip route del default`), or has the firewall drop ssh from everyone "
        "(`iptables -I INPUT -p tcp --dport 22 -j DROP`, `ufw deny ssh`) or every packet (`firewall-cmd --panic-on`)."
    ),
    rationale=(
        "On a remote machine this ends every session, the agent's own included, and nobody can log "
        "in again without a console: the command that would undo it can no longer be typed. It "
        "blocks; restarting or reloading ssh after a configuration change passes, and stopping other "
        "services the machine is reached through warns (SC011)."
    ),
    safer_alternative=(
        "`systemctl reload sshd` or `restart` it after checking its configuration (`sshd -t`), ban one "
        "address (`iptables -A INPUT -s ADDR -j DROP`), or schedule a rollback first (`at now + 5 "
        "minutes` restoring the firewall) and ask a human with console access."
    ),
    matches=(
        command(SERVICE_MANAGERS, where=stops_service(*LOCKOUT_UNITS)),
        command(("pkill", "killall"), where=killed_by_name(*_SSH_SERVER)),
        command("kill", unless=("-l", "-L"), where=killed_by_listing(*_SSH_SERVER)),
        command("ip", where=ip_link_down),
        command("ifconfig", where=ifconfig_down),
        command("ifdown", where=ifdown_main),
        command("nmcli", where=nmcli_off),
        command("ip", where=default_route_removed),
        command(IPTABLES_NAMES, where=firewall_drops_ssh),
        command("ufw", "deny", unless=("--dry-run",), where=ufw_denies_ssh),
        command("ufw", "reject", unless=("--dry-run",), where=ufw_denies_ssh),
        # firewalld's panic mode drops every packet; ssh taken out of the zone is refused from everyone.
        command("firewall-cmd", any_of=("--panic-on",)),
        command("firewall-cmd", where=option_values({"--remove-service": ("ssh",), "--remove-port": ("22/*",)})),
    ),
    message="cuts the machine off from its operators: ssh or the network stopped, or ssh dropped",
    must_match=(
        "killall -9 sshd",
        "kill -9 $(pgrep sshd)",
        "systemctl stop sshd",
        "sudo systemctl disable --now ssh",
        "service networking stop",
        "ip link set dev eth0 down",
        "ifconfig ens33 down",
        "nmcli networking off",
        "ip route del default",
        "iptables -I INPUT -p tcp --dport 22 -j DROP",
        "ufw deny ssh",
        "firewall-cmd --panic-on",
        "firewall-cmd --permanent --remove-service=ssh",
        "update-rc.d -f ssh remove",
        "chkconfig sshd off",
    ),
    must_not_match=(
        "systemctl status sshd",
        "systemctl restart sshd",
        "systemctl reload ssh",
        "systemctl stop systemd-networkd",
        "pkill -f 'ssh -L 8080'",
        "killall ssh-agent",
        "ip link set veth-test down",
        "ip link set eth0 up",
        "iptables -A INPUT -s 203.0.113.9 -j DROP",
        "iptables -A OUTPUT -p tcp --dport 443 -j REJECT",
        "ufw deny from 203.0.113.9",
        "firewall-cmd --query-panic",
        "firewall-cmd --remove-service=http",
        "chkconfig sshd on",
        "rc-update add sshd default",
    ),
)
