"""kubernetes: deleting namespaces, storage and everything of a kind with kubectl
(and oc), uninstalling helm releases, draining nodes, deleting local clusters."""

from __future__ import annotations

from .._model import Severity
from ..programs import Arg, resource_kind
from ..rules._pack import Pack
from ._invocation import Found, Predicate, command, option_value, option_values, pack_rule, xargs_input_commands
from .kubernetes_production import PRODUCTION_RULES
from .kubernetes_workloads import WORKLOAD_RULES

_KUBECTL = ("kubectl", "oc")
_DRY_RUN = ("--dry-run",)
_STORAGE = frozenset({"persistentvolumes", "persistentvolumeclaims", "customresourcedefinitions", "storageclasses"})
# Deleted pods come back when a controller owns them; one named pod is routine.
_RECREATED = frozenset({"pods", "events"})
# A Job is the record of one run: deleting it by name is how it is run again (its spec cannot be
# changed), and what it did stays done.
_RUN_RECORDS = frozenset({"jobs"})
# Kinds whose deletion by name another rule judges (KU001, KU003), that come back by themselves, or
# that are routine to delete by name.
_NOT_MERELY_NAMED = _RECREATED | _RUN_RECORDS | _STORAGE | {"namespaces"}


def _kinds(found: Found) -> list[tuple[str, Arg]]:
    """The resource types a `kubectl delete` names: `TYPE[,TYPE] NAME...` or `TYPE/NAME...`, or, with
    no operand of its own, those of the `kubectl get TYPE -o name` whose lines xargs passes it."""
    operands = found.reading.operands
    if not operands:
        return _listed_kinds(found)
    if operands[0].value is None:
        return []
    if "/" in operands[0].value:
        return [
            (resource_kind(word.value.split("/", 1)[0]), word) for word in operands if word.value and "/" in word.value
        ]
    return [(resource_kind(kind), operands[0]) for kind in operands[0].value.split(",") if kind]


def _listed_kinds(found: Found) -> list[tuple[str, Arg]]:
    """`kubectl get ns -o name | xargs kubectl delete`: the types the listing xargs reads names (its
    lines are `TYPE/NAME`), pointed at the command's last word."""
    stages = xargs_input_commands(found.subject) or []
    where = found.reading.args[-1] if found.reading.args else Arg((), "", found.subject.span)
    return [
        (resource_kind(kind), where)
        for words in stages
        if len(words) > 2 and words[0].rsplit("/", 1)[-1] in _KUBECTL and words[1] == "get"
        for kind in words[2].split(",")
        if kind and not kind.startswith("-")
    ]


def _kind_in(kinds: frozenset[str]) -> Predicate:
    def named(found: Found) -> Arg | None:
        return next((word for kind, word in _kinds(found) if kind in kinds), None)

    return named


def _kind_not_in(kinds: frozenset[str]) -> Predicate:
    def other(found: Found) -> Arg | None:
        return next((word for kind, word in _kinds(found) if kind not in kinds), None)

    return other


def _named_resource(found: Found) -> Arg | None:
    """A resource deleted by name (`deploy api`, `svc/web`), of a kind that is not recreated or storage."""
    operands = found.reading.operands
    kinds = _kinds(found)
    named = len(operands) > 1 or any("/" in (word.value or "") for word in operands)
    if not named:
        return None
    return next((word for kind, word in kinds if kind not in _NOT_MERELY_NAMED), None)


DELETE_NAMESPACE = pack_rule(
    id="KU001",
    name="kubectl-delete-namespace",
    severity=Severity.HIGH,
    summary="`kubectl delete namespace` deletes the namespace and every resource in it.",
    rationale="Deployments, services, secrets and persistent volume claims of the namespace go with it; the namespace's data is lost.",
    safer_alternative="Delete the resources you mean by name or manifest, after `kubectl delete --dry-run=server`.",
    matches=(command(_KUBECTL, "delete", unless=_DRY_RUN, where=_kind_in(frozenset({"namespaces"}))),),
    message="deletes a namespace and everything in it",
    must_match=(
        "kubectl delete namespace staging",
        "kubectl delete ns/dev --context prod",
        "oc delete namespace feature-42",
    ),
    must_not_match=(
        "kubectl get namespaces",
        "kubectl delete ns staging --dry-run=server",
        "kubectl create namespace ci",
    ),
)

DELETE_ALL = pack_rule(
    id="KU002",
    name="kubectl-delete-all",
    severity=Severity.HIGH,
    summary="`kubectl delete` with `--all` or `--all-namespaces`: every resource of a kind (pods excepted: medium).",
    rationale="`kubectl delete deployments --all` or `delete pvc --all -A` removes a whole environment's workloads or data in one command.",
    safer_alternative="Select what you mean with a label (`-l app=api`) or a manifest, and check it with `--dry-run=server` first.",
    matches=(
        command(
            _KUBECTL, "delete", any_of=("--all", "--all-namespaces"), unless=_DRY_RUN, where=_kind_not_in(_RECREATED)
        ),
    ),
    message="deletes every resource of the kind",
    must_match=("kubectl delete deployments --all -n dev", "kubectl delete pvc --all -A", "kubectl delete all --all"),
    must_not_match=(
        "kubectl delete pods --all -n dev",
        "kubectl get pods -A",
        "kubectl delete deploy --all --dry-run=client",
    ),
)

DELETE_STORAGE = pack_rule(
    id="KU003",
    name="kubectl-delete-storage",
    severity=Severity.HIGH,
    summary="Deletes persistent volumes, volume claims, storage classes or custom resource definitions.",
    rationale="With the usual `Delete` reclaim policy a deleted claim deletes its disk; a deleted CRD deletes every custom resource of that kind in the cluster.",
    safer_alternative="Back the data up and set the volume's reclaim policy to `Retain` before deleting the claim.",
    matches=(command(_KUBECTL, "delete", unless=_DRY_RUN, where=_kind_in(_STORAGE)),),
    message="deletes storage or a resource definition, and the data behind it",
    must_match=(
        "kubectl delete pvc data-postgres-0 -n db",
        "kubectl delete crd certificates.cert-manager.io",
        "kubectl delete pv/pv-0001",
    ),
    must_not_match=(
        "kubectl get pvc -n db",
        "kubectl describe pv pv-0001",
        "kubectl delete pvc data-0 --dry-run=server",
    ),
)

DELETE_RESOURCES = pack_rule(
    id="KU004",
    name="kubectl-delete-resources",
    severity=Severity.MEDIUM,
    summary="Deletes named resources, those of a manifest or a label selector, every pod (`--all`), or prunes with `kubectl apply --prune`.",
    rationale="Deleted deployments, services and secrets take traffic and configuration with them; the scope is what the command names.",
    safer_alternative="Preview with `--dry-run=server` and make sure the context and namespace are the ones you mean.",
    matches=(
        command(_KUBECTL, "delete", unless=_DRY_RUN, where=_named_resource),
        command(
            _KUBECTL,
            "delete",
            any_of=("--filename", "--kustomize", "--selector"),
            unless=(*_DRY_RUN, "--all", "--all-namespaces"),
        ),
        command(_KUBECTL, "apply", requires=("--prune",), unless=_DRY_RUN),
        command(_KUBECTL, "delete", any_of=("--all", "--all-namespaces"), unless=_DRY_RUN, where=_kind_in(_RECREATED)),
    ),
    message="deletes cluster resources",
    must_match=(
        "kubectl delete deployment api -n prod",
        "kubectl delete -f k8s/",
        "kubectl delete pods -l app=worker",
        "kubectl apply --prune -l app=web -f k8s/",
    ),
    must_not_match=(
        "kubectl delete pod api-7f9c",
        "kubectl delete job db-migrate",
        "kubectl apply -f k8s/",
        "kubectl delete -f k8s/ --dry-run=server",
        "kubectl get deploy api",
    ),
)

HELM_UNINSTALL = pack_rule(
    id="KU005",
    name="helm-uninstall",
    severity=Severity.MEDIUM,
    summary="`helm uninstall` removes a release and the resources it installed.",
    rationale="The release's workloads, services and often its volume claims are deleted; reinstalling restores the chart, not the data.",
    safer_alternative="`helm uninstall --dry-run` to see what goes, or `helm rollback` to undo a bad upgrade.",
    matches=(command("helm", "uninstall", unless=_DRY_RUN),),
    message="uninstalls a helm release and its resources",
    must_match=("helm uninstall api -n prod", "helm delete my-release", "helm --kube-context prod un api"),
    must_not_match=("helm list -A", "helm uninstall api --dry-run", "helm status api"),
)

DRAIN_NODE = pack_rule(
    id="KU006",
    name="kubectl-drain-node",
    severity=Severity.MEDIUM,
    summary="`kubectl drain` evicts every pod from a node (with `--delete-emptydir-data` their scratch data too).",
    rationale="Draining moves the node's workload elsewhere at once; on a small cluster that is an outage, and emptyDir data is deleted.",
    safer_alternative="`kubectl cordon` stops new pods first; drain during a maintenance window.",
    matches=(command(_KUBECTL, "drain", unless=_DRY_RUN),),
    message="evicts every pod from the node",
    must_match=("kubectl drain node-1 --ignore-daemonsets", "kubectl drain ip-10-0-1-5 --delete-emptydir-data --force"),
    must_not_match=("kubectl cordon node-1", "kubectl drain node-1 --dry-run=client"),
)

DELETE_LOCAL_CLUSTER = pack_rule(
    id="KU007",
    name="delete-local-cluster",
    severity=Severity.MEDIUM,
    summary="Deletes a local cluster (`kind delete cluster`, `minikube delete`, `k3d cluster delete`).",
    rationale="Everything deployed to the local cluster, its volumes included, is deleted with it; it is rebuilt only from manifests.",
    safer_alternative="Stop the cluster (`minikube stop`) if you only need the resources back.",
    matches=(
        command("kind", "delete cluster"),
        command("kind", "delete clusters"),
        command("minikube", "delete"),
        command("k3d", "cluster delete"),
    ),
    message="deletes a local Kubernetes cluster and its data",
    must_match=("kind delete cluster --name dev", "minikube delete --all --purge", "k3d cluster delete mycluster"),
    must_not_match=("kind get clusters", "minikube stop", "k3d cluster list"),
)

# The subjects that stand for every caller: any token, no token, every service account.
_EVERYONE = {
    "--group": ("system:authenticated", "system:unauthenticated", "system:serviceaccounts"),
    "--user": ("system:anonymous",),
}
_BINDINGS = ("create clusterrolebinding", "create rolebinding")
_BINDS_EVERYONE = option_values(_EVERYONE)


def _binds_someone_in_particular(found: Found) -> Arg | None:
    """A binding whose subjects are none of everyone's (KU008 judges those): the role's word."""
    if _BINDS_EVERYONE(found) is not None:
        return None
    return next(iter(found.reading.values("--clusterrole")), None)


BIND_EVERYONE = pack_rule(
    id="KU008",
    name="kubectl-bind-role-to-everyone",
    severity=Severity.HIGH,
    summary="Binds a role to every caller of the cluster (`kubectl create clusterrolebinding --group=system:authenticated`, `system:unauthenticated`, `system:serviceaccounts`, `--user=system:anonymous`).",
    rationale="Every token the cluster accepts, or no token at all, gets the role's rights: with `cluster-admin` or even `view` (which reads most objects) the cluster is open to anyone who reaches its API.",
    safer_alternative="Bind the role to the one user, group or service account that needs it, in one namespace (`create rolebinding -n NS`).",
    matches=tuple(command(_KUBECTL, path, where=_BINDS_EVERYONE, unless=_DRY_RUN) for path in _BINDINGS),
    message="grants a role to every caller of the cluster",
    must_match=(
        "kubectl create clusterrolebinding open --clusterrole=cluster-admin --group=system:authenticated",
        "kubectl create clusterrolebinding anon --clusterrole=view --user system:anonymous",
        "kubectl create rolebinding all-sa -n prod --clusterrole=edit --group=system:serviceaccounts",
    ),
    must_not_match=(
        "kubectl create rolebinding dev-view -n dev --clusterrole=view --group=developers",
        "kubectl create clusterrolebinding open --clusterrole=cluster-admin --group=system:authenticated --dry-run=client -o yaml",
        "kubectl get clusterrolebindings",
    ),
)

GRANT_CLUSTER_ADMIN = pack_rule(
    id="KU009",
    name="kubectl-grant-cluster-admin",
    severity=Severity.MEDIUM,
    summary="Binds `cluster-admin` to a user, group or service account (`kubectl create clusterrolebinding NAME --clusterrole=cluster-admin --serviceaccount=NS:SA`).",
    rationale="`cluster-admin` can read every secret and change everything in every namespace; a service account holding it gives that to every pod that runs as it. Some installs ask for it once, so the command runs and the warning names the grant.",
    safer_alternative="Bind a narrower role (`edit`, `admin` in one namespace) or the role the tool's documentation lists.",
    matches=tuple(
        command(
            _KUBECTL,
            path,
            where=(option_value("--clusterrole", "cluster-admin"), _binds_someone_in_particular),
            unless=_DRY_RUN,
        )
        for path in _BINDINGS
    ),
    message="grants cluster-admin",
    must_match=(
        "kubectl create clusterrolebinding ci-admin --clusterrole=cluster-admin --serviceaccount=ci:deployer",
        "kubectl create clusterrolebinding me --clusterrole cluster-admin --user alice@example.com",
    ),
    must_not_match=(
        "kubectl create rolebinding dev-view -n dev --clusterrole=view --serviceaccount=dev:app",
        "kubectl create clusterrolebinding ci-admin --clusterrole=cluster-admin --serviceaccount=ci:deployer --dry-run=client",
    ),
)


ADMIN_TO_DEFAULT_ACCOUNT = pack_rule(
    id="KU017",
    name="kubectl-cluster-admin-to-default-service-account",
    severity=Severity.HIGH,
    summary=(
        "Binds `cluster-admin` to a namespace's `default` service account "
        "(`kubectl create clusterrolebinding x --clusterrole=cluster-admin --serviceaccount=default:default`)."
    ),
    rationale=(
        "Every pod of the namespace that names no service account of its own runs as `default` and holds its "
        "token: any container there, and whoever breaks into one, is then admin of the whole cluster. No install "
        "asks for it; a tool that needs cluster-admin brings its own service account (KU009 warns on that)."
    ),
    safer_alternative="Create a service account for the tool (`kubectl create serviceaccount NAME`) and bind the narrowest role it needs.",
    matches=tuple(
        command(
            _KUBECTL,
            path,
            where=(option_value("--clusterrole", "cluster-admin"), option_value("--serviceaccount", "*:default")),
            unless=_DRY_RUN,
        )
        for path in _BINDINGS
    ),
    message="gives cluster-admin to every pod of the namespace (its default service account)",
    must_match=(
        "kubectl create clusterrolebinding default-admin --clusterrole=cluster-admin --serviceaccount=default:default",
        "kubectl create rolebinding x -n prod --clusterrole cluster-admin --serviceaccount prod:default",
    ),
    must_not_match=(
        "kubectl create clusterrolebinding ci-admin --clusterrole=cluster-admin --serviceaccount=ci:deployer",
        "kubectl create rolebinding app-view -n dev --clusterrole=view --serviceaccount=dev:default",
    ),
)


def _from_the_network(found: Found) -> Arg | None:
    """A manifest file named by an http(s) URL."""
    return next(
        (
            word
            for word in found.reading.values("--filename")
            if (word.value or "").lower().startswith(("http://", "https://"))
        ),
        None,
    )


APPLY_FROM_URL = pack_rule(
    id="KU010",
    name="kubectl-apply-from-url",
    severity=Severity.MEDIUM,
    summary="Applies manifests fetched from a URL (`kubectl apply -f https://...`, `create -f`, `replace -f`).",
    rationale="Whatever the URL serves at that moment is installed with the caller's rights, cluster roles and webhooks included, unread: the cluster's curl | sh. Install guides do it, so the command runs and the warning says where the manifests come from.",
    safer_alternative="Download the manifest, read it, pin it to a release or digest and apply the file (`kubectl apply -f ./vendor/x.yaml`).",
    matches=tuple(command(_KUBECTL, verb, where=_from_the_network, unless=_DRY_RUN) for verb in ("apply", "create", "replace")),
    message="applies manifests fetched from a URL",
    must_match=(
        "kubectl apply -f https://raw.githubusercontent.com/acme/op/main/deploy.yaml",
        "kubectl create -f http://10.0.0.5/manifests/all.yaml",
        "kubectl apply --filename=https://example.com/crds.yaml --server-side",
    ),
    must_not_match=(
        "kubectl apply -f k8s/",
        "kubectl apply -f deploy.yaml -n prod",
        "kubectl apply -f https://example.com/crds.yaml --dry-run=server",
    ),
)  # fmt: skip

PACK = Pack(
    name="kubernetes",
    summary="kubectl (and oc), helm and local cluster tools: namespaces, storage, mass deletion, releases, drains, roles granted widely, manifests from URLs; workloads scaled to zero or evicted, privileged namespaces, long-lived tokens, volumes set to be deleted with their claims; workloads changed in a namespace or context named for production.",
    default=True,
    reason="A deleted namespace, volume claim or release takes the cluster's workloads and data with it.",
    rules=(
        DELETE_NAMESPACE,
        DELETE_ALL,
        DELETE_STORAGE,
        DELETE_RESOURCES,
        HELM_UNINSTALL,
        DRAIN_NODE,
        DELETE_LOCAL_CLUSTER,
        BIND_EVERYONE,
        GRANT_CLUSTER_ADMIN,
        ADMIN_TO_DEFAULT_ACCOUNT,
        APPLY_FROM_URL,
        *WORKLOAD_RULES,
        *PRODUCTION_RULES,
    ),
)
