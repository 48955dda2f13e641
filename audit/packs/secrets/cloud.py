"""secrets.cloud: secrets and encryption keys in the clouds' managers (AWS
Secrets Manager and KMS, Google Secret Manager and Cloud KMS, Azure Key Vault)."""

from __future__ import annotations

from ..._model import Severity
from ...rules._pack import Pack
from .._invocation import command, pack_rule

_TRACKS = ("", "alpha ", "beta ")

DESTROY = pack_rule(
    id="SM201",
    name="cloud-secret-destroy",
    severity=Severity.HIGH,
    summary="Deletes a cloud secret with no recovery window, or purges a deleted Key Vault or secret.",
    rationale="`--force-delete-without-recovery`, `gcloud secrets delete` and `az keyvault purge` are immediate and final: services that read the secret break, and the value is gone.",
    safer_alternative="Delete with a recovery window (`--recovery-window-in-days 30`) or disable the secret first.",
    matches=(
        command("aws", "secretsmanager delete-secret", requires=("--force-delete-without-recovery",)),
        *(command("gcloud", f"{track}secrets delete") for track in _TRACKS),
        command("az", "keyvault purge"),
        command("az", "keyvault secret purge"),
    ),
    message="destroys a secret or vault with no way back",
    must_match=(
        "aws secretsmanager delete-secret --secret-id prod/db --force-delete-without-recovery",
        "gcloud secrets delete api-key --quiet",
        "az keyvault purge --name kv-prod",
    ),
    must_not_match=(
        "aws secretsmanager get-secret-value --secret-id prod/db",
        "aws secretsmanager delete-secret --secret-id old --recovery-window-in-days 30",
    ),
)

DELETE = pack_rule(
    id="SM202",
    name="cloud-secret-delete",
    severity=Severity.MEDIUM,
    summary="Schedules a secret or key for deletion, or disables a key (AWS Secrets Manager and KMS, Cloud KMS, Key Vault soft delete).",
    rationale="The recovery window allows an undo, but everything that reads the secret or decrypts with the key fails meanwhile; a destroyed key makes its data unreadable for good.",
    safer_alternative="Disable and watch for failures before deleting; keep the longest recovery window.",
    matches=(
        command("aws", "secretsmanager delete-secret", unless=("--force-delete-without-recovery",)),
        command("aws", "kms schedule-key-deletion"),
        command("aws", "kms disable-key"),
        *(command("gcloud", f"{track}kms keys versions destroy") for track in _TRACKS),
        command("az", "keyvault delete"),
        command("az", "keyvault secret delete"),
    ),
    message="deletes or disables a secret or key (recoverable for a while)",
    must_match=(
        "aws kms schedule-key-deletion --key-id 1234 --pending-window-in-days 7",
        "az keyvault secret delete --vault-name kv --name db-pass",
        "gcloud kms keys versions destroy 3 --key k --keyring r --location global",
    ),
    must_not_match=("aws kms describe-key --key-id 1234", "az keyvault secret show --vault-name kv --name db-pass"),
)

PACK = Pack(
    name="secrets.cloud",
    summary="The clouds' secret managers and key services: destroyed and scheduled deletions, disabled keys.",
    default=True,
    reason="A destroyed secret or key cannot be restored by the agent, and data encrypted with a destroyed key is lost.",
    rules=(DESTROY, DELETE),
)
