"""containers.podman: what only podman can do (the commands it shares with docker
are the containers.docker pack's)."""

from __future__ import annotations

from ..._model import Severity
from ...rules._pack import Pack
from .._invocation import command, pack_rule

SYSTEM_RESET = pack_rule(
    id="CT201",
    name="podman-system-reset",
    severity=Severity.HIGH,
    summary="`podman system reset` deletes every container, image, volume, pod and network of the user.",
    rationale="It returns podman to its first-run state: all local data in volumes and every built image are gone.",
    safer_alternative="Remove what you mean by name, or `podman system prune` without `--volumes`.",
    matches=(command("podman", "system reset"),),
    message="deletes all of podman's containers, images and volumes",
    must_match=("podman system reset", "podman system reset --force"),
    must_not_match=("podman system df", "podman system prune -f"),
)

REMOVE_ALL = pack_rule(
    id="CT202",
    name="podman-remove-all",
    severity=Severity.MEDIUM,
    summary="Removes every container, image or pod with `--all` (`podman rm -af`, `podman pod rm --all`).",
    rationale="`--all` reaches every project's containers and pods, with whatever state they hold.",
    safer_alternative="Remove the containers of this project by name or label.",
    matches=tuple(
        command("podman", path, requires=("--all",)) for path in ("rm", "container rm", "rmi", "image rm", "pod rm")
    ),
    message="removes every container, image or pod",
    must_match=("podman rm -af", "podman pod rm --all --force", "podman rmi --all"),
    must_not_match=("podman rm -f web", "podman pod rm api-pod"),
)

REMOVE_ALL_VOLUMES = pack_rule(
    id="CT203",
    name="podman-remove-all-volumes",
    severity=Severity.HIGH,
    summary="`podman volume rm --all` deletes every volume and its data.",
    rationale="Every service's data volume goes at once, used or not (with `--force`).",
    safer_alternative="`podman volume ls`, then remove the volumes of this project by name.",
    matches=(command("podman", "volume rm", requires=("--all",)),),
    message="deletes every volume and its data",
    must_match=("podman volume rm --all", "podman volume rm -af"),
    must_not_match=("podman volume rm app_db", "podman volume ls"),
)

MACHINE_REMOVE = pack_rule(
    id="CT204",
    name="podman-machine-remove",
    severity=Severity.HIGH,
    summary="`podman machine rm` deletes the virtual machine that holds every container, image and volume (macOS, Windows).",
    rationale="On macOS and Windows all of podman's data lives in the machine's disk image, which is deleted with it.",
    safer_alternative="`podman machine stop`; remove the machine only after exporting what you need.",
    matches=(command("podman", "machine rm"),),
    message="deletes the podman machine and everything in it",
    must_match=("podman machine rm -f", "podman machine rm podman-machine-default"),
    must_not_match=("podman machine stop", "podman machine list"),
)

PACK = Pack(
    name="containers.podman",
    summary="Podman's own commands: system reset, `--all` removals, machine deletion.",
    default=True,
    reason="A reset or machine removal deletes every image, container and volume on the developer's machine.",
    rules=(SYSTEM_RESET, REMOVE_ALL, REMOVE_ALL_VOLUMES, MACHINE_REMOVE),
)
