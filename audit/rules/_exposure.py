"""Serving to the network (NE003, NE027): a one-line static web server whose root is the whole
file system, the home directory or a store of keys and credentials hands every file in it to
whoever connects (`cd ~ && python3 -m http.server`, `python3 -m http.server -d ~/.aws`); a database
container with its authentication off and its port published on every address hands it its data."""

from __future__ import annotations

from collections.abc import Iterator

from .._analysis import Arg, CommandSubject
from .._model import Severity
from .._tables import Tables
from ..programs.destinations import loopback_host
from ._paths import path_is, path_under
from ._pushes import image_repository
from ._rule import Hit, Inspects, rule

_PYTHON_SERVERS = frozenset({"http.server", "SimpleHTTPServer"})
_FAMILIES = frozenset({"python", "php", "ruby"})


class _Server:
    """What a static server command serves and where it listens (None: every address)."""

    __slots__ = ("address", "root")

    def __init__(self, root: Arg, address: str | None) -> None:
        self.root = root
        self.address = address


def _server_names(tables: Tables) -> frozenset[str]:
    interpreters = (
        name for spec in tables.interpreter_families.values() if spec.family in _FAMILIES for name in spec.names
    )
    return frozenset((*interpreters, "http-server", "httpd"))


@rule(
    id="NE003",
    name="serve-secrets-over-http",
    severity=Severity.HIGH,
    summary="Serves the file system, the home directory or a credential store over HTTP (`python3 -m http.server`, `php -S`, `ruby -run -e httpd`, `http-server`, busybox's `httpd`).",
    rationale="Every file under the server's root, private keys and cloud credentials included, can be downloaded by anyone who reaches the port.",
    safer_alternative="Serve the project's own build directory (`python3 -m http.server -d dist`), bound to 127.0.0.1.",
    inspects=Inspects.COMMAND,
    commands=_server_names,
    must_match=(
        "python3 -m http.server 9000 --directory ~/.aws",
        "cd ~ && python3 -m http.server",
        "cd ~/.ssh && python3 -m http.server --bind 0.0.0.0",
        "cd ~ && python -m SimpleHTTPServer 8000",
        "php -S 0.0.0.0:8000 -t ~",
        "ruby -run -e httpd / -p 8080",
        "npx http-server ~ -p 8080",
        "busybox httpd -f -p 8080 -h /",
    ),
    must_not_match=(
        "python3 -m http.server 8000",
        "python3 -m http.server -d dist",
        "cd ~ && python3 -m http.server --bind 127.0.0.1",
        "php -S localhost:8000 -t ~",
        "python3 -m venv .venv",
        "ruby -run -e httpd ./public -p 8080",
        "npx http-server dist -p 8080",
        "cd ~ && busybox httpd -f -p 127.0.0.1:8080",
    ),
)
def serve_secrets(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    spec = tables.interpreter(subject.name)
    server = _served(subject, spec.family if spec is not None else "")
    if server is None or (server.address is not None and loopback_host(server.address)):
        return
    protected = ("/", "~", *tables.credential_stores)
    target = path_is(server.root, protected, subject.cwd) or path_under(
        server.root, tables.credential_stores, subject.cwd
    )
    if target is not None:
        yield Hit(subject.span, f"serves `{target}` and every file under it over HTTP")


def _served(subject: CommandSubject, family: str) -> _Server | None:
    values = [arg.value or "" for arg in subject.args]
    if subject.name == "http-server":
        return _node_http_server(subject, values)
    if subject.name == "httpd" and subject.wrappers[-1:] == ("busybox",):
        # busybox's httpd: `-h HOME` (default the working directory), `-p [IP:]PORT`.
        port = _after(values, "-p") or ""
        return _Server(_root(subject, _index_after(values, "-h")), port.rpartition(":")[0] or None)
    if family == "python":
        return _python_server(subject, values)
    if family == "php" and "-S" in values:
        address = _after(values, "-S")
        return _Server(_root(subject, _index_after(values, "-t")), _host(address or ""))
    if family == "ruby" and "-run" in values:
        return _ruby_server(subject, values)
    return None


def _python_server(subject: CommandSubject, values: list[str]) -> _Server | None:
    """`python -m http.server [PORT] [-d DIR] [-b ADDRESS]` (the options after the module)."""
    for index, value in enumerate(values):
        module = values[index + 1] if value == "-m" and index + 1 < len(values) else value.removeprefix("-m")
        if value.startswith("-m") and module in _PYTHON_SERVERS:
            rest = values[index:]
            directory = _index_after(rest, "-d", "--directory")
            address = _after(rest, "-b", "--bind") or _option_value(rest, "--bind")
            directory = directory if directory is not None else _equals_index(rest, "--directory")
            return _Server(_root(subject, None if directory is None else index + directory), address)
        if not value.startswith("-"):
            return None  # a script: what it does is its own
    return None


# http-server's options that take a value (the others are flags).
_HTTP_SERVER_VALUED = frozenset({"-p", "--port", "-a", "-c", "-e", "--ext", "-P", "--proxy", "-C", "--cert", "-K", "--key", "-t", "-U", "--username", "--password", "-i", "-d", "-r", "-g", "-b"})  # fmt: skip


def _node_http_server(subject: CommandSubject, values: list[str]) -> _Server:
    """`http-server [PATH] [-a ADDRESS] [-p PORT]`: the path defaults to the working directory."""
    root: int | None = None
    index = 0
    while index < len(values):
        if values[index] in _HTTP_SERVER_VALUED:
            index += 2
            continue
        if not values[index].startswith("-") and root is None:
            root = index
        index += 1
    return _Server(_root(subject, root), _after(values, "-a"))


def _ruby_server(subject: CommandSubject, values: list[str]) -> _Server | None:
    """`ruby -run -e httpd [DIR] [-p PORT] [-b ADDRESS]`."""
    start = next((index + 1 for index, value in enumerate(values) if value in ("httpd", "-ehttpd")), None)
    if start is None:
        return None
    root: int | None = None
    address: str | None = None
    index = start
    while index < len(values):
        value = values[index]
        if value in ("-p", "--port", "-b", "--bind-address"):
            if value in ("-b", "--bind-address") and index + 1 < len(values):
                address = values[index + 1]
            index += 2
            continue
        if value.startswith("--bind-address="):
            address = value.partition("=")[2]
        elif not value.startswith("-") and root is None:
            root = index
        index += 1
    return _Server(_root(subject, root), address)


def _root(subject: CommandSubject, index: int | None) -> Arg:
    if index is None:
        return Arg((".",), ".", subject.span)
    arg = subject.args[index]
    prefix = "--directory="
    return arg.suffix(len(prefix)) if (arg.value or "").startswith(prefix) else arg


def _index_after(values: list[str], *spellings: str) -> int | None:
    index = next((index for index, value in enumerate(values) if value in spellings), None)
    return index + 1 if index is not None and index + 1 < len(values) else None


def _equals_index(values: list[str], option: str) -> int | None:
    return next((index for index, value in enumerate(values) if value.startswith(f"{option}=")), None)


def _after(values: list[str], *spellings: str) -> str | None:
    index = _index_after(values, *spellings)
    return values[index] if index is not None else None


def _option_value(values: list[str], option: str) -> str | None:
    index = _equals_index(values, option)
    return values[index].partition("=")[2] if index is not None else None


def _host(address: str) -> str:
    return address.rpartition(":")[0] or address


# Database images' settings that turn authentication off, by the image's repository name.
_NO_AUTHENTICATION = {
    "postgres": ("POSTGRES_HOST_AUTH_METHOD=trust",),
    "postgis": ("POSTGRES_HOST_AUTH_METHOD=trust",),
    "timescaledb": ("POSTGRES_HOST_AUTH_METHOD=trust",),
    "mysql": ("MYSQL_ALLOW_EMPTY_PASSWORD=yes", "MYSQL_ALLOW_EMPTY_PASSWORD=1", "MYSQL_ALLOW_EMPTY_PASSWORD=true"),
    "mariadb": (
        "MARIADB_ALLOW_EMPTY_ROOT_PASSWORD=yes", "MARIADB_ALLOW_EMPTY_ROOT_PASSWORD=1",
        "MYSQL_ALLOW_EMPTY_PASSWORD=yes", "MYSQL_ALLOW_EMPTY_PASSWORD=1",
    ),
    "redis": ("ALLOW_EMPTY_PASSWORD=yes", "--protected-mode no"),
    "elasticsearch": ("xpack.security.enabled=false",),
    "opensearch": ("DISABLE_SECURITY_PLUGIN=true", "plugins.security.disabled=true"),
}  # fmt: skip


def _published_to_network(values: list[str]) -> str | None:
    """The first `-p`/`--publish` mapping that listens on every address (no address, or 0.0.0.0, ::), or
    `-P`/`--publish-all`."""
    for index, value in enumerate(values):
        if value in ("-P", "--publish-all"):
            return value  # every exposed port, on every address
        name, equals, attached = value.partition("=")
        if name not in ("-p", "--publish") and not (value.startswith("-p") and len(value) > 2):
            continue
        mapping = attached if equals else value[2:] if name not in ("-p", "--publish") else ""
        if not mapping:
            mapping = values[index + 1] if index + 1 < len(values) else ""
        fields = mapping.rsplit(":", 2)
        address = fields[0] if len(fields) == 3 else ""
        if address.strip("[]") in ("", "0.0.0.0", "::"):
            return mapping
    return None


@rule(
    id="NE027",
    name="database-open-to-the-network",
    severity=Severity.MEDIUM,
    summary=(
        "Starts a database container with its authentication off (`POSTGRES_HOST_AUTH_METHOD=trust`, "
        "`MYSQL_ALLOW_EMPTY_PASSWORD=yes`, redis' `--protected-mode no`, `xpack.security.enabled=false`) and its "
        "port published on every address (`-p 5432:5432`, `-p 0.0.0.0:...`, `-P`)."
    ),
    rationale=(
        "Anyone who reaches the machine (a shared network, a cloud VM's public address) reads and changes the "
        "data without a password; scanners find such ports within minutes. Bound to 127.0.0.1, or with a "
        "password, it is a development database."
    ),
    safer_alternative="Publish on the loopback (`-p 127.0.0.1:5432:5432`), or set a password (`-e POSTGRES_PASSWORD=...`).",
    inspects=Inspects.COMMAND,
    commands=("docker", "podman", "nerdctl"),
    must_match=(
        "docker run -d -p 5432:5432 -e POSTGRES_HOST_AUTH_METHOD=trust postgres:16",
        "podman run -p 0.0.0.0:3306:3306 -e MYSQL_ALLOW_EMPTY_PASSWORD=yes mysql:8",
        "docker run -d -p 6379:6379 redis:7 redis-server --protected-mode no",
    ),
    must_not_match=(
        "docker run -d -p 127.0.0.1:5432:5432 -e POSTGRES_HOST_AUTH_METHOD=trust postgres",
        "docker run -d -p 5432:5432 -e POSTGRES_PASSWORD=dev postgres",
        "docker run --rm -e POSTGRES_HOST_AUTH_METHOD=trust postgres",
    ),
)
def database_open_to_network(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    values = [arg.value or "" for arg in subject.args]
    if values[:1] not in (["run"], ["create"]) and values[:2] not in (["container", "run"], ["container", "create"]):
        return
    published = _published_to_network(values)
    if published is None:
        return
    joined = " ".join(values)
    for word in values:
        settings = _NO_AUTHENTICATION.get(image_repository(word), ())
        off = next((setting for setting in settings if setting in joined), None)
        if off is not None:
            yield Hit(subject.span, f"publishes `{published}` on every address with `{off}`: no password needed")
            return


EXPOSURE_RULES = (serve_secrets, database_open_to_network)
