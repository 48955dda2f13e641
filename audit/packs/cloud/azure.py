"""cloud.azure: deleting resource groups, data stores and infrastructure with az.
Storage accounts and containers are the storage.s3 pack's, key vaults the
secrets.cloud pack's."""

from __future__ import annotations

from ..._model import Severity
from ...programs import KNOWN, Arg
from ...rules._pack import Pack
from .._invocation import Found, command, option_value, pack_rule

_DATA = (
    "group delete", "disk delete", "snapshot delete", "sql db delete", "sql server delete", "cosmosdb delete",
    "cosmosdb sql database delete", "aks delete", "postgres flexible-server delete", "mysql flexible-server delete",
    "redis delete", "acr delete",
)  # fmt: skip
_RESOURCES = (
    "vm delete", "vmss delete", "webapp delete", "functionapp delete", "network vnet delete", "acr repository delete",
)  # fmt: skip

# az names every deletion with the verb `delete` (or `purge`) after the resource's words: a
# command no rule declares (`az storage fs delete`) is still one.
_DELETING_VERBS = frozenset({"delete", "purge"})


# Every path a command can read as but those that end in the verb: a declared deletion is its
# own rule's (here, or another pack's: `keyvault purge` is secrets.cloud's).
_UNLISTED_PATHS = tuple(path for path in KNOWN["az"].subcommand_paths() if path[-1:] not in (("delete",), ("purge",)))


def _unlisted_deletion(found: Found) -> Arg | None:
    """`az RESOURCE... delete` for a command the lists above do not name (not a help request):
    the verb's word, among the words before the first option."""
    if any(arg.value in ("--help", "-h") for arg in found.reading.args):
        return None
    for arg in found.reading.args:
        value = arg.value or ""
        if value.startswith("-"):
            return None
        if value in _DELETING_VERBS:
            return arg
    return None


DELETE_DATA = pack_rule(
    id="CL301",
    name="azure-delete-data",
    severity=Severity.HIGH,
    summary="Deletes an Azure resource group, disk, snapshot, database, cluster, cache or registry.",
    rationale="`az group delete` removes every resource in the group; deleted databases, disks and registries take their data with them.",
    safer_alternative="Put a delete lock on production resource groups, export data first, and delete through the infrastructure code.",
    matches=tuple(command("az", path) for path in _DATA),
    message="deletes Azure resources and their data",
    must_match=(
        "az group delete --name prod-rg --yes",
        "az sql db delete -g rg -s srv -n orders -y",
        "az aks delete -g rg -n dev --no-wait",
    ),
    must_not_match=("az group list -o table", "az account show", "az vm list -g rg"),
)

DELETE_RESOURCE = pack_rule(
    id="CL302",
    name="azure-delete-resource",
    severity=Severity.MEDIUM,
    summary="Deletes Azure compute and network resources (virtual machines and scale sets, apps, virtual networks, images), or anything else by a `delete` or `purge` command the data rule does not list.",
    rationale="A deleted VM keeps its disks by default and apps can be redeployed, but the service is down until then.",
    safer_alternative="Stop or deallocate a VM instead (`az vm deallocate`); delete through the infrastructure code.",
    matches=(
        *(command("az", path) for path in _RESOURCES),
        *(command("az", " ".join(path), where=_unlisted_deletion) for path in _UNLISTED_PATHS),
    ),
    message="deletes Azure infrastructure",
    must_match=(
        "az vm delete -g rg -n web-1 --yes",
        "az webapp delete -g rg -n api",
        "az storage fs delete -n fs --account-name acct --yes",
        "az monitor log-analytics workspace delete -g rg -n ws --force",
    ),
    must_not_match=(
        "az vm list -g rg",
        "az group list",
        "az storage fs list --account-name acct",
        "az storage fs delete --help",
    ),
)

# The roles that can do everything or grant anything, by name and by their built-in ids.
_ADMIN_ROLES = (
    "owner", "user access administrator", "role based access control administrator",
    "8e3af657-a8ff-443c-a75c-2fe8c4bcb635", "18d7d88d-d35e-4fb5-a5c3-7773c20a72d9",
)  # fmt: skip

GRANT_ADMIN = pack_rule(
    id="CL303",
    name="azure-grant-owner",
    severity=Severity.HIGH,
    summary="Assigns Owner, User Access Administrator or Role Based Access Control Administrator (`az role assignment create --role Owner`).",
    rationale="The assignee can then do anything in the scope, or grant itself anything; on a subscription that is the whole estate, and an assignment to a service principal passes it to whatever holds its secret.",
    safer_alternative="Assign a narrower built-in role (Contributor on one resource group, a data-plane role) and let a person grant ownership.",
    matches=(command("az", "role assignment create", where=option_value("--role", *_ADMIN_ROLES)),),
    message="grants owner rights in Azure",
    must_match=(
        "az role assignment create --assignee bob@example.com --role Owner --scope /subscriptions/0000",
        "az role assignment create --assignee-object-id 1111 --role 'User Access Administrator' -g rg",
    ),
    must_not_match=(
        "az role assignment create --assignee bob@example.com --role Reader -g rg",
        "az role assignment list --assignee bob@example.com",
    ),
)

PACK = Pack(
    name="cloud.azure",
    summary="The az CLI: resource groups, databases, disks and clusters, other infrastructure, owner rights granted.",
    default=True,
    reason="A deleted resource group or database cannot be restored by the agent, owner rights given away are used before they are taken back, and the subscription may be production.",
    rules=(DELETE_DATA, DELETE_RESOURCE, GRANT_ADMIN),
)
