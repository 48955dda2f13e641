"""kubernetes, continued: what changes workloads in place in a namespace, context or kubeconfig named
for production (a restart, a rollback, a shell in a pod, a patch, a deployed release). The pack is
declared in `kubernetes.py`."""

from __future__ import annotations

from .._model import Severity
from ..programs import Arg
from ..programs.selections import KUBE_CONTEXT, KUBE_NAMESPACE
from ..rules._paths import names_production
from ._invocation import Found, command, option_names, pack_rule

_KUBECTL = ("kubectl", "oc")
_DRY_RUN = ("--dry-run",)
# The options that say which cluster and namespace a command acts on (kubectl's and helm's spellings).
_TARGETS = frozenset({"--namespace", "--context", "--kube-context", "--kubeconfig"})
# kubectl's commands that change what runs without deleting it (deletion is KU001-KU004's; `scale`
# adds or removes copies of the same pods, and to zero is KU011's), and those that change it by hand,
# in an editor or inside a pod (no dry run).
_CHANGES = (
    "rollout restart", "rollout undo", "rollout pause", "rollout resume", "set image", "set env",
    "set resources", "set selector", "set serviceaccount", "set subject", "patch", "apply", "replace",
)  # fmt: skip
_BY_HAND = ("edit", "exec", "attach", "cp", "debug")


def _in_production(found: Found) -> Arg | None:
    """The namespace, context or kubeconfig option whose value names production (`-n prod`,
    `--context=prod-eu`, `--kube-context gke_acme_europe-west1_prd`, `--kubeconfig ~/.kube/production`);
    without one that says otherwise, the kubeconfig `KUBECONFIG` names, or the context or namespace an
    earlier command of the string switched to (`kubectl config use-context prod && ...`, `kubens prod`)."""
    given = _TARGETS & option_names(found.subject)
    for name in given:
        for value in found.reading.values(name):
            if any(names_production(text) for text in value.values):
                return value
    subject = found.subject
    implicit: list[str | None] = []
    if "--kubeconfig" not in given:
        implicit.append(subject.setting("KUBECONFIG"))
        if given.isdisjoint(("--context", "--kube-context")):
            implicit.append(dict(subject.selected).get(KUBE_CONTEXT))
    if given.isdisjoint(("--namespace", "--context", "--kube-context", "--kubeconfig")):
        implicit.append(dict(subject.selected).get(KUBE_NAMESPACE))
    if any(value is not None and names_production(value) for value in implicit):
        return Arg((), "", subject.span)
    return None


PRODUCTION_CHANGE = pack_rule(
    id="KU018",
    name="kubernetes-production-change",
    severity=Severity.MEDIUM,
    summary=(
        "Changes workloads in place in a namespace, context or kubeconfig named for production: "
        "`kubectl rollout restart|undo`, `set image`, `edit`, `patch`, `apply`, a shell or a copy in "
        "a pod (`exec`, `attach`, `cp`, `debug`), `helm upgrade|install|rollback`."
    ),
    rationale=(
        "Production serves users: a restart or a rollback churns every pod, a release with a floating tag "
        "deploys whatever that tag is now, and a shell in a live pod can change it with nobody reviewing. "
        "It warns: deploying and debugging production is routine for the people who own it, and the same "
        "command in staging passes."
    ),
    safer_alternative="Deploy production through the pipeline; rehearse in staging; read with `get`, `describe` and `logs`.",
    matches=(
        *(command(_KUBECTL, path, where=_in_production, unless=_DRY_RUN) for path in _CHANGES),
        *(command(_KUBECTL, path, where=_in_production) for path in _BY_HAND),
        *(command("helm", verb, where=_in_production, unless=_DRY_RUN) for verb in ("upgrade", "install", "rollback")),
    ),
    message="changes workloads in production",
    must_match=(
        "kubectl rollout restart deployment/web -n prod",
        "kubectl exec -it deploy/api -n prod -- /bin/sh",
        "helm upgrade --install web ./chart -n production --set image.tag=latest",
        "kubectl --context prod-eu set image deploy/api api=acme/api:2.1",
    ),
    must_not_match=(
        "kubectl rollout restart deployment/web -n staging",
        "kubectl rollout status deployment/web -n prod",
        "kubectl exec -it deploy/api -n dev -- /bin/sh",
        "helm upgrade --install web ./chart -n production --dry-run",
        "kubectl logs deploy/api -n prod",
    ),
)

PRODUCTION_RULES = (PRODUCTION_CHANGE,)
