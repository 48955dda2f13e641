"""system.controls: the host's security controls turned off.

The firewall flushed, opened or stopped (SC001), SELinux or AppArmor taken out of enforcing (SC002),
the audit system, the system log or a security agent stopped or emptied (SC003, `monitoring.py`),
the shell's history cleared or turned off by its builtins (SC004), macOS's Gatekeeper, System
Integrity Protection or quarantine turned off (SC013), a new certificate authority trusted
system-wide (SC015). The same done by an assignment (`HISTFILE=/dev/null`) names no program: that
is the core rule EV002. The shell's history file deleted or emptied is read with the system's logs
(SV002, SY012, SY013). Certificate checks and package sources are the system.trust pack's
(`trust.py`): git, npm and pip commands load that small module, not this one. Which service
managers' commands stop a unit is `service_stops.py`'s.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise

from ..._model import Severity
from ...programs import Arg
from ...rules._pack import Pack
from .._invocation import Found, any_operand, command, operand, option_value, pack_rule
from .monitoring import AUDIT_OFF
from .service_stops import SERVICE_MANAGERS, stops_service

IPTABLES_NAMES = ("iptables", "ip6tables", "iptables-legacy", "ip6tables-legacy", "iptables-nft", "ip6tables-nft")


def _in_filter_table(found: Found) -> Arg | None:
    """The firewall's own table: iptables' default, or `-t filter` (`-t nat` translates addresses).
    The word pointed at is the table's, or the command's last."""
    tables = found.reading.values("--table")
    if not tables:
        return found.reading.args[-1] if found.reading.args else None
    last = tables[-1]
    return last if not last.values or "filter" in last.values else None


def _default_policy_accept(found: Found) -> Arg | None:
    """`-P INPUT ACCEPT` or `-P FORWARD ACCEPT`: what no rule stops gets in (OUTPUT is left open everywhere)."""
    if not any(value in ("INPUT", "FORWARD") for chain in found.reading.values("--policy") for value in chain.values):
        return None
    return next((word for word in found.reading.operands if word.value == "ACCEPT"), None)


# nft commands that empty the whole rule set or a whole table.
_NFT_REMOVALS = frozenset({("flush", "ruleset"), ("flush", "table"), ("delete", "table"), ("destroy", "table")})


def _nft_removes_rules(found: Found) -> Arg | None:
    """A command that empties the rule set or a whole table, in words or in one string (`nft flush
    ruleset`, `nft 'flush ruleset'`, several commands separated by `;`)."""
    words = [(text, arg) for arg in found.reading.operands for text in (arg.value or "").replace(";", " ; ").split()]
    return next((arg for (first, _), (second, arg) in pairwise(words) if (first, second) in _NFT_REMOVALS), None)


def _ufw_allows_incoming(found: Found) -> Arg | None:
    """`ufw default allow [incoming|routed]` (incoming when no direction is given)."""
    read = found.reading
    policy, direction = read.operand("POLICY"), read.operand("DIRECTION")
    if not policy or policy[0].value != "allow":
        return None
    if not direction:
        return policy[0]
    return direction[0] if direction[0].value in ("incoming", "routed") else None


_ANYWHERE = frozenset({"any", "0.0.0.0/0", "::/0"})


def _ufw_allows_everything(found: Found) -> Arg | None:
    """`ufw allow from any [to any]`: a rule that names no port, protocol or application lets every
    connection in (`ufw allow from 10.0.0.0/8` trusts a network; `ufw allow 22/tcp` opens one port)."""
    words = found.reading.operand("RULE")
    values = [word.value for word in words]
    if "from" not in values or {"port", "proto", "app"} & set(values):
        return None
    source = values.index("from") + 1
    return words[source] if source < len(words) and values[source] in _ANYWHERE else None


def _words_in_order(*expected: str) -> Callable[[Found], Arg | None]:
    """The operands start with these words, compared in lower case (`defaults write com.apple.alf
    globalstate`); the word pointed at is the last of them."""
    wanted = tuple(word.lower() for word in expected)

    def starts(found: Found) -> Arg | None:
        operands = found.reading.operands
        given = tuple((word.value or "").lower() for word in operands[: len(wanted)])
        return operands[len(wanted) - 1] if given == wanted else None

    return starts


def _last_word_is(*values: str) -> Callable[[Found], Arg | None]:
    """The command's last operand is one of these values (any case): `-bool NO`, `-int 0`, `off`."""
    wanted = frozenset(value.lower() for value in values)

    def last(found: Found) -> Arg | None:
        operands = found.reading.operands
        return operands[-1] if operands and (operands[-1].value or "").lower() in wanted else None

    return last


_UFW_DRY_RUN = ("--dry-run",)

FIREWALL_OFF = pack_rule(
    id="SC001",
    name="firewall-turned-off",
    severity=Severity.HIGH,
    summary=(
        "Turns the host's firewall off or opens it to every connection: `iptables -F`, `iptables -P INPUT "
        "ACCEPT` (ip6tables the same), `nft flush ruleset`, `ufw disable`, `ufw default allow incoming`, "
        "`ufw allow from any`, `firewall-cmd --set-default-zone=trusted`, `pfctl -d`, macOS's application "
        "firewall turned off, or the firewall's service stopped."
    ),
    rationale=(
        "Every port of every service on the machine becomes reachable from the network, and nothing "
        "records that the rules were there. It blocks: no build or test needs the firewall gone, and "
        "the rules flushed are often nowhere else."
    ),
    safer_alternative=(
        "Open the one port you need (`ufw allow 8080/tcp`, `iptables -I INPUT -p tcp --dport 8080 -j ACCEPT`), "
        "or ask a human; `ufw --dry-run` and `nft -c` show what a change would do."
    ),
    matches=(
        command(IPTABLES_NAMES, any_of=("--flush",), where=_in_filter_table),
        command(IPTABLES_NAMES, where=(_in_filter_table, _default_policy_accept)),
        command("nft", unless=("--check",), where=_nft_removes_rules),
        command("ufw", "disable", unless=_UFW_DRY_RUN),
        command("ufw", "reset", unless=_UFW_DRY_RUN),
        command("ufw", "default", unless=_UFW_DRY_RUN, where=_ufw_allows_incoming),
        command("firewall-cmd", where=option_value("--set-default-zone", "trusted")),
        command("ufw", "allow", unless=_UFW_DRY_RUN, where=_ufw_allows_everything),
        command("pfctl", requires=("-d",)),
        command("pfctl", where=option_value("-F", "all", "rules")),
        command("socketfilterfw", where=option_value("--setglobalstate", "off")),
        command(
            "defaults",
            where=(_words_in_order("write", "/library/preferences/com.apple.alf", "globalstate"), _last_word_is("0")),
        ),
        command(
            SERVICE_MANAGERS,
            where=stops_service("firewalld", "ufw", "nftables", "iptables", "ip6tables", "netfilter-persistent"),
        ),
    ),
    message="turns the firewall off or opens it to every connection",
    must_match=(
        "iptables -F",
        "sudo iptables --flush INPUT",
        "iptables -P INPUT ACCEPT",
        "ip6tables -t filter -F",
        "nft flush ruleset",
        "ufw disable",
        "ufw --force reset",
        "ufw default allow incoming",
        "ufw allow from any to any",
        "/usr/libexec/ApplicationFirewall/socketfilterfw --setglobalstate off",
        "systemctl disable --now firewalld",
        "service iptables stop",
        "pfctl -d",
    ),
    must_not_match=(
        "iptables -L -n",
        "iptables -t nat -F",
        "iptables -P OUTPUT ACCEPT",
        "iptables -P INPUT DROP",
        "nft list ruleset",
        "nft -c flush ruleset",
        "ufw status verbose",
        "ufw --dry-run disable",
        "ufw default allow outgoing",
        "ufw allow from any to any port 443 proto tcp",
        "ufw allow from 10.0.0.0/8",
        "systemctl status firewalld",
        "systemctl restart ufw",
        "systemctl stop nginx",
    ),
)


def _permissive(found: Found) -> Arg | None:
    """`setenforce 0` or `setenforce Permissive` (any case): SELinux logs what it would have denied."""
    return next(
        (word for word in found.reading.operand("MODE") if (word.value or "").lower() in ("0", "permissive")), None
    )


def _some_profile(found: Found) -> Arg | None:
    return found.reading.operands[0] if found.reading.operands else None


MANDATORY_ACCESS_CONTROL_OFF = pack_rule(
    id="SC002",
    name="mandatory-access-control-off",
    severity=Severity.HIGH,
    summary=(
        "Takes SELinux or AppArmor out of enforcing: `setenforce 0` or `Permissive`, `aa-teardown`, "
        "`aa-disable` or `aa-complain` on a profile, `apparmor_parser -R`, or the apparmor service stopped."
    ),
    rationale=(
        "Mandatory access control is what confines a compromised service to what its policy allows; "
        "with it off, every confined program can do whatever its user can. It blocks: a denial is "
        "fixed in the policy, not by turning the policy off."
    ),
    safer_alternative=(
        "Read the denial (`ausearch -m avc`, `journalctl -k | grep apparmor`) and fix the label or the "
        "profile (`restorecon`, `audit2allow`, an AppArmor rule), or ask a human."
    ),
    matches=(
        command("setenforce", where=_permissive),
        command("aa-teardown"),
        command(("aa-disable", "aa-complain"), where=_some_profile),
        command("apparmor_parser", any_of=("--remove", "--Complain"), unless=("--skip-kernel-load",)),
        command(SERVICE_MANAGERS, where=stops_service("apparmor")),
    ),
    message="takes mandatory access control (SELinux or AppArmor) out of enforcing",
    must_match=(
        "setenforce 0",
        "sudo setenforce Permissive",
        "aa-teardown",
        "aa-disable /etc/apparmor.d/usr.sbin.nginx",
        "aa-complain /usr/sbin/cupsd",
        "apparmor_parser -R /etc/apparmor.d/usr.bin.man",
        "systemctl stop apparmor",
    ),
    must_not_match=(
        "setenforce 1",
        "setenforce Enforcing",
        "aa-status",
        "apparmor_parser -r /etc/apparmor.d/usr.sbin.nginx",
        "apparmor_parser -QR /etc/apparmor.d/usr.bin.man",
        "systemctl status apparmor",
    ),
)

_HISTORY_SAFER = (
    "Leave the history on; to drop one line that holds a secret you typed, delete it with `history -d OFFSET`."
)

TURN_SHELL_HISTORY_OFF = pack_rule(
    id="SC004",
    name="shell-history-turned-off",
    severity=Severity.MEDIUM,
    summary=(
        "Clears the shell's history or stops it being kept: `history -c`, `history -w /dev/null`, "
        "`unset HISTFILE`, `set +o history`."
    ),
    rationale=(
        "The shell's history is how a person finds out later what was run in a session; clearing it is "
        "a step of hiding what was done, and no build or task needs it. It warns: these change only the "
        "running shell, and the history file stays (deleting, emptying or overwriting it blocks: SV002, "
        "SY012, SY013, `history -c; history -w` too; turning the audit system off blocks, SC003)."
    ),
    safer_alternative=_HISTORY_SAFER,
    matches=(
        command("history", requires=("-c",)),
        command("history", any_of=("-w", "-a"), where=any_operand("/dev/null")),
        command("unset", unless=("-f",), where=operand("NAME", "HISTFILE")),
        command("set", where=option_value("+o", "history")),
    ),
    message="clears the shell's history or stops it being kept",
    must_match=("history -c", "history -cw", "history -w /dev/null", "unset HISTFILE", "set +o history"),
    must_not_match=("history | tail -20", "history -d 1042", "history -w", "unset -f HISTFILE", "set -o history"),
)

# boot-args that turn a protection of the kernel off: code signing (AMFI), its enforcement, the
# system's own library and kernel-extension checks.
_UNPROTECTING_BOOT_ARGS = ("amfi_get_out_of_my_way=", "amfi=", "cs_enforcement_disable=", "ipc_control_port_options=0")


def _boot_args_unprotect(found: Found) -> Arg | None:
    """`nvram boot-args="amfi_get_out_of_my_way=1"`: a boot argument that turns a kernel protection off."""
    return next(
        (
            word
            for word in found.reading.operands
            if (word.value or "").startswith("boot-args=")
            and any(argument.startswith(_UNPROTECTING_BOOT_ARGS) for argument in (word.value or "")[10:].split())
        ),
        None,
    )


MACOS_PROTECTION_OFF = pack_rule(
    id="SC013",
    name="macos-protection-off",
    severity=Severity.HIGH,
    summary=(
        "Turns a macOS protection off: Gatekeeper (`spctl --master-disable`, `--global-disable`), System "
        "Integrity Protection (`csrutil disable`), the quarantine of downloads (`defaults write "
        "com.apple.LaunchServices LSQuarantine -bool NO`), code signing at the next boot (`nvram "
        'boot-args="amfi_get_out_of_my_way=1"`, `cs_enforcement_disable=1`), or FileVault\'s disk '
        "encryption (`fdesetup disable`)."
    ),
    rationale=(
        "Gatekeeper and the quarantine are what stop a downloaded program from running unsigned and "
        "unannounced; System Integrity Protection keeps even root out of the system's files; FileVault "
        "keeps the disk unreadable to whoever takes the machine. With them off, whatever is downloaded "
        "next runs unchecked, and a lost laptop gives its data away. It blocks."
    ),
    safer_alternative=(
        "Allow the one program you trust (`spctl --add PATH`, or open it once from Finder), or ask a human."
    ),
    matches=(
        command("spctl", requires=("--master-disable",)),
        command("csrutil", where=operand("COMMAND", "disable")),
        command("fdesetup", where=operand("COMMAND", "disable")),
        command("nvram", where=_boot_args_unprotect),
        command(
            "defaults",
            where=(
                _words_in_order("write", "com.apple.LaunchServices", "LSQuarantine"),
                _last_word_is("no", "false", "0"),
            ),
        ),
    ),
    message="turns a macOS protection off (Gatekeeper, System Integrity Protection, the quarantine or FileVault)",
    must_match=(
        "spctl --master-disable",
        "sudo fdesetup disable",
        "sudo spctl --global-disable",
        "csrutil disable",
        "defaults write com.apple.LaunchServices LSQuarantine -bool NO",
        "sudo nvram boot-args='amfi_get_out_of_my_way=1 -v'",
    ),
    must_not_match=(
        "sudo nvram boot-args='-v'",
        "nvram -p",
        "spctl --status",
        "spctl --assess -v /Applications/App.app",
        "csrutil status",
        "fdesetup status",
        "defaults read com.apple.LaunchServices LSQuarantine",
        "defaults write com.apple.dock autohide -bool true",
    ),
)

NEW_ROOT_AUTHORITY = pack_rule(
    id="SC015",
    name="trusts-new-certificate-authority",
    severity=Severity.HIGH,
    summary=(
        "Adds a certificate to the system's trusted authorities: `security add-trusted-cert` (macOS), "
        "`trust anchor FILE` (p11-kit). Copying one into /etc/pki/ca-trust/source/anchors or "
        "/usr/local/share/ca-certificates is the core rule SY031's."
    ),
    rationale=(
        "Whoever holds the key of a trusted authority can impersonate every site to every program on the "
        "machine: TLS no longer tells the real server from an interceptor, for every later session."
    ),
    safer_alternative=(
        "Give the one tool that needs it the certificate (`curl --cacert FILE`, `git config http.sslCAInfo "
        "FILE`, `NODE_EXTRA_CA_CERTS` for one command), or ask a human to install the authority."
    ),
    matches=(
        command("security", where=operand("COMMAND", "add-trusted-cert")),
        command("trust", "anchor", unless=("--remove",)),
    ),
    message="trusts a new certificate authority for the whole system",
    must_match=(
        "security add-trusted-cert -d -r trustRoot -k /Library/Keychains/System.keychain ca.crt",
        "sudo security add-trusted-cert -r trustRoot -k ~/Library/Keychains/login.keychain-db ca.pem",
        "sudo trust anchor --store ca.crt",
    ),
    must_not_match=(
        "security find-certificate -a -p",
        "security remove-trusted-cert ca.crt",
        "trust anchor --remove ca.crt",
        "trust list --filter=ca-anchors",
    ),
)

PACK = Pack(
    name="system.controls",
    summary=(
        "The host's security controls: its firewall, SELinux and AppArmor, the audit system and the system "
        "log, the shell's history, macOS's Gatekeeper, System Integrity Protection and quarantine, and the "
        "certificate authorities it trusts."
    ),
    default=True,
    reason=(
        "These controls protect and record the machine; an agent has no task that needs them off, and "
        "turning them off is how an intrusion hides."
    ),
    rules=(
        FIREWALL_OFF,
        MANDATORY_ACCESS_CONTROL_OFF,
        AUDIT_OFF,
        TURN_SHELL_HISTORY_OFF,
        MACOS_PROTECTION_OFF,
        NEW_ROOT_AUTHORITY,
    ),
)
