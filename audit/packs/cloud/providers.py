"""The other public clouds, one pack each, on by default as Hetzner's and OpenStack's are
(cloud/infrastructure.py): Linode (Akamai), Oracle Cloud, IBM Cloud, Vultr and Scaleway. A
command names one of them only where the team runs servers there, and what these delete
(servers, volumes, managed databases, clusters, buckets) has no undo."""

from __future__ import annotations

from .._invocation import command
from .._vendor import vendor_pack

_CLOUD_REASON = "A cloud account holds servers and volumes whose data the agent cannot restore."

LINODE = vendor_pack(
    name="cloud.linode",
    id="CL122",
    vendor="Linode",
    what="instances, volumes, Kubernetes clusters, managed databases, buckets, domains and load balancers",
    commands=tuple(
        command(("linode-cli", "linode"), path)
        for path in (
            "linodes delete",
            "volumes delete",
            "lke cluster-delete",
            "databases mysql-delete",
            "databases postgresql-delete",
            "obj rb",
            "domains delete",
            "nodebalancers delete",
        )
    ),
    api=("api.linode.com/v4/**",),
    must_match=("linode-cli linodes delete 123", "linode-cli lke cluster-delete 4567", "linode-cli obj rb prod-assets"),
    must_not_match=("linode-cli linodes list", "linode-cli linodes delete --help"),
    default=True,
    reason=_CLOUD_REASON,
)
ORACLE = vendor_pack(
    name="cloud.oci",
    id="CL123",
    vendor="Oracle Cloud",
    what="buckets and their objects, compute instances, block volumes, databases, Kubernetes clusters and compartments",
    commands=tuple(
        command("oci", path)
        for path in (
            "os bucket delete",
            "os object bulk-delete",
            "compute instance terminate",
            "bv volume delete",
            "db autonomous-database delete",
            "db system terminate",
            "ce cluster delete",
            "iam compartment delete",
        )
    ),
    must_match=(
        "oci os bucket delete --bucket-name b --force --empty",
        "oci compute instance terminate --instance-id ocid1.instance.oc1..aaa --force",
        "oci --profile prod db autonomous-database delete --autonomous-database-id ocid1.x",
    ),
    must_not_match=("oci os bucket list --compartment-id ocid1.c", "oci iam region list"),
    default=True,
    reason=_CLOUD_REASON,
)
IBM = vendor_pack(
    name="cloud.ibm",
    id="CL124",
    vendor="IBM Cloud",
    what="service instances (databases among them), virtual servers, volumes, Kubernetes clusters and buckets",
    commands=tuple(
        command("ibmcloud", path)
        for path in (
            "resource service-instance-delete",
            "is instance-delete",
            "is volume-delete",
            "ks cluster rm",
            "cos bucket-delete",
        )
    ),
    must_match=(
        "ibmcloud resource service-instance-delete db -f",
        "ibmcloud is instance-delete web-1 --force",
        "ibmcloud ks cluster rm --cluster prod -f",
    ),
    must_not_match=("ibmcloud resource service-instances", "ibmcloud login --sso"),
    default=True,
    reason=_CLOUD_REASON,
)
VULTR = vendor_pack(
    name="cloud.vultr",
    id="CL125",
    vendor="Vultr",
    what="instances, bare-metal servers, managed databases, Kubernetes clusters, block and object storage",
    commands=tuple(
        command("vultr-cli", path)
        for path in (
            "instance delete",
            "bare-metal delete",
            "database delete",
            "kubernetes delete",
            "block-storage delete",
            "object-storage delete",
        )
    ),
    api=("api.vultr.com/v2/**",),
    must_match=("vultr-cli instance delete cb676a46-66fd-4dfb", "vultr-cli database delete 5a2c"),
    must_not_match=("vultr-cli instance list", "vultr-cli database list"),
    default=True,
    reason=_CLOUD_REASON,
)
SCALEWAY = vendor_pack(
    name="cloud.scaleway",
    id="CL126",
    vendor="Scaleway",
    what="instances, volumes, managed databases, Kubernetes clusters and buckets",
    commands=tuple(
        command("scw", path)
        for path in (
            "instance server delete",
            "instance server terminate",
            "instance volume delete",
            "rdb instance delete",
            "k8s cluster delete",
            "object bucket delete",
        )
    ),
    must_match=(
        "scw instance server terminate 11111111-1111 with-ip=true",
        "scw rdb instance delete 22222222-2222 region=fr-par",
    ),
    must_not_match=("scw instance server list", "scw rdb instance list"),
    default=True,
    reason=_CLOUD_REASON,
)

VENDOR_PACKS = (LINODE, ORACLE, IBM, VULTR, SCALEWAY)
