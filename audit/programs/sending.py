"""What a network sender sends, and where: the words it puts in a request, the
files whose contents it uploads, whether it sends its standard input, and the
hosts that receive it.

`sent_data(name, args)` reads the command line with the program's
declaration (`network.py`, `files.py` for rsync); the analysis follows
secrets into what it finds (`_analysis/_secrets.py`) and the rule SE005
judges the flows; `destinations.py` says which hosts a destination reaches.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import Enum
from typing import NamedTuple

from .._model import Span
from ._arg import Arg
from ._known import KNOWN
from ._program import Reading, read
from .destinations import (
    CREDENTIAL_HEADER_MARKS,
    RUN_TIME,
    SOCAT_PROXIES,
    Destination,
    Form,
    word_shape,
)
from .remote import SSH_NO_STDIN


class Slot(str, Enum):
    """What a word a sender sends becomes."""

    DATA = "data"
    """A request body, a message, a packet's payload."""
    URL = "URL"
    HEADER = "header"
    CREDENTIAL = "credential"
    """The request's own authentication (an Authorization header, `curl -u`): how a token is used."""
    HOST_NAME = "host name"
    """A name looked up in the DNS: the name itself reaches the name's servers."""
    REMOTE_COMMAND = "remote command"


class SentWord(NamedTuple):
    """A word whose text is sent."""

    arg: Arg
    slot: Slot
    label: str
    """How the sink is named in a finding (`curl -H`, `dig NAME`)."""


class SentFile(NamedTuple):
    """A file whose contents are sent; `recursive`: a directory goes with everything in it."""

    arg: Arg
    label: str
    recursive: bool = False


class Sending(NamedTuple):
    """What one command of a network sender sends."""

    words: tuple[SentWord, ...] = ()
    files: tuple[SentFile, ...] = ()
    stdin: tuple[str, ...] = ()
    """The labels of what sends standard input (`nc`, `curl -d @-`); empty when it is not sent."""
    destinations: tuple[Destination, ...] = ()
    anyone: bool = False
    """It listens: whoever connects receives the data, so no destination can be allowed."""
    batch_uploads: bool = False
    """Standard input holds commands that upload files (`sftp host <<< 'put FILE'`)."""


# -- the senders ------------------------------------------------------------------------------

_CURL_DATA = ("--data", "--data-ascii", "--data-binary", "--json")
_CURL_URLENCODED = ("--data-urlencode", "--url-query")
_CURL_TEXT = ("--data-raw", "--form-string")
_CURL_CREDENTIALS = ("--user", "--proxy-user", "--oauth2-bearer")
_CURL_HEADERS = ("--user-agent", "--referer")
_WGET_TEXT = ("--post-data", "--body-data")
_WGET_FILES = ("--post-file", "--body-file", "--input-file")
_WGET_CREDENTIALS = ("--user", "--password", "--http-user", "--http-password", "--proxy-user", "--proxy-password")
_NETCATS = ("nc", "ncat", "netcat", "nc.traditional", "nc.openbsd")
_MAILERS = ("mail", "mailx", "s-nail", "bsd-mailx", "mutt")
_SENDMAILS = ("sendmail", "msmtp", "ssmtp")
_LOOKUPS = ("dig", "nslookup", "host")
_HTTPIES = ("http", "https", "xh", "xhs")
# Cloud storage copies send their local sources when the destination is a bucket
# (`s3://bucket/key`, `gs://...`) or an rclone remote (`remote:path`).
_STORAGE_COPIES = {
    "aws": (("s3", "cp"), ("s3", "mv"), ("s3", "sync")),
    "gcloud": (("storage", "cp"), ("storage", "rsync")),
    "gsutil": (("cp",), ("rsync",)),
    "rclone": (("copy",), ("sync",)),
}
_HTTP_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT"})
# HTTPie's request items (`name=value`, `name=@file`...), longest first: the earliest
# separator in the item decides, the longer one where two start at the same place.
_HTTPIE_SEPARATORS = (":=@", "==", "=@", ":=", "@", "=", ":")
_HTTPIE_FILES = frozenset({":=@", "=@", "@"})
# Header names that carry the request's credentials (compared in lower case, by substring).

# dig's record types and classes: words of a query that are not names.
_DNS_WORDS = frozenset(
    {
        "a", "aaaa", "any", "axfr", "caa", "cname", "dnskey", "ds", "hinfo", "https", "ixfr", "mx", "naptr", "ns",
        "ptr", "soa", "spf", "srv", "sshfp", "svcb", "tlsa", "txt", "in", "ch", "hs",
    }
)  # fmt: skip
# socat address types that connect to a host (`TCP:host:port`), that name a
# proxy and then the target (`SOCKS4:proxy:host:port`), or that listen.
_SOCAT_CONNECTS = frozenset(
    {"tcp", "tcp4", "tcp6", "udp", "udp4", "udp6", "ssl", "openssl", "sctp", "sctp-connect", "tcp-connect",
     "udp-connect", "udp-sendto", "dccp-connect"}
)  # fmt: skip

_SOCAT_STDIN = frozenset({"-", "stdin", "stdio", "fd:0", "/dev/stdin"})
_SOCAT_FILES = frozenset({"file", "open", "gopen", "pipe"})

SENDERS: frozenset[str] = frozenset(
    {"curl", "wget", *_NETCATS, "socat", "telnet", "openssl", "ssh", "scp", "sftp", "rsync", *_LOOKUPS,
     "ping", "ping6", *_MAILERS, *_SENDMAILS, "gh", *_HTTPIES, *_STORAGE_COPIES}
)  # fmt: skip
"""The commands `sent_data` reads."""


def sent_data(name: str, args: tuple[Arg, ...]) -> Sending | None:
    """What `name ARGS` sends over the network, and where; None when it sends nothing."""
    program = KNOWN.get(name)
    if program is None or name not in SENDERS:
        return None
    reading = read(program, args)
    if name == "curl":
        return _curl(reading)
    if name == "wget":
        return _wget(reading)
    if name in _NETCATS:
        return _netcat(name, reading)
    if name == "socat":
        return _socat(reading)
    if name == "telnet":
        return _socket_client(name, reading.operand("HOST"), Form.HOST)
    if name == "openssl":
        return _s_client(reading) if reading.path == ("s_client",) else None
    if name == "ssh":
        return _ssh(reading)
    if name in ("scp", "rsync"):
        return _copy_to_remote(name, reading)
    if name == "sftp":
        return _sftp(reading)
    if name in _LOOKUPS:
        return _lookup(name, reading)
    if name in ("ping", "ping6"):
        return _ping(name, reading)
    if name == "gh":
        return _gh(reading)
    if name in _HTTPIES:
        return _httpie(name, reading)
    if name in _STORAGE_COPIES:
        return _storage_copy(name, reading)
    return _mail(name, reading)


def _curl(reading: Reading) -> Sending:
    words: list[SentWord] = []
    files: list[SentFile] = []
    stdin: list[str] = []
    destinations: list[Destination] = []
    for use in reading.options:
        value = use.value
        if value is None:
            continue
        label = f"curl {use.spelling}"
        # The literal shape: `-F f=@"$DIR/.env"` is a file even when its directory is known only at run time.
        text = word_shape(value)
        if use.named(*_CURL_DATA) and text.startswith("@"):
            _file_or_stdin(value.suffix(1), f"{label} {value.source}", files, stdin)
        elif use.named(*_CURL_URLENCODED) and _urlencoded_file_at(text) is not None:
            _file_or_stdin(value.suffix(_urlencoded_file_at(text) or 0), f"{label} {value.source}", files, stdin)
        elif use.named("--form") and _form_file_at(text) is not None:
            path = value.suffix(_form_file_at(text) or 0)
            path = path._replace(values=tuple(each.split(";", 1)[0] for each in path.values))
            _file_or_stdin(path, f"{label} {value.source}", files, stdin)
        elif use.named("--upload-file"):
            if text in ("-", "."):
                stdin.append(f"{label} {value.source}")
            else:
                files.append(SentFile(value, f"{label} {value.source}"))
        elif use.named("--header"):
            if text.startswith("@"):
                _file_or_stdin(value.suffix(1), f"{label} {value.source}", files, stdin)
            else:
                words.append(SentWord(value, _header_slot(value), label))
        elif use.named(*_CURL_DATA, *_CURL_URLENCODED, *_CURL_TEXT, "--form"):
            words.append(SentWord(value, Slot.DATA, label))
        elif use.named(*_CURL_CREDENTIALS):
            words.append(SentWord(value, Slot.CREDENTIAL, label))
        elif use.named(*_CURL_HEADERS):
            words.append(SentWord(value, Slot.HEADER, label))
        elif use.named("--url"):
            words.append(SentWord(value, Slot.URL, label))
            destinations.append(Destination(value, Form.URL))
        elif use.named("--proxy"):
            destinations.append(Destination(value, Form.URL))
        elif use.named("--connect-to"):
            destinations.append(Destination(value, Form.CONNECT_TO))
        elif use.named("--resolve"):
            destinations.append(Destination(value, Form.RESOLVE))
    for url in reading.operands:
        words.append(SentWord(url, Slot.URL, "curl URL"))
        destinations.append(Destination(url, Form.URL))
    return Sending(tuple(words), tuple(files), tuple(stdin), tuple(destinations))


def _urlencoded_file_at(text: str) -> int | None:
    """`--data-urlencode name@FILE` / `@FILE` (but not `name=content`): where FILE starts."""
    at = text.find("@")
    equals = text.find("=")
    if at < 0 or 0 <= equals < at:
        return None
    return at + 1


def _form_file_at(text: str) -> int | None:
    """`-F name=@FILE;type=...` / `name=<FILE`: where FILE starts."""
    _, equals, content = text.partition("=")
    if not equals or not content.startswith(("@", "<")):
        return None
    return len(text) - len(content) + 1


def _file_or_stdin(path: Arg, label: str, files: list[SentFile], stdin: list[str]) -> None:
    if path.value == "-":
        stdin.append(label)
    else:
        files.append(SentFile(path, label))


def _header_slot(header: Arg) -> Slot:
    name = (header.value or header.source).partition(":")[0].lower()
    return Slot.CREDENTIAL if any(mark in name for mark in CREDENTIAL_HEADER_MARKS) else Slot.HEADER


def _wget(reading: Reading) -> Sending:
    words: list[SentWord] = []
    files: list[SentFile] = []
    stdin: list[str] = []
    for use in reading.options:
        value = use.value
        if value is None:
            continue
        label = f"wget {use.spelling}"
        if use.named(*_WGET_TEXT):
            words.append(SentWord(value, Slot.DATA, label))
        elif use.named(*_WGET_FILES):
            _file_or_stdin(value, f"{label} {value.source}", files, stdin)
        elif use.named("--header"):
            words.append(SentWord(value, _header_slot(value), label))
        elif use.named(*_WGET_CREDENTIALS):
            words.append(SentWord(value, Slot.CREDENTIAL, label))
        elif use.named("--user-agent", "--referer"):
            words.append(SentWord(value, Slot.HEADER, label))
    urls = reading.operands
    words.extend(SentWord(url, Slot.URL, "wget URL") for url in urls)
    return Sending(tuple(words), tuple(files), tuple(stdin), tuple(Destination(url, Form.URL) for url in urls))


def _socket_client(name: str, hosts: Iterable[Arg], form: Form) -> Sending:
    """A client that carries its standard input to a socket (nc, telnet, openssl s_client)."""
    hosts = tuple(hosts)
    words = tuple(SentWord(host, Slot.HOST_NAME, f"{name} HOST") for host in hosts)
    return Sending(words, (), (name,), tuple(Destination(host, form) for host in hosts))


def _netcat(name: str, reading: Reading) -> Sending | None:
    if reading.has("-U"):
        return None  # a Unix domain socket: this machine
    if reading.has("-l", "--listen"):
        return Sending(stdin=(f"{name} -l",), anyone=True)
    return _socket_client(name, reading.operand("HOST"), Form.HOST)


def _s_client(reading: Reading) -> Sending:
    return _socket_client("openssl s_client", (*reading.values("-connect", "-host"), *reading.operands), Form.HOST_PORT)


def _socat(reading: Reading) -> Sending | None:
    files: list[SentFile] = []
    stdin: list[str] = []
    destinations: list[Destination] = []
    anyone = False
    for address in reading.operands:
        text = (address.value or address.source).lower()
        kind, colon, _ = text.partition(":")
        kind = kind.partition(",")[0]
        if text.partition(",")[0] in _SOCAT_STDIN:
            stdin.append(f"socat {address.source}")
        elif kind in _SOCAT_FILES and colon:
            files.append(SentFile(address.suffix(len(kind) + 1), f"socat {address.source}"))
        elif not colon and "/" in text:
            files.append(SentFile(address, f"socat {address.source}"))
        elif kind in _SOCAT_CONNECTS or kind in SOCAT_PROXIES:
            destinations.append(Destination(address, Form.SOCKET_ADDRESS))
        elif "listen" in kind or kind.endswith(("-l", "-recv", "-recvfrom")):
            anyone = True
    if not (destinations or anyone) or not (files or stdin):
        return None
    return Sending((), tuple(files), tuple(stdin), tuple(destinations), anyone)


def _ssh(reading: Reading) -> Sending:
    destination = reading.operand("DESTINATION")
    command = reading.operand("COMMAND")
    words = [SentWord(host, Slot.HOST_NAME, "ssh DESTINATION") for host in destination]
    words.extend(SentWord(word, Slot.REMOTE_COMMAND, "ssh COMMAND") for word in command)
    reads_stdin = not reading.has(*SSH_NO_STDIN, "-N")
    destinations = [Destination(host, Form.HOST) for host in destination]
    destinations.extend(Destination(forward, Form.HOST_PORT) for forward in reading.values("-W"))
    return Sending(tuple(words), (), ("ssh",) if reads_stdin else (), tuple(destinations))


def _copy_to_remote(name: str, reading: Reading) -> Sending | None:
    """scp and rsync send the local sources when the last operand is remote."""
    operands = reading.operands
    if len(operands) < 2 or not _may_be_remote(operands[-1]):
        return None
    label = f"{name} SOURCE"
    recursive = name == "rsync" or reading.has("-r")
    sources = tuple(SentFile(source, label, recursive) for source in operands[:-1] if not _is_remote(source))
    return Sending((), sources, (), (Destination(operands[-1], Form.REMOTE_PATH),))


def _storage_copy(name: str, reading: Reading) -> Sending | None:
    """`aws s3 cp`, `gsutil cp`, `rclone copy`...: the local sources (`-`: standard input) to a bucket."""
    operands = reading.operands
    if reading.path not in _STORAGE_COPIES[name] or len(operands) < 2 or not _may_be_remote(operands[-1]):
        return None
    label = f"{name} {' '.join(reading.path)} SOURCE"
    recursive = name == "rclone" or reading.path[-1].endswith("sync") or reading.has("--recursive", "-r", "-R")
    files: list[SentFile] = []
    stdin: list[str] = []
    for source in operands[:-1]:
        if source.value == "-":
            stdin.append(f"{name} {' '.join(reading.path)} -")
        elif not _is_remote(source):
            files.append(SentFile(source, label, recursive))
    return Sending((), tuple(files), tuple(stdin), (Destination(operands[-1], Form.REMOTE_PATH),))


def _is_remote(arg: Arg) -> bool:
    """`host:path`, `user@host:path`, `host::module`, `scp://...`: a path on another machine."""
    shape = word_shape(arg)
    if "://" in shape:
        return True
    head = shape.partition("/")[0]
    return ":" in head and not shape.startswith(("/", "./", "../", "~"))


def _may_be_remote(arg: Arg) -> bool:
    """A target known only at run time (`"$DEST"`) may be remote too."""
    return _is_remote(arg) or (not arg.values and RUN_TIME in word_shape(arg).partition("/")[0])


def _sftp(reading: Reading) -> Sending:
    hosts = reading.operand("DESTINATION")
    words = tuple(SentWord(host, Slot.HOST_NAME, "sftp DESTINATION") for host in hosts)
    return Sending(words, (), (), tuple(Destination(host, Form.HOST) for host in hosts), batch_uploads=True)


_UPLOAD_COMMANDS = frozenset({"put", "mput", "reput"})


def sftp_uploads(batch: str) -> list[str]:
    """The local paths an sftp batch (`put FILE [REMOTE]` lines) uploads."""
    paths: list[str] = []
    for line in batch.splitlines():
        command, *rest = line.split() or [""]
        # A leading `-` (ignore errors) or `@` (do not echo) is not part of the command's name.
        operands = [word for word in rest if not word.startswith("-")]
        if operands and command.lstrip("-@") in _UPLOAD_COMMANDS:
            paths.append(operands[0])
    return paths


def _lookup(name: str, reading: Reading) -> Sending:
    """dig, nslookup and host: the names looked up, and the servers asked."""
    words: list[SentWord] = []
    destinations: list[Destination] = []
    files: list[SentFile] = []
    operands = reading.operands
    names: Sequence[Arg] = operands[:1] if name != "dig" else operands
    servers: Sequence[Arg] = operands[1:2] if name != "dig" else ()
    for operand in names:
        text = operand.value or operand.source
        if text.startswith("@"):
            destinations.append(Destination(operand.suffix(1), Form.HOST))
        elif not text.startswith("+") and text.lower() not in _DNS_WORDS:
            words.append(SentWord(operand, Slot.HOST_NAME, f"{name} NAME"))
            destinations.append(Destination(operand, Form.HOST))
    for query in reading.values("-q"):
        words.append(SentWord(query, Slot.HOST_NAME, f"{name} -q"))
        destinations.append(Destination(query, Form.HOST))
    destinations.extend(Destination(server, Form.HOST) for server in servers)
    files.extend(SentFile(batch, f"{name} -f {batch.source}") for batch in reading.values("-f"))
    return Sending(tuple(words), tuple(files), (), tuple(destinations))


def _ping(name: str, reading: Reading) -> Sending:
    hosts = reading.operand("HOST")
    words = [SentWord(host, Slot.HOST_NAME, f"{name} HOST") for host in hosts]
    words.extend(SentWord(pattern, Slot.DATA, f"{name} -p") for pattern in reading.values("-p"))
    return Sending(tuple(words), (), (), tuple(Destination(host, Form.HOST) for host in hosts))


def _mail(name: str, reading: Reading) -> Sending:
    """mail and sendmail: the message on standard input, to the addresses given."""
    words: list[SentWord] = []
    files: list[SentFile] = []
    if name in _MAILERS:
        words.extend(SentWord(subject, Slot.HEADER, f"{name} -s") for subject in reading.values("-s"))
        attached = [(use.spelling, use.value) for use in reading.uses("-a", "-A", "-q") if use.value is not None]
        files.extend(SentFile(file, f"{name} {spelling} {file.source}") for spelling, file in attached)
    addresses = (*reading.operands, *reading.values("-b", "-c"))
    destinations = tuple(Destination(address, Form.MAIL_ADDRESS) for address in addresses)
    # `sendmail -t` takes the recipients from the message: nobody knows them here.
    anyone = not addresses or reading.has("-t")
    return Sending(tuple(words), tuple(files), (name,), destinations, anyone)


def _gh(reading: Reading) -> Sending | None:
    """gh: a gist's files, release assets, an issue's or pull request's body, an API request's fields."""
    words: list[SentWord] = []
    files: list[SentFile] = []
    stdin: list[str] = []
    command = " ".join(("gh", *reading.path))
    if reading.path == ("gist", "create"):
        # No file: gh reads the gist's content from standard input.
        for file in reading.operand("FILE") or (Arg(("-",), "-", _NOWHERE),):
            _file_or_stdin(file, f"{command} {file.source}", files, stdin)
        words.extend(SentWord(value, Slot.DATA, f"{command} --desc") for value in reading.values("--desc"))
    elif reading.path == ("release", "upload"):
        for asset in reading.operand("FILE"):
            # `FILE#label`: the text after `#` is the asset's display name.
            path = asset._replace(values=tuple(value.partition("#")[0] for value in asset.values))
            files.append(SentFile(path, f"{command} {asset.source}"))
    elif reading.path in (("issue", "create"), ("issue", "comment"), ("pr", "create"), ("pr", "comment")):
        bodies = reading.uses("--body", "--title")
        words.extend(
            SentWord(use.value, Slot.DATA, f"{command} {use.spelling}") for use in bodies if use.value is not None
        )
        for body in reading.values("--body-file"):
            _file_or_stdin(body, f"{command} --body-file {body.source}", files, stdin)
    elif reading.path == ("api",):
        for use in reading.uses("--raw-field", "--field", "--header"):
            value = use.value
            label = f"{command} {use.spelling}"
            if value is None:
                continue
            text = word_shape(value)
            name, equals, content = text.partition("=")
            if use.named("--field") and equals and content.startswith("@"):
                _file_or_stdin(value.suffix(len(name) + 2), f"{label} {value.source}", files, stdin)
            else:
                words.append(SentWord(value, _header_slot(value) if use.named("--header") else Slot.DATA, label))
        for body in reading.values("--input"):
            _file_or_stdin(body, f"{command} --input {body.source}", files, stdin)
    if not (words or files or stdin):
        return None
    hosts = reading.values("--hostname") or (Arg((_GITHUB,), _GITHUB, _NOWHERE),)
    return Sending(tuple(words), tuple(files), tuple(stdin), tuple(Destination(host, Form.HOST) for host in hosts))


def _httpie(name: str, reading: Reading) -> Sending | None:
    """HTTPie and xh: `http [METHOD] URL [ITEM...]`, items sending fields, files, headers and
    query parameters; without data items, standard input is the body."""
    operands = reading.operands
    if operands and (operands[0].value or "").upper() in _HTTP_METHODS:
        operands = operands[1:]
    if not operands:
        return None
    url, items = operands[0], operands[1:]
    words = [SentWord(url, Slot.URL, f"{name} URL")]
    files: list[SentFile] = []
    for item in items:
        text = word_shape(item)
        found = [(text.find(separator), -len(separator), separator) for separator in _HTTPIE_SEPARATORS]
        at, _, separator = min((found_at for found_at in found if found_at[0] > 0), default=(-1, 0, ""))
        label = f"{name} {item.source}"
        if separator in _HTTPIE_FILES:
            files.append(SentFile(item.suffix(at + len(separator)), label))
        elif separator == ":":
            words.append(SentWord(item, _header_slot(item), label))
        elif separator == "==" and any(mark in text[:at].lower() for mark in CREDENTIAL_HEADER_MARKS):
            words.append(SentWord(item, Slot.CREDENTIAL, label))
        elif separator:
            words.append(SentWord(item, Slot.DATA, label))
    words.extend(SentWord(auth, Slot.CREDENTIAL, f"{name} --auth") for auth in reading.values("--auth"))
    data = len(words) > 1 or files
    stdin = () if data or reading.has("--ignore-stdin") else (name,)
    # `--proxy PROTOCOL:URL`: the proxy receives the request too.
    proxies = [proxy.suffix(len(word_shape(proxy).partition(":")[0]) + 1) for proxy in reading.values("--proxy")]
    destinations = tuple(Destination(each, Form.URL) for each in (url, *proxies))
    return Sending(tuple(words), tuple(files), stdin, destinations)


_GITHUB = "github.com"
# Where a word gh implies stands: nowhere in the command (only its value is used).
_NOWHERE = Span(0, 0)
