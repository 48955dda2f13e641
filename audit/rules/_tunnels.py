"""Opening this machine to others: tunnels that publish a local port (NE004: ngrok, cloudflared's
quick tunnels, localtunnel, bore, relay services, VS Code's remote tunnels, `ssh -R`, chisel's
reverse remotes, a socat relay from a listener to a local port), those that hand out its remote login
or a SOCKS proxy into its network (NE024: `ngrok tcp 22`, `ssh -R 0.0.0.0:2222:localhost:22`,
chisel's `R:socks`), local forwards that bring a production host's port here (NE026) and
control services started with no authentication on every address (NE005: dockerd on plain TCP,
Jupyter with an empty token, `kubectl proxy` accepting every host). Serving files is NE003's."""

from __future__ import annotations

import re
from collections.abc import Iterator

from .._analysis import Arg, CommandSubject
from .._model import Severity
from .._tables import Tables
from ..programs import read_command
from ..programs.destinations import loopback_host
from ._paths import names_production
from ._rule import Hit, Inspects, rule

_NGROK_TUNNELS = frozenset({"http", "tcp", "tls", "start", "tunnel"})
_LOCALTUNNELS = frozenset({"lt", "localtunnel"})
# Relays run by a service: `tailscale funnel PORT` (the internet, unlike `serve`: the tailnet only),
# `zrok share public`, LocalXpose, an frp client (its server exposes the ports its file names).
_SERVICE_TUNNELS = {
    "tailscale": ("funnel",),
    "zrok": ("share", "public"),
    "loclx": ("tunnel",),
    "frpc": (),
}
# The subcommands of those that only report or undo (`tailscale funnel status`, `frpc verify`).
_TUNNEL_QUERIES = frozenset({"status", "reset", "off", "verify", "help", "version", "list", "kill", "prune"})
# `code tunnel SUBCOMMAND` that starts no tunnel (`code tunnel` alone and `service install` start one).
_CODE_TUNNEL_CHORES = frozenset({"user", "status", "kill", "prune", "rename", "unregister", "restart", "help"})
_TUNNEL_PROGRAMS = (
    "ngrok",
    "cloudflared",
    "bore",
    "ssh",
    "autossh",
    "kubectl",
    "oc",
    "socat",
    "code",
    "devtunnel",
    "chisel",
    *_LOCALTUNNELS,
    *_SERVICE_TUNNELS,
)
_SOCAT_LISTENERS = ("tcp-listen", "tcp4-listen", "tcp6-listen", "tcp-l", "openssl-listen", "ssl-l")
_SOCAT_CONNECTS = ("tcp:", "tcp4:", "tcp6:", "tcp-connect:", "unix-connect:", "unix:")


def _words(subject: CommandSubject) -> list[str]:
    return [arg.value or "" for arg in subject.args]


def _tunnel(subject: CommandSubject) -> str | None:
    """What the command publishes, in a finding's words; None when it publishes nothing."""
    name = subject.name
    words = _words(subject)
    operands = [word for word in words if not word.startswith("-")]
    if name == "ngrok" and operands[:1] and operands[0] in _NGROK_TUNNELS:
        return f"`ngrok {operands[0]}` publishes a local port on a public address"
    if name == "cloudflared" and operands[:1] == ["tunnel"] and ("run" in operands or _given(words, "--url")):
        return "`cloudflared tunnel` publishes a local service on a public address"
    # localtunnel needs the port it publishes (`lt` alone is some other program's name too).
    localtunnel = name in _LOCALTUNNELS and ("-p" in words or _given(words, "--port"))
    if localtunnel or (name == "bore" and operands[:1] == ["local"]):
        return f"`{name}` publishes a local port on a public address"
    if name in _SERVICE_TUNNELS:
        verb = _SERVICE_TUNNELS[name]
        if tuple(operands[: len(verb)]) == verb and _TUNNEL_QUERIES.isdisjoint(operands[len(verb) : len(verb) + 1]):
            return f"`{' '.join((name, *verb))}` publishes a local service through a relay anyone can reach"
        return None
    if (
        name == "code"
        and operands[:1] == ["tunnel"]
        and _CODE_TUNNEL_CHORES.isdisjoint(operands[1:2])
        and "--help" not in words
    ):
        return "`code tunnel` lets whoever signs in to the tunnel work in this machine's files and shell"
    if name == "devtunnel" and operands[:1] == ["host"] and ("-a" in words or "--allow-anonymous" in words):
        return "`devtunnel host --allow-anonymous` publishes a local port with no sign-in"
    if name in ("ssh", "autossh"):
        forwards = read_command(name, subject.args).values("-R")
        remote = any((word.partition("=")[0].lower() == "remoteforward") for word in words)
        if forwards or remote:
            return "`ssh -R` opens a way from the remote host into this machine"
    if name in ("kubectl", "oc") and operands[:1] == ["port-forward"]:
        addresses = [address for value in _values(subject.args, "--address") for address in value.split(",")]
        if any(_on_every_address(address) for address in addresses):
            return f"`{name} port-forward --address` puts a cluster service on every address of this machine"
    chisel_remotes = operands[2:] if name == "chisel" and operands[:1] == ["client"] else []
    if any(remote.startswith("R:") for remote in chisel_remotes):
        return "`chisel client` with an `R:` remote opens a way from its server into this machine"
    if name == "socat":
        lowered = [word.lower() for word in words]
        listens = [word for word in lowered if word.startswith(_SOCAT_LISTENERS)]
        relays = any(word.startswith(_SOCAT_CONNECTS) for word in lowered)
        if relays and any("bind=127." not in word and "bind=localhost" not in word for word in listens):
            return "socat relays whoever connects to its listener into a local service"
    return None


def _given(words: list[str], option: str) -> bool:
    return any(word == option or word.startswith(f"{option}=") for word in words)


# The ports of a remote login (ssh, telnet, RDP, VNC): whoever reaches one may sign in to this machine.
_LOGIN_PORTS = frozenset({"22", "23", "3389", "5900", "5901"})
_LOGIN_SCHEMES = ("ssh://", "rdp://", "vnc://", "telnet://")
# A remote forward's bind address that listens on every interface of the remote host.
_EVERY_ADDRESS = frozenset({"", "*", "0.0.0.0", "::", "[::]"})
# `[bind:]port:host:hostport`, with IPv6 addresses in brackets.
_FORWARD_PARTS = re.compile(r":(?![^\[]*\])")


def _login_port(target: str) -> bool:
    """`22`, `localhost:22`, `tcp://127.0.0.1:3389`, `ssh://localhost`: a remote login's port."""
    lowered = target.lower()
    return lowered.startswith(_LOGIN_SCHEMES) or _FORWARD_PARTS.split(lowered)[-1].strip("/") in _LOGIN_PORTS


def _ssh_remote_forward(spec: str) -> str | None:
    """What one `-R` (or `RemoteForward`) opens to others, in a finding's words: a SOCKS proxy into this
    network (`-R 1080`), or this machine's remote login on every address of the remote host."""
    parts = _FORWARD_PARTS.split(spec.replace(" ", ":"))
    dynamic = len(parts) == 1 or (len(parts) == 2 and not parts[1].startswith("/"))
    if dynamic:
        return "`ssh -R PORT` gives the remote host a SOCKS proxy into this machine's network"
    if len(parts) == 4 and parts[0] in _EVERY_ADDRESS and parts[3] in _LOGIN_PORTS:
        return f"`ssh -R {spec}` puts a remote login on every address of the remote host"
    return None


def _chisel_reverse_remote(remote: str) -> str | None:
    """A chisel `R:` remote that gives its server a SOCKS proxy or this machine's remote login
    (chisel's server listens on every address unless the remote names one)."""
    parts = _FORWARD_PARTS.split(remote.removeprefix("R:").split("/", 1)[0])
    if parts[-1] == "socks":
        return f"`chisel client ... {remote}` gives its server a SOCKS proxy into this machine's network"
    bound_to_all = len(parts) < 4 or parts[0] in _EVERY_ADDRESS
    if len(parts) >= 3 and parts[-1] in _LOGIN_PORTS and bound_to_all:
        return f"`chisel client ... {remote}` puts a remote login on the chisel server's addresses"
    return None


def _opened_to_others(subject: CommandSubject) -> str | None:
    """A tunnel that hands others a remote login to this machine or a proxy into its network, in a
    finding's words; None for any other command (a tunnel to a web server is NE004's)."""
    name = subject.name
    words = _words(subject)
    operands = [word for word in words if not word.startswith("-")]
    if name == "ngrok" and operands[:1] == ["tcp"] and any(_login_port(word) for word in operands[1:]):
        return "`ngrok tcp` puts this machine's remote login on a public address"
    if name == "bore" and operands[:1] == ["local"] and operands[1:2] and _login_port(operands[1]):
        return "`bore local` puts this machine's remote login on a public address"
    if (
        name == "cloudflared"
        and operands[:1] == ["tunnel"]
        and any(_login_port(url) for url in _values(subject.args, "--url"))
    ):
        return "`cloudflared tunnel` puts this machine's remote login on a public address"
    if name in ("ssh", "autossh"):
        specs = [arg.value or "" for arg in read_command(name, subject.args).values("-R")]
        specs += [value for word in words for key, _, value in [word.partition("=")] if key.lower() == "remoteforward"]
        return next((opened for spec in specs if (opened := _ssh_remote_forward(spec)) is not None), None)
    if name == "chisel" and operands[:1] == ["client"]:
        remotes = [word for word in operands[2:] if word.startswith("R:")]
        return next((opened for remote in remotes if (opened := _chisel_reverse_remote(remote)) is not None), None)
    return None


@rule(
    id="NE024",
    name="remote-access-opened-to-others",
    severity=Severity.HIGH,
    summary=(
        "Hands another host a way into this machine: its remote login (SSH, telnet, RDP, VNC) put on a "
        "public address (`ngrok tcp 22`, `bore local 22`, `cloudflared tunnel --url ssh://localhost:22`, "
        "`ssh -R 0.0.0.0:2222:localhost:22`, chisel's `R:2222:localhost:22`), or a SOCKS proxy into its "
        "network (`ssh -R 1080`, chisel's `R:socks`)."
    ),
    rationale=(
        "Whoever reaches the address can try to sign in to this machine, or browse the private network as "
        "this machine, from outside the firewall: a backdoor, and the way an intruder pivots. It blocks, "
        "where a tunnel to a web server (NE004) warns; `ssh -R` on the remote host's loopback alone warns."
    ),
    safer_alternative="Use the organisation's VPN or bastion to reach this machine; ask a human before opening it to others.",
    inspects=Inspects.COMMAND,
    commands=("ngrok", "bore", "cloudflared", "ssh", "autossh", "chisel"),
    must_match=(
        "ngrok tcp 22",
        "ssh -f -N -R 0.0.0.0:2222:localhost:22 relay@198.51.100.30",
        "chisel client 198.51.100.40:8080 R:socks",
        "ssh -N -R 1080 jump.example.com",
    ),
    must_not_match=(
        "ngrok http 3000",
        "ssh -N -R 9000:localhost:22 relay.example.com",
        "ssh -N -L 5432:db.internal:5432 bastion.example.com",
        "chisel client 198.51.100.40:8080 R:8080:localhost:3000",
    ),
)
def remote_access_opened_to_others(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    opened = _opened_to_others(subject)
    if opened is not None:
        yield Hit(subject.span, opened)


@rule(
    id="NE004",
    name="publish-local-port",
    severity=Severity.MEDIUM,
    summary="Publishes a local port through a tunnel (ngrok, cloudflared, localtunnel, bore, `tailscale funnel`, zrok, frp, `code tunnel`, `ssh -R` (autossh too), `kubectl port-forward --address 0.0.0.0`, chisel's `R:` remotes, a socat relay).",
    rationale="A tunnel puts a service of this machine (ssh, a database, a dev server with no login) on an address anyone can reach, past the firewall: the shape of a backdoor.",
    safer_alternative="Share a build or a deployment instead; if a tunnel is needed, ask a human and give it authentication.",
    inspects=Inspects.COMMAND,
    commands=_TUNNEL_PROGRAMS,
    must_match=(
        "ngrok tcp 5432",
        "cloudflared tunnel --url http://localhost:8080",
        "npx localtunnel --port 3000",
        "ssh -N -R 9000:localhost:22 relay.example.com",
        "socat TCP-LISTEN:2222,fork,reuseaddr TCP:127.0.0.1:22",
        "tailscale funnel --bg 3000",
        "code tunnel --accept-server-license-terms",
        "chisel client 203.0.113.50:8080 R:8080:localhost:3000",
        "autossh -M 0 -f -N -R 2222:localhost:22 relay@vps.example.com",
        "kubectl port-forward --address 0.0.0.0 svc/postgres 5432:5432",
    ),
    must_not_match=(
        "kubectl port-forward svc/postgres 5432:5432",
        "kubectl port-forward --address localhost,127.0.0.1 svc/web 8080:80",
        "ngrok config add-authtoken abc",
        "cloudflared tunnel list",
        "ssh -L 5432:db.internal:5432 bastion.example.com",
        "socat - TCP:example.com:80",
        "socat TCP-LISTEN:8080,bind=127.0.0.1,fork TCP:10.0.0.5:80",
        "tailscale serve 3000",
        "tailscale funnel status",
        "code tunnel status",
        "code --diff a.py b.py",
    ),
)
def publish_local_port(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    published = _tunnel(subject)
    if published is not None and _opened_to_others(subject) is None:  # NE024 judges those
        yield Hit(subject.span, published)


def _on_every_address(address: str) -> bool:
    host = address.removeprefix("tcp://").rpartition(":")[0] if ":" in address else address
    return not loopback_host(host.lower())


def _production_forward(subject: CommandSubject) -> str | None:
    """An `ssh -L` (or `LocalForward`) whose far end is a host named for production (`prod-db.internal`),
    or this side of a host named so (`localhost` through `prod-bastion`), in a finding's words."""
    read = read_command(subject.name or "ssh", subject.args)
    specs = [arg.value or "" for arg in read.values("-L")]
    specs += [
        value
        for arg in subject.args
        for key, _, value in [(arg.value or "").partition("=")]
        if key.lower() == "localforward"
    ]
    destination = (read.operands[0].value or "") if read.operands else ""
    for spec in specs:
        parts = _FORWARD_PARTS.split(spec.replace(" ", ":"))
        if len(parts) < 3 or parts[-2].startswith("/"):
            continue
        host = parts[-2].strip("[]")
        far = destination.rpartition("@")[2] if loopback_host(host) else host
        if names_production(far):
            return f"`ssh -L {spec}` brings a port of `{far}` to this machine"
    return None


@rule(
    id="NE026",
    name="production-port-forwarded",
    severity=Severity.MEDIUM,
    summary="Forwards a port of a host named for production to this machine: `ssh -L 5432:prod-db.internal:5432 bastion`, or a local port through `prod-bastion` (`ssh -L 6379:localhost:6379 prod-cache`).",
    rationale=(
        "The production database or service then answers on a local port, where every later command takes it for "
        "a local one: a migration, a test suite or a clean-up meant for development runs against production. "
        "It warns: reaching production this way is sometimes the job; the same forward to a development host passes."
    ),
    safer_alternative="Use a read-only replica or the organisation's access tool, and bind the forward to a port no local tool uses by default.",
    inspects=Inspects.COMMAND,
    commands=("ssh", "autossh"),
    must_match=(
        "ssh -N -L 5432:prod-db.internal:5432 bastion.example.com",
        "ssh -fN -L 6379:localhost:6379 deploy@prod-cache-1",
    ),
    must_not_match=(
        "ssh -N -L 5432:db.internal:5432 bastion.example.com",
        "ssh -L 8080:localhost:80 -N staging",
        "ssh prod-web-1 uptime",
    ),
)
def production_port_forwarded(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    forwarded = _production_forward(subject)
    if forwarded is not None:
        yield Hit(subject.span, forwarded)


def _open_control(subject: CommandSubject) -> str | None:
    name = subject.name
    words = _words(subject)
    if name == "dockerd":
        hosts = [value for value in _values(subject.args, "-H", "--host") if value.startswith("tcp://")]
        if any(_on_every_address(host) for host in hosts) and not _given(words, "--tlsverify"):
            return "dockerd serves its API on TCP without TLS: whoever connects is root on this machine"
    if name is not None and name.startswith("jupyter"):
        ip = _values(subject.args, "--ip")
        empty_token = any(
            word.partition("=")[0].endswith(".token") and word.partition("=")[2] in ("", "''", '""') for word in words
        )
        if empty_token and any(_on_every_address(address) for address in ip):
            return "Jupyter runs with no token on every address: whoever connects runs code here"
    if name == "kubectl" and words[:1] == ["proxy"]:
        addresses = _values(subject.args, "--address")
        if any(_on_every_address(address) for address in addresses) and _given(words, "--accept-hosts"):
            return "`kubectl proxy` hands the cluster's API, with your credentials, to every host"
    return None


def _values(args: tuple[Arg, ...], *spellings: str) -> list[str]:
    """The values of an option given as `--opt VALUE` or `--opt=VALUE` (names the rule's programs share)."""
    values: list[str] = []
    for index, arg in enumerate(args):
        word = arg.value or ""
        for spelling in spellings:
            if word == spelling and index + 1 < len(args):
                values.append(args[index + 1].value or "")
            elif word.startswith(f"{spelling}="):
                values.append(word.partition("=")[2])
    return values


@rule(
    id="NE005",
    name="unauthenticated-remote-control",
    severity=Severity.HIGH,
    summary="Starts a control service with no authentication on every address: dockerd on plain TCP, Jupyter with an empty token, `kubectl proxy` accepting every host.",
    rationale="Anyone who reaches the port runs code here or drives the cluster: it is remote code execution offered to the network.",
    safer_alternative="Bind to 127.0.0.1 and keep the authentication (`--tlsverify`, a Jupyter token).",
    inspects=Inspects.COMMAND,
    commands=("dockerd", "jupyter", "jupyter-notebook", "jupyter-lab", "kubectl"),
    must_match=(
        "dockerd -H tcp://0.0.0.0:2375",
        "jupyter lab --ip=0.0.0.0 --ServerApp.token='' --no-browser",
        "kubectl proxy --address=0.0.0.0 --accept-hosts='.*'",
    ),
    must_not_match=(
        "dockerd -H unix:///var/run/docker.sock",
        "dockerd -H tcp://0.0.0.0:2376 --tlsverify --tlscacert=ca.pem --tlscert=cert.pem --tlskey=key.pem",
        "jupyter lab --ip=0.0.0.0 --no-browser",
        "kubectl proxy --port=8001",
    ),
)
def unauthenticated_remote_control(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    opened = _open_control(subject)
    if opened is not None:
        yield Hit(subject.span, opened)


TUNNEL_RULES = (
    publish_local_port,
    remote_access_opened_to_others,
    production_port_forwarded,
    unauthenticated_remote_control,
)
