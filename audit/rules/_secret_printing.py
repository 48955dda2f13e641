"""Secrets shown in clear (SE006): a command that prints a stored password, token or private key
to the terminal, where it lands in the agent's transcript and logs (`security find-generic-password
-w`, `gpg --export-secret-keys`, `kubectl config view --raw`, `gcloud auth print-access-token`, `op
read`, `vault kv get`), a secret variable (`printenv GITHUB_TOKEN`, `echo "$GITHUB_TOKEN"`), the
environment filtered for secrets (`env | grep -i token`), a Kubernetes secret's data (`kubectl get
secret db -o yaml`, `... | base64 -d`) or a project's dotenv file (`cat .env`).
Piped into the tool that needs it (`aws ecr get-login-password | docker login --password-stdin`)
or captured by a substitution (`-H "Authorization: Bearer $(gh auth token)"`), the secret is used
and not shown, unless `echo` or `printf` prints what the substitution captured (`echo "$(gh auth
token)"`, the analysis marks that location `shown`). Piped into a command that prints what it
reads (`| jq -r .token`, `| head`, `| cut -d: -f2`), it is shown all the same. Sending what they
print is SE005's. `echo "$GITHUB_TOKEN"` is reported when it prints to the screen; redirected into a
file (`>> ~/.npmrc`, how CI sets a token up) or piped into a command, it is not."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from itertools import pairwise

from .._analysis import Arg, CommandSubject, Stdin, StdinKind
from .._model import Position, Severity, Span
from .._named_tuple import NamedTuple
from .._syntax import ast
from .._tables import Tables
from ..programs import read_command
from ..programs.readers import keeps_input, prints_environment
from ._paths import prints_to_screen
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
    "vault": _each("print token", "kv get"),
    "doppler": _each("secrets get"),
}  # fmt: skip


# Where a secret shown by an earlier stage of a pipeline is shown still: a decoder turns
# `kubectl get secret -o jsonpath=...`'s base64 into the password, a filter picks the secret
# variables out of the environment (`env | grep -i token`).
_DECODERS = frozenset({"base64", "openssl"})
_DECODE = frozenset({"-d", "--decode", "-D"})
_FILTERS = frozenset({"grep", "egrep", "fgrep", "rg", "awk", "sed"})
# What prints part or all of what it reads: a stored secret piped in is shown all the same
# (`aws secretsmanager get-secret-value ... | jq -r .SecretString`, `vault kv get ... | grep password`).
# A JSON or YAML query shows the secret when it prints the whole document (`.`) or a field named
# like one; a field like `.data.data.user` is not taken for a secret.
_PASSERS = frozenset({"head", "tail", "cut", "tr", "cat", "column", "fold", "less", "more"})
_QUERIES = frozenset({"jq", "yq", "gojq", "jaq"})
_SECRET_WORDS = re.compile(r"key|token|secret|passw|pwd|credential|auth", re.IGNORECASE)
# kubectl's output formats that print a secret's data (`-o name`, `-o wide` print names).
_DATA_FORMATS = re.compile(r"(json|yaml|jsonpath|go-template|template)\b")
_NOWHERE = Span(0, 0)


# What prints a file it names: a project's dotenv file printed so lands in the transcript.
_FILE_PRINTERS = frozenset({"cat", "head", "tail", "less", "more", "bat", "batcat", "nl"})


def _shown_printers(tables: Tables) -> frozenset[str]:
    return frozenset((*_SHOWN, "printenv", *_ECHOES, *_DECODERS, *_FILTERS, *_PASSERS, *_QUERIES, *_FILE_PRINTERS))


_ECHOES = frozenset({"echo", "printf"})
# Parameter operators that leave the whole value in the word (none, or a default for an empty one).
_WHOLE_VALUE = frozenset({"", ":-", "-"})


def _printed_dotenv(subject: CommandSubject, tables: Tables) -> str | None:
    """`cat .env`, `head config/.env.production`: a project's secrets file printed whole (the policy's
    secret file names decide, so `.env.example` is not one)."""
    if subject.name not in _FILE_PRINTERS or not any(".env" in arg.source for arg in subject.args):
        return None  # most files printed are no dotenv file: the arguments are not read
    for operand in read_command(subject.name, subject.args).operands:
        for value in operand.values:
            name = value.rpartition("/")[2]
            if (name == ".env" or name.startswith(".env.")) and tables.is_secret_file_name(name):
                return value
    return None


def literal_words(command: ast.Command | None) -> list[str]:
    """The literal text of a simple command's words (a stage of a pipeline, as the AST gives it)."""
    if type(command) is not ast.SimpleCommand:
        return []
    return ["".join(part.text for part in word.parts if type(part) is ast.Literal) for word in command.words]


def _secret_data(words: list[str]) -> bool:
    """`kubectl get secret NAME -o jsonpath={.data.password}`, `-o yaml`: a secret's data printed."""
    if len(words) < 3 or words[0].rpartition("/")[2] != "kubectl" or "get" not in words:
        return False
    if not any(word in ("secret", "secrets") or word.startswith(("secret/", "secrets/")) for word in words):
        return False
    formats = [after for before, after in pairwise(words) if before in ("-o", "--output")]
    formats += [
        word.removeprefix("--output=").removeprefix("-o") for word in words if word.startswith(("--output=", "-o"))
    ]
    return any(_DATA_FORMATS.match(text) for text in formats)


def _upstream_words(stdin: Stdin | None) -> Iterator[list[str]]:
    """The literal words of each earlier stage of the pipeline, nearest first; for a stage that is a
    group or subshell, of each command in it (`{ a; b; } | cat`: both print into the pipe)."""
    while stdin is not None and stdin.kind is StdinKind.PIPE:
        writer = stdin.writer
        if isinstance(writer, ast.Group | ast.Subshell):
            for statement in writer.body.statements:
                yield literal_words(statement.command)
        else:
            yield literal_words(writer)
        stdin = stdin.upstream


def _piped_secret(subject: CommandSubject, tables: Tables) -> str | None:
    """What secret an earlier stage prints that this command shows: a stored secret printed on, a
    secret's data decoded, or the environment filtered for secret names (`env | grep -iE 'key|token'`;
    `grep ^PYTHON` is not)."""
    name = subject.name or ""
    filters = name in _FILTERS and keeps_input(name, read_command(name, subject.args))
    passes_on = filters or name in _PASSERS or (name in _QUERIES and _queries_a_secret(subject.args))
    for words in _upstream_words(subject.stdin):
        if not words:
            continue
        stage, stage_args = words[0].rpartition("/")[2], tuple(Arg((word,), word, _NOWHERE) for word in words[1:])
        if passes_on and stage in _SHOWN and (printed := _printed_secret(stage, stage_args)) is not None:
            return f"the secret `{printed}` prints"
        if name in _DECODERS and any(arg.value in _DECODE for arg in subject.args) and _secret_data(words):
            return "a Kubernetes secret's data, decoded,"
        if (
            filters
            and prints_environment(stage, read_command(stage, stage_args))
            and any(_SECRET_WORDS.search(arg.value or arg.source) for arg in subject.args)
        ):
            return "the environment's secret variables"
    return None


def _printed_variable(subject: CommandSubject, tables: Tables) -> str | None:
    """`printenv AWS_SECRET_ACCESS_KEY`, `echo "$GITHUB_TOKEN"`: the secret variable printed whole."""
    if subject.name in _ECHOES:
        return _echoed_variable(subject, tables)
    if subject.name != "printenv":
        return None
    return next((arg.value for arg in subject.args if arg.value and tables.is_secret_variable(arg.value)), None)


def _echoed_variable(subject: CommandSubject, tables: Tables) -> str | None:
    """A secret variable `echo` or `printf` prints whole: `$NAME`, `${NAME}` or with a default
    (`${NAME:-x}`); its length, a slice or a test (`${#NAME}`, `${NAME:0:4}`, `${NAME:+set}`) shows
    no secret. A value the command itself assigns is not the environment's secret."""
    for arg in subject.args:
        if arg.values or arg.word is None:
            continue
        for part in arg.word.parts:
            if (
                type(part) is ast.ParamExpansion
                and part.operator in _WHOLE_VALUE
                and part.subscript is None
                and tables.is_secret_variable(part.name)
            ):
                return part.name
    return None


@rule(
    id="SE006",
    name="show-stored-secret",
    severity=Severity.MEDIUM,
    summary=(
        "Prints a stored password, token or private key (`security find-generic-password -w`, "
        "`gpg --export-secret-keys`, `op read`, `vault kv get`), a secret variable (`printenv GITHUB_TOKEN`, "
        "`echo $GITHUB_TOKEN`), the environment "
        "filtered for secrets (`env | grep -i token`), a Kubernetes secret's data (`... | base64 -d`) or a project's "
        "dotenv file (`cat .env`; not `.env.example`)."
    ),
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
        "env | grep -i token",
        "kubectl get secret db -o jsonpath='{.data.password}' | base64 -d",
        'echo "token: $(gh auth token)"',
        "cat .env",
        'echo "key: $OPENAI_API_KEY"',
    ),
    must_not_match=(
        "security find-generic-password -s github.com",
        "kubectl config view",
        "gpg --export --armor me@example.com",
        "aws ecr get-login-password | docker login --username AWS --password-stdin 1.dkr.ecr.us-east-1.amazonaws.com",
        'GH_TOKEN="$(gh auth token)" ./release.sh',
        "env | grep -i ^PYTHON",
        "env | grep -i token | wc -l",
        "cat .env.example",
        "cat .env | wc -l",
        'echo "//registry.npmjs.org/:_authToken=${NPM_TOKEN}" >> ~/.npmrc',
        'echo "token is ${#GITHUB_TOKEN} characters"',
        'echo "$GITHUB_TOKEN" | docker login ghcr.io -u me --password-stdin',
    ),
)
def show_stored_secret(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    if subject.location.position is Position.VALUE and not subject.location.shown:
        return  # captured by a substitution: the secret goes to a command, not to the screen
    name = subject.name or ""
    # Piped on or redirected to a file, the secret goes to a command or the file, not to the screen.
    if not prints_to_screen(subject):
        return
    shown = _piped_secret(subject, tables) if subject.stdin is not None else None
    if shown is not None:
        yield Hit(subject.span, f"`{name}` shows {shown} where the transcript keeps it")
        return
    variable = _printed_variable(subject, tables)
    if variable is not None or (name == "kubectl" and _secret_data([name, *(a.value or "" for a in subject.args)])):
        printed = f"${variable}" if variable is not None else "a Kubernetes secret's data"
        yield Hit(subject.span, f"`{name}` prints {printed} where the transcript keeps it")
        return
    dotenv = _printed_dotenv(subject, tables)
    if dotenv is not None:
        yield Hit(subject.span, f"`{name}` prints the secrets of `{dotenv}` where the transcript keeps it")
        return
    printed = _printed_secret(name, subject.args)
    if printed is not None:
        yield Hit(subject.span, f"`{printed}` prints a secret where the transcript keeps it")


def _printed_secret(name: str, args: tuple[Arg, ...]) -> str | None:
    """The subcommand (`aws secretsmanager get-secret-value`) by which `name ARGS` prints a stored
    secret in clear; None when it prints none."""
    printers = _SHOWN.get(name)
    if printers is None:
        return None  # `echo`, `cat`: the rule's other printers, whose reading is not needed here
    reading = read_command(name, args)
    for shown in printers:
        if not reading.selects(shown.words) or (shown.elsewhere and reading.has(*shown.elsewhere)):
            continue
        if not shown.clear or reading.has(*shown.clear):
            return " ".join((name, *shown.words))
    return None


def _queries_a_secret(args: tuple[Arg, ...]) -> bool:
    """Whether a jq-style query prints the whole document or a field named like a secret."""
    query = next((arg.value for arg in args if not (arg.value or "-").startswith("-")), ".")
    return query is not None and (query.strip() == "." or bool(_SECRET_WORDS.search(query)))


SECRET_PRINTING_RULES = (show_stored_secret,)
