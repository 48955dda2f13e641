"""Other machines' traffic, or this one's, sent where its owners did not choose: traffic intercepted
on the local network or rewritten to another host (NE010), this machine's requests sent through a
proxy at a bare public address (NE011), or through a SOCKS proxy or the system proxy of another
host (NE012); a certificate written among the authorities the system trusts, which lets whoever holds
its key intercept TLS (SY031). A tunnel that publishes a local port is NE004's."""

from __future__ import annotations

from collections.abc import Iterator

from .._analysis import AssignmentSubject, CommandSubject
from .._model import Severity
from .._tables import Tables
from ..programs import WRITERS, read_command
from ..programs.destinations import Host, url_hosts
from ._paths import path_under, written_paths
from ._pushes import foreign_host, public_address
from ._rule import Hit, Inspects, rule

# What each tool does to the machines of the local network.
_INTERCEPTORS = {
    "arpspoof": "poisons the ARP tables of the local network to read its traffic",
    "ettercap": "intercepts the local network's traffic (ARP or DNS poisoning)",
    "bettercap": "intercepts the local network's traffic (ARP, DNS or DHCP spoofing)",
    "dnsspoof": "forges DNS answers on the local network",
    "sslstrip": "strips TLS from the intercepted traffic of the local network",
    "mitmf": "intercepts and rewrites the local network's traffic",
}
_ONLY_ASKS = frozenset({"-h", "--help", "-V", "--version", "-v"})
_IPTABLES = ("iptables", "ip6tables", "iptables-legacy", "ip6tables-legacy", "iptables-nft", "ip6tables-nft")


def _host_of(address: str) -> Host:
    """`203.0.113.5:8443`, `[2001:db8::1]:443`, `203.0.113.5-203.0.113.9`: the (first) host."""
    first = address.split("-", 1)[0]
    if first.startswith("["):
        return Host(first[1:].partition("]")[0].lower())
    return Host((first.rpartition(":")[0] if first.count(":") == 1 else first).lower())


def _rewritten_to(subject: CommandSubject) -> str | None:
    """Where an iptables `-j DNAT --to-destination ADDRESS` or an nft `dnat to ADDRESS` sends traffic."""
    words = [word for arg in subject.args for word in (arg.value or "").replace(";", " ").split()]
    if subject.name == "nft":
        return next((words[at + 2] for at in range(len(words) - 2) if words[at : at + 2] == ["dnat", "to"]), None)
    if "DNAT" not in words:
        return None
    for at, word in enumerate(words):
        if word in ("--to-destination", "--to") and at + 1 < len(words):
            return words[at + 1]
        if word.startswith("--to-destination="):
            return word.partition("=")[2]
    return None


@rule(
    id="NE010",
    name="traffic-intercepted",
    severity=Severity.HIGH,
    summary=(
        "Intercepts traffic: the local network's with a spoofing tool (arpspoof, ettercap, bettercap, "
        "dnsspoof, sslstrip), or this machine's rewritten to another host by the firewall (`iptables -t nat "
        "-A OUTPUT ... -j DNAT --to-destination 203.0.113.5:8443`, nft's `dnat to`)."
    ),
    rationale=(
        "A spoofing tool puts this machine between the other machines of the network and their gateway: "
        "it reads and rewrites their traffic, passwords included. A DNAT to a foreign host sends every "
        "matching connection there instead of where programs asked, for every later session. It blocks; "
        "a redirect to a port of this machine (`-j REDIRECT --to-ports 8080`) or a DNAT to a private "
        "address passes."
    ),
    safer_alternative=(
        "To debug a program's traffic, point that program at a local proxy (`HTTPS_PROXY=http://127.0.0.1:8080`); "
        "forward ports to a machine of the private network, or ask a human."
    ),
    inspects=Inspects.COMMAND,
    commands=(*_INTERCEPTORS, *_IPTABLES, "nft"),
    must_match=(
        "arpspoof -i eth0 -t 192.168.1.20 192.168.1.1",
        "ettercap -T -q -M arp:remote /192.168.1.1// /192.168.1.0/24//",
        "iptables -t nat -A OUTPUT -p tcp --dport 443 -j DNAT --to-destination 203.0.113.5:8443",
        "nft add rule ip nat output tcp dport 80 dnat to 198.51.100.7",
    ),
    must_not_match=(
        "ettercap --version",
        "iptables -t nat -A OUTPUT -p tcp --dport 80 -j REDIRECT --to-ports 8080",
        "iptables -t nat -A PREROUTING -p tcp --dport 8080 -j DNAT --to-destination 192.168.1.10:80",
        "iptables -t nat -L -n",
    ),
)
def traffic_intercepted(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    name = subject.name or ""
    if name in _INTERCEPTORS:
        if subject.args and not all(arg.value in _ONLY_ASKS for arg in subject.args):
            yield Hit(subject.span, f"`{name}` {_INTERCEPTORS[name]}")
        return
    target = _rewritten_to(subject)
    if target is not None and foreign_host(_host_of(target), tables):
        yield Hit(subject.span, f"`{name}` rewrites this machine's connections to `{target}`")


PROXY_VARIABLES = frozenset({"http_proxy", "https_proxy", "all_proxy", "ftp_proxy", "rsync_proxy"})


def _with_scheme(address: str) -> str:
    """`203.0.113.9:8080` as the URL a proxy variable or chisel reads it as."""
    return address if "://" in address else f"http://{address}"


@rule(
    id="NE011",
    name="proxy-at-public-address",
    severity=Severity.MEDIUM,
    summary=(
        "Sends this machine's requests through a proxy at a bare public address: `export "
        "HTTPS_PROXY=http://198.51.100.99:3128` (or `http_proxy`, `all_proxy`, `ftp_proxy`)."
    ),
    rationale=(
        "Every request that follows goes through that host, which sees where each one goes and can "
        "read and rewrite whatever is not encrypted. It warns: a proxy is often how a network reaches "
        "out, and an organisation's proxy has a name (`proxy.corp.example.com`), which passes, as does "
        "one on this machine or the private network."
    ),
    safer_alternative="Use the proxy your network documents, by its name, or ask a human.",
    inspects=Inspects.ASSIGNMENT,
    must_match=(
        "export HTTPS_PROXY=http://198.51.100.99:3128",
        "export all_proxy=socks5h://203.0.113.4:1080",
        "http_proxy=203.0.113.9:8080 curl http://example.com/",
    ),
    must_not_match=(
        "export HTTPS_PROXY=http://proxy.corp.example.com:3128",
        "export https_proxy=http://127.0.0.1:8080",
        "export HTTP_PROXY=http://10.0.0.5:3128",
        "export NO_PROXY=203.0.113.9",
    ),
)
def proxy_at_public_address(subject: AssignmentSubject, tables: Tables) -> Iterator[Hit]:
    value = subject.value
    if subject.name.lower() not in PROXY_VARIABLES or value is None or value.value is None:
        return
    if any(public_address(host, tables) for host in url_hosts(_with_scheme(value.value))):
        yield Hit(subject.span, f"`{subject.name}` sends requests through `{value.value}`")


def _routed_through(subject: CommandSubject, tables: Tables) -> str | None:
    """The foreign host this command routes traffic through, in a finding's words."""
    words = [arg.value or "" for arg in subject.args]
    if subject.name == "ssh":
        read = read_command("ssh", subject.args)
        destination = read.operands[0].value if read.operands and read.values("-D") else None
        if destination and public_address(_host_of(destination.rpartition("@")[2]), tables):
            return f"`ssh -D` opens a SOCKS proxy whose traffic leaves from `{destination}`"
        return None
    operands = [word for word in words if not word.startswith("-")]
    # chisel's `R:` remotes publish this machine instead: NE004's.
    forwards = operands[:1] == ["client"] and len(operands) > 2 and not any(r.startswith("R:") for r in operands[2:])
    if forwards and public_address(url_hosts(_with_scheme(operands[1]))[0], tables):
        return f"`chisel client` forwards connections through `{operands[1]}`"
    return None


@rule(
    id="NE012",
    name="traffic-routed-through-foreign-host",
    severity=Severity.MEDIUM,
    summary=(
        "Routes traffic through another host: a SOCKS proxy out of a bare public address (`ssh -D 1080 "
        "user@198.51.100.30`) or a chisel tunnel to one (macOS's system proxy is MA104's)."
    ),
    rationale=(
        "Whatever uses the proxy leaves from that host, out of sight of this network's controls, and can "
        "be read there. It "
        "warns: a jump host is a routine way to reach a private network, and one the organisation "
        "runs has a name (`ssh -D 1080 bastion.example.com` passes)."
    ),
    safer_alternative="Forward the one port you need (`ssh -L`), through a host of your organisation, or ask a human.",
    inspects=Inspects.COMMAND,
    commands=("ssh", "chisel"),
    must_match=(
        "ssh -f -N -D 1080 jump@198.51.100.30",
        "chisel client 203.0.113.50:8080 socks",
    ),
    must_not_match=(
        "ssh -D 1080 bastion",
        "ssh -L 5432:db.internal:5432 bastion.example.com",
        "chisel server --port 8080",
    ),
)
def traffic_routed_through_foreign_host(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    routed = _routed_through(subject, tables)
    if routed is not None:
        yield Hit(subject.span, routed)


# Where update-ca-certificates (Debian), update-ca-trust (Red Hat) and trust (Arch) collect the
# authorities the whole system trusts; /etc's are SY001's too, /usr/local's are not a system directory.
_TRUST_ANCHOR_DIRECTORIES = (
    "/usr/local/share/ca-certificates", "/usr/share/ca-certificates", "/etc/pki/ca-trust/source/anchors",
    "/etc/ca-certificates/trust-source/anchors", "/usr/share/pki/ca-trust-source/anchors",
)  # fmt: skip


@rule(
    id="SY031",
    name="certificate-authority-file-trusted",
    severity=Severity.HIGH,
    summary=(
        "Copies or writes a certificate into a directory of the authorities the whole system trusts: "
        "`cp ca.pem /usr/local/share/ca-certificates/x.crt` (then `update-ca-certificates`), `install`, "
        "`tee` or `ln` into it, or into /etc/pki/ca-trust/source/anchors."
    ),
    rationale=(
        "Once collected, the certificate's owner can impersonate every site to every program on the "
        "machine: TLS no longer tells the real server from an interceptor, for every later session. "
        "It blocks, as `trust anchor` and `security add-trusted-cert` do (SC015)."
    ),
    safer_alternative=(
        "Give the one tool that needs it the certificate (`curl --cacert FILE`, `NODE_EXTRA_CA_CERTS`, "
        "`REQUESTS_CA_BUNDLE`), or ask a human to install the authority."
    ),
    inspects=Inspects.COMMAND,
    commands=WRITERS,
    must_match=(
        "cp mitm-ca.pem /usr/local/share/ca-certificates/corp-root.crt",
        "install -m 644 ca.crt /usr/local/share/ca-certificates/",
        "tee /etc/pki/ca-trust/source/anchors/x.pem",
    ),
    must_not_match=(
        "cp /usr/local/share/ca-certificates/corp.crt ./certs/",
        "cp ca.crt ./certs/ca.crt",
        "tar -C /usr/local -xzf go.tar.gz",
    ),
)
def certificate_authority_file_trusted(subject: CommandSubject, _tables: Tables) -> Iterator[Hit]:
    for target in written_paths(subject):
        directory = path_under(target, _TRUST_ANCHOR_DIRECTORIES, subject.cwd)
        if directory is not None:
            yield Hit(target.span, f"`{subject.name}` writes `{target.display()}` among the trusted authorities")


INTERCEPTION_RULES = (
    traffic_intercepted,
    proxy_at_public_address,
    traffic_routed_through_foreign_host,
    certificate_authority_file_trusted,
)
