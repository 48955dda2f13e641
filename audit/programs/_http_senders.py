"""What the HTTP clients send: curl, wget, HTTPie and xh, and the GitHub CLI (gists, release
assets, issue and pull request bodies, API requests)."""

from __future__ import annotations

from .._model import Span
from ._arg import Arg
from ._program import Reading
from ._sent import Sending, SentFile, SentWord, Slot
from .destinations import CREDENTIAL_HEADER_MARKS, Destination, Form, word_shape

_CURL_DATA = ("--data", "--data-ascii", "--data-binary", "--json")
_CURL_URLENCODED = ("--data-urlencode", "--url-query")
_CURL_TEXT = ("--data-raw", "--form-string")
_CURL_CREDENTIALS = ("--user", "--proxy-user", "--oauth2-bearer")
_CURL_HEADERS = ("--user-agent", "--referer")
_WGET_TEXT = ("--post-data", "--body-data")
_WGET_FILES = ("--post-file", "--body-file", "--input-file")
_WGET_CREDENTIALS = ("--user", "--password", "--http-user", "--http-password", "--proxy-user", "--proxy-password")
HTTPIES = ("http", "https", "xh", "xhs")
_HTTP_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT"})
# HTTPie's request items (`name=value`, `name=@file`...), longest first: the earliest
# separator in the item decides, the longer one where two start at the same place.
_HTTPIE_SEPARATORS = (":=@", "==", "=@", ":=", "@", "=", ":")
_HTTPIE_FILES = frozenset({":=@", "=@", "@"})
_GITHUB = "github.com"
# Where a word gh implies stands: nowhere in the command (only its value is used).
_NOWHERE = Span(0, 0)


def curl_sending(reading: Reading) -> Sending:
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
        elif use.named("--cookie") and "=" in text:
            # `-b NAME=VALUE` is sent in the Cookie header, where a session's credential goes (without
            # `=` the value names a cookie file, whose cookies curl sends only to their own site).
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


def wget_sending(reading: Reading) -> Sending:
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


def gh_sending(reading: Reading) -> Sending | None:
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
    elif reading.path in (("release", "upload"), ("release", "create")):
        for asset in reading.operand("FILE"):
            # `FILE#label`: the text after `#` is the asset's display name.
            path = asset._replace(values=tuple(value.partition("#")[0] for value in asset.values))
            files.append(SentFile(path, f"{command} {asset.source}"))
        words.extend(
            SentWord(use.value, Slot.DATA, f"{command} {use.spelling}")
            for use in reading.uses("--notes", "--title")
            if use.value is not None
        )
        for notes in reading.values("--notes-file"):
            _file_or_stdin(notes, f"{command} --notes-file {notes.source}", files, stdin)
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


def httpie_sending(name: str, reading: Reading) -> Sending | None:
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
