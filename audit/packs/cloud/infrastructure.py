"""Other clouds and the stores and schedulers teams run their own infrastructure on, one pack each:
Hetzner Cloud and OpenStack (servers, volumes, images, projects), etcd and Consul (the key-value
stores under Kubernetes and service discovery), Nomad (jobs). On by default: a command names one
of them only where the team runs it, and what they delete has no undo."""

from __future__ import annotations

from ..._model import Severity
from ...rules._pack import Pack
from .._invocation import command, pack_rule
from .._vendor import vendor_pack

_CLOUD_REASON = "A cloud account holds servers and volumes whose data the agent cannot restore."
_STORE_REASON = "The store holds the configuration a cluster or its services run on; a deleted range takes them down."

HETZNER = vendor_pack(
    name="cloud.hetzner",
    id="CL114",
    vendor="Hetzner Cloud",
    what="servers, volumes and IP addresses",
    commands=tuple(
        command("hcloud", path)
        for path in ("server delete", "volume delete", "primary-ip delete", "floating-ip delete")
    ),
    must_match=("hcloud server delete prod", "hcloud --context prod volume delete db-data"),
    must_not_match=("hcloud server list", "hcloud server delete --help"),
    default=True,
    reason=_CLOUD_REASON,
)
OPENSTACK = vendor_pack(
    name="cloud.openstack",
    id="CL115",
    vendor="OpenStack",
    what="servers, volumes, their snapshots and backups, images, projects and Heat stacks",
    commands=tuple(
        command("openstack", path)
        for path in (
            "server delete",
            "volume delete",
            "volume snapshot delete",
            "volume backup delete",
            "image delete",
            "project delete",
            "stack delete",
        )
    ),
    must_match=("openstack server delete prod-db", "openstack --os-cloud prod volume delete --purge data-1"),
    must_not_match=("openstack server list", "openstack server show prod-db"),
    default=True,
    reason=_CLOUD_REASON,
)
ETCD = vendor_pack(
    name="kubernetes.etcd",
    id="KU016",
    vendor="etcd",
    what="every key under a prefix or from a key on (`etcdctl del --prefix`, `--from-key`), Kubernetes' whole state when the prefix is empty or `/registry`",
    commands=(command("etcdctl", "del", any_of=("--prefix", "--from-key")),),
    must_match=('etcdctl del "" --prefix', "etcdctl --endpoints=https://10.0.0.5:2379 del /registry --prefix"),
    must_not_match=("etcdctl get / --prefix --keys-only", "etcdctl put /config/x 1"),
    default=True,
    reason=_STORE_REASON,
)
CONSUL = vendor_pack(
    name="cloud.consul",
    id="CL116",
    vendor="Consul",
    what="key-value trees (`consul kv delete -recurse`) and the whole state a snapshot restore replaces",
    commands=(command("consul", "kv delete", requires=("-recurse",)), command("consul", "snapshot restore")),
    must_match=("consul kv delete -recurse", "consul kv delete -recurse config/", "consul snapshot restore old.snap"),
    must_not_match=("consul kv get -recurse config/", "consul kv delete config/app/flag"),
    default=True,
    reason=_STORE_REASON,
)

_STOP_JOBS = pack_rule(
    id="CL117",
    name="nomad-stop-jobs",
    severity=Severity.MEDIUM,
    summary="Stops a Nomad job (`nomad job stop`, `nomad stop`), with `-purge` also removing it from the cluster's state, or deletes a namespace.",
    rationale="Every allocation of the job stops at once and its service is down until someone runs the job file again; nothing is lost for good when the file exists, so the command runs and the warning says what stops.",
    safer_alternative="Check the address and namespace first (`nomad job status`); scale the task group down, or stop through the pipeline that deploys the job.",
    matches=(command("nomad", "job stop"), command("nomad", "stop"), command("nomad", "namespace delete")),
    message="stops a Nomad job",
    must_match=(
        "nomad job stop -purge api",
        "nomad stop -yes web",
        "nomad -address=https://nomad.prod:4646 job stop api",
    ),
    must_not_match=("nomad job status api", "nomad job run api.nomad.hcl"),
)
NOMAD = Pack(
    name="cloud.nomad",
    summary="Nomad: jobs stopped or purged, namespaces deleted.",
    default=True,
    reason="A stopped job is an outage of everything it runs, on a cluster the agent may not see.",
    rules=(_STOP_JOBS,),
)

VENDOR_PACKS = (HETZNER, OPENSTACK, ETCD, CONSUL, NOMAD)
