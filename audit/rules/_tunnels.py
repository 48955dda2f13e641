"""Opening this machine to others: tunnels that publish a local port (NE004: ngrok, cloudflared's
quick tunnels, localtunnel, bore, relay services, VS Code's remote tunnels, `ssh -R`, chisel's
reverse remotes, a socat relay from a listener to a local port) and
control services started with no authentication on every address (NE005: dockerd on plain TCP,
Jupyter with an empty token, `kubectl proxy` accepting every host). Serving files is NE003's."""

from __future__ import annotations

from collections.abc import Iterator

from .._analysis import Arg, CommandSubject
from .._model import Severity
from .._tables import Tables
from ..programs import read_command
from ..programs.destinations import loopback_host
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
    if name == "ssh":
        forwards = read_command("ssh", subject.args).values("-R")
        remote = any((word.partition("=")[0].lower() == "remoteforward") for word in words)
        if forwards or remote:
            return "`ssh -R` opens a way from the remote host into this machine"
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


@rule(
    id="NE004",
    name="publish-local-port",
    severity=Severity.MEDIUM,
    summary="Publishes a local port through a tunnel (ngrok, cloudflared, localtunnel, bore, `tailscale funnel`, zrok, frp, `code tunnel`, `ssh -R`, chisel's `R:` remotes, a socat relay).",
    rationale="A tunnel puts a service of this machine (ssh, a database, a dev server with no login) on an address anyone can reach, past the firewall: the shape of a backdoor.",
    safer_alternative="Share a build or a deployment instead; if a tunnel is needed, ask a human and give it authentication.",
    inspects=Inspects.COMMAND,
    commands=_TUNNEL_PROGRAMS,
    must_match=(
        "ngrok tcp 22",
        "cloudflared tunnel --url http://localhost:8080",
        "npx localtunnel --port 3000",
        "ssh -N -R 9000:localhost:22 relay.example.com",
        "socat TCP-LISTEN:2222,fork,reuseaddr TCP:127.0.0.1:22",
        "tailscale funnel --bg 3000",
        "code tunnel --accept-server-license-terms",
        "chisel client 203.0.113.50:8080 R:socks",
    ),
    must_not_match=(
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
    if published is not None:
        yield Hit(subject.span, published)


def _on_every_address(address: str) -> bool:
    host = address.removeprefix("tcp://").rpartition(":")[0] if ":" in address else address
    return not loopback_host(host.lower())


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


TUNNEL_RULES = (publish_local_port, unauthenticated_remote_control)
