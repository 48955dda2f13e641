"""Secrets shown in clear (SE006): a command that prints a stored password, token or private key
to the terminal, where it lands in the agent's transcript and logs (`security
find-generic-password -w`, `gpg --export-secret-keys`, `kubectl config view --raw`, `gcloud auth
print-access-token`, `op read`). Piped into the tool that needs it (`aws ecr get-login-password |
docker login --password-stdin`) or captured by a substitution (`-H "Authorization: Bearer $(gh
auth token)"`), the secret is used and not shown. Sending what they print is SE005's."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from .._analysis import CommandSubject
from .._model import Position, Severity
from .._named_tuple import NamedTuple
from .._tables import Tables
from ..programs import read_command
from ._rule import Hit, Inspects, rule


class _Shown(NamedTuple):
    """Subcommand words (or an option anywhere, `--export-secret-keys`) that print a secret, the
    options of which one must be given for it to be printed in clear (none: always), and those
    that put it elsewhere (`pass show -c` copies it to the clipboard)."""

    words: tuple[str, ...]
    clear: tuple[str, ...] = ()
    elsewhere: tuple[str, ...] = ()


def _each(*paths: str) -> tuple[_Shown, ...]:
    return tuple(_Shown(tuple(path.split())) for path in paths)


_CLIPBOARD = ("-c", "--clip")


# Narrower than the policy's `secret_printers` (what a sender must not receive): only what prints a
# secret itself, not `aws configure get region`, `kubectl get secrets` (names) or `terraform output`.
_SHOWN: Mapping[str, tuple[_Shown, ...]] = {
    "security": (
        _Shown(("find-generic-password",), ("-w", "-g")),
        _Shown(("find-internet-password",), ("-w", "-g")),
        _Shown(("dump-keychain",), ("-d",)),
        _Shown(("export",)),
    ),
    "gpg": _each("--export-secret-keys", "--export-secret-subkeys"),
    "gpg2": _each("--export-secret-keys", "--export-secret-subkeys"),
    "kubectl": (_Shown(("config", "view"), ("--raw",)),),
    "gcloud": _each(
        "auth print-access-token", "auth print-identity-token", "auth application-default print-access-token"
    ),
    "az": _each("account get-access-token"),
    "aws": _each(
        "sts get-session-token", "sts assume-role", "ecr get-login-password", "ecr-public get-login-password",
        "configure export-credentials", "codeartifact get-authorization-token", "secretsmanager get-secret-value",
        "rds generate-db-auth-token", "eks get-token",
    ),
    "gh": (_Shown(("auth", "token")), _Shown(("auth", "status"), ("--show-token", "-t"))),
    "git": _each("credential fill"),
    "op": _each("read"),
    "pass": (_Shown(("show",), (), _CLIPBOARD),),
    "gopass": (_Shown(("show",), (), _CLIPBOARD),),
    "lpass": _each("show"),
    "bw": _each("get"),
    "rbw": _each("get"),
    "keepassxc-cli": _each("show"),
    "secret-tool": _each("lookup"),
    "heroku": _each("auth:token"),
    "fly": _each("auth token"),
    "flyctl": _each("auth token"),
    "vault": _each("print token"),
}  # fmt: skip


def _shown_printers(tables: Tables) -> frozenset[str]:
    return frozenset(_SHOWN)


@rule(
    id="SE006",
    name="show-stored-secret",
    severity=Severity.MEDIUM,
    summary="Prints a stored password, token or private key to the terminal (`security find-generic-password -w`, `gpg --export-secret-keys`, `kubectl config view --raw`, `op read`, `gcloud auth print-access-token`).",
    rationale="What a command prints lands in the agent's transcript, its logs and the model provider's records; a secret shown there has left the keychain.",
    safer_alternative="Pipe the secret into the tool that needs it (`| docker login --password-stdin`) or pass it in a substitution; never print it.",
    inspects=Inspects.COMMAND,
    commands=_shown_printers,
    must_match=(
        "security find-generic-password -w -s github.com",
        "gpg --armor --export-secret-keys me@example.com",
        "kubectl config view --raw --minify",
        "op read op://Dev/db/password",
        "sudo security dump-keychain -d /Library/Keychains/System.keychain",
    ),
    must_not_match=(
        "security find-generic-password -s github.com",
        "kubectl config view",
        "gpg --export --armor me@example.com",
        "aws ecr get-login-password | docker login --username AWS --password-stdin 1.dkr.ecr.us-east-1.amazonaws.com",
        'GH_TOKEN="$(gh auth token)" ./release.sh',
    ),
)
def show_stored_secret(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    # Piped on or captured by a substitution, the secret goes to a command, not to the screen.
    if subject.in_pipeline or subject.location.position is Position.VALUE:
        return
    name = subject.name or ""
    reading = read_command(name, subject.args)
    for shown in _SHOWN.get(name, ()):
        if not reading.selects(shown.words) or (shown.elsewhere and reading.has(*shown.elsewhere)):
            continue
        if not shown.clear or reading.has(*shown.clear):
            printed = " ".join((name, *shown.words))
            yield Hit(subject.span, f"`{printed}` prints a secret where the transcript keeps it")
            return


SECRET_PRINTING_RULES = (show_stored_secret,)
