"""Network clients: curl and wget (where they save what they download), and the
netcat family and socat (which can run a program on a socket)."""

from __future__ import annotations

from ._arg import Arg
from ._grammar import Syntax, attached, flag, valued
from ._program import Program, read

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
    ),
    operands=("URL...",),
    writes=lambda reading: _files(reading.values("--output-document")),
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

NETWORK_PROGRAMS: tuple[Program, ...] = (CURL, WGET, NETCAT, HTTPIE)


def _files(outputs: tuple[Arg, ...]) -> tuple[Arg, ...]:
    """Output options that name a file: `-` is standard output."""
    return tuple(output for output in outputs if output.value != "-")


def downloaded_files(name: str | None, args: tuple[Arg, ...]) -> list[Arg]:
    """Files curl or wget save: `-o FILE`, `-O`/`--remote-name` (the URL's file name), wget's default."""
    if name == "curl":
        reading = read(CURL, args)
        files = list(reading.values("--output"))
        remote_name = reading.has("--remote-name", "--remote-name-all")
    elif name == "wget":
        reading = read(WGET, args)
        files = list(reading.values("--output-document"))
        remote_name = not files
    else:
        return []
    if remote_name:
        urls = (*reading.operands, *reading.values("--url"))
        files.extend(_url_file_name(url) for url in urls if url.value is not None and "://" in url.value)
    return [file for file in files if file.value not in (None, "-")]


def _url_file_name(url: Arg) -> Arg:
    path = (url.value or "").split("://", 1)[-1].split("?", 1)[0].split("#", 1)[0]
    name = path.rstrip("/").rpartition("/")[2] if "/" in path else "index.html"
    return Arg((name or "index.html",), url.source, url.span)
