"""Where a network sender's data goes: the forms in which a destination word
names its host (a URL, `user@host`, scp's `host:path`, socat addresses...),
the hosts it reaches, and the parts of a URL that carry the request's own
credential. `sending.py` finds the destination words; the analysis compares
their hosts with the policy's `allowed_destinations`.
"""

from __future__ import annotations

import re
from enum import Enum

from .._named_tuple import NamedTuple
from .._syntax import ast
from ._arg import Arg


class Form(str, Enum):
    """How a destination word names its host."""

    URL = "url"
    """`scheme://[user@]host[:port]/path`, or `host/path` without a scheme."""
    HOST = "host"
    """`host` or `user@host`."""
    HOST_PORT = "host:port"
    REMOTE_PATH = "remote path"
    """scp and rsync: `[user@]host:path`, `host::module`, `scheme://host/path`."""
    MAIL_ADDRESS = "mail address"
    SOCKET_ADDRESS = "socket address"
    """socat's `TCP:host:port,options`."""
    CONNECT_TO = "connect-to"
    """curl's `--connect-to HOST1:PORT1:HOST2:PORT2`: the request for HOST1 goes to HOST2."""
    RESOLVE = "resolve"
    """curl's `--resolve HOST:PORT:ADDRESS[,ADDRESS]`: the request for HOST goes to those addresses."""


class Destination(NamedTuple):
    arg: Arg
    form: Form


class Host(NamedTuple):
    """A host a destination reaches: its name, or only the end of it (`exact` False)
    when the start is known only at run time (`$(cat key).example.com`)."""

    name: str
    exact: bool = True


# Header and query-parameter names that say the value is the request's own credential.
CREDENTIAL_HEADER_MARKS = ("auth", "token", "key", "secret", "password", "session", "cookie", "credential")
# Query parameters that carry the request's credential under a name that does not say so:
# OpenWeatherMap's `appid`, Azure Functions' `code`, a shared access signature's `sig`.
_CREDENTIAL_PARAMETERS = frozenset({"appid", "code", "sig"})
# APIs that take their credential in the URL's path, after these words: a Telegram bot's
# token (`/bot<TOKEN>/sendMessage`), a Discord or Slack webhook's id and token.
_CREDENTIAL_PATHS = {
    "api.telegram.org": "/bot",
    "discord.com": "/api/webhooks/",
    "discordapp.com": "/api/webhooks/",
    "hooks.slack.com": "/services/",
}
_SAS_HOSTS = (".core.windows.net",)
# socat address kinds that reach their first fields through a proxy.
SOCAT_PROXIES = frozenset({"socks", "socks4", "socks4a", "socks5", "proxy", "proxy-connect"})

RUN_TIME = "\x00"


def word_shape(arg: Arg) -> str:
    """The word with each part known only at run time as one marker character."""
    if arg.value is not None:
        return arg.value
    if arg.word is None:
        return RUN_TIME
    return "".join(part.text if type(part) is ast.Literal else RUN_TIME for part in arg.word.parts)


def destination_hosts(destination: Destination) -> tuple[Host | None, ...]:
    """The hosts a destination reaches (None: known only at run time), one per value it may have."""
    arg = destination.arg
    shapes = arg.values if len(arg.values) > 1 else (word_shape(arg),)
    return tuple(_host(name) for shape in shapes for name in _host_names(shape, destination.form))


# Compiled on first use (re's own cache), not at import: only some commands need it.
_CODE_VARIABLE = r"\$\{?\w+\}?"


def url_hosts(url: str | None) -> tuple[Host | None, ...]:
    """The host of a URL another language's analyser reports (`$NAME` marks a part known only at run time)."""
    if url is None:
        return (None,)
    return tuple(_host(name) for name in _host_names(re.sub(_CODE_VARIABLE, RUN_TIME, url), Form.URL))


def on_the_loopback(url: str) -> bool:
    """Whether the URL's host is this machine (`localhost`, `127.x.x.x`, `::1`): what is sent there
    never leaves it."""
    host = url_hosts(url)[0]
    return host is not None and host.exact and loopback_host(host.name)


def loopback_host(name: str) -> bool:
    """`localhost`, `::1` or an address of 127.0.0.0/8 written out whole. A name that merely starts
    like one (`127.0.0.1.nip.io`, `localhost.example.com`) is whatever its owner's DNS says."""
    if name in ("localhost", "::1", "[::1]"):
        return True
    octets = name.split(".")
    return (
        len(octets) == 4
        and octets[0] == "127"
        and all(octet.isascii() and octet.isdigit() and int(octet) < 256 for octet in octets)
    )


def url_credential_parts(word: ast.Word) -> frozenset[int]:
    """The parts of a URL word that stand where a request carries its own credential, as
    an Authorization header does: the user information (`https://me:$TOKEN@host/`), the
    value of a query parameter named like one (`?access_token=$TOKEN`, `&api_key=...`),
    the path of an API that takes its token there (`https://api.telegram.org/bot$TOKEN/`),
    or an Azure Storage SAS query (`https://ACCOUNT.blob.core.windows.net/c/f?$SAS`)."""
    parts = word.parts
    shape = "".join(part.text if type(part) is ast.Literal else RUN_TIME for part in parts)
    found: set[int] = set()
    offset = 0
    for index, part in enumerate(parts):
        if type(part) is ast.Literal:
            offset += len(part.text)
            continue
        if _in_credential(shape, offset):
            found.add(index)
        offset += 1
    return frozenset(found)


def _in_credential(shape: str, at: int) -> bool:
    scheme = shape.find("://")
    authority = scheme + 3 if scheme >= 0 else 0
    authority_end = min(
        (end for end in (shape.find(mark, authority) for mark in "/?#") if end >= 0), default=len(shape)
    )
    if authority <= at < authority_end:
        return "@" in shape[at:authority_end]
    host = shape[authority:authority_end].rpartition("@")[2].partition(":")[0].lower()
    query = shape.find("?", authority_end)
    fragment = shape.find("#", authority_end)
    if query < 0 or at < query:
        prefix = _CREDENTIAL_PATHS.get(host)
        path_end = min((end for end in (query, fragment) if end >= 0), default=len(shape))
        return prefix is not None and shape.startswith(prefix, authority_end) and at < path_end
    if 0 <= fragment < at:
        return False
    start = max(shape.rfind("&", 0, at), shape.rfind("?", 0, at)) + 1
    if start == at:
        # `?$SAS_TOKEN`: Azure Storage's shared access signature is a whole query string.
        return host.endswith(_SAS_HOSTS)
    name, equals, _ = shape[start:at].partition("=")
    lowered = name.lower()
    return (
        bool(equals)
        and RUN_TIME not in name
        and (lowered in _CREDENTIAL_PARAMETERS or any(mark in lowered for mark in CREDENTIAL_HEADER_MARKS))
    )


def _host(name: str) -> Host | None:
    name = name.lower().strip("[]")
    if RUN_TIME not in name:
        return Host(name) if name else None
    tail = name.rpartition(RUN_TIME)[2]
    return Host(tail, exact=False) if tail else None


def _host_names(shape: str, form: Form) -> list[str]:
    if form is Form.URL or "://" in shape:
        authority = shape.partition("://")[2] if "://" in shape else shape
        authority = authority.split("/", 1)[0].split("?", 1)[0].split("#", 1)[0]
        return [_without_port(authority.rpartition("@")[2])]
    if form is Form.HOST:
        return [shape.rpartition("@")[2]]
    if form is Form.HOST_PORT:
        return [_without_port(shape)]
    if form is Form.REMOTE_PATH:
        host = shape.partition("::")[0] if "::" in shape else shape.partition(":")[0]
        if shape.startswith("["):
            host = shape.partition("]")[0] + "]"
        return [host.rpartition("@")[2]]
    if form in (Form.CONNECT_TO, Form.RESOLVE):
        target = shape.split(":", 2)[2] if shape.count(":") >= 2 else RUN_TIME
        if form is Form.RESOLVE:
            return target.split(",")
        # An empty HOST2 keeps the request's own host, which the URL names already.
        return [name] if (name := _without_port(target)) else []
    if form is Form.MAIL_ADDRESS:
        local, at, domain = shape.rpartition("@")
        return [domain] if at and local else [""]
    kind, _, rest = shape.partition(":")
    fields = rest.split(",", 1)[0].split(":")
    if kind.lower() in SOCAT_PROXIES:
        return [field for field in fields[:2] if field]
    return [":".join(fields[:-1]) if len(fields) > 1 else fields[0]]


def _without_port(authority: str) -> str:
    if authority.startswith("["):
        return authority.partition("]")[0] + "]"
    return authority.rpartition(":")[0] if authority.count(":") == 1 else authority
