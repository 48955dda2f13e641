"""A redirect that empties a private key, a credential file or a file that exists nowhere else (FS007).

`: > ~/.ssh/id_rsa` destroys the key as surely as `rm` does (HM001, which
judges programs), and `> terraform.tfstate` Terraform's only record of what it
manages (HM008 for programs); a redirect names no program, and the packs load by program
name, so this rule is core. Writing content into the file (`echo "$KEY" >
~/.ssh/id_rsa`, a CI job installing a deploy key) is a different act and
passes: only a redirect whose command prints nothing (`:`, `true`, an `echo` or
`printf` with nothing to print, `cat /dev/null`) empties it.
"""

from __future__ import annotations

from collections.abc import Iterator

from .._analysis import RedirectSubject
from .._model import Severity
from .._tables import Tables
from ._paths import kept_file_name, path_is, redirect_writes_file
from ._rule import Hit, Inspects, rule

# Commands that print nothing: with `>`, the file is left empty.
_PRINT_NOTHING = frozenset({":", "true", "false"})
# Printers that print nothing, or a bare line break, when given no words to print (`echo > F`, `printf ''`).
_PRINT_THEIR_WORDS = frozenset({"echo", "printf"})
# Programs that print the files they are given: given only the empty device, they print nothing.
_PRINT_THEIR_FILES = frozenset({"cat", "tac"})


def _prints_nothing(subject: RedirectSubject) -> bool:
    name = subject.command_name
    if name is None or name in _PRINT_NOTHING:
        return True
    words = subject.command_words
    if not words:
        return False
    if name in _PRINT_THEIR_FILES:
        files = [word.value for word in words[1:]]
        return bool(files) and all(file == "/dev/null" for file in files)  # `cat /dev/null > F`
    if name not in _PRINT_THEIR_WORDS:
        return False
    printed = [word.value for word in words[1:] if word.value not in ("-n", "-e", "-E")]
    return printed in ([], [""])


def _empties_a_file(subject: RedirectSubject) -> bool:
    truncates = subject.operator in (">", ">|") and subject.fd in (None, "1")
    return truncates and _prints_nothing(subject)


@rule(
    id="FS007",
    name="empty-credential-file",
    severity=Severity.HIGH,
    summary=(
        "A redirect empties a private key, a credential file, or a file that exists nowhere else (Terraform state, "
        "a release keystore): `: > ~/.ssh/id_rsa`, `> ~/.aws/credentials`, `> terraform.tfstate`."
    ),
    rationale=(
        "An emptied key is as lost as a deleted one: it often exists nowhere else, and the servers and "
        "accounts it opens are locked until someone restores access. Emptied Terraform state forgets every "
        "resource it manages (HM008)."
    ),
    safer_alternative="Leave the key alone; to replace it, write the new one to another name and move it into place.",
    inspects=Inspects.REDIRECT,
    applies=_empties_a_file,
    must_match=(
        ": > ~/.ssh/id_rsa",
        "> ~/.aws/credentials",
        "true > ~/.kube/config",
        ">| ~/.ssh/id_ed25519",
        "echo > ~/.kube/config",
        "printf '' > ~/.ssh/id_rsa",
        "cat /dev/null > ~/.ssh/id_rsa",
        "> terraform.tfstate",
        ": > android/app/release.jks",
    ),
    must_not_match=(
        'echo "$DEPLOY_KEY" > ~/.ssh/id_rsa',
        'printf "%s\\n" "$KEY" > ~/.ssh/id_ed25519',
        "kind get kubeconfig > ~/.kube/config",
        ": > ./notes.txt",
        ": >> ~/.ssh/id_rsa",
        "cat ~/keys/deploy_key > ~/.ssh/id_rsa",
        "terraform show -json > plan.tfstate.json",
        ": > debug.keystore",
    ),
)
def empty_credential_file(subject: RedirectSubject, tables: Tables) -> Iterator[Hit]:
    target = redirect_writes_file(subject)
    if target is None:
        return
    matched = path_is(target, tables.credential_files, subject.cwd) or kept_file_name(target)
    if matched is not None:
        yield Hit(subject.span, f"redirect empties `{target.display()}` ({matched})")


EMPTIED_FILE_RULES = (empty_credential_file,)
