"""secrets.vault: HashiCorp Vault (and OpenBao): destroyed secret versions,
disabled secrets engines, soft deletes and revocations."""

from __future__ import annotations

from ..._model import Severity
from ...rules._pack import Pack
from .._invocation import command, pack_rule

_VAULT = ("vault", "bao")

DESTROY = pack_rule(
    id="SM101",
    name="vault-destroy-secrets",
    severity=Severity.HIGH,
    summary="Destroys secrets for good: `vault kv destroy`, `vault kv metadata delete`, `vault secrets disable`.",
    rationale="Destroyed versions and deleted metadata cannot be undeleted; disabling a secrets engine deletes every secret stored under its mount.",
    safer_alternative="`vault kv delete` (a soft delete that `vault kv undelete` reverts), and take a snapshot before removing engines.",
    matches=(
        command(_VAULT, "kv destroy"),
        command(_VAULT, "kv metadata delete"),
        command(_VAULT, "secrets disable"),
    ),
    message="destroys Vault secrets with no undelete",
    must_match=(
        "vault kv destroy -versions=1,2 secret/app",
        "vault kv metadata delete -mount=secret app/db",
        "vault secrets disable kv-v1/",
    ),
    must_not_match=("vault kv get secret/app", "vault secrets list -detailed", "vault kv list secret/"),
)

DELETE = pack_rule(
    id="SM102",
    name="vault-delete-secret",
    severity=Severity.MEDIUM,
    summary="Deletes Vault data or access: `vault kv delete`, `vault delete`, disabling an auth method, deleting a policy, revoking leases by prefix, sealing.",
    rationale="A kv v2 delete can be undone, but on a kv v1 mount `vault delete` is final; revoked leases and a sealed Vault break every client at once.",
    safer_alternative="Check the mount's version (`vault secrets list -detailed`) and the path before deleting; revoke single leases.",
    matches=(
        command(_VAULT, "kv delete"),
        command(_VAULT, "delete"),
        command(_VAULT, "auth disable"),
        command(_VAULT, "policy delete"),
        command(_VAULT, "lease revoke", requires=("-prefix",)),
        command(_VAULT, "operator seal"),
    ),
    message="deletes or revokes Vault data or access",
    must_match=(
        "vault kv delete secret/app",
        "vault delete database/roles/readonly",
        "vault lease revoke -prefix aws/creds/",
    ),
    must_not_match=("vault kv get -field=password secret/db", "vault lease revoke aws/creds/dev/abc123"),
)

PACK = Pack(
    name="secrets.vault",
    summary="HashiCorp Vault and OpenBao: destroyed and deleted secrets, disabled engines and auth methods, revocations.",
    default=True,
    reason="Destroyed secrets cannot be restored by the agent, and the services that depend on them stop.",
    rules=(DESTROY, DELETE),
)
