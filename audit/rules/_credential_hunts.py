"""Credentials hunted down (SE009, SE010): the cloud instance's own role credentials fetched from the
metadata service, and private keys searched for across the whole machine or home directory.

Reading one credential file the user names warns (SE004); these take credentials that are not the
task's to take: the machine's identity, or every key wherever it is."""

from __future__ import annotations

from collections.abc import Iterator
from fnmatch import fnmatchcase

from .._analysis import Arg, CommandSubject
from .._model import Severity, Span
from .._tables import Tables
from ..programs import EXEC_ACTIONS, find_scope
from ..programs.readers import reads_directories
from ._paths import path_is, reading
from ._rule import Hit, Inspects, rule
from ._secret_printing import literal_words

_HTTP_CLIENTS = ("curl", "wget", "http", "https", "xh", "xhs")
# The link-local metadata services of the clouds (EC2, ECS tasks, GCE, Azure, Alibaba, OpenStack).
_METADATA_HOSTS = ("169.254.169.254", "metadata.google.internal", "169.254.170.2", "[fd00:ec2::254]", "100.100.100.200")
# Their paths that hand out credentials: a role's keys, a service account's tokens, a managed identity's.
_CREDENTIAL_PATHS = (
    "security-credentials", "identity-credentials", "/service-accounts/", "/identity/oauth2/token", "/v2/credentials",
)  # fmt: skip


def _metadata_credentials(arg: Arg) -> bool:
    """A URL (or the text of one built at run time) of a metadata service's credentials."""
    texts = arg.values or (arg.source,)
    for text in texts:
        if any(host in text for host in _METADATA_HOSTS) and any(path in text for path in _CREDENTIAL_PATHS):
            return "/service-accounts/" not in text or text.rstrip("/").endswith(("/token", "/identity"))
    return False


@rule(
    id="SE009",
    name="instance-credentials-fetched",
    severity=Severity.HIGH,
    summary=(
        "Fetches the cloud instance's own credentials from the metadata service: an IAM role's keys "
        "(`169.254.169.254/latest/meta-data/iam/security-credentials/`), a GCE service account's token "
        "(`metadata.google.internal/.../token`), an Azure managed identity's token, an ECS task's keys."
    ),
    rationale=(
        "These are the machine's identity, not the user's: whoever holds them acts as the instance's role "
        "from anywhere until they expire. The SDKs fetch them themselves; printing them into the transcript "
        "is the first step of taking over a cloud account from a compromised host."
    ),
    safer_alternative="Let the SDK or CLI use the role (`aws sts get-caller-identity` shows which one it is).",
    inspects=Inspects.COMMAND,
    commands=_HTTP_CLIENTS,
    must_match=(
        "curl http://169.254.169.254/latest/meta-data/iam/security-credentials/app-role",
        "curl -H 'Metadata-Flavor: Google' http://metadata.google.internal/computeMetadata/v1/instance/service-accounts/default/token",
        "curl -H Metadata:true 'http://169.254.169.254/metadata/identity/oauth2/token?resource=https://management.azure.com/'",
        "wget -qO- http://169.254.170.2/v2/credentials/abc",
    ),
    must_not_match=(
        "curl http://169.254.169.254/latest/meta-data/instance-id",
        "curl -H 'Metadata-Flavor: Google' http://metadata.google.internal/computeMetadata/v1/instance/service-accounts/default/email",
        "curl https://example.com/docs/security-credentials",
    ),
)
def instance_credentials_fetched(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    for arg in subject.args:
        if _metadata_credentials(arg):
            yield Hit(arg.span, f"`{subject.name}` fetches the instance's credentials from the metadata service")
            return


# What marks a private key's text, and the names key files go by.
_KEY_MARKERS = ("PRIVATE KEY", "aws_secret_access_key")
_KEY_FILE_NAMES = (
    "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", "server.pem", "server.key", "cert.pfx", "cert.p12", "key.ppk",
    "app.jks", "app.keystore",
)  # fmt: skip
_SEARCHERS = ("grep", "egrep", "fgrep", "rg", "ag", "ack", "ugrep")
# What prints a file it is given: a key file handed to one is shown.
_PRINTERS = frozenset({"cat", "head", "tail", "less", "more", "base64", "xxd", "strings", "od", "tac", "nl"})


def _searched_whole(args: tuple[Arg, ...], tables: Tables, cwd: str | None) -> Arg | None:
    """The argument naming /, the home directory or another protected directory whole."""
    return next((arg for arg in args if path_is(arg, tables.protected_directories, cwd) is not None), None)


def _names_key_files(patterns: tuple[str, ...]) -> bool:
    return any(fnmatchcase(name, pattern) for pattern in patterns for name in _KEY_FILE_NAMES)


def _key_hunt(words: tuple[str, ...], tables: Tables, cwd: str | None) -> bool:
    """The words of a `find` (after its name) over a protected directory whose name tests
    (`-name '*.pem' -o -name id_rsa`) pick key files."""
    names = tuple(words[index + 1] for index in range(len(words) - 1) if words[index] in ("-name", "-iname"))
    if not _names_key_files(names):
        return False
    starts = find_scope(tuple(Arg((word,), word, _NOWHERE) for word in words)).starting_points
    return _searched_whole(starts, tables, cwd) is not None


_NOWHERE = Span(0, 0)


def _piped_key_hunt(subject: CommandSubject, tables: Tables) -> bool:
    """`find / -name '*.pem' | xargs cat`: a printer xargs hands every key file a find over a
    protected directory lists."""
    stdin = subject.stdin
    if "xargs" not in subject.wrappers or stdin is None:
        return False
    words = tuple(literal_words(stdin.writer))
    return bool(words) and words[0].rpartition("/")[2] == "find" and _key_hunt(words[1:], tables, None)


def _printed_by_find(subject: CommandSubject, tables: Tables) -> bool:
    """`find / -name id_rsa -exec cat {} +`: find itself hands each key file to a printer."""
    words = tuple(arg.value or "" for arg in subject.args)
    execs = any(
        word in EXEC_ACTIONS and index + 1 < len(words) and words[index + 1] in _PRINTERS
        for index, word in enumerate(words)
    )
    return execs and _key_hunt(words, tables, subject.cwd)


@rule(
    id="SE010",
    name="private-keys-hunted",
    severity=Severity.HIGH,
    summary=(
        "Searches the whole machine or home directory for private keys: a recursive grep for `PRIVATE KEY` "
        "over `/`, `~` or `/home`, or the key files a `find` over one lists handed to a printer "
        "(`find / -name '*.pem' | xargs cat`)."
    ),
    rationale=(
        "No task needs every key on the machine: collecting them is how an intruder turns one shell into "
        "every server, repository and cloud account those keys open. Searching the project for a committed "
        "key (`grep -rl 'PRIVATE KEY' .`) passes."
    ),
    safer_alternative="Use the one key the task needs by its path, through ssh-agent or the tool's own configuration.",
    inspects=Inspects.COMMAND,
    commands=(*_SEARCHERS, *_PRINTERS, "find"),
    must_match=(
        "grep -rl 'BEGIN OPENSSH PRIVATE KEY' / 2>/dev/null",
        "rg -l 'PRIVATE KEY' ~",
        "find / -name '*.pem' | xargs cat",
        "find ~ -name 'id_*' -exec cat {} +",
    ),
    must_not_match=(
        "grep -rl 'PRIVATE KEY' .",
        "grep -rn 'PRIVATE KEY' src/",
        "find . -name '*.pem' | xargs cat",
        "grep -r TODO /",
    ),
)
def private_keys_hunted(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    name = subject.name or ""
    if name in _PRINTERS or name == "find":
        if _piped_key_hunt(subject, tables) if name != "find" else _printed_by_find(subject, tables):
            yield Hit(subject.span, f"`{name}` prints every key file a search of the whole machine or home finds")
        return
    args = subject.args
    if not any(marker in (arg.value or arg.source) for arg in args for marker in _KEY_MARKERS):
        return
    if not reads_directories(name, reading(subject)):
        return
    searched = _searched_whole(args, tables, subject.cwd)
    if searched is not None:
        yield Hit(searched.span, f"`{name}` searches all of `{searched.display()}` for private keys")


CREDENTIAL_HUNT_RULES = (instance_credentials_fetched, private_keys_hunted)
