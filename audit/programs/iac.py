"""Infrastructure as code: terraform and OpenTofu, terragrunt, pulumi, the AWS
CDK and cdktf, the Serverless Framework."""

from __future__ import annotations

from ._grammar import GO_FLAGS, Syntax, attached, flag, valued
from ._program import HelpForms, Program
from ._tree import leaf, tree

# terraform's own flags are Go flags (`-auto-approve`, `-chdir=dir`), also written with two dashes.
_AUTO_APPROVE = flag("-auto-approve", "--auto-approve")
_DESTROY = flag("-destroy", "--destroy")
_FORCE = flag("-force", "--force")
_RUN_OPTIONS = (
    _AUTO_APPROVE, _DESTROY, valued("-var", "--var"), valued("-var-file", "--var-file"), valued("-target", "--target"),
    valued("-replace", "--replace"), valued("-parallelism", "--parallelism"), valued("-state", "--state"),
    valued("-lock-timeout", "--lock-timeout"), attached("-lock", "--lock"), attached("-refresh", "--refresh"),
    attached("-input", "--input"), flag("-refresh-only", "--refresh-only"), flag("-no-color", "--no-color"),
    flag("-json", "--json"), flag("-compact-warnings", "--compact-warnings"),
)  # fmt: skip
_PLAN_OPTIONS = (*_RUN_OPTIONS, valued("-out", "--out"), flag("-detailed-exitcode", "--detailed-exitcode"))

_TERRAFORM_COMMANDS = (
    leaf("apply", *_RUN_OPTIONS, operands=("PLAN",)),
    leaf("destroy", *_RUN_OPTIONS),
    leaf("plan", *_PLAN_OPTIONS),
    leaf("state rm", flag("-dry-run", "--dry-run"), valued("-state", "--state"), valued("-backup", "--backup"), operands=("ADDRESS...",)),
    leaf("state push", _FORCE, operands=("PATH",)),
    leaf("state list", operands=("ADDRESS...",)),
    leaf("workspace delete", _FORCE, operands=("NAME",)),
    leaf("force-unlock", _FORCE, operands=("LOCK_ID",)),
)  # fmt: skip

TERRAFORM = Program(
    ("terraform", "tofu"),
    syntax=GO_FLAGS,
    options=(valued("-chdir", "--chdir"), flag("-help", "--help"), flag("-version", "--version")),
    # mitchellh/cli: any of these before `--` prints the command's help instead of running it.
    help_forms=HelpForms(("-h", "-help", "--help")),
    subcommands=tree(*_TERRAFORM_COMMANDS),
)

# terragrunt runs terraform's commands, once or over every module (`run-all`).
TERRAGRUNT = Program(
    ("terragrunt",),
    syntax=GO_FLAGS,
    options=(
        valued("--terragrunt-working-dir", "--working-dir"),
        flag("--terragrunt-non-interactive", "--non-interactive"),
        flag("--all"),
    ),
    global_options_anywhere=True,
    subcommands=tree(
        *(leaf(f"{group}{item.path}", *item.options, operands=item.operands) for group in ("", "run-all ") for item in _TERRAFORM_COMMANDS[:3]),
        leaf("run", *_RUN_OPTIONS),
        leaf("run destroy", *_RUN_OPTIONS),
        leaf("run apply", *_RUN_OPTIONS),
    ),
)  # fmt: skip

# cobra: clusters, `--flag=value`, flags anywhere.
_COBRA = Syntax()
_YES = flag("-y", "--yes")
_STACK = valued("-s", "--stack")

PULUMI = Program(
    ("pulumi",),
    help_forms=HelpForms(("-h", "--help")),
    syntax=_COBRA,
    options=(valued("-C", "--cwd"), flag("--non-interactive"), flag("--color")),
    global_options_anywhere=True,
    subcommands=tree(
        leaf("destroy|down", _YES, _STACK, flag("--preview-only"), flag("-f", "--skip-preview"), valued("-t", "--target"), flag("--remove")),
        leaf("up|update", _YES, _STACK, flag("-f", "--skip-preview"), valued("-t", "--target")),
        leaf("preview|pre", _STACK),
        leaf("stack rm", _YES, _STACK, flag("-f", "--force"), flag("--preserve-config"), operands=("STACK",)),
        leaf("state delete", _YES, _STACK, flag("--force"), flag("--target-dependents"), operands=("URN",)),
    ),
)  # fmt: skip

# yargs: `--flag value`, `--flag=value`, `-f`, flags anywhere.
CDK = Program(
    ("cdk", "cdktf"),
    help_forms=HelpForms(("--help",)),
    syntax=Syntax(),
    options=(valued("--profile"), valued("-a", "--app"), valued("-c", "--context"), flag("-v", "--verbose")),
    global_options_anywhere=True,
    subcommands=tree(
        leaf("destroy", flag("-f", "--force"), flag("--all"), flag("--auto-approve"), operands=("STACK...",)),
        leaf("deploy", valued("--require-approval"), flag("--all"), flag("--auto-approve"), operands=("STACK...",)),
        leaf("diff|synth", operands=("STACK...",)),
    ),
)  # fmt: skip

SERVERLESS = Program(
    ("serverless", "sls"),
    syntax=Syntax(),
    options=(valued("-s", "--stage"), valued("-r", "--region"), valued("-c", "--config"), valued("--aws-profile")),
    global_options_anywhere=True,
    subcommands=tree(leaf("remove"), leaf("deploy"), leaf("info")),
)

IAC_PROGRAMS: tuple[Program, ...] = (TERRAFORM, TERRAGRUNT, PULUMI, CDK, SERVERLESS)
