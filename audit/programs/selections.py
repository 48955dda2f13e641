"""Commands that choose what later commands act on by changing a tool's saved settings: `kubectl config
use-context prod` (or `kubectx prod`) makes every later kubectl and helm command act on the prod cluster,
`kubens payments` (`oc project payments`) on that namespace, `gcloud config set project p` every later gcloud command on project
p, `az account set -s s` every later az command on subscription s. The analysis remembers them in the
order they run (`CommandSubject.selected`); the rules that judge production read them next to the
command's own options and environment."""

from __future__ import annotations

from ._arg import Arg

KUBE_CONTEXT = "kubernetes context"
KUBE_NAMESPACE = "kubernetes namespace"
GCLOUD_PROJECT = "gcloud project"
GCLOUD_CONFIGURATION = "gcloud configuration"
AZURE_SUBSCRIPTION = "azure subscription"

SELECTORS = frozenset({"kubectl", "oc", "kubectx", "kubens", "gcloud", "az"})
"""The programs some of whose commands select a target (a cheap test before `selection`)."""


def selection(name: str, args: tuple[Arg, ...]) -> tuple[str, str] | None:
    """The setting a command selects and the value it gives it (`kubectx prod`: the kubernetes context,
    `prod`); None when the command selects nothing or the value is known only at run time."""
    words = [arg.value for arg in args]
    if any(word is None for word in words):
        return None
    given = [word for word in words if word is not None]
    if name == "kubectx":
        return _only_operand(given, KUBE_CONTEXT)
    if name == "kubens":
        return _only_operand(given, KUBE_NAMESPACE)
    if name == "oc" and given[:1] == ["project"]:
        return _only_operand(given[1:], KUBE_NAMESPACE)  # `oc project NAME`: OpenShift's namespaces
    if name in ("kubectl", "oc"):
        return _kubectl_config(given)
    if name == "gcloud":
        return _gcloud_config(given)
    if name == "az" and given[:2] == ["account", "set"]:
        return _option_value(given[2:], ("-s", "--subscription", "-n", "--name"), AZURE_SUBSCRIPTION)
    return None


def _only_operand(words: list[str], setting: str) -> tuple[str, str] | None:
    """`kubectx NAME`, `kubens NAME`: not `-` (the previous one), an option, or `NEW=OLD` (a rename)."""
    if len(words) == 1 and not words[0].startswith("-") and "=" not in words[0]:
        return setting, words[0]
    return None


def _kubectl_config(words: list[str]) -> tuple[str, str] | None:
    """`kubectl config use-context NAME`; `kubectl config set-context --current --namespace NAME`."""
    if words[:2] == ["config", "use-context"] and len(words) == 3:
        return KUBE_CONTEXT, words[2]
    if words[:2] == ["config", "set-context"] and "--current" in words:
        return _option_value(words[2:], ("-n", "--namespace"), KUBE_NAMESPACE)
    return None


def _gcloud_config(words: list[str]) -> tuple[str, str] | None:
    """`gcloud config set project P` (or `core/project`), `gcloud config configurations activate NAME`."""
    operands = [word for word in words if not word.startswith("-")]
    if operands[:2] == ["config", "set"] and len(operands) == 4 and operands[2] in ("project", "core/project"):
        return GCLOUD_PROJECT, operands[3]
    if operands[:3] == ["config", "configurations", "activate"] and len(operands) == 4:
        return GCLOUD_CONFIGURATION, operands[3]
    return None


def _option_value(words: list[str], spellings: tuple[str, ...], setting: str) -> tuple[str, str] | None:
    """The value of the last of these options (`-s VALUE`, `--subscription=VALUE`)."""
    found: str | None = None
    for index, word in enumerate(words):
        name, equals, value = word.partition("=")
        if name in spellings:
            found = value if equals else (words[index + 1] if index + 1 < len(words) else None)
    return (setting, found) if found else None
