"""HTTP calls to a service's API as pack data: `curl -X DELETE https://api.<vendor>/...`.

`api_calls(("DELETE",), "api.github.com/repos/*/*")` gives the invocations
of every HTTP client (curl, wget, HTTPie, xh) that send one of the methods to
a URL matching one of the patterns; `gh_api` and `glab_api` do the same for
the code hosts' own API commands. A pattern is `host[:port]/path` matched
segment by segment: `*` stands for one segment (or part of one), `**` for
any number of them. Scheme, user, query and fragment are ignored. A part of
a URL known only at run time stands for some text within one segment, which
only a `*` or `**` of the pattern matches (`repos/acme/$r`, in a loop over an
organisation's repositories, matches `repos/*/*`; `$URL` alone matches nothing).
"""

from __future__ import annotations

import re

from .._analysis import CommandSubject
from .._named_tuple import NamedTuple
from ..programs import Arg
from ..programs.destinations import word_shape
from ..programs.http_requests import HTTP_CLIENTS, last_method, request_method_and_urls
from ..rules._paths import per_subject, reading
from ._invocation import Found, Invocation, Predicate, command, gate_commands

_CLIENTS = HTTP_CLIENTS


class _Request(NamedTuple):
    method: str
    """Upper case; "" when only known at run time."""
    urls: tuple[Arg, ...]


@per_subject
def _request(subject: CommandSubject) -> _Request:
    """The request an HTTP client's command sends (several API rules ask about one command)."""
    return _Request(*request_method_and_urls(subject.name, reading(subject)))


def request_urls(subject: CommandSubject) -> tuple[Arg, ...]:
    """The URL words of an HTTP client's request (for a predicate that reads more than the path)."""
    return _request(subject).urls


# Methods some API rule is about: a request with another (most are GETs) needs no rule's look.
_WANTED_METHODS: set[str] = set()
gate_commands(_CLIENTS, lambda subject: _request(subject).method in _WANTED_METHODS)


def url_path(url: str, relative_to: str | None = None) -> str:
    """`https://user@API.example.com:8443/v1/x?q=1` as `api.example.com:8443/v1/x`; with
    `relative_to` (an API root), a value without a scheme is a path below it (`gh api repos/o/r`)."""
    if relative_to is not None and "://" not in url:
        url = f"{relative_to}/{url.lstrip('/')}"
    rest = url.split("://", 1)[1] if "://" in url else url
    rest = rest.split("#", 1)[0].split("?", 1)[0]
    host, slash, path = rest.partition("/")
    host = host.rpartition("@")[2].lower()
    return f"{host}{slash}{path}".rstrip("/")


def _segment_regex(glob: str) -> str:
    """One path segment's glob (`*`, `?`, `[...]`) as a regular expression that never crosses a `/`."""
    pieces: list[str] = []
    index = 0
    while index < len(glob):
        char = glob[index]
        end = glob.find("]", index + 2) if char == "[" else -1
        if char == "*":
            pieces.append("[^/]*")
        elif char == "?":
            pieces.append("[^/]")
        elif end != -1:
            body = glob[index + 1 : end].replace("\\", "\\\\")
            pieces.append(f"[^/{body[1:]}]" if body[:1] == "!" else f"[{body}]")
            index = end
        else:
            pieces.append(re.escape(char))
        index += 1
    return "".join(pieces)


def url_patterns(patterns: tuple[str, ...]) -> re.Pattern[str] | None:
    """Segment-wise globs (`*` within one segment, `**` across any number) as one expression to
    match against `"/" + path`, compiled once: every HTTP client's command asks it."""
    if not patterns:
        return None
    alternatives = (
        "".join("(?:/[^/]*)*" if glob == "**" else "/" + _segment_regex(glob) for glob in pattern.split("/"))
        for pattern in patterns
    )
    return re.compile("(?:" + "|".join(alternatives) + ")")


def matches_any(path: str, patterns: re.Pattern[str] | None) -> bool:
    """Whether a URL's host and path (`url_path`) match one of the compiled patterns."""
    return patterns is not None and patterns.fullmatch("/" + path) is not None


class _Urls:
    """URL patterns to match, and patterns that take a URL out again (another rule's)."""

    __slots__ = ("excluded", "patterns")

    def __init__(self, patterns: tuple[str, ...], excluded: tuple[str, ...]) -> None:
        self.patterns = url_patterns(patterns)
        self.excluded = url_patterns(excluded)

    def first_match(self, urls: tuple[Arg, ...], relative_to: str | None) -> Arg | None:
        if self.patterns is None:
            return None
        for word in urls:
            for value in word.values or (word_shape(word),):
                path = url_path(value, relative_to)
                if matches_any(path, self.patterns) and not matches_any(path, self.excluded):
                    return word
        return None


def api_calls(
    methods: tuple[str, ...], *patterns: str, excluding: tuple[str, ...] = (), where: tuple[Predicate, ...] = ()
) -> tuple[Invocation, ...]:
    """Every HTTP client sending one of the methods to a URL matching one of the patterns
    (and none of `excluding`), where the predicates `where` also hold (what the body sets)."""
    wanted = frozenset(methods)
    _WANTED_METHODS.update(wanted)
    urls = _Urls(patterns, excluding)

    def sends(found: Found) -> Arg | None:
        request = _request(found.subject)
        return urls.first_match(request.urls, None) if request.method in wanted else None

    return (command(_CLIENTS, where=(sends, *where)),)


def host_api_calls(
    cli: str,
    api_root: str,
    methods: tuple[str, ...],
    *patterns: str,
    excluding: tuple[str, ...] = (),
    where: tuple[Predicate, ...] = (),
) -> Invocation:
    """`gh api -X DELETE repos/o/r`: the CLI's `api` command sending one of the methods (GET by
    default, POST with fields) to an endpoint, relative to `api_root` unless a full URL, that
    matches one of the patterns (and none of `excluding`), where the predicates `where` also hold
    (the fields it sends: `-f private=false`)."""
    wanted = frozenset(methods)
    urls = _Urls(patterns, excluding)

    def sends(found: Found) -> Arg | None:
        read = found.reading
        fields = read.has("--raw-field", "--field", "--input")
        method = last_method(read.values("--method"), "POST" if fields else "GET")
        return urls.first_match(read.operand("ENDPOINT"), api_root) if method in wanted else None

    return command(cli, "api", where=(sends, *where))


# Where curl and wget take the request's body; HTTPie and xh take it as items after the URL.
_BODY_OPTIONS = ("--data", "--data-raw", "--data-binary", "--data-ascii", "--json", "--post-data", "--body-data")


def body_matches(*expressions: str) -> Predicate:
    """The request's body (curl's and wget's data options, HTTPie's and xh's items) matches one of
    the regular expressions, case-insensitive (`"private" *: *false`)."""
    compiled = re.compile("|".join(f"(?:{expression})" for expression in expressions), re.IGNORECASE)

    def sent(found: Found) -> Arg | None:
        read = found.reading
        words = read.values(*_BODY_OPTIONS) if found.subject.name in ("curl", "wget") else read.operands
        return next((word for word in words if any(compiled.search(value) for value in word.values)), None)

    return sent
