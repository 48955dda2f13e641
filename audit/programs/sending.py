"""What a network sender sends, and where: the words it puts in a request, the
files whose contents it uploads, whether it sends its standard input, and the
hosts that receive it.

`sent_data(name, args)` reads the command line with the program's
declaration (`network.py`, `files.py` for rsync); the analysis follows
secrets into what it finds (`_analysis/_secrets.py`) and the rule SE005
judges the flows; `destinations.py` says which hosts a destination reaches.
What a sender sends is a `Sending` (`_sent.py`); the HTTP clients (curl,
wget, HTTPie, gh) are read in `_http_senders.py`, the socket clients, remote
copies, DNS lookups, ping and mail here, the file transfer clients in
`_transfer_senders.py`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .._model import Span
from ._arg import Arg
from ._http_senders import HTTPIES, curl_sending, gh_sending, httpie_sending, wget_sending
from ._known import KNOWN
from ._program import Reading, read
from ._sent import Sending, SentFile, SentWord, Slot
from ._transfer_senders import ftp_sending, lftp_sending, sftp_sending, smbclient_sending, tftp_sending
from .destinations import RUN_TIME, SOCAT_PROXIES, Destination, Form, word_shape
from .remote import SSH_NO_STDIN

# -- the senders ------------------------------------------------------------------------------

NETCATS = frozenset({"nc", "ncat", "netcat", "nc.traditional", "nc.openbsd"})
"""The netcat family: they send their standard input to a socket (and run programs with -e)."""
_MAILERS = ("mail", "mailx", "s-nail", "bsd-mailx", "mutt")
_SENDMAILS = ("sendmail", "msmtp", "ssmtp")
_LOOKUPS = ("dig", "nslookup", "host")
# They look the host's name up first: the name reaches its DNS servers.
_TRACEROUTES = ("traceroute", "traceroute6", "tracepath", "tracepath6", "tcptraceroute", "mtr")
# getent's databases that resolve the keys as host names.
_HOST_DATABASES = frozenset({"hosts", "ahosts", "ahostsv4", "ahostsv6"})
_TRANSFERS = {
    "sftp": sftp_sending,
    "ftp": ftp_sending,
    "pftp": ftp_sending,
    "tftp": tftp_sending,
    "lftp": lftp_sending,
    "smbclient": smbclient_sending,
}
# Cloud storage copies send their local sources when the destination is a bucket
# (`s3://bucket/key`, `gs://...`) or an rclone remote (`remote:path`).
_STORAGE_COPIES = {
    "aws": (("s3", "cp"), ("s3", "mv"), ("s3", "sync")),
    "gcloud": (("storage", "cp"), ("storage", "rsync")),
    "gsutil": (("cp",), ("rsync",)),
    "rclone": (("copy",), ("sync",)),
    "s3cmd": (("put",), ("sync",)),
    "azcopy": (("copy",), ("cp",), ("sync",)),
}

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

# git's commands that reach a repository they may be given by URL.
_GIT_NETWORK = frozenset({"clone", "fetch", "pull", "push", "ls-remote", "archive"})

_SOCAT_STDIN = frozenset({"-", "stdin", "stdio", "fd:0", "/dev/stdin"})
_SOCAT_FILES = frozenset({"file", "open", "gopen", "pipe"})

# Relayed transfers and the subcommand that sends: the files reach whoever holds the code or link.
RELAYED_SENDERS = {"wormhole": ("send", "tx"), "croc": ("send",), "ffsend": ("upload", "up", "u")}

SENDERS: frozenset[str] = frozenset(
    {"curl", "wget", *NETCATS, "socat", "telnet", "openssl", "ssh", "scp", "rsync", *_LOOKUPS, *_TRACEROUTES,
     "getent", "az", "ping", "ping6", *_MAILERS, *_SENDMAILS, "gh", *HTTPIES, *_STORAGE_COPIES, *_TRANSFERS, "git",
     *RELAYED_SENDERS, "swaks", "pastebinit"}
)  # fmt: skip
"""The commands `sent_data` reads."""


def may_send(name: str, args: tuple[Arg, ...]) -> bool:
    """The cheap first test of a sender (`name` in `SENDERS`): False when `sent_data` surely finds
    nothing sent, a git command with no word shaped like a URL (`git status`, `git push origin main`)."""
    return name != "git" or any(_git_url_shaped(arg) for arg in args)


def _git_url_shaped(arg: Arg) -> bool:
    """A word git may read as a repository URL: `scheme://...`, `user@host:path` or `host.domain:path`,
    not a revision with a path (`HEAD:README.md`) or a refspec (`HEAD:refs/for/main`)."""
    if not is_remote(arg):
        return False
    shape = word_shape(arg)
    host = shape.partition(":")[0]
    return "://" in shape or "@" in host or "." in host or host == "localhost" or RUN_TIME in host


def sent_data(name: str, args: tuple[Arg, ...]) -> Sending | None:
    """What `name ARGS` sends over the network, and where; None when it sends nothing."""
    program = KNOWN.get(name)
    if program is None or name not in SENDERS or not may_send(name, args):
        return None
    reading = read(program, args)
    if name == "curl":
        return curl_sending(reading)
    if name == "wget":
        return wget_sending(reading)
    if name in NETCATS:
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
    if name in _TRANSFERS:
        return _TRANSFERS[name](reading)
    if name in _LOOKUPS:
        return _lookup(name, reading)
    if name in _TRACEROUTES:
        return _socket_client(name, reading.operand("HOST"), Form.HOST)
    if name == "getent":
        return _getent_hosts(reading)
    if name in ("ping", "ping6"):
        return _ping(name, reading)
    if name == "gh":
        return gh_sending(reading)
    if name in HTTPIES:
        return httpie_sending(name, reading)
    if name == "az":
        return _blob_upload(reading)
    if name in _STORAGE_COPIES:
        return _storage_copy(name, reading)
    if name == "git":
        return _git(reading)
    if name in RELAYED_SENDERS:
        return _relayed(name, reading)
    if name == "swaks":
        return _swaks(reading)
    if name == "pastebinit":
        return _pastebinit(reading)
    return _mail(name, reading)


def _swaks(reading: Reading) -> Sending:
    """swaks: the files it attaches, the body and message text (a file as `@FILE`, standard input as
    `-`), to the addresses and through the server it names."""
    words: list[SentWord] = []
    files: list[SentFile] = []
    stdin: list[str] = []
    for use in reading.uses("--attach", "--attach-body", "--body", "--data", "--header", "--h-Subject"):
        value = use.value
        if value is None:
            continue
        label = f"swaks {use.spelling} {value.source}"
        text = word_shape(value)
        if text == "-":
            stdin.append(label)
        elif text.startswith("@"):
            files.append(SentFile(value.suffix(1), label))
        elif use.named("--attach"):
            files.append(SentFile(value, label))
        else:
            words.append(SentWord(value, Slot.DATA, f"swaks {use.spelling}"))
    destinations = [Destination(address, Form.MAIL_ADDRESS) for address in reading.values("--to")]
    destinations.extend(Destination(server, Form.HOST) for server in reading.values("--server"))
    return Sending(tuple(words), tuple(files), tuple(stdin), tuple(destinations))


_UBUNTU_PASTE = Arg(("https://paste.ubuntu.com",), "paste.ubuntu.com", Span(0, 0))


def _pastebinit(reading: Reading) -> Sending:
    """pastebinit: its files (standard input when none), to the paste bin `-b` names or Ubuntu's."""
    named = (*reading.operands, *reading.values("-i"))
    files = tuple(SentFile(file, f"pastebinit {file.source}") for file in named if file.value != "-")
    stdin = ("pastebinit",) if not named or any(file.value == "-" for file in named) else ()
    servers = reading.values("-b") or (_UBUNTU_PASTE,)
    return Sending((), files, stdin, tuple(Destination(server, Form.URL) for server in servers))


def _relayed(name: str, reading: Reading) -> Sending | None:
    """`wormhole send FILE`, `croc send FILE...`, `ffsend upload FILE`: the files (a directory with
    everything in it) and `--text`, to whoever holds the code or the link."""
    if not reading.path or reading.path[0] not in RELAYED_SENDERS[name]:
        return None
    label = f"{name} {reading.path[0]}"
    files = tuple(SentFile(arg, label, recursive=True) for arg in reading.operands)
    words = tuple(SentWord(text, Slot.DATA, f"{label} --text") for text in reading.values("--text"))
    return Sending(words, files, anyone=True)


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
    sources = tuple(SentFile(source, label, recursive) for source in operands[:-1] if not is_remote(source))
    return Sending((), sources, (), (Destination(operands[-1], Form.REMOTE_PATH),))


def _git(reading: Reading) -> Sending | None:
    """git's commands that reach a repository by URL send the URL (its user information is the
    request's own credential, as `url_credential_parts` says); what a push carries is NE008's and SE007's."""
    if reading.path:
        command, words = reading.path[0], reading.operands
    else:
        # The commands not declared (clone, fetch, ls-remote...) are the first operand.
        command, words = (reading.operands[0].value, reading.operands[1:]) if reading.operands else (None, ())
    if command not in _GIT_NETWORK:
        return None
    urls = tuple(word for word in (*words, *reading.values("--repo")) if is_remote(word))
    if not urls:
        return None
    label = f"git {command} URL"
    forms = (Form.URL if "://" in word_shape(url) else Form.REMOTE_PATH for url in urls)
    return Sending(
        tuple(SentWord(url, Slot.URL, label) for url in urls),
        destinations=tuple(Destination(url, form) for url, form in zip(urls, forms, strict=True)),
    )


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
        elif not is_remote(source):
            files.append(SentFile(source, label, recursive))
    return Sending((), tuple(files), tuple(stdin), (Destination(operands[-1], Form.REMOTE_PATH),))


def _blob_upload(reading: Reading) -> Sending | None:
    """`az storage blob upload -f FILE` and `upload-batch -s DIR`, to the storage account named."""
    if reading.path == ("storage", "blob", "upload"):
        files = tuple(SentFile(file, "az storage blob upload -f") for file in reading.values("--file"))
    elif reading.path == ("storage", "blob", "upload-batch"):
        files = tuple(
            SentFile(source, "az storage blob upload-batch -s", True) for source in reading.values("--source")
        )
    else:
        return None
    # Without an account name the account comes from a connection string or the environment: unknown here.
    accounts = [account for account in reading.values("--account-name") if account.value is not None]
    hosts = tuple(
        Arg((f"{account.value}.blob.core.windows.net",), account.source, account.span) for account in accounts
    )
    return Sending((), files, (), tuple(Destination(host, Form.HOST) for host in hosts))


def is_remote(arg: Arg) -> bool:
    """`host:path`, `user@host:path`, `host::module`, `scp://...`: a path on another machine."""
    shape = word_shape(arg)
    if "://" in shape:
        return True
    head = shape.partition("/")[0]
    return ":" in head and not shape.startswith(("/", "./", "../", "~"))


def _may_be_remote(arg: Arg) -> bool:
    """A target known only at run time (`"$DEST"`) may be remote too."""
    return is_remote(arg) or (not arg.values and RUN_TIME in word_shape(arg).partition("/")[0])


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


def _getent_hosts(reading: Reading) -> Sending | None:
    """`getent hosts NAME...` resolves the names through the DNS; other databases stay on the machine."""
    database = reading.operand("DATABASE")
    if not database or database[0].value not in _HOST_DATABASES:
        return None
    return _socket_client("getent hosts", reading.operand("KEY"), Form.HOST)


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
