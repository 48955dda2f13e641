"""iac.terraform: destroy runs, unreviewed applies and state surgery with
terraform, OpenTofu and terragrunt."""

from __future__ import annotations

from ..._model import Severity
from ...rules._pack import Pack
from .._invocation import command, pack_rule

_TERRAFORM = ("terraform", "tofu")
# terragrunt runs a command once, over every module (`run-all`), or through `run`.
_TERRAGRUNT_GROUPS = ("", "run-all ", "run ")

DESTROY = pack_rule(
    id="IC001",
    name="terraform-destroy",
    severity=Severity.HIGH,
    summary="Destroys managed infrastructure: `terraform destroy`, `terraform apply -destroy`, `terragrunt run-all destroy`.",
    rationale="Every resource in the state (or every module's) is deleted, databases and their data included; the code can rebuild them empty.",
    safer_alternative="`terraform plan -destroy` to see what would go, and destroy only single resources with `-target` after review.",
    matches=(
        command(_TERRAFORM, "destroy"),
        command(_TERRAFORM, "apply", requires=("-destroy",)),
        *(command("terragrunt", f"{group}destroy") for group in _TERRAGRUNT_GROUPS),
        *(command("terragrunt", f"{group}apply", requires=("-destroy",)) for group in ("", "run-all ", "run ")),
    ),
    message="destroys the infrastructure in the state",
    must_match=(
        "terraform apply -destroy -auto-approve",
        "terraform destroy",
        "tofu -chdir=infra destroy -auto-approve",
        "terragrunt run-all destroy --terragrunt-non-interactive",
    ),
    must_not_match=("terraform plan -destroy -out destroy.tfplan", "terraform plan", "terraform state list"),
)

UNREVIEWED_APPLY = pack_rule(
    id="IC002",
    name="terraform-apply-unreviewed",
    severity=Severity.MEDIUM,
    summary="`terraform apply -auto-approve` (or `terragrunt run-all apply`) changes infrastructure without showing the plan to anyone.",
    rationale="An unreviewed apply performs whatever the plan says, replacements and deletions included.",
    safer_alternative="`terraform plan -out tfplan`, review it, then `terraform apply tfplan`.",
    matches=(
        command(_TERRAFORM, "apply", requires=("-auto-approve",), unless=("-destroy",)),
        *(
            command("terragrunt", f"{group}apply", requires=("-auto-approve",), unless=("-destroy",))
            for group in ("", "run ")
        ),
        command("terragrunt", "run-all apply", unless=("-destroy",)),
    ),
    message="applies infrastructure changes nobody reviewed",
    must_match=(
        "terraform apply -auto-approve",
        "terraform -chdir=envs/dev apply -auto-approve -var env=dev",
        "terragrunt run-all apply",
    ),
    must_not_match=("terraform apply tfplan", "terraform apply", "terraform plan -out tfplan"),
)

STATE_SURGERY = pack_rule(
    id="IC003",
    name="terraform-state-surgery",
    severity=Severity.MEDIUM,
    summary="Edits terraform state by hand: `state rm`, `state push`, `workspace delete`, `force-unlock`.",
    rationale="Forgotten resources keep running unmanaged, a pushed state can overwrite a newer one, and a forced unlock can let two runs corrupt the state.",
    safer_alternative="Use `terraform import`, `moved` and `removed` blocks, and back the state up first (`terraform state pull > backup.tfstate`).",
    matches=(
        command(_TERRAFORM, "state rm", unless=("-dry-run",)),
        command(_TERRAFORM, "state push"),
        command(_TERRAFORM, "workspace delete"),
        command(_TERRAFORM, "force-unlock"),
    ),
    message="edits terraform state by hand",
    must_match=(
        "terraform state rm aws_instance.web",
        "terraform state push -force backup.tfstate",
        "terraform workspace delete -force staging",
    ),
    must_not_match=("terraform state list", "terraform state rm -dry-run aws_instance.web"),
)

PACK = Pack(
    name="iac.terraform",
    summary="terraform, OpenTofu and terragrunt: destroy runs, unreviewed applies, state surgery.",
    default=True,
    reason="A destroy deletes cloud infrastructure and its data, which the agent cannot restore.",
    rules=(DESTROY, UNREVIEWED_APPLY, STATE_SURGERY),
)
