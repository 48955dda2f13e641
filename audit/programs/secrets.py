"""Secrets managers with a CLI of their own: HashiCorp Vault (and OpenBao)."""

from __future__ import annotations

from ._grammar import Syntax, flag, valued
from ._program import HelpForms, Program
from ._tree import leaf, tree

# Go's flag package: one option per word, one or two dashes, and the first
# operand ends the options (`vault kv destroy -versions=1 secret/app`).
_GO_STOPS_AT_OPERAND = Syntax(clusters=False, permute=False)

_MOUNT = valued("-mount", "--mount")

VAULT = Program(
    ("vault", "bao"),
    syntax=_GO_STOPS_AT_OPERAND,
    # mitchellh/cli, as terraform: any of these among the options prints the command's help.
    help_forms=HelpForms(("-h", "-help", "--help")),
    options=(valued("-address", "--address"), valued("-namespace", "-ns", "--namespace"), flag("-tls-skip-verify")),
    subcommands=tree(
        leaf("kv destroy", _MOUNT, valued("-versions", "--versions"), operands=("PATH",)),
        leaf("kv delete", _MOUNT, valued("-versions", "--versions"), operands=("PATH",)),
        leaf("kv metadata delete", _MOUNT, operands=("PATH",)),
        leaf("kv get", _MOUNT, valued("-field", "--field"), valued("-format", "--format"), operands=("PATH",)),
        leaf("kv list", _MOUNT, operands=("PATH",)),
        leaf("delete", operands=("PATH",)),
        leaf("secrets disable", operands=("PATH",)),
        leaf("secrets list", valued("-format", "--format"), flag("-detailed")),
        leaf("auth disable", operands=("PATH",)),
        leaf("policy delete", operands=("NAME",)),
        leaf("lease revoke", flag("-prefix", "--prefix"), flag("-force", "--force"), operands=("ID",)),
        leaf("operator seal"),
    ),
)

SECRETS_PROGRAMS: tuple[Program, ...] = (VAULT,)
