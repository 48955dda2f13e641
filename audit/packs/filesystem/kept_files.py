"""Files of a project that exist nowhere else and that nothing makes again (HM008, pack filesystem.home).

They sit in the project, not in the home directory's credential stores, so HM001
does not see them, and by name, not by place: `terraform.tfstate` is Terraform's
only record of the real resources it manages (with the local backend), and a
release keystore (`release.jks`) signs the only builds an app store accepts as
updates. Deleting a Terraform cache (`.terraform`) or an Android debug keystore,
which the tools make afresh, is not reported.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..._analysis import Arg, CommandSubject
from ..._model import Severity
from ..._tables import Tables
from ...programs import deletes_what_it_finds, find_scope
from ...rules._paths import kept_file_name
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
