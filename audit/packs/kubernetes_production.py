"""kubernetes, continued: what changes workloads in place in a namespace, context or kubeconfig named
for production (a restart, a rollback, a shell in a pod, a patch, a deployed release). The pack is
declared in `kubernetes.py`."""

from __future__ import annotations

from .._model import Severity
from ..programs.selections import KUBE_CONTEXT, KUBE_NAMESPACE
from ._invocation import command, pack_rule
from ._production import Target, in_production

_KUBECTL = ("kubectl", "oc")
_DRY_RUN = ("--dry-run",)
# Where kubectl and helm act: the kubeconfig file, the context in it, the namespace. A kubeconfig option
# overrides all three; a context option, the current context and its namespace.
_IN_PRODUCTION = in_production(
    Target(frozenset({"--kubeconfig"}), ("KUBECONFIG",)),
    Target(frozenset({"--kubeconfig", "--context", "--kube-context"}), selection=KUBE_CONTEXT),
    Target(frozenset({"--kubeconfig", "--context", "--kube-context", "--namespace"}), selection=KUBE_NAMESPACE),
)
# kubectl's commands that change what runs without deleting it (deletion is KU001-KU004's; `scale`
# adds or removes copies of the same pods, and to zero is KU011's), and those that change it by hand,
# in an editor or inside a pod (no dry run).
_CHANGES = (
    "rollout restart", "rollout undo", "rollout pause", "rollout resume", "set image", "set env",
    "set resources", "set selector", "set serviceaccount", "set subject", "patch", "apply", "replace",
)  # fmt: skip
_BY_HAND = ("edit", "exec", "attach", "cp", "debug")


PRODUCTION_CHANGE = pack_rule(
    id="KU018",
    name="kubernetes-production-change",
    severity=Severity.MEDIUM,
    summary=(
        "Changes workloads in place in a namespace, context or kubeconfig named for production (by an option, "
        "`KUBECONFIG`, or an earlier `kubectl config use-context`, `kubectx`, `kubens`): `rollout restart|undo`, "
        "`set image`, `edit`, `patch`, `apply`, `exec`, `attach`, `cp`, `debug`, `helm upgrade|install|rollback`."
    ),
    rationale=(
        "Production serves users: a restart or a rollback churns every pod, a release with a floating tag "
        "deploys whatever that tag is now, and a shell in a live pod can change it with nobody reviewing. "
        "It warns: deploying and debugging production is routine for the people who own it, and the same "
        "command in staging passes."
    ),
    safer_alternative="Deploy production through the pipeline; rehearse in staging; read with `get`, `describe` and `logs`.",
    matches=(
        *(command(_KUBECTL, path, where=_IN_PRODUCTION, unless=_DRY_RUN) for path in _CHANGES),
        *(command(_KUBECTL, path, where=_IN_PRODUCTION) for path in _BY_HAND),
        *(command("helm", verb, where=_IN_PRODUCTION, unless=_DRY_RUN) for verb in ("upgrade", "install", "rollback")),
    ),
    message="changes workloads in production",
    must_match=(
        "kubectl rollout restart deployment/web -n prod",
        "kubectl exec -it deploy/api -n prod -- /bin/sh",
        "helm upgrade --install web ./chart -n production --set image.tag=latest",
        "kubectl --context prod-eu set image deploy/api api=acme/api:2.1",
        "KUBECONFIG=~/.kube/prod.yaml kubectl rollout restart deploy/api",
        "kubectx production && kubectl apply -f k8s/",
    ),
    must_not_match=(
        "kubectl rollout restart deployment/web -n staging",
        "kubectl rollout status deployment/web -n prod",
        "kubectl exec -it deploy/api -n dev -- /bin/sh",
        "helm upgrade --install web ./chart -n production --dry-run",
        "kubectl logs deploy/api -n prod",
        "kubectx prod; kubectl --context staging rollout restart deploy/api",
    ),
)

PRODUCTION_RULES = (PRODUCTION_CHANGE,)
