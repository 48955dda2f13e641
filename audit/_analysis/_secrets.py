"""Secret flows: the secrets that reach a command sending data over the network.

The taint of downloads (`_risks.py`) follows data from a fetcher to where it
runs as code; this follows it the other way, from where a secret is read to
where it leaves the machine. A secret is a credential or secret file of the
policy's tables (read by any command that reads files, or archived with its
directory), the environment (`env`, `printenv`, `/proc/*/environ`), a
secret-shaped variable from the environment (`$GITHUB_TOKEN`), or the output
of a token printer (`gh auth token`). It travels through pipes, command and
process substitutions, here-strings and heredocs, variables, files written
earlier in the same command string, and every filter that keeps what it reads
(`base64`, `gzip`, `tr`... but not `wc` or `sha256sum`).

Only network senders ask (`SecretFlows.sender`, for the commands
`programs/sending.py` reads, and bash's `/dev/tcp` redirects), so commands
that send nothing pay nothing. Answers for variables are remembered per scope
for one audit, like the taint answers. Where a secret travels (pipes, words,
variables, files) is `SecretSearch` in `_secret_search.py`.
"""

from __future__ import annotations

from collections.abc import Iterable

from .._budget import Budget
from .._model import Span
from .._syntax import ast
from .._tables import Tables
from ..programs import Arg
from ..programs._transfer_senders import batch_uploads
from ..programs.destinations import Destination, Form, destination_hosts, url_credential_parts, url_hosts
from ..programs.sending import Sending, Slot, sent_data
from ._normalize import basename, normalize_word
from ._paths import literal_prefix
from ._resolve import known_input
from ._secret_search import NO_TRAILS, SecretSearch, Trails, WalkView, bounded
from ._subjects import Location, SecretFlowSubject, SentSecret, Stdin, Trail
from ._variables import Env
from ._wrappers import XargsInput


class SecretFlows:
    """The secrets that reach network senders in one audit (answers for variables remembered per scope)."""

    __slots__ = ("_in_progress", "_variables", "budget", "tables")

    def __init__(self, tables: Tables, budget: Budget) -> None:
        self.tables = tables
        self.budget = budget
        self._variables: dict[Env, dict[str, Trails]] = {}
        self._in_progress: set[tuple[Env, str]] = set()

    def sender(
        self,
        name: str,
        args: tuple[Arg, ...],
        span: Span,
        location: Location,
        env: Env,
        stdin: Stdin | None,
        state: WalkView,
        xargs_input: XargsInput | None = None,
    ) -> SecretFlowSubject | None:
        """The secrets the network sender `name ARGS` sends (`name` is one of `SENDERS`), if any reach it.
        `xargs_input`: xargs starts the sender, adding the items it reads as arguments."""
        sending = sent_data(name, args)
        if sending is None:
            return None
        search = SecretSearch(self, env, state)
        flows: list[SentSecret] = []
        if xargs_input is not None:
            # `cat .env | xargs curl -d`, `xargs -a .env curl -d`: what xargs reads becomes arguments
            # (a value to send, a file to upload); either way it leaves the machine.
            source = xargs_input.file
            trails = search.file(source, "xargs", span, None) if source is not None else search.stdin(stdin)
            flows.extend(SentSecret(trail, None, "the arguments xargs adds") for trail in trails)
        for word in sending.words:
            syntax = word.arg.word
            if syntax is None:
                continue
            # `https://me:$TOKEN@host/`, `?access_token=$TOKEN`: the request's credential, as a header is.
            credential = url_credential_parts(syntax) if word.slot is Slot.URL else frozenset[int]()
            sent = tuple(part for index, part in enumerate(syntax.parts) if index not in credential)
            # `-F f=@<(env)`: a process substitution in a sent word is a file the sender may read.
            trails = search.parts(sent) | search.parts(syntax.parts, as_file=True)
            flows.extend(SentSecret(trail, word.slot, word.label) for trail in trails)
            if credential:
                used = search.parts(tuple(syntax.parts[index] for index in sorted(credential)))
                flows.extend(SentSecret(trail, Slot.CREDENTIAL, word.label) for trail in used)
        for file in sending.files:
            trails = search.file(file.arg, name, span, stdin, recursive=file.recursive)
            flows.extend(SentSecret(trail, None, file.label) for trail in trails)
        if sending.stdin:
            flows.extend(SentSecret(trail, None, sending.stdin[0]) for trail in search.stdin(stdin))
        if sending.batch_uploads:
            flows.extend(_uploads(search, name, span, env, stdin))
        if not flows:
            return None
        return _subject(name, sending, flows, span, location)

    def code_sender(
        self,
        label: str,
        url: str | None,
        data_from: Iterable[tuple[str, str | None]],
        span: Span,
        location: Location,
        env: Env,
        state: WalkView,
    ) -> SecretFlowSubject | None:
        """The secrets a request in another language's code sends (`python3 -c
        'requests.post(URL, data=open(".env").read())'`): `data_from` is where the sent data
        comes from, as the analyser reports it (`("file", ".env")`, `("environment",
        "GITHUB_TOKEN")`, `("environment", None)` for all of it, `("command-output", "gh
        auth token")`), `url` its URL (`$NAME` for a part known only at run time), `label`
        the call (`python3 -c -> requests.post`) and `span` where it stands in the command."""
        search = SecretSearch(self, env, state)
        found: set[Trail] = set()
        for kind, detail in data_from:
            if kind == "file" and detail is not None:
                found |= search.file(Arg((detail,), detail, span), label, span, None)
            elif kind == "environment":
                # The code sees the variables the shell exports to it: judged as the shell's own.
                found |= search.environment(label, span) if detail is None else search.variable(detail, span)
            elif kind == "command-output" and detail:
                name, *words = detail.split()
                args = tuple(Arg((word,), word, span) for word in words)
                found |= search.command(basename(name), args, span, NO_TRAILS)
        if not found:
            return None
        flows = sorted((SentSecret(trail, None, label) for trail in bounded(found)), key=_flow_order)
        return SecretFlowSubject(label, tuple(flows), url_hosts(url), False, span, location)

    def bound(self, scope: Env, name: str, state: WalkView) -> Trails:
        """The secrets the bindings of `name` in `scope` give it (remembered for the audit)."""
        known = self._variables.get(scope, {}).get(name)
        if known is not None:
            return known
        key = (scope, name)
        if key in self._in_progress:
            return NO_TRAILS
        self._in_progress.add(key)
        try:
            answer = SecretSearch(self, scope, state).bindings(name)
        finally:
            self._in_progress.discard(key)
        self._variables.setdefault(scope, {})[name] = answer
        return answer

    def redirect_sender(
        self, node: ast.SimpleCommand, target: Arg, location: Location, env: Env, stdin: Stdin | None, state: WalkView
    ) -> SecretFlowSubject | None:
        """`cat key > /dev/tcp/HOST/PORT`: bash sends the command's output to the socket."""
        trails = SecretSearch(self, env, state).simple(node, stdin, into_file=True)
        if not trails:
            return None
        flows = [SentSecret(trail, None, f"> {target.display()}") for trail in trails]
        sending = Sending(destinations=(Destination(_dev_tcp_host(target), Form.HOST),))
        return _subject("bash", sending, flows, node.span, location)


def socket_targets(redirects: tuple[ast.Redirect, ...], env: Env) -> list[Arg]:
    """The `/dev/tcp/HOST/PORT` and `/dev/udp/...` paths a command's standard output is redirected to."""
    targets: list[Arg] = []
    for redirect in redirects:
        target_word = redirect.target
        if (
            target_word is None
            or redirect.fd not in (None, "1")
            or not redirect.operator.startswith((">", "&>"))
            # The common case, a literal file (`> out.txt`), is ruled out before normalising it.
            or not target_word.parts
            or (type(target_word.parts[0]) is ast.Literal and not target_word.parts[0].text.startswith("/dev/"))
        ):
            continue
        for target in normalize_word(target_word, env):
            known = target.value if target.value is not None else literal_prefix(target)
            if known.startswith(("/dev/tcp/", "/dev/udp/")):
                targets.append(target)
    return targets


def _dev_tcp_host(target: Arg) -> Arg:
    """The HOST of `/dev/tcp/HOST/PORT` (known only at run time when the path is)."""
    segments = (target.value or "").split("/")
    host = segments[3] if target.value is not None and len(segments) > 3 else ""
    return Arg((host,) if host else (), target.source, target.span)


def _subject(name: str, sending: Sending, flows: list[SentSecret], span: Span, location: Location) -> SecretFlowSubject:
    hosts = tuple(
        dict.fromkeys(host for destination in sending.destinations for host in destination_hosts(destination))
    )
    # In source order, shortest path first: the same command always gets the same finding.
    ordered = sorted(set(flows), key=_flow_order)
    return SecretFlowSubject(name, tuple(ordered), hosts, sending.anyone, span, location)


def _flow_order(flow: SentSecret) -> tuple[Span, int, tuple[str, ...], str, str, str]:
    trail = flow.trail
    return trail.secret.span, len(trail.steps), trail.steps, trail.secret.name, flow.label, flow.slot or ""


def _uploads(search: SecretSearch, name: str, span: Span, env: Env, stdin: Stdin | None) -> list[SentSecret]:
    """`sftp host <<< 'put FILE'`, `ftp host <<< 'put FILE'`: the files a batch on standard input uploads."""
    batch = known_input(stdin, env)
    if batch is None or stdin is None:
        return []
    flows: list[SentSecret] = []
    for path in batch_uploads(batch):
        upload = Arg((path,), path, stdin.span)
        # `put -r DIR` uploads a directory; a file is judged the same either way.
        trails = search.file(upload, name, span, None, recursive=True)
        flows.extend(SentSecret(trail, None, f"{name} put {path}") for trail in trails)
    return flows
