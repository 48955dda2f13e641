"""cloud.azure: deleting resource groups, data stores and infrastructure with az.
Storage accounts and containers are the storage.s3 pack's, key vaults the
secrets.cloud pack's."""

from __future__ import annotations

from ..._model import Severity
from ...programs import KNOWN, Arg
from ...rules._pack import Pack
from .._invocation import Found, command, option_value, pack_rule
from ._internet import WEB_PORTS
from .production import AZURE_PRODUCTION_DEPLOY

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

STOP_VMS = pack_rule(
    id="CL119",
    name="azure-stop-vms",
    severity=Severity.MEDIUM,
    summary="Stops or deallocates virtual machines or a scale set's instances (`az vm stop`, `az vm deallocate`, `az vmss stop`, `az vmss deallocate`).",
    rationale="What the VMs serve is down until someone starts them again, and a deallocated VM loses its temporary disk and, unless it is static, its public IP address; nothing is deleted, so the command runs and the warning says what stops.",
    safer_alternative="Check the subscription and the target first (`az account show`, `az vm show`); stop through the infrastructure code or a schedule a person set.",
    matches=tuple(command("az", path) for path in ("vm stop", "vm deallocate", "vmss stop", "vmss deallocate")),
    message="stops Azure virtual machines",
    must_match=("az vm stop -g rg -n web-1", "az vm deallocate --ids $(az vm list -g rg --query '[].id' -o tsv)", "az vmss deallocate -g rg -n workers"),
    must_not_match=("az vm list -g rg", "az vm start -g rg -n web-1"),
)  # fmt: skip

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

SIGN_IN_BACKDOOR = pack_rule(
    id="CL304",
    name="azure-vm-sign-in-changed",
    severity=Severity.HIGH,
    summary="Adds or replaces a VM user's SSH key or password (`az vm user update`), or resets the VM's SSH configuration (`az vm user reset-ssh`).",
    rationale="The VM access extension writes the key or password into the machine as root: whoever holds it signs in from then on, and the change outlasts the session.",
    safer_alternative="Sign in through Microsoft Entra ID (`az ssh vm`) or Bastion; let a person change a VM's accounts.",
    matches=(command("az", "vm user update"), command("az", "vm user reset-ssh")),
    message="changes who can sign in to a VM",
    must_match=(
        "az vm user update -n vm1 -g rg --username root --ssh-key-value evil.pub",
        "az vm user reset-ssh -g rg -n vm1",
    ),
    must_not_match=("az vm list -g rg", "az vm delete -g rg -n vm1 --yes"),
)

CREATE_CREDENTIALS = pack_rule(
    id="CL305",
    name="azure-create-credentials",
    severity=Severity.MEDIUM,
    summary="Creates a secret for a service principal or app registration (`az ad sp credential reset`, `az ad app credential reset`, `az ad sp create-for-rbac`).",
    rationale="The secret is printed once, into the agent's output and logs, and signs in as the principal until it expires; `reset` without `--append` also replaces the secrets that running services use. Rotation is routine, so the command runs and the warning says a credential now exists.",
    safer_alternative="Use managed identities or workload identity federation; create secrets where a person stores them in Key Vault.",
    matches=(
        command("az", "ad sp credential reset"),
        command("az", "ad app credential reset"),
        command("az", "ad sp create-for-rbac"),
    ),
    message="creates a service principal secret",
    must_match=("az ad sp credential reset --id 1234", "az ad sp create-for-rbac --name ci --role Reader"),
    must_not_match=("az account show", "az role assignment list --assignee bob@example.com"),
)

DISABLE_AUDIT = pack_rule(
    id="CL306",
    name="azure-delete-diagnostic-settings",
    severity=Severity.HIGH,
    summary="Deletes a resource's or subscription's diagnostic settings (`az monitor diagnostic-settings delete`): the export of its activity and audit logs.",
    rationale="What the setting would have sent to Log Analytics, storage or a SIEM from now on is never recorded there: the audit trail stops, a step attackers take first.",
    safer_alternative="Leave the setting; change its destination or categories through the infrastructure code.",
    matches=(command("az", "monitor diagnostic-settings delete"),),
    message="stops exporting audit logs",
    must_match=(
        "az monitor diagnostic-settings delete --name audit --resource /subscriptions/0/resourceGroups/rg/providers/Microsoft.KeyVault/vaults/kv",
        "az monitor diagnostic-settings delete -n to-siem --resource kv --resource-group rg",
    ),
    must_not_match=("az group list", "az monitor diagnostic-settings list --resource kv -g rg"),
)

# A firewall range from the bottom of the IPv4 space (`0.x`, `1.x`) to its top: every address; 0.0.0.0 to
# 0.0.0.0 is Azure's "allow Azure services" rule.
_EVERY_ADDRESS_END = option_value("--end-ip-address", "255.255.255.255")
_ANY_SOURCE = option_value("--source-address-prefixes", "[*]", "*/0", "internet", "any")


def _beyond_the_web(found: Found) -> Arg | None:
    """An NSG rule that allows a destination port other than 80 and 443 (`22`, `*`, a range); az's
    default, with no port given, is 80, and `--access Deny` opens nothing."""
    read = found.reading
    if any(value.lower() == "deny" for word in read.values("--access") for value in word.values):
        return None
    return next(
        (
            word
            for word in read.values("--destination-port-ranges")
            if any(value not in WEB_PORTS for value in word.values)
        ),
        None,
    )


OPEN_TO_THE_INTERNET = pack_rule(
    id="CL307",
    name="azure-open-to-the-internet",
    severity=Severity.HIGH,
    summary="Opens an Azure SQL, PostgreSQL or MySQL server's firewall to every address (a rule ending at `255.255.255.255`), or adds a network security group rule from any source to a port other than 80 or 443.",
    rationale="Scanners find an open database or SSH port within minutes and try every password and known flaw on it; opening 80 or 443 to everyone is what a public web server needs, so those pass.",
    safer_alternative="Allow your own address or the virtual network, use private endpoints, and reach VMs through Bastion or `az ssh vm`.",
    matches=(
        *(command("az", f"{server} firewall-rule create", where=(option_value("--start-ip-address", "0.*", "1.*"), _EVERY_ADDRESS_END)) for server in ("sql server", "postgres flexible-server", "mysql flexible-server")),
        command("az", "network nsg rule create", where=(_ANY_SOURCE, _beyond_the_web)),
    ),
    message="opens a database or port to the whole internet",
    must_match=(
        "az sql server firewall-rule create -g rg -s srv -n all --start-ip-address 0.0.0.0 --end-ip-address 255.255.255.255",
        "az network nsg rule create -g rg --nsg-name nsg -n ssh --priority 100 --source-address-prefixes '*' --destination-port-ranges 22",
    ),
    must_not_match=(
        "az sql server firewall-rule create -g rg -s srv -n azure --start-ip-address 0.0.0.0 --end-ip-address 0.0.0.0",
        "az network nsg rule create -g rg --nsg-name nsg -n web --priority 100 --source-address-prefixes Internet --destination-port-ranges 443",
    ),
)  # fmt: skip

PACK = Pack(
    name="cloud.azure",
    summary="The az CLI: resource groups, databases, disks and clusters, other infrastructure, VMs stopped, owner rights granted; VM sign-in changed, service principal secrets, diagnostic settings deleted, databases and ports opened to the internet; deploys and restarts in a production subscription.",
    default=True,
    reason="A deleted resource group or database cannot be restored by the agent, owner rights given away are used before they are taken back, and the subscription may be production.",
    rules=(
        DELETE_DATA,
        DELETE_RESOURCE,
        STOP_VMS,
        GRANT_ADMIN,
        SIGN_IN_BACKDOOR,
        CREATE_CREDENTIALS,
        DISABLE_AUDIT,
        OPEN_TO_THE_INTERNET,
        AZURE_PRODUCTION_DEPLOY,
    ),
)
