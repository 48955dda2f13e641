"""Files that exist nowhere else and that nothing makes again (HM008), and private keys destroyed by
their own tools (HM009); pack filesystem.home.

They sit in the project, not in the home directory's credential stores, so HM001
does not see them, and by name, not by place: `terraform.tfstate` is Terraform's
only record of the real resources it manages (with the local backend), and a
release keystore (`release.jks`) signs the only builds an app store accepts as
updates. Deleting a Terraform cache (`.terraform`) or an Android debug keystore,
which the tools make afresh, is not reported.

A private key goes by its own tool too: `gpg --delete-secret-keys` takes it out of
the keyring, and `ssh-keygen -f ~/.ssh/id_rsa` with its overwrite question answered
(`<<< y`, `yes |`) writes a new key over the old one.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise

from ..._analysis import Arg, CommandSubject, StdinKind
from ..._model import Severity
from ..._tables import Tables
from ...programs import deletes_what_it_finds, find_scope
from ...rules._paths import kept_file_name, path_is, reading
from ...rules._rule import Hit, Inspects, rule
from ._deleted import DELETERS, deleted_targets


def _deleted_words(subject: CommandSubject) -> Iterator[Arg]:
    """What the command deletes or empties, and for `find` the name patterns it deletes (`-name '*.jks'`)."""
    yield from (target.arg for target in deleted_targets(subject))
    if subject.name == "find" and deletes_what_it_finds(subject.args):
        scope = find_scope(subject.args)
        yield from (arg for arg in subject.args if arg.value in scope.only_names)


@rule(
    id="HM008",
    name="delete-unrecoverable-project-file",
    severity=Severity.HIGH,
    summary=(
        "Deletes, shreds or empties a file that exists nowhere else: Terraform state (`terraform.tfstate`), "
        "a release signing keystore (`*.jks`, `*.keystore`), a password database (`*.kdbx`)."
    ),
    rationale=(
        "Terraform state is the only record of which real resources a configuration manages: without it "
        "`terraform` forgets them, and they run on, billed, until found by hand. An app store accepts updates "
        "only signed with the same key, and a password database holds secrets kept nowhere else. "
        "A debug keystore (`debug.keystore`) is made afresh by the build and is not reported."
    ),
    safer_alternative=(
        "Run `terraform destroy` or move the state to a remote backend first; move a keystore aside "
        "(`mv release.jks ~/keys/`) rather than deleting it."
    ),
    inspects=Inspects.COMMAND,
    commands=DELETERS,
    must_match=(
        "rm -f terraform.tfstate",
        "rm -f app/upload-keystore.jks",
        "shred -u release.keystore",
        "truncate -s 0 infra/prod.tfstate",
        "cp /dev/null vault.kdbx",
        "rm -rf terraform.tfstate.d",
        "find . -name '*.tfstate' -delete",
    ),
    must_not_match=(
        "rm -rf .terraform",
        "rm -f ~/.android/debug.keystore",
        "rm -f terraform.tfstate.backup",
        "cp terraform.tfstate terraform.tfstate.bak",
        "rm -f *.log",
        "find . -name '*.jks' -print",
    ),
)
def delete_unrecoverable_project_file(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    for arg in _deleted_words(subject):
        kept = kept_file_name(arg)
        if kept is not None:
            yield Hit(arg.span, f"deletes `{arg.display()}`, which exists nowhere else ({kept})")


# gpg options that delete secret keys from the keyring (`--delete-keys` deletes only public ones).
_GPG_SECRET_DELETIONS = (
    "--delete-secret-keys", "--delete-secret-key", "--delete-secret-and-public-keys", "--delete-secret-and-public-key",
)  # fmt: skip
# ssh-keygen options of the modes that read, convert, sign or re-protect a key instead of generating one.
_SSH_KEYGEN_OTHER_MODES = frozenset({
    "-y", "-l", "-p", "-R", "-F", "-H", "-e", "-i", "-c", "-s", "-B", "-D", "-Y", "-Q", "-k", "-r", "-L", "-A", "-K",
})  # fmt: skip
# Programs whose output answers ssh-keygen's "Overwrite (y/n)?" with yes when piped in.
_ANSWER_YES = frozenset({"yes", "echo", "printf"})


def _answered(subject: CommandSubject) -> bool:
    """Whether ssh-keygen's questions get an answer: a here-string or document, or `yes`/`echo y` piped in."""
    stdin = subject.stdin
    if stdin is None:
        return False
    if stdin.kind in (StdinKind.HERESTRING, StdinKind.HEREDOC):
        return True
    return stdin.kind is StdinKind.PIPE and bool(_ANSWER_YES.intersection(stdin.feeders))


def _key_files(args: tuple[Arg, ...]) -> Iterator[Arg]:
    """ssh-keygen's `-f FILE` (no declaration reads its options: this one is all the rule needs)."""
    for flag, value in pairwise(args):
        if flag.value == "-f":
            yield value


def _destroyed_key(subject: CommandSubject, tables: Tables) -> tuple[Arg, str] | None:
    """The word naming the private key the command destroys, and how."""
    if subject.name == "ssh-keygen":
        if any(arg.value in _SSH_KEYGEN_OTHER_MODES for arg in subject.args) or not _answered(subject):
            return None
        for key in _key_files(subject.args):
            if path_is(key, tables.credential_files, subject.cwd) is not None:
                return key, "generates a new key over"
        return None
    if reading(subject).has("--homedir"):
        return None  # a keyring of its own, as a test makes
    deletions = [arg for arg in subject.args if arg.value in _GPG_SECRET_DELETIONS]
    return (deletions[0], "deletes secret keys from the keyring with") if deletions else None


@rule(
    id="HM009",
    name="destroy-private-key-by-tool",
    severity=Severity.HIGH,
    summary=(
        "Destroys a private key with its own tool: `gpg --delete-secret-keys` (or `--delete-secret-and-public-key`) "
        "on the user's keyring, `ssh-keygen -f ~/.ssh/id_rsa` with the overwrite question answered (`<<< y`, `yes |`)."
    ),
    rationale=(
        "A private key exists nowhere else: what it decrypts stays encrypted, what it signs in can no longer be "
        "reached, and a new key is a different key. ssh-keygen asks before overwriting a key; answering for it "
        "removes the only guard."
    ),
    safer_alternative=(
        "Generate the new key under another name (`ssh-keygen -f ~/.ssh/id_ed25519_new`); export a secret key "
        "to a backup before deleting it, or use a keyring of its own (`gpg --homedir DIR`)."
    ),
    inspects=Inspects.COMMAND,
    commands=("gpg", "gpg2", "ssh-keygen"),
    must_match=(
        "gpg --batch --yes --delete-secret-keys ABCDEF0123456789",
        "ssh-keygen -t rsa -f ~/.ssh/id_rsa -N '' <<< y",
        "yes | ssh-keygen -q -t ed25519 -N '' -f ~/.ssh/id_ed25519",
    ),
    must_not_match=(
        "gpg --delete-keys ABCDEF0123456789",
        "gpg --homedir /tmp/gnupg-test --batch --yes --delete-secret-keys ABCD",
        "ssh-keygen -t ed25519 -f ~/.ssh/id_ed25519 -N ''",
        "ssh-keygen -t ed25519 -f ./deploy_key -N '' <<< y",
        "ssh-keygen -y -f ~/.ssh/id_rsa <<< ''",
    ),
)
def destroy_private_key_by_tool(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    destroyed = _destroyed_key(subject, tables)
    if destroyed is not None:
        word, how = destroyed
        yield Hit(word.span, f"`{subject.name}` {how} `{word.display()}`")
