"""kubernetes, continued: what stops workloads, weakens a namespace's pod security, hands out
long-lived tokens or lets a volume be deleted, without a `kubectl delete`; and the kubeconfig's
entries deleted. The pack is declared in `kubernetes.py`."""

from __future__ import annotations

import re

from .._model import Severity
from ..programs import Arg
from ._invocation import Found, any_operand, command, option_value, pack_rule

_KUBECTL = ("kubectl", "oc")
_DRY_RUN = ("--dry-run",)

STOP_WORKLOADS = pack_rule(
    id="KU011",
    name="kubectl-stop-workloads",
    severity=Severity.MEDIUM,
    summary="Stops workloads without deleting them: scales to zero (`kubectl scale --replicas=0`), taints nodes `NoExecute` (every pod without a toleration is evicted), or deletes and recreates resources (`kubectl replace --force`).",
    rationale="Every pod of the workload, or of the node, stops at once and the service is down until someone scales back or removes the taint; nothing is deleted for good, so the command runs and the warning says what stops.",
    safer_alternative="Check the context and namespace first (`kubectl config current-context`); scale down in steps, use `NoSchedule` or `kubectl drain` on one node, and `kubectl apply` instead of `replace --force`.",
    matches=(
        command(_KUBECTL, "scale", where=option_value("--replicas", "0"), unless=_DRY_RUN),
        command(_KUBECTL, "taint", where=any_operand("*:NoExecute"), unless=_DRY_RUN),
        command(_KUBECTL, "replace", requires=("--force",), unless=_DRY_RUN),
    ),
    message="stops workloads",
    must_match=(
        "kubectl scale deploy --all --replicas=0 -n prod",
        "kubectl taint nodes --all dedicated=x:NoExecute",
        "kubectl replace --force -f deploy.yaml",
    ),
    must_not_match=(
        "kubectl scale deploy/api --replicas=3",
        "kubectl taint nodes node-1 dedicated=gpu:NoSchedule",
        "kubectl taint nodes node-1 dedicated=x:NoExecute-",
    ),
)  # fmt: skip

# The Pod Security admission label that decides what a namespace may run: `privileged` allows
# host namespaces, host paths and privileged containers; removing the label (`...enforce-`) falls
# back to the cluster default, privileged unless configured.
_PRIVILEGED = ("pod-security.kubernetes.io/enforce=privileged", "pod-security.kubernetes.io/enforce-")

PRIVILEGED_NAMESPACE = pack_rule(
    id="KU012",
    name="kubectl-privileged-namespace",
    severity=Severity.HIGH,
    summary="Sets a namespace's Pod Security enforcement to `privileged`, or removes it (`kubectl label ns NS pod-security.kubernetes.io/enforce=privileged`).",
    rationale="The namespace may then run privileged pods that mount the node's filesystem and join its namespaces: anyone who can create a pod there can take the node, and the cluster from it.",
    safer_alternative="Keep `baseline` or `restricted`; give the one workload that needs more its own namespace, reviewed by a person.",
    matches=(command(_KUBECTL, "label", where=any_operand(*_PRIVILEGED), unless=_DRY_RUN),),
    message="lets a namespace run privileged pods",
    must_match=(
        "kubectl label ns prod pod-security.kubernetes.io/enforce=privileged --overwrite",
        "kubectl label namespace prod pod-security.kubernetes.io/enforce-",
    ),
    must_not_match=(
        "kubectl label ns prod pod-security.kubernetes.io/enforce=restricted --overwrite",
        "kubectl label ns prod team=payments",
    ),
)

# A Go duration (`87600h`, `720h0m0s`, `90m`): its parts, each a number and a unit.
_DURATION_PART = re.compile(r"(\d+(?:\.\d+)?)(h|m|s|ms|us|µs|ns)")
_SECONDS = {"h": 3600.0, "m": 60.0, "s": 1.0, "ms": 1e-3, "us": 1e-6, "µs": 1e-6, "ns": 1e-9}
_A_DAY = 86400.0


def _seconds(duration: str) -> float | None:
    """A Go duration in seconds; None when the text is not one."""
    parts = _DURATION_PART.findall(duration)
    if not parts or "".join(number + unit for number, unit in parts) != duration:
        return None
    return sum(float(number) * _SECONDS[unit] for number, unit in parts)


def _a_day_or_more(found: Found) -> Arg | None:
    """A `--duration` of a day or more."""
    return next(
        (
            word
            for word in found.reading.values("--duration")
            if any((_seconds(value) or 0.0) >= _A_DAY for value in word.values)
        ),
        None,
    )


LONG_LIVED_TOKEN = pack_rule(
    id="KU013",
    name="kubectl-long-lived-token",
    severity=Severity.MEDIUM,
    summary="Creates a service account token that lives a day or more (`kubectl create token SA --duration=8760h`).",
    rationale="The token acts as the service account, with all its roles, from anywhere, until it expires, and it is printed into the agent's output and logs; a short token for a dashboard or a test is routine, a year-long one is a credential to manage.",
    safer_alternative="Create short tokens (the default hour) when needed, or use the workload's projected token; store long-lived credentials in a secret manager, created by a person.",
    matches=(command(_KUBECTL, "create token", where=_a_day_or_more),),
    message="creates a long-lived service account token",
    must_match=(
        "kubectl create token admin --duration=87600h",
        "kubectl -n ci create token deployer --duration 720h0m0s",
    ),
    must_not_match=("kubectl create token dashboard", "kubectl create token ci --duration=10m"),
)

RECLAIM_DELETE = pack_rule(
    id="KU014",
    name="kubectl-volume-reclaim-delete",
    severity=Severity.MEDIUM,
    summary="Sets a persistent volume's reclaim policy to `Delete` (`kubectl patch pv NAME -p '{\"spec\":{\"persistentVolumeReclaimPolicy\":\"Delete\"}}'`).",
    rationale="The disk and its data are then deleted as soon as the claim on it is released, by a `kubectl delete pvc` or a namespace deletion that would otherwise have left the volume to recover.",
    safer_alternative="Keep `Retain` on volumes that hold data; delete a volume deliberately, after a snapshot, when it is no longer needed.",
    matches=(command(_KUBECTL, "patch", where=option_value("--patch", "*persistentvolumereclaimpolicy*delete*"), unless=_DRY_RUN),),
    message="lets a volume's data be deleted with its claim",
    must_match=(
        """kubectl patch pv pv-1 -p '{"spec":{"persistentVolumeReclaimPolicy":"Delete"}}'""",
        """kubectl patch persistentvolume/pv-data --patch '{"spec": {"persistentVolumeReclaimPolicy": "Delete"}}'""",
    ),
    must_not_match=(
        """kubectl patch pv pv-1 -p '{"spec":{"persistentVolumeReclaimPolicy":"Retain"}}'""",
        """kubectl patch deploy api -p '{"spec":{"replicas":2}}'""",
    ),
)  # fmt: skip

KUBECONFIG_ENTRY_DELETED = pack_rule(
    id="KU022",
    name="kubeconfig-entry-deleted",
    severity=Severity.MEDIUM,
    summary="Deletes a context, cluster or user from the kubeconfig (`kubectl config delete-context`, `delete-cluster`, `delete-user`, `unset users.NAME`).",
    rationale="The cluster is untouched, but the way to it is gone: a user entry may hold the only copy of a client certificate or token, and whoever relies on the context meets errors until someone fetches the credentials again. It warns: nothing in the cluster is lost.",
    safer_alternative="Switch contexts instead (`kubectl config use-context dev`), or back the file up first (`cp ~/.kube/config ~/.kube/config.bak`).",
    matches=(
        *(command(_KUBECTL, f"config {action}") for action in ("delete-context", "delete-cluster", "delete-user")),
        command(_KUBECTL, "config unset", where=any_operand("contexts.*", "clusters.*", "users.*")),
    ),
    message="deletes an entry of the kubeconfig",
    must_match=("kubectl config delete-context prod", "kubectl config delete-user admin@prod", "kubectl config unset users.prod-admin"),
    must_not_match=("kubectl config use-context dev", "kubectl config get-contexts", "kubectl config unset current-context"),
)  # fmt: skip

WORKLOAD_RULES = (STOP_WORKLOADS, PRIVILEGED_NAMESPACE, LONG_LIVED_TOKEN, RECLAIM_DELETE, KUBECONFIG_ENTRY_DELETED)
