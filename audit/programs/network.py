"""Network clients: curl, wget and aria2c (where they save what they download, and what
they send), the netcat family, socat, telnet and `openssl s_client` (which
carry bytes to a socket, and can run a program on one), scp and sftp (ssh is
in remote.py), DNS lookups and traceroute, the FTP, TFTP and SMB clients,
mail senders and HTTPie. What each one sends is
read in `sending.py`."""

from __future__ import annotations

import re

from ._arg import Arg
from ._grammar import GO_FLAGS, POSIX, Syntax, attached, flag, valued
from ._program import Program, Reading, Subcommand, read

CURL = Program(
    ("curl",),
    options=(
        valued("-o", "--output"), flag("-O", "--remote-name"), flag("--remote-name-all"), valued("--output-dir"),
        valued("-A", "--user-agent"), valued("-b", "--cookie"), valued("-c", "--cookie-jar"),
        valued("-C", "--continue-at"), valued("-d", "--data"), valued("--data-raw"), valued("--data-binary"),
        valued("--data-urlencode"), valued("--data-ascii"), valued("--json"), valued("-D", "--dump-header"),
        valued("-e", "--referer"), valued("-E", "--cert"), valued("--key"), valued("--cacert"), valued("--capath"),
        valued("-F", "--form"), valued("--form-string"), valued("-H", "--header"), valued("-K", "--config"),
        valued("-m", "--max-time"), valued("--connect-timeout"), valued("-P", "--ftp-port"), valued("-Q", "--quote"),
        valued("-r", "--range"), valued("-t", "--telnet-option"), valued("-T", "--upload-file"),
        valued("-u", "--user"), valued("-U", "--proxy-user"), valued("-w", "--write-out"), valued("-x", "--proxy"),
        valued("-X", "--request"), valued("-y", "--speed-time"), valued("-Y", "--speed-limit"),
        valued("-z", "--time-cond"), valued("--url"), valued("--retry"), valued("--retry-delay"),
        valued("--retry-max-time"), valued("--resolve"), valued("--connect-to"), valued("--interface"),
        valued("--limit-rate"), valued("--max-filesize"), valued("--max-redirs"), valued("--proto"),
        valued("--proto-redir"), valued("--oauth2-bearer"), valued("--unix-socket"), valued("--variable"),
        valued("--url-query"), flag("-G", "--get"),
    ),
    operands=("URL...",),
    writes=lambda reading: _files(reading.values("--output")),
)  # fmt: skip

WGET = Program(
    ("wget",),
    options=(
        valued("-O", "--output-document"), valued("-o", "--output-file"), valued("-a", "--append-output"),
        valued("-P", "--directory-prefix"), valued("-i", "--input-file"), valued("-B", "--base"),
        valued("-e", "--execute"), valued("-t", "--tries"), valued("-T", "--timeout"), valued("-w", "--wait"),
        valued("-Q", "--quota"), valued("-U", "--user-agent"), valued("-D", "--domains"), valued("-l", "--level"),
        valued("-A", "--accept"), valued("-R", "--reject"), valued("-I", "--include-directories"),
        valued("-X", "--exclude-directories"), valued("--header"), valued("--user"), valued("--password"),
        valued("--post-data"), valued("--post-file"), valued("--method"), valued("--body-data"),
        valued("--load-cookies"), valued("--save-cookies"), valued("--limit-rate"), attached("--progress"),
        valued("--body-file"), valued("--http-user"), valued("--http-password"), valued("--proxy-user"),
        valued("--proxy-password"), valued("--referer"),
    ),
    operands=("URL...",),
    writes=lambda reading: _wget_saves(reading),
)  # fmt: skip

_NETCAT_SYNTAX = Syntax()
NETCAT = Program(
    ("nc", "ncat", "netcat", "nc.traditional", "nc.openbsd"),
    syntax=_NETCAT_SYNTAX,
    options=(
        valued("-e", "--exec"), valued("-c", "--sh-exec"), valued("--lua-exec"), valued("-p", "--source-port"),
        valued("-s", "--source"), valued("-w", "--wait"), valued("-i", "--idle-timeout", "--delay"),
        valued("-x", "--proxy"), valued("-X", "--proxy-type"), valued("-q"), valued("-o", "--output"),
        valued("-g"), valued("-G"), valued("-m", "--max-conns"), valued("-I"), valued("-O"), valued("-T"),
        valued("-V"), valued("--proxy-auth"), valued("--allow"), valued("--deny"),
    ),
    operands=("HOST", "PORT"),
)  # fmt: skip

SOCAT = Program(
    ("socat",),
    syntax=Syntax(clusters=False),
    options=(
        valued("-b"), valued("-t"), valued("-T"), valued("-L"), valued("-W"), valued("-lf"), valued("-lp"),
        valued("-lh"), flag("-u"), flag("-U"),
    ),
    operands=("ADDRESS", "ADDRESS"),
)  # fmt: skip

TELNET = Program(
    ("telnet",),
    syntax=POSIX,
    options=(valued("-l"), valued("-e"), valued("-b"), valued("-n"), valued("-X"), valued("-k")),
    operands=("HOST", "PORT"),
)

# `openssl s_client -connect host:port`: one option per word (`-connect`, `-servername`).
OPENSSL = Program(
    ("openssl",),
    syntax=GO_FLAGS,
    subcommands=(
        Subcommand(
            ("s_client",),
            options=(
                valued("-connect"), valued("-host"), valued("-port"), valued("-servername"), valued("-proxy"),
                valued("-cert"), valued("-key"), valued("-CAfile"), valued("-CApath"), valued("-starttls"),
                valued("-verify"), valued("-sess_out"), valued("-sess_in"), valued("-bind"),
            ),
            operands=("HOST:PORT",),
        ),
    ),
)  # fmt: skip

# aria2c saves each URL under `-d DIR` (the working directory by default), named by `-o` or the URL.
ARIA2C = Program(
    ("aria2c",),
    options=(
        valued("-o", "--out"), valued("-d", "--dir"), valued("-i", "--input-file"), valued("-x", "--max-connection-per-server"),
        valued("-s", "--split"), valued("-k", "--min-split-size"), valued("-j", "--max-concurrent-downloads"),
        valued("--header"), valued("-U", "--user-agent"), valued("--checksum"), flag("-c", "--continue"), flag("-q", "--quiet"),
    ),
    operands=("URL...",),
)  # fmt: skip

SCP = Program(
    ("scp",),
    syntax=Syntax(),
    options=(
        valued("-c"), valued("-D"), valued("-F"), valued("-i"), valued("-J"), valued("-l"), valued("-o"),
        valued("-P"), valued("-S"), valued("-X"), flag("-r"), flag("-3"),
    ),
    operands=("SOURCE...", "TARGET"),
)  # fmt: skip

SFTP = Program(
    ("sftp",),
    syntax=POSIX,
    options=(
        valued("-B"), valued("-b"), valued("-c"), valued("-D"), valued("-F"), valued("-i"), valued("-J"),
        valued("-l"), valued("-o"), valued("-P"), valued("-R"), valued("-S"), valued("-s"), valued("-X"),
    ),
    operands=("DESTINATION",),
)  # fmt: skip

# DNS lookups: the name looked up reaches the name's authoritative servers (and `@server`).
DIG = Program(
    ("dig",),
    syntax=Syntax(),
    options=(
        valued("-b"), valued("-c"), valued("-f"), valued("-k"), valued("-p"), valued("-q"), valued("-t"),
        valued("-x"), valued("-y"),
    ),
    operands=("QUERY...",),
)  # fmt: skip

# `nslookup -type=TXT name server`: one option per word.
NSLOOKUP = Program(("nslookup",), syntax=Syntax(clusters=False), operands=("NAME", "SERVER"))

HOST = Program(
    ("host",),
    syntax=Syntax(),
    options=(valued("-c"), valued("-N"), valued("-R"), valued("-t"), valued("-W"), valued("-m")),
    operands=("NAME", "SERVER"),
)

# ping's pattern (-p) fills the packets it sends.
PING = Program(
    ("ping", "ping6"),
    syntax=Syntax(),
    options=(
        valued("-c"), valued("-i"), valued("-I"), valued("-l"), valued("-m"), valued("-M"), valued("-p"),
        valued("-Q"), valued("-s"), valued("-S"), valued("-t"), valued("-T"), valued("-w"), valued("-W"),
    ),
    operands=("HOST",),
)  # fmt: skip

# traceroute and its kin look the host's name up before they probe it.
TRACEROUTE = Program(
    ("traceroute", "traceroute6", "tracepath", "tracepath6", "tcptraceroute", "mtr"),
    syntax=Syntax(),
    options=(
        valued("-f"), valued("-g"), valued("-i"), valued("-m"), valued("-N"), valued("-p"), valued("-q"),
        valued("-s"), valued("-t"), valued("-w"), valued("-z"), valued("-l"), valued("-c"),
    ),
    operands=("HOST", "PACKETLEN"),
)  # fmt: skip

# File transfer clients: what they upload is named in a script (`-c 'put FILE'`), on standard
# input (`ftp host <<< 'put FILE'`) or, for busybox's tftp, by `-p -l FILE`. tftp-hpa's
# `-c` ends the options: the words after it (`put FILE`) are operands here.
TFTP = Program(
    ("tftp",),
    syntax=Syntax(),
    options=(valued("-m"), valued("-R"), valued("-l"), valued("-r"), valued("-b"), flag("-c"), flag("-p"), flag("-g")),
    operands=("HOST", "WORD..."),
)
# BSD ftp's `-u URL FILE...` uploads the files to the URL.
FTP = Program(
    ("ftp", "pftp"),
    syntax=Syntax(),
    options=(valued("-u"), valued("-P"), valued("-o"), valued("-r"), valued("-T"), flag("-n"), flag("-i")),
    operands=("HOST", "PORT"),
)
LFTP = Program(
    ("lftp",),
    syntax=Syntax(),
    options=(valued("-c"), valued("-e"), valued("-f"), valued("-u"), valued("-p"), flag("-d"), flag("--norc")),
    operands=("SITE",),
)
SMBCLIENT = Program(
    ("smbclient",),
    syntax=Syntax(),
    options=(
        valued("-c", "--command"), valued("-U", "--user"), valued("-W", "--workgroup"), valued("-I", "--ip-address"),
        valued("-p", "--port"), valued("-A", "--authentication-file"), valued("-D", "--directory"),
        valued("-L", "--list"), valued("-m", "--max-protocol"), flag("-N", "--no-pass"),
    ),
    operands=("SERVICE", "PASSWORD"),
)  # fmt: skip

# mail, mailx and their kin: the message is standard input; GNU mailutils attaches
# with -A, s-nail and heirloom mailx with -a; -q quotes a file into the message.
MAIL = Program(
    ("mail", "mailx", "s-nail", "bsd-mailx", "mutt"),
    options=(
        valued("-s", "--subject"), valued("-a", "--append"), valued("-A", "--attach"), valued("-b", "--bcc"),
        valued("-c", "--cc"), valued("-r", "--return-address"), valued("-q", "--quote"), valued("-S"),
    ),
    operands=("ADDRESS...",),
)  # fmt: skip

# swaks, the SMTP test tool: `--attach` a file (or `@FILE`), `--body` and `--data` text, or a file as `@FILE`
# (`-` reads standard input), to `--to` addresses through `--server`.
SWAKS = Program(
    ("swaks",),
    syntax=Syntax(clusters=False),
    options=(
        valued("-t", "--to"), valued("-f", "--from"), valued("-s", "--server"), valued("-p", "--port"),
        valued("--attach"), valued("--attach-body"), valued("--body"), valued("-d", "--data"),
        valued("--header", "--add-header", "--ah"), valued("--h-Subject"), valued("-au", "--auth-user"),
        valued("-ap", "--auth-password"), valued("-a", "--auth"), valued("--attach-type"), valued("--attach-name"),
        flag("-tls"), flag("--tls"), flag("--silent"), flag("-n", "--suppress-data"),
    ),
)  # fmt: skip

# pastebinit: the files named (or `-i FILE`, or standard input) posted to a paste bin, paste.ubuntu.com
# unless `-b URL` names another.
PASTEBINIT = Program(
    ("pastebinit",),
    options=(
        valued("-i"), valued("-b"), valued("-a"), valued("-f"), valued("-t"), valued("-j"), valued("-u"),
        valued("-p"), valued("-m"), flag("-P"), flag("-E"), flag("-l"), flag("-r"), flag("-v"),
    ),
    operands=("FILE...",),
)  # fmt: skip

SENDMAIL = Program(
    ("sendmail", "msmtp", "ssmtp"),
    options=(valued("-f"), valued("-F"), valued("-a"), valued("-C"), valued("-o"), valued("-O"), valued("-N")),
    operands=("ADDRESS...",),
)

# HTTPie and xh: `http [OPTIONS] [METHOD] URL [REQUEST_ITEM...]`.
HTTPIE = Program(
    ("http", "https", "xh", "xhs"),
    options=(
        valued("-a", "--auth"), valued("-A", "--auth-type"), valued("-o", "--output"), valued("--session"),
        valued("--session-read-only"), valued("-p", "--print"), valued("--pretty"), valued("-s", "--style"),
        valued("--verify"), valued("--cert"), valued("--cert-key"), valued("--timeout"), valued("--proxy"),
        flag("-j", "--json"), flag("-f", "--form"), flag("-v", "--verbose"), flag("-h", "--headers"),
        flag("-b", "--body"), flag("-d", "--download"), flag("-F", "--follow"), flag("--offline"),
        flag("-I", "--ignore-stdin"), flag("-q", "--quiet"),
    ),
    operands=("METHOD_OR_URL", "ITEM..."),
)  # fmt: skip

# --write-out variables whose value curl computes as a number (a status code, a count, a size,
# a time): never text of the server's.
_NUMERIC_WRITE_OUT = frozenset({
    "http_code", "response_code", "http_connect", "exitcode", "num_connects", "num_redirects", "num_headers",
    "num_retries", "size_download", "size_upload", "size_header", "size_request", "speed_download", "speed_upload",
    "time_appconnect", "time_connect", "time_namelookup", "time_pretransfer", "time_redirect", "time_starttransfer",
    "time_total", "ssl_verify_result", "proxy_ssl_verify_result",
})  # fmt: skip
_WRITE_OUT_VARIABLE = re.compile(r"%\{(\w+)\}")
_WRITE_OUT_BLANKS = re.compile(r"(?:\s|\\[nrt])*")
# Flags curl's declaration leaves out that change neither what curl writes to standard output nor where.
_QUIET_CURL_FLAGS = frozenset({
    "-s", "--silent", "-S", "--show-error", "-f", "--fail", "-L", "--location", "-k", "--insecure", "-I", "--head",
    "-i", "--include", "-v", "--verbose", "-4", "--ipv4", "-6", "--ipv6", "--compressed", "-N", "--no-buffer",
    "--http1.0", "--http1.1", "--http2",
})  # fmt: skip
# Declared options that put what the server sends elsewhere than the output file, add a URL, or read more options.
_CURL_OUTPUT_OPTIONS = ("--dump-header", "--cookie-jar", "--config", "--remote-name", "--remote-name-all", "--url")

# Relayed transfers: the files go through a public relay to whoever types the code they print
# (magic-wormhole, croc) or opens the link (ffsend).
WORMHOLE = Program(
    ("wormhole",),
    options=(valued("--relay-url"), valued("--transit-helper"), valued("--appid"), valued("--dump-timing")),
    subcommands=(
        Subcommand(
            ("send", "tx"),
            options=(valued("--text"), valued("--code"), valued("-c", "--code-length"), flag("--hide-progress")),
            operands=("FILE",),
        ),
    ),
)
CROC = Program(
    ("croc",),
    options=(valued("--relay"), valued("--relay6"), valued("--pass"), valued("--curve"), flag("--yes")),
    subcommands=(
        Subcommand(
            ("send",), options=(valued("--code", "-c"), valued("--text", "-t"), flag("--zip")), operands=("FILE...",)
        ),
    ),
)
FFSEND = Program(
    ("ffsend",),
    options=(valued("-H", "--host"), flag("-y", "--yes"), flag("-q", "--quiet")),
    subcommands=(
        Subcommand(
            ("upload", "up", "u"),
            options=(valued("-p", "--password"), valued("-d", "--downloads"), valued("-e", "--expiry-time")),
            operands=("FILE...",),
        ),
    ),
)
NETWORK_PROGRAMS: tuple[Program, ...] = (
    CURL, WGET, NETCAT, HTTPIE, SOCAT, TELNET, OPENSSL, SCP, SFTP, DIG, NSLOOKUP, HOST, PING, MAIL, SENDMAIL, SWAKS, PASTEBINIT,
    TRACEROUTE, TFTP, FTP, LFTP, SMBCLIENT, ARIA2C, WORMHOLE, CROC, FFSEND,
)  # fmt: skip


def _files(outputs: tuple[Arg, ...]) -> tuple[Arg, ...]:
    """Output options that name a file: `-` is standard output."""
    return tuple(output for output in outputs if output.value != "-")


def _wget_saves(reading: Reading) -> tuple[Arg, ...]:
    """`-O FILE`, else with `-P DIR` each URL's file name inside DIR (`wget -P /etc/cron.d URL`); a
    download into the working directory names no path a rule could judge."""
    documents = reading.values("--output-document")
    prefixes = reading.values("--directory-prefix")
    if documents or not prefixes or not prefixes[-1].values:
        return _files(documents)
    prefix = prefixes[-1]
    named = (_url_file_name(url) for url in reading.operands if url.value is not None and "://" in url.value)
    return tuple(
        Arg(
            tuple(f"{directory.rstrip('/')}/{name.values[0]}" for directory in prefix.values),
            prefix.source,
            prefix.span,
        )
        for name in named
    )


def downloaded_files(name: str | None, args: tuple[Arg, ...]) -> list[Arg]:
    """Files curl or wget save: `-o FILE`, `-O`/`--remote-name` (the URL's file name), wget's default;
    aria2c's, and Windows' certutil's and bitsadmin's."""
    if name == "curl":
        reading = read(CURL, args)
        files = list(reading.values("--output"))
        remote_name = reading.has("--remote-name", "--remote-name-all")
    elif name == "wget":
        reading = read(WGET, args)
        files = list(reading.values("--output-document"))
        remote_name = not files
    elif name == "aria2c":
        return _aria2c_saves(read(ARIA2C, args))
    else:
        return windows_downloaded_files(name, args) if name is not None else []
    if remote_name:
        urls = (*reading.operands, *reading.values("--url"))
        files.extend(_url_file_name(url) for url in urls if url.value is not None and "://" in url.value)
    return [file for file in files if file.value not in (None, "-")]


def _aria2c_saves(reading: Reading) -> list[Arg]:
    """`-o NAME` (else each URL's file name), inside `-d DIR` when one is given."""
    names = list(reading.values("--out")) or [
        _url_file_name(url) for url in reading.operands if url.value is not None and "://" in url.value
    ]
    directories = reading.values("--dir")
    if not directories or not directories[-1].values:
        return names
    directory = directories[-1]
    return [
        Arg(
            tuple(f"{path.rstrip('/')}/{name}" for path in directory.values for name in each.values),
            each.source,
            each.span,
        )
        for each in names
    ]


def _url_file_name(url: Arg) -> Arg:
    path = (url.value or "").split("://", 1)[-1].split("?", 1)[0].split("#", 1)[0]
    name = path.rstrip("/").rpartition("/")[2] if "/" in path else "index.html"
    return Arg((name or "index.html",), url.source, url.span)


def curl_prints_only_numbers(args: tuple[Arg, ...]) -> bool:
    """Whether `curl ARGS` writes nothing to standard output but numbers: one URL (no `[...]` or `{...}`
    glob), its body thrown away (`-o /dev/null`), and a `--write-out` of numeric variables and blanks
    (`-w '%{http_code}'`). The health check `$(curl -s -o /dev/null -w '%{http_code}' URL)`: the
    server chooses the number, not the text."""
    reading = read(CURL, args)
    if len(reading.operands) != 1 or reading.has(*_CURL_OUTPUT_OPTIONS):
        return False
    if any(not use.declared and use.spelling not in _QUIET_CURL_FLAGS for use in reading.options):
        return False
    url = reading.operands[0].value
    outputs = [output.value for output in reading.values("--output")]
    formats = [each.value for each in reading.values("--write-out")]
    if url is None or "[" in url or "{" in url or outputs != ["/dev/null"] or len(formats) != 1:
        return False
    written = formats[0]
    if written is None or "%{" not in written:
        return False
    rest = _WRITE_OUT_VARIABLE.sub(lambda match: "" if match[1] in _NUMERIC_WRITE_OUT else match[0], written)
    return _WRITE_OUT_BLANKS.fullmatch(rest) is not None


# Windows' own downloaders: `certutil -urlcache [-split] -f URL [FILE]` and `bitsadmin /transfer NAME [/download]
# [/priority P] URL FILE`, switches in any case, with `-` or `/`. Malware's way to fetch a payload where curl
# is missing or watched.
_DOWNLOAD_SWITCHES = {"certutil": frozenset({"-urlcache", "/urlcache"}), "bitsadmin": frozenset({"/transfer"})}


def windows_download(name: str, args: tuple[Arg, ...]) -> bool:
    """Whether `certutil`/`bitsadmin` ARGS fetches a URL (its output is then a download, as curl's)."""
    switches = _DOWNLOAD_SWITCHES.get(name)
    if switches is None:
        return False
    return any(arg.value is not None and arg.value.lower() in switches for arg in args)


def windows_downloaded_files(name: str, args: tuple[Arg, ...]) -> list[Arg]:
    """The file a Windows downloader saves: the word after the URL (certutil's default, the URL's file
    name, is left unknown)."""
    if not windows_download(name, args):
        return []
    for index, arg in enumerate(args[:-1]):
        if arg.value is not None and "://" in arg.value:
            saved = args[index + 1]
            return [saved] if saved.value is not None and not saved.value.startswith("-") else []
    return []
