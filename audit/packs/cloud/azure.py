"""cloud.azure: deleting resource groups, data stores and infrastructure with az.
Storage accounts and containers are the storage.s3 pack's, key vaults the
secrets.cloud pack's."""

from __future__ import annotations

from ..._model import Severity
from ...rules._pack import Pack
from .._invocation import command, pack_rule

_DATA = (
    "group delete", "disk delete", "snapshot delete", "sql db delete", "sql server delete", "cosmosdb delete",
    "cosmosdb sql database delete", "aks delete", "postgres flexible-server delete", "mysql flexible-server delete",
    "redis delete", "acr delete",
)  # fmt: skip
_RESOURCES = (
    "vm delete", "vmss delete", "webapp delete", "functionapp delete", "network vnet delete", "acr repository delete",
)  # fmt: skip

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
    summary="Deletes Azure compute and network resources (virtual machines and scale sets, apps, virtual networks, images).",
    rationale="A deleted VM keeps its disks by default and apps can be redeployed, but the service is down until then.",
    safer_alternative="Stop or deallocate a VM instead (`az vm deallocate`); delete through the infrastructure code.",
    matches=tuple(command("az", path) for path in _RESOURCES),
    message="deletes Azure infrastructure",
    must_match=("az vm delete -g rg -n web-1 --yes", "az webapp delete -g rg -n api"),
    must_not_match=("az vm list -g rg", "az group list"),
)

PACK = Pack(
    name="cloud.azure",
    summary="The az CLI: resource groups, databases, disks and clusters, other infrastructure.",
    default=True,
    reason="A deleted resource group or database cannot be restored by the agent, and the subscription may be production.",
    rules=(DELETE_DATA, DELETE_RESOURCE),
)
