"""containers.docker: pruning, volume deletion and everything-selectors with the
docker CLI and the clients that copy its commands (podman, nerdctl), a node forced out of its swarm, and
swarm services and stacks removed."""

from __future__ import annotations

from ..._model import Severity
from ...rules._pack import Pack
from .._invocation import command, listed_by, named_operand, pack_rule

ENGINES = ("docker", "podman", "nerdctl")
"""The docker CLI and the clients that take the same commands."""

_EVERYTHING = listed_by(*ENGINES)


PRUNE_VOLUMES = pack_rule(
    id="CT101",
    name="docker-prune-volumes",
    severity=Severity.HIGH,
    summary="Prunes volumes: `docker system prune --volumes` or `docker volume prune`.",
    rationale="Volumes hold the data of databases and services; every volume no running container uses is deleted, with no undo.",
    safer_alternative="`docker system prune` without `--volumes`, or `docker volume rm` for the volumes you checked with `docker volume ls`.",
    matches=(
        command(ENGINES, "system prune", requires=("--volumes",)),
        command(ENGINES, "volume prune"),
    ),
    message="deletes every unused volume and its data",
    must_match=("docker system prune -af --volumes", "docker volume prune -f", "podman volume prune"),
    must_not_match=("docker system prune -f", "docker volume ls", "docker system df"),
)

SYSTEM_PRUNE = pack_rule(
    id="CT102",
    name="docker-system-prune",
    severity=Severity.MEDIUM,
    summary="Prunes stopped containers, images or build cache (`docker system prune`, `image prune -a`, `container prune`).",
    rationale="Stopped containers may hold state that was never committed; images and caches come back only by a slow rebuild or pull.",
    safer_alternative="Remove the named containers and images you mean (`docker rm web`, `docker rmi app:old`).",
    matches=(
        command(ENGINES, "system prune", unless=("--volumes",)),
        command(ENGINES, "image prune", requires=("--all",)),
        command(ENGINES, "container prune"),
    ),
    message="prunes containers, images and caches",
    must_match=("docker system prune -a", "docker system prune -f", "docker image prune -af", "docker container prune"),
    must_not_match=("docker image prune", "docker rm -f web", "docker system df -v"),
)

REMOVE_ALL_VOLUMES = pack_rule(
    id="CT103",
    name="docker-remove-all-volumes",
    severity=Severity.HIGH,
    summary="Removes every volume by an everything-selector (`docker volume rm $(docker volume ls -q)`).",
    rationale="A run-time list of all volumes deletes the data of every service on the machine, not just this project's.",
    safer_alternative="List the volumes, then remove the ones of this project by name (`docker volume rm app_db`).",
    matches=(command(ENGINES, "volume rm", where=_EVERYTHING),),
    message="deletes every listed volume and its data",
    must_match=("docker volume rm $(docker volume ls -q)", "docker volume ls -q | xargs docker volume rm"),
    must_not_match=("docker volume rm app_db", "docker volume ls -q"),
)

REMOVE_VOLUME = pack_rule(
    id="CT104",
    name="docker-remove-volume",
    severity=Severity.MEDIUM,
    summary="Removes named volumes, or a compose project's volumes (`docker compose down -v`).",
    rationale="The data in a volume is gone with it; the scope is limited to the volumes named or the project's own.",
    safer_alternative="`docker compose down` without `-v` keeps the data; back a volume up before removing it.",
    matches=(
        command(ENGINES, "volume rm", where=named_operand(*ENGINES)),
        command(ENGINES, "compose down", requires=("--volumes",), unless=("--dry-run",)),
        command(("docker-compose", "podman-compose"), "down", requires=("--volumes",), unless=("--dry-run",)),
    ),
    message="deletes volumes and their data",
    must_match=("docker volume rm app_db", "docker compose down -v", "docker-compose -f dev.yml down --volumes"),
    must_not_match=("docker compose down", "docker-compose down --remove-orphans", "docker volume inspect app_db"),
)

REMOVE_EVERYTHING = pack_rule(
    id="CT105",
    name="docker-remove-all-containers",
    severity=Severity.MEDIUM,
    summary="Removes, stops or kills every container or image by an everything-selector (`docker rm -f $(docker ps -aq)`).",
    rationale="A run-time list of all containers or images reaches other projects' services and their unsaved state.",
    safer_alternative="Filter the list to this project (`docker ps -aq --filter label=com.docker.compose.project=app`), or `docker compose down`.",
    matches=tuple(
        command(ENGINES, path, where=_EVERYTHING) for path in ("rm", "container rm", "rmi", "image rm", "stop", "kill")
    ),
    message="acts on every container or image the listing returns",
    must_match=(
        "docker rm -f $(docker ps -aq)",
        "docker rmi -f $(docker images -q)",
        "docker ps -q | xargs docker stop",
    ),
    must_not_match=("docker rm -f web", "docker stop api db", "docker ps -aq"),
)

SWARM_LEAVE_FORCED = pack_rule(
    id="CT110",
    name="docker-swarm-leave-forced",
    severity=Severity.HIGH,
    summary="Forces the node out of its swarm (`docker swarm leave --force`), which docker requires of a manager.",
    rationale="A manager holds the swarm's state (services, secrets, configs, the other nodes' membership); forced out, it takes its share of the quorum with it, and the last manager's leaving deletes the swarm and every service in it.",
    safer_alternative="Demote the node first (`docker node demote NODE` from another manager), then leave without `--force`.",
    matches=(command(("docker", "podman"), "swarm leave", requires=("--force",)),),
    message="forces a node, a manager when --force is needed, out of its swarm",
    must_match=("docker swarm leave --force", "docker -H ssh://mgr1 swarm leave -f"),
    must_not_match=("docker swarm leave", "docker swarm init --advertise-addr 10.0.0.5"),
)

SWARM_SERVICES_REMOVED = pack_rule(
    id="CT120",
    name="docker-swarm-services-removed",
    severity=Severity.MEDIUM,
    summary="Removes swarm services (`docker service rm`, every one by `$(docker service ls -q)`) or a whole stack (`docker stack rm`).",
    rationale=(
        "A service is a deployed application with all its replicas on every node of the swarm; removed, it stops "
        "serving at once, and a stack takes every service, network, config and secret it declared with it."
    ),
    safer_alternative="Scale the service to zero (`docker service scale NAME=0`) or update it; remove only what the task made.",
    matches=(command("docker", "service rm"), command("docker", "stack rm")),
    message="removes deployed swarm services",
    must_match=(
        "docker service rm $(docker service ls -q)",
        "docker stack rm prod",
        "docker -H ssh://mgr1 service rm api",
    ),
    must_not_match=("docker service ls", "docker stack deploy -c stack.yml prod", "docker service scale api=3"),
)

PACK = Pack(
    name="containers.docker",
    summary="The docker CLI (and podman, nerdctl for the same commands): prunes, volume deletion, removing every container, a node forced out of its swarm, swarm services and stacks removed.",
    default=True,
    reason="Volumes hold databases and other services' data on the developer's machine; pruned state cannot be restored.",
    rules=(
        PRUNE_VOLUMES,
        SYSTEM_PRUNE,
        REMOVE_ALL_VOLUMES,
        REMOVE_VOLUME,
        REMOVE_EVERYTHING,
        SWARM_LEAVE_FORCED,
        SWARM_SERVICES_REMOVED,
    ),
)
