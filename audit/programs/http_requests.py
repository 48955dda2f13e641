"""The request an HTTP client's command line sends: its method and its URL words (curl, wget,
HTTPie and xh), for the API rules of the packs and the core rules that ask what a request does."""

from __future__ import annotations

from ._arg import Arg
from ._program import Reading

HTTP_CLIENTS = ("curl", "wget", "http", "https", "xh", "xhs")
_METHOD_WORD = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


def request_method_and_urls(name: str | None, read: Reading) -> tuple[str, tuple[Arg, ...]]:
    """The request method (upper case; "" when only known at run time) and the URL words."""
    if name == "curl":
        methods = read.values("--request")
        sent_data = read.has("--data", "--data-raw", "--data-binary", "--data-urlencode", "--json", "--form")
        default = "POST" if sent_data else "PUT" if read.has("--upload-file") else "GET"
        return last_method(methods, default), (*read.operands, *read.values("--url"))
    if name == "wget":
        default = "POST" if read.has("--post-data", "--post-file") else "GET"
        return last_method(read.values("--method"), default), read.operands
    operands = read.operands
    first = operands[0].value if operands else None
    if first is not None and first.upper() in _METHOD_WORD and len(operands) > 1:
        return first.upper(), operands[1:2]
    return "GET", operands[:1]


def last_method(words: tuple[Arg, ...], default: str) -> str:
    """The method the last of several method options names (the one the client uses)."""
    if not words:
        return default
    return (words[-1].value or "").upper()
