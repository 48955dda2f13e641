"""Container engines: the docker CLI and the clients that copy it (podman,
nerdctl), and docker-compose."""

from __future__ import annotations

from ._grammar import Syntax, attached, flag, valued
from ._program import HelpForms, Program
from ._tree import leaf, tree

_STOPS_AT_OPERAND = Syntax(permute=False)
"""`docker run [OPTIONS] IMAGE [COMMAND...]`: what follows the image is the container's command."""

_FORCE = flag("-f", "--force")
_ALL = flag("-a", "--all")
_FILTER = valued("--filter")
_QUIET = flag("-q", "--quiet")
_VOLUMES = flag("--volumes")

# The options of `run` and `create` (both start a container the same way).
_CONTAINER_OPTIONS = (
    valued("-a", "--attach"), valued("--add-host"), valued("--annotation"), valued("--blkio-weight"),
    valued("--blkio-weight-device"), valued("--cap-add"), valued("--cap-drop"), valued("--cgroup-parent"),
    valued("--cgroupns"), valued("--cidfile"), valued("--cpu-period"), valued("--cpu-quota"),
    valued("--cpu-rt-period"), valued("--cpu-rt-runtime"), valued("-c", "--cpu-shares"), valued("--cpus"),
    valued("--cpuset-cpus"), valued("--cpuset-mems"), valued("--device"), valued("--device-cgroup-rule"),
    valued("--device-read-bps"), valued("--device-read-iops"), valued("--device-write-bps"),
    valued("--device-write-iops"), valued("--dns"), valued("--dns-option"), valued("--dns-search"),
    valued("--domainname"), valued("--entrypoint"), valued("-e", "--env"), valued("--env-file"), valued("--expose"),
    valued("--gpus"), valued("--group-add"), valued("--health-cmd"), valued("--health-interval"),
    valued("--health-retries"), valued("--health-start-period"), valued("--health-timeout"),
    valued("-h", "--hostname"), valued("--ip"), valued("--ip6"), valued("--ipc"), valued("--isolation"),
    valued("--kernel-memory"), valued("-l", "--label"), valued("--label-file"), valued("--link"),
    valued("--link-local-ip"), valued("--log-driver"), valued("--log-opt"), valued("--mac-address"),
    valued("-m", "--memory"), valued("--memory-reservation"), valued("--memory-swap"), valued("--memory-swappiness"),
    valued("--mount"), valued("--name"), valued("--network", "--net"), valued("--network-alias"),
    valued("--oom-score-adj"), valued("--pid"), valued("--pids-limit"), valued("--platform"), valued("--pod"),
    valued("-p", "--publish"), valued("--pull"), valued("--restart"), valued("--runtime"), valued("--security-opt"),
    valued("--shm-size"), valued("--stop-signal"), valued("--stop-timeout"), valued("--storage-opt"),
    valued("--sysctl"), valued("--tmpfs"), valued("--ulimit"), valued("-u", "--user"), valued("--userns"),
    valued("--uts"), valued("-v", "--volume"), valued("--volume-driver"), valued("--volumes-from"),
    valued("-w", "--workdir"), flag("-d", "--detach"), flag("-i", "--interactive"), flag("-t", "--tty"),
    flag("--rm"), flag("--privileged"), flag("-P", "--publish-all"), flag("--init"), flag("--read-only"),
    flag("--no-healthcheck"), flag("--oom-kill-disable"), _QUIET, flag("--disable-content-trust"),
)  # fmt: skip

_EXEC_OPTIONS = (
    valued("-e", "--env"), valued("--env-file"), valued("-u", "--user"), valued("-w", "--workdir"),
    flag("-d", "--detach"), flag("-i", "--interactive"), flag("-t", "--tty"), flag("--privileged"),
)  # fmt: skip
_CONTAINERS = ("CONTAINER...",)
# Compose's own options, read before its subcommand; `--dry-run` (a persistent flag) after it too.
_COMPOSE_OPTIONS = (
    valued("-f", "--file"), valued("-p", "--project-name"), valued("--profile"), valued("--env-file"), flag("--dry-run"),
)  # fmt: skip
_COMPOSE_DOWN = (flag("-v", "--volumes"), valued("--rmi"), flag("--remove-orphans"), valued("-t", "--timeout"))
# `compose exec SERVICE CMD...` and `compose run SERVICE [CMD...]`: what follows the service is its command.
_COMPOSE_EXEC = (
    valued("-e", "--env"), valued("--index"), valued("-u", "--user"), valued("-w", "--workdir"),
    flag("-d", "--detach"), flag("-T", "--no-TTY", "--no-tty"), flag("--privileged"),
)  # fmt: skip
_COMPOSE_RUN = (
    *_COMPOSE_EXEC, valued("--entrypoint"), valued("-l", "--label"), valued("--name"), valued("-p", "--publish"),
    valued("-v", "--volume"), valued("--cap-add"), valued("--cap-drop"), valued("--pull"), flag("--rm"),
    flag("--no-deps"), flag("--service-ports"), flag("--use-aliases"), flag("--build"), flag("--quiet-pull"),
    flag("--remove-orphans"), flag("-i", "--interactive"), flag("-t", "--tty"),
)  # fmt: skip

# `docker push [OPTIONS] IMAGE`, and podman's `push [OPTIONS] IMAGE [DESTINATION]`.
_PUSH_OPTIONS = (
    flag("-a", "--all-tags", "--all"), flag("--disable-content-trust"), valued("--platform"), _QUIET,
    valued("--authfile"), valued("--cert-dir"), valued("--creds"), valued("--digestfile"), valued("-f", "--format"),
    valued("--compression-format"), valued("--compression-level"), valued("--encryption-key"),
    valued("--retry"), valued("--retry-delay"), valued("--sign-by"), valued("--sign-passphrase-file"),
    valued("--sign-by-sigstore"), valued("--sign-by-sigstore-private-key"), attached("--tls-verify"),
    attached("--compress"), flag("--remove-signatures"), flag("--force-compression"),
)  # fmt: skip

# `inspect` prints a container's configuration as JSON, its environment variables among it, or what a
# `--format` template picks.
_INSPECT_OPTIONS = (valued("-f", "--format"), flag("-s", "--size"), valued("--type"), flag("-l", "--latest"))

_SUBCOMMANDS = tree(
    leaf("run", *_CONTAINER_OPTIONS, operands=("IMAGE", "COMMAND..."), syntax=_STOPS_AT_OPERAND),
    leaf("create", *_CONTAINER_OPTIONS, operands=("IMAGE", "COMMAND..."), syntax=_STOPS_AT_OPERAND),
    leaf("exec", *_EXEC_OPTIONS, operands=("CONTAINER", "COMMAND..."), syntax=_STOPS_AT_OPERAND),
    leaf("container run", *_CONTAINER_OPTIONS, operands=("IMAGE", "COMMAND..."), syntax=_STOPS_AT_OPERAND),
    leaf("container create", *_CONTAINER_OPTIONS, operands=("IMAGE", "COMMAND..."), syntax=_STOPS_AT_OPERAND),
    leaf("container exec", *_EXEC_OPTIONS, operands=("CONTAINER", "COMMAND..."), syntax=_STOPS_AT_OPERAND),
    leaf("rm|remove", _FORCE, flag("-v", "--volumes"), flag("-l", "--link"), _ALL, operands=_CONTAINERS),
    leaf("container rm|remove", _FORCE, flag("-v", "--volumes"), _ALL, operands=_CONTAINERS),
    leaf("rmi", _FORCE, flag("--no-prune"), _ALL, operands=("IMAGE...",)),
    leaf("image rm|remove", _FORCE, flag("--no-prune"), _ALL, operands=("IMAGE...",)),
    leaf("stop", valued("-t", "--time"), valued("-s", "--signal"), _ALL, operands=_CONTAINERS),
    leaf("kill", valued("-s", "--signal"), _ALL, operands=_CONTAINERS),
    leaf("ps", _ALL, _QUIET, _FILTER, valued("--format"), flag("-s", "--size"), flag("--no-trunc")),
    leaf("images", _ALL, _QUIET, _FILTER, valued("--format")),
    leaf("volume rm|remove", _FORCE, _ALL, operands=("VOLUME...",)),
    leaf("volume prune", _FORCE, _ALL, _FILTER),
    leaf("volume ls|list", _QUIET, _FILTER, valued("--format")),
    leaf("system prune", _FORCE, _ALL, _VOLUMES, _FILTER),
    leaf("system reset", _FORCE),
    leaf("swarm leave", _FORCE),
    leaf("swarm init", flag("--force-new-cluster"), valued("--advertise-addr")),
    leaf("service rm|remove", operands=("SERVICE...",)),
    leaf("service ls|list", _QUIET, _FILTER, valued("--format")),
    leaf("stack rm|remove|down", valued("-c", "--orchestrator"), flag("-d", "--detach"), operands=("STACK...",)),
    leaf("image prune", _FORCE, _ALL, _FILTER),
    leaf("container prune", _FORCE, _FILTER),
    leaf("pod rm|remove", _FORCE, _ALL, operands=("POD...",)),
    leaf("machine rm|remove", _FORCE, flag("--save-image"), flag("--save-ignition"), operands=("MACHINE",)),
    leaf("inspect", *_INSPECT_OPTIONS, operands=("NAME...",)),
    leaf("container inspect", *_INSPECT_OPTIONS, operands=_CONTAINERS),
    leaf("push", *_PUSH_OPTIONS, operands=("IMAGE", "DESTINATION")),
    leaf("image push", *_PUSH_OPTIONS, operands=("IMAGE", "DESTINATION")),
    leaf("compose", *_COMPOSE_OPTIONS),
    leaf("compose down", *_COMPOSE_DOWN),
    leaf("compose exec", *_COMPOSE_EXEC, operands=("SERVICE", "COMMAND..."), syntax=_STOPS_AT_OPERAND),
    leaf("compose run", *_COMPOSE_RUN, operands=("SERVICE", "COMMAND..."), syntax=_STOPS_AT_OPERAND),
)

_HELP = HelpForms(("--help",))

_GLOBAL_OPTIONS = (
    valued("-H", "--host"),
    valued("-c", "--context"),
    valued("--config"),
    valued("-l", "--log-level"),
    flag("-D", "--debug"),
    flag("--tls"),
    flag("--tlsverify"),
    valued("--tlscacert"),
    valued("--tlscert"),
    valued("--tlskey"),
    valued("--namespace", "-n"),
    valued("--connection"),
    valued("--url"),
    flag("--remote", "-r"),
)

DOCKER = Program(
    ("docker", "podman", "nerdctl"),
    # `-h` is not help everywhere (`docker run -h` is `--hostname`).
    help_forms=_HELP,
    syntax=Syntax(),
    options=_GLOBAL_OPTIONS,
    subcommands=_SUBCOMMANDS,
)

DOCKER_COMPOSE = Program(
    ("docker-compose", "podman-compose"),
    help_forms=_HELP,
    syntax=Syntax(),
    options=_COMPOSE_OPTIONS,
    subcommands=tree(
        leaf("down", *_COMPOSE_DOWN),
        leaf("exec", *_COMPOSE_EXEC, operands=("SERVICE", "COMMAND..."), syntax=_STOPS_AT_OPERAND),
        leaf("run", *_COMPOSE_RUN, operands=("SERVICE", "COMMAND..."), syntax=_STOPS_AT_OPERAND),
    ),
)

# containerd's ctr: `ctr [global options] run [options] IMAGE ID [COMMAND...]`; options end at the image.
CTR = Program(
    ("ctr",),
    syntax=Syntax(permute=False),
    options=(valued("-a", "--address"), valued("-n", "--namespace"), valued("--timeout"), flag("--debug")),
    subcommands=tree(
        leaf(
            "run",
            flag("--privileged"), flag("--net-host"), flag("--rm"), flag("-t", "--tty"), flag("-d", "--detach"),
            flag("--read-only"), flag("--privileged-without-host-devices"), valued("--mount"), valued("--env"),
            valued("--cwd"), valued("--with-ns"), valued("--label"), valued("--runtime"), valued("--user"),
            valued("--cap-add"), valued("--device"), valued("--snapshotter"), valued("--pid-file"),
            operands=("IMAGE", "ID", "COMMAND..."),
            syntax=Syntax(permute=False),
        ),
    ),
)  # fmt: skip

# systemd-nspawn runs a directory (`-D DIR`) or an image as a container, and binds host paths into it.
SYSTEMD_NSPAWN = Program(
    ("systemd-nspawn",),
    syntax=Syntax(permute=False),
    options=(
        valued("-D", "--directory"), valued("-i", "--image"), valued("--template"), valued("--bind"),
        valued("--bind-ro"), valued("-M", "--machine"), valued("-u", "--user"), valued("--setenv", "-E"),
        valued("--capability"), valued("--network-interface"), flag("-b", "--boot"), flag("-q", "--quiet"),
        flag("-x", "--ephemeral"), flag("--private-network"), flag("-U"), flag("-h", "--help"),
    ),
    operands=("COMMAND...",),
)  # fmt: skip

CONTAINER_PROGRAMS: tuple[Program, ...] = (DOCKER, DOCKER_COMPOSE, CTR, SYSTEMD_NSPAWN)
