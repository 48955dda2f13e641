"""Kubernetes: kubectl, helm, and the local cluster tools (kind, minikube, k3d).

`KINDS` names kubectl's resource types by every spelling kubectl accepts
(`ns`, `namespace`, `namespaces`, `deployments.apps`), for the packs that
ask what a command acts on.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from ._grammar import Syntax, attached, flag, valued
from ._program import HelpForms, Program, Subcommand
from ._tree import leaf, tree

# cobra (pflag): clusters of short flags, `--flag=value`, flags anywhere, no abbreviations.
_COBRA = Syntax()

_DRY_RUN = attached("--dry-run")
_SELECTOR = valued("-l", "--selector")
_FILENAME = valued("-f", "--filename")
_ALL_NAMESPACES = flag("-A", "--all-namespaces")

# cobra prints a command's help for `-h` or `--help` anywhere among its flags, and nothing runs.
_COBRA_HELP = HelpForms(("-h", "--help"))

KUBECTL = Program(
    ("kubectl", "oc"),
    help_forms=_COBRA_HELP,
    options=(
        valued("-n", "--namespace"),
        valued("--context"),
        valued("--kubeconfig"),
        valued("--cluster"),
        valued("--user"),
        valued("-s", "--server"),
        valued("--token"),
        valued("--as"),
        valued("--as-group"),
        valued("--as-uid"),
        valued("--request-timeout"),
        valued("--certificate-authority"),
        valued("--client-certificate"),
        valued("--client-key"),
        valued("--tls-server-name"),
        valued("--cache-dir"),
        valued("-v", "--v"),
        flag("--insecure-skip-tls-verify"),
        flag("--match-server-version"),
        flag("--warnings-as-errors"),
    ),
    global_options_anywhere=True,
    syntax=_COBRA,
    subcommands=(
        Subcommand(
            ("delete",),
            options=(
                _FILENAME,
                valued("-k", "--kustomize"),
                _SELECTOR,
                valued("--field-selector"),
                valued("--grace-period"),
                valued("--timeout"),
                valued("-o", "--output"),
                valued("--raw"),
                _DRY_RUN,
                attached("--cascade"),
                attached("--wait"),
                attached("--ignore-not-found"),
                flag("--all"),
                _ALL_NAMESPACES,
                flag("--force"),
                flag("--now"),
                flag("-i", "--interactive"),
                flag("-R", "--recursive"),
            ),
            operands=("TYPE", "NAME..."),
        ),
        Subcommand(
            ("apply",),
            options=(
                _FILENAME,
                valued("-k", "--kustomize"),
                _SELECTOR,
                valued("-o", "--output"),
                valued("--field-manager"),
                valued("--prune-allowlist"),
                _DRY_RUN,
                attached("--server-side"),
                attached("--force-conflicts"),
                flag("--prune"),
                flag("--all"),
                flag("--force"),
                flag("-R", "--recursive"),
            ),
        ),
        # `create -f FILE|URL` and `replace -f`, like `apply`; `create clusterrolebinding|rolebinding
        # NAME --clusterrole=ROLE --user|--group|--serviceaccount=SUBJECT` grants a role (`--user` is
        # the global option's spelling, read the same way).
        Subcommand(
            ("create",),
            options=(_FILENAME, valued("-k", "--kustomize"), valued("-o", "--output"), _DRY_RUN, flag("-R", "--recursive")),
            operands=("TYPE", "NAME..."),
            subcommands=(
                Subcommand(("token",), options=(valued("--duration"), valued("--audience"), valued("--bound-object-kind"), valued("--bound-object-name"), valued("-o", "--output")), operands=("SERVICE_ACCOUNT",)),
                *(Subcommand(
                    (binding,),
                    options=(
                        valued("--clusterrole"), valued("--role"), valued("--group"),
                        valued("--serviceaccount"), valued("-o", "--output"), _DRY_RUN,
                    ),
                    operands=("NAME",),
                )
                for binding in ("clusterrolebinding", "rolebinding")),
            ),
        ),
        Subcommand(
            ("replace",),
            options=(_FILENAME, valued("-k", "--kustomize"), valued("-o", "--output"), _DRY_RUN, flag("--force"), flag("-R", "--recursive")),
        ),
        # What stops, weakens or hands out access without deleting (the kubernetes pack's KU011-KU014).
        Subcommand(
            ("scale",),
            options=(valued("--replicas"), valued("--current-replicas"), valued("--resource-version"), valued("--timeout"), _FILENAME, _SELECTOR, _DRY_RUN, flag("--all"), flag("-R", "--recursive")),
            operands=("TYPE", "NAME..."),
        ),
        Subcommand(
            ("taint",),
            options=(_SELECTOR, _DRY_RUN, flag("--all"), flag("--overwrite"), valued("-o", "--output")),
            operands=("TYPE", "NAME", "TAINT..."),
        ),
        Subcommand(
            ("label",),
            options=(_SELECTOR, _FILENAME, _DRY_RUN, flag("--all"), _ALL_NAMESPACES, flag("--overwrite"), flag("--list"), valued("-o", "--output"), valued("--resource-version")),
            operands=("TYPE", "NAME", "LABEL..."),
        ),
        Subcommand(
            ("patch",),
            options=(valued("-p", "--patch"), valued("--patch-file"), valued("--type"), _FILENAME, _DRY_RUN, valued("-o", "--output"), valued("--subresource")),
            operands=("TYPE", "NAME"),
        ),
        Subcommand(
            ("drain",),
            options=(
                _SELECTOR,
                valued("--pod-selector"),
                valued("--grace-period"),
                valued("--timeout"),
                valued("--skip-wait-for-delete-timeout"),
                _DRY_RUN,
                flag("--force"),
                flag("--ignore-daemonsets"),
                flag("--delete-emptydir-data", "--delete-local-data"),
                flag("--disable-eviction"),
            ),
            operands=("NODE",),
        ),
        Subcommand(
            ("get",),
            options=(valued("-o", "--output"), _SELECTOR, _ALL_NAMESPACES, flag("-w", "--watch")),
            operands=("TYPE", "NAME..."),
        ),
        Subcommand(
            ("exec",),
            options=(valued("-c", "--container"), flag("-i", "--stdin"), flag("-t", "--tty")),
            operands=("POD", "COMMAND..."),
        ),
        # What changes running workloads in place (the kubernetes pack's KU018 in a production namespace).
        Subcommand(
            ("rollout",),
            subcommands=tuple(
                Subcommand((verb,), options=(_FILENAME, _SELECTOR, _DRY_RUN, valued("--to-revision"), valued("-o", "--output"), flag("-R", "--recursive")), operands=("TYPE", "NAME..."))
                for verb in ("restart", "undo", "pause", "resume", "status", "history")
            ),
        ),
        Subcommand(("set",), subcommands=tuple(
            Subcommand((what,), options=(_FILENAME, _SELECTOR, _DRY_RUN, flag("--all"), valued("-c", "--containers"), valued("-o", "--output")), operands=("TYPE", "NAME..."))
            for what in ("image", "env", "resources", "selector", "serviceaccount", "subject")
        )),
        Subcommand(("edit",), options=(_FILENAME, valued("-o", "--output"), attached("--validate")), operands=("TYPE", "NAME...")),
        Subcommand(("attach",), options=(valued("-c", "--container"), flag("-i", "--stdin"), flag("-t", "--tty")), operands=("POD",)),
        Subcommand(("cp",), options=(valued("-c", "--container"), flag("--no-preserve"), valued("--retries")), operands=("SOURCE", "DEST")),
        # `run NAME --image=IMAGE -- CMD...` and `debug TARGET -- CMD...`: the command runs in the cluster.
        Subcommand(
            ("run",),
            options=(
                valued("--image"), valued("--env"), valued("--port"), valued("-l", "--labels"), valued("--restart"),
                valued("--overrides"), valued("--image-pull-policy"), valued("--annotations"),
                valued("--pod-running-timeout"), valued("--serviceaccount"), _DRY_RUN, flag("--rm"),
                flag("-i", "--stdin"), flag("-t", "--tty"), flag("--command"), flag("--attach"),
                flag("--privileged"), flag("--expose"), flag("-q", "--quiet"),
            ),
            operands=("NAME", "COMMAND..."),
        ),
        Subcommand(
            ("debug",),
            options=(
                valued("--image"), valued("-c", "--container"), valued("--target"), valued("--copy-to"),
                valued("--profile"), valued("--env"), valued("--set-image"), valued("--custom"),
                valued("--image-pull-policy"), flag("-i", "--stdin"), flag("-t", "--tty"), flag("--attach"),
                flag("--share-processes"), flag("--replace"), flag("--same-node"), flag("-q", "--quiet"),
                flag("--arguments-only"),
            ),
            operands=("TARGET", "COMMAND..."),
        ),
        # The kubeconfig's entries: the kubernetes pack's KU022 judges their deletion.
        Subcommand(
            ("config",),
            subcommands=tuple(
                Subcommand((action,), operands=("NAME",))
                for action in ("delete-context", "delete-cluster", "delete-user", "unset", "use-context", "get-contexts", "current-context", "view")
            ),
        ),
    ),
)  # fmt: skip

_HELM_RELEASE_OPTIONS = (
    valued("-f", "--values"), valued("--set"), valued("--set-string"), valued("--set-file"), valued("--set-json"),
    valued("--version"), valued("--timeout"), valued("--description"), valued("-o", "--output"),
    valued("--post-renderer"), valued("--repo"), flag("-i", "--install"), flag("--atomic"), flag("--wait"),
    flag("--force"), flag("--reset-values"), flag("--reuse-values"), flag("--create-namespace"), flag("--devel"),
    flag("--cleanup-on-fail"), flag("--skip-crds"), flag("--generate-name"),
)  # fmt: skip

HELM = Program(
    ("helm",),
    help_forms=_COBRA_HELP,
    syntax=_COBRA,
    options=(
        valued("-n", "--namespace"),
        valued("--kube-context"),
        valued("--kubeconfig"),
        valued("--kube-apiserver"),
        valued("--kube-token"),
        valued("--kube-as-user"),
        valued("--registry-config"),
        valued("--repository-config"),
        valued("--repository-cache"),
        flag("--debug"),
    ),
    global_options_anywhere=True,
    subcommands=tree(
        leaf(
            "uninstall|delete|del|un",
            _DRY_RUN,
            flag("--keep-history"),
            flag("--no-hooks"),
            flag("--wait"),
            valued("--timeout"),
            valued("--cascade"),
            valued("--description"),
            operands=("RELEASE...",),
        ),
        leaf("list|ls", _ALL_NAMESPACES, flag("-a", "--all"), valued("-o", "--output"), valued("-f", "--filter")),
        # Releases deployed or rolled back (the kubernetes pack's KU018 in a production namespace).
        *(
            leaf(verb, _DRY_RUN, *_HELM_RELEASE_OPTIONS, operands=("RELEASE", "CHART"))
            for verb in ("upgrade", "install")
        ),
        leaf(
            "rollback",
            _DRY_RUN,
            flag("--wait"),
            flag("--force"),
            flag("--cleanup-on-fail"),
            valued("--timeout"),
            operands=("RELEASE", "REVISION"),
        ),
    ),
)

KIND = Program(
    ("kind",),
    syntax=_COBRA,
    subcommands=tree(
        leaf("delete cluster", valued("-n", "--name"), valued("--kubeconfig")),
        leaf("delete clusters", flag("-A", "--all"), valued("--kubeconfig"), operands=("NAME...",)),
    ),
)

MINIKUBE = Program(
    ("minikube",),
    syntax=_COBRA,
    options=(valued("-p", "--profile"),),
    global_options_anywhere=True,
    subcommands=tree(leaf("delete", flag("--all"), flag("--purge"))),
)

K3D = Program(
    ("k3d",),
    syntax=_COBRA,
    subcommands=tree(leaf("cluster delete|rm", flag("-a", "--all"), operands=("NAME...",))),
)

KUBERNETES_PROGRAMS: tuple[Program, ...] = (KUBECTL, HELM, KIND, MINIKUBE, K3D)


def _kinds(*spellings_by_kind: tuple[str, ...]) -> Mapping[str, str]:
    """Each spelling of a resource type, to its first (canonical) one."""
    return MappingProxyType({spelling: spellings[0] for spellings in spellings_by_kind for spelling in spellings})


KINDS: Mapping[str, str] = _kinds(
    # An OpenShift project is its namespace: deleting one deletes the other.
    ("namespaces", "namespace", "ns", "projects", "project"),
    ("persistentvolumes", "persistentvolume", "pv"),
    ("persistentvolumeclaims", "persistentvolumeclaim", "pvc"),
    ("customresourcedefinitions", "customresourcedefinition", "crd", "crds"),
    ("storageclasses", "storageclass", "sc"),
    ("pods", "pod", "po"),
    ("nodes", "node", "no"),
    ("deployments", "deployment", "deploy"),
    ("statefulsets", "statefulset", "sts"),
    ("daemonsets", "daemonset", "ds"),
    ("replicasets", "replicaset", "rs"),
    ("services", "service", "svc"),
    ("secrets", "secret"),
    ("configmaps", "configmap", "cm"),
    ("jobs", "job"),
    ("cronjobs", "cronjob", "cj"),
    ("ingresses", "ingress", "ing"),
    ("events", "event", "ev"),
    ("all",),
)
"""kubectl's resource types by every short, singular and plural name (the built-in ones the packs ask about)."""


def resource_kind(spelled: str) -> str:
    """The canonical type of `deploy`, `deployments.apps`, `Deployment`; unknown types as written, lower-cased."""
    base = spelled.lower().split(".", 1)[0]
    return KINDS.get(base, base)
