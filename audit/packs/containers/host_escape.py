"""containers.host-escape: containers started with the host's privileges,
filesystem or namespaces, and `nsenter` into the host's init process; the same
asked of a Kubernetes cluster, whose nodes are hosts (a pod spec given on the
command line or in a manifest the command wrote, `kubectl debug node/...`)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..._analysis import Arg, CommandSubject, StdinKind, basename, resolve_path
from ..._model import Severity
from ..._syntax import ast
from ..._tables import Tables
from ...programs import WordKind, lex
from ...rules._pack import Pack
from ...rules._paths import path_is
from ...rules._rule import Hit, Inspects, rule
from .._invocation import Found, command, option_value, option_values, pack_rule
from .docker import ENGINES

_STARTS = ("run", "create", "container run", "container create")
_DRY_RUN = ("--dry-run",)
_ENTERS = ("exec", "container exec")

# Capabilities that amount to root on the host (mounts, kernel modules, raw devices, tracing host processes).
_HOST_CAPABILITIES = ("all", "*sys_admin", "*sys_module", "*sys_rawio", "*dac_read_search", "*sys_boot")
# SYS_PTRACE reaches only the container's own processes (what a debugger needs) unless the container
# shares the host's process namespace: then it can take over any process on the host.
_TRACES_THE_HOST = (option_value("--cap-add", "*sys_ptrace"), option_value("--pid", "host"))
_HOST_DISKS = ("/dev/sd*", "/dev/hd*", "/dev/vd*", "/dev/xvd*", "/dev/nvme*", "/dev/mmcblk*", "/dev/dm-*", "/dev/mapper/*", "/dev/disk/*", "/dev/mem", "/dev/kmem", "/dev/port")  # fmt: skip

# Host paths that give a container the host: its kernel interfaces and the
# container engines' control sockets (the protected and system directories
# of the policy count as well).
_HOST_INTERFACES = ("/proc", "/sys", "/dev", "/run", "/var/run")
_ENGINE_SOCKETS = (
    "/var/run/docker.sock", "/run/docker.sock", "/run/containerd/containerd.sock", "/run/podman/podman.sock",
    "/var/run/crio/crio.sock", "/run/user/*/podman/podman.sock", "/run/user/*/docker.sock",
)  # fmt: skip

# The namespaces and confinement a container shares with or drops from the host.
_SHARED_OR_UNCONFINED = {
    **dict.fromkeys(("--pid", "--ipc", "--userns", "--uts", "--cgroupns"), ("host",)),
    "--security-opt": (
        "seccomp=unconfined", "seccomp:unconfined", "apparmor=unconfined", "apparmor:unconfined", "label=disable",
        "label:disable", "systempaths=unconfined",
    ),
}  # fmt: skip


def _mount_fields(text: str) -> dict[str, str]:
    """`type=bind,src=/,dst=/host` by key."""
    fields: dict[str, str] = {}
    for field in text.split(","):
        key, _, setting = field.partition("=")
        fields[key] = setting
    return fields


def _mount_sources(found: Found) -> Iterator[tuple[Arg, Arg]]:
    """(the option's word, the host path) of each bind mount: `-v SRC:DST[:OPTS]`, `--mount ...,source=SRC,...`."""
    read = found.reading
    for use in read.uses("--volume"):
        value = use.value
        if value is None or value.value is None or ":" not in value.value:
            continue
        source = value.value.split(":", 1)[0]
        if source.startswith(("/", "~")):
            yield value, Arg((source,), value.source, value.span, value.pattern)
    for use in read.uses("--mount"):
        value = use.value
        if value is None or value.value is None:
            continue
        fields = _mount_fields(value.value)
        source = fields.get("source") or fields.get("src")
        if source and fields.get("type", "volume") == "bind":
            yield value, Arg((source,), value.source, value.span, value.pattern)


def _bind_mount(found: Found) -> Arg | None:
    """A bind mount of a host path (the cheap look before `_host_mount` asks the tables)."""
    return next((word for word, _ in _mount_sources(found)), None)


def _host_mount(found: Found) -> Arg | None:
    tables = found.tables
    host = (*tables.protected_directories, *tables.system_directories, *_HOST_INTERFACES, *_ENGINE_SOCKETS)
    for word, source in _mount_sources(found):
        if path_is(source, host) is not None:
            return word
    return None


PRIVILEGED = pack_rule(
    id="CT301",
    name="container-privileged",
    severity=Severity.HIGH,
    summary="Starts or enters a container with the host's privileges: `--privileged`, host-level capabilities (SYS_PTRACE with the host's process namespace), host disks as devices.",
    rationale="A privileged container can mount the host's disks, load kernel modules and escape to root on the host.",
    safer_alternative="Add only the capability the tool needs (`--cap-add NET_ADMIN`), or run the tool without a container.",
    matches=(
        *(command(ENGINES, path, requires=("--privileged",)) for path in (*_STARTS, *_ENTERS)),
        *(
            command(ENGINES, path, where=option_values({"--cap-add": _HOST_CAPABILITIES, "--device": _HOST_DISKS}))
            for path in _STARTS
        ),
        *(command(ENGINES, path, where=_TRACES_THE_HOST) for path in _STARTS),
    ),
    message="the container gets the host's privileges",
    must_match=(
        "docker run --privileged -v /:/mnt ubuntu",
        "docker run --cap-add=SYS_ADMIN alpine",
        "podman exec --privileged web sh",
        "docker run --device /dev/sda:/dev/xvda ubuntu",
    ),
    must_not_match=(
        "docker run --rm alpine echo hi",
        "docker run --cap-add NET_ADMIN nicolaka/netshoot",
        "docker run --rm --cap-add=SYS_PTRACE app gdb -p 1",
        "docker run --device /dev/fuse img",
        "docker run alpine --privileged",
    ),
)

HOST_MOUNT = pack_rule(
    id="CT302",
    name="container-mounts-host",
    severity=Severity.HIGH,
    summary="Bind-mounts the host's root, a system or home directory, a kernel interface or the container engine's socket into a container.",
    rationale="`-v /:/mnt` or the docker socket hands the container (and whatever runs in it) the whole host as root.",
    safer_alternative='Mount only the project directory (`-v "$PWD":/app`) or a named volume.',
    matches=tuple(command(ENGINES, path, where=(_bind_mount, _host_mount)) for path in _STARTS),
    message="the container can read and write the host",
    must_match=(
        "docker run -v /:/host alpine",
        "docker run -v /var/run/docker.sock:/var/run/docker.sock docker:cli",
        "docker run --mount type=bind,source=/etc,target=/etc ubuntu",
        "podman run -v $HOME:/home/me fedora",
    ),
    must_not_match=(
        'docker run -v "$PWD":/app node:20 npm test',
        "docker run -v data:/var/lib/postgresql/data postgres",
        "docker run -v /etc/nginx/conf.d:/etc/nginx/conf.d:ro nginx",
    ),
)

HOST_NAMESPACES = pack_rule(
    id="CT303",
    name="container-host-namespaces",
    severity=Severity.MEDIUM,
    summary="Starts a container in the host's PID, IPC, user, UTS or cgroup namespace, or without seccomp, AppArmor or SELinux confinement.",
    rationale="Shared namespaces and dropped confinement remove the walls an escape has to climb; the host's processes become visible and reachable.",
    safer_alternative="Keep the default namespaces and profiles; share only the network when the tool needs it (`--network host`).",
    matches=tuple(command(ENGINES, path, where=option_values(_SHARED_OR_UNCONFINED)) for path in _STARTS),
    message="the container shares the host's namespaces or runs unconfined",
    must_match=(
        "docker run --pid=host alpine ps aux",
        "docker run --security-opt seccomp=unconfined img",
        "podman run --userns host fedora",
    ),
    must_not_match=(
        "docker run --network host nginx",
        "docker run --pid container:web alpine",
        "docker run --security-opt no-new-privileges img",
    ),
)


def _nsenter_args(subject: CommandSubject) -> tuple[Arg, ...]:
    """The words nsenter reads: after its name, up to the command it runs."""
    if subject.name == "nsenter":
        return subject.args
    at = max(
        (index for index in range(subject.command_index) if basename(subject.argv[index].value or "") == "nsenter"),
        default=None,
    )
    return subject.argv[at + 1 : subject.command_index] if at is not None else ()


@rule(
    id="CT304",
    name="nsenter-host-init",
    severity=Severity.HIGH,
    summary="`nsenter` into the namespaces of PID 1 (`nsenter --target 1 --mount sh`).",
    rationale="PID 1's namespaces are the host's: from a privileged container this is the classic escape, on a host it is a root shell outside every sandbox.",
    safer_alternative="Run the command in the container or on the host directly, with the least privilege it needs.",
    inspects=Inspects.COMMAND,
    commands=("nsenter",),
    must_match=(
        "nsenter --target 1 --mount --uts --ipc --net --pid sh",
        "nsenter -t 1 -a",
        "sudo nsenter -t1 -m -- bash",
    ),
    must_not_match=("nsenter -t 4242 -n ip addr", "nsenter --help"),
)
def nsenter_host_init(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    spec = tables.wrappers.get("nsenter")
    if spec is None:
        return
    words = _nsenter_args(subject)
    index = 0
    while index < len(words):
        lexed = lex(spec.grammar, words, index)
        if lexed.kind is not WordKind.OPTIONS:
            return
        for use in lexed.uses:
            if use.named("-t", "--target") and use.value is not None and use.value.value == "1":
                yield Hit(use.value.span, "enters the namespaces of PID 1, the host's")
                return
        index = lexed.next_index


def _ctr_mounts_host(found: Found) -> Arg | None:
    """`ctr run --mount type=bind,src=/,dst=/host,options=rbind:rw`: a host path the policy protects."""
    tables = found.tables
    host = (*tables.protected_directories, *tables.system_directories, *_HOST_INTERFACES, *_ENGINE_SOCKETS)
    for value in found.reading.values("--mount"):
        fields = _mount_fields(value.value or "")
        source = fields.get("src") or fields.get("source")
        if source and path_is(Arg((source,), value.source, value.span), host) is not None:
            return value
    return None


# LXD/Incus settings that hand an instance the host: a privileged container runs as the host's root.
_LXC_HOST_SETTINGS = {"security.privileged": ("true", "1", "yes"), "raw.lxc": ("*",), "raw.idmap": ("*",)}


def _lxc_gives_host(found: Found) -> Arg | None:
    """`lxc config set C security.privileged true`, or `lxc config device add C NAME disk source=/ ...`."""
    words = found.reading.operands
    values = [(word.value or "").lower() for word in words]
    if values[:1] == ["set"] and len(values) >= 4:
        allowed = _LXC_HOST_SETTINGS.get(values[2])
        return words[3] if allowed is not None and ("*" in allowed or values[3] in allowed) else None
    if values[:2] == ["device", "add"] and "disk" in values:
        host = (*found.tables.protected_directories, *found.tables.system_directories, *_HOST_INTERFACES)
        for word, value in zip(words, values, strict=True):
            source = value.removeprefix("source=")
            if source != value and path_is(Arg((source,), word.source, word.span), host) is not None:
                return word
    return None


def _nspawn_host_root(found: Found) -> Arg | None:
    """`systemd-nspawn -D /`: the host's own root directory run as a container's, writable."""
    return next((value for value in found.reading.values("--directory") if path_is(value, ("/",)) is not None), None)


def _host_path_among(paths: list[str], found: Found) -> bool:
    """Whether one of the host paths given to a container is /, a protected or system directory, a
    kernel interface or a container engine's socket."""
    tables = found.tables
    host = (*tables.protected_directories, *tables.system_directories, *_HOST_INTERFACES, *_ENGINE_SOCKETS)
    return any(path_is(Arg((path,), path, found.subject.span), host) is not None for path in paths)


# The Docker Engine API's container settings that give it the host (`"Privileged": true`, `"PidMode":
# "host"`), and the host side of each bind in its `"Binds": ["/:/host"]`.
_API_HOST_SETTING = re.compile(r'"(?:Privileged"\s*:\s*true|PidMode"\s*:\s*"host")')
_API_BINDS = re.compile(r'"Binds"\s*:\s*\[([^\]]*)\]')
_API_BIND_SOURCE = re.compile(r'"([^":]+):')
_REQUEST_BODIES = ("--data", "--data-raw", "--data-binary", "--data-ascii", "--json")


def _engine_api_gives_host(found: Found) -> Arg | None:
    """`curl --unix-socket /var/run/docker.sock -d '{"HostConfig":{"Privileged":true}}'
    http://localhost/containers/create`: the engine's own API asked for a container with the host's
    privileges, process namespace or files, as `docker run` would be (CT301, CT302)."""
    read = found.reading
    if not any(path_is(socket, _ENGINE_SOCKETS) is not None for socket in read.values("--unix-socket")):
        return None
    for body in read.values(*_REQUEST_BODIES):
        text = body.value or ""
        binds = [source for listed in _API_BINDS.findall(text) for source in _API_BIND_SOURCE.findall(listed)]
        if _API_HOST_SETTING.search(text) is not None or _host_path_among(binds, found):
            return body
    return None


OTHER_RUNTIMES_HOST = pack_rule(
    id="CT106",
    name="container-runtime-gives-host",
    severity=Severity.HIGH,
    summary=(
        "Gives the host to a container of containerd, LXD/Incus, systemd-nspawn or the Docker Engine API: "
        "`ctr run --privileged`, `ctr run --mount src=/...`, `lxc config set C security.privileged true`, "
        "`systemd-nspawn -D /`, or `curl --unix-socket /var/run/docker.sock` creating a privileged "
        "container or one bound to a host directory."
    ),
    rationale=(
        "These runtimes escape as docker's do (CT301, CT302): a privileged LXD container or ctr task is "
        "root on the host, a disk device of `/` hands an LXD user the host's files, and nspawn on `/` "
        "boots the host itself with root's shell."
    ),
    safer_alternative="Keep containers unprivileged and mount only the project directory.",
    matches=(
        command("ctr", "run", requires=("--privileged",)),
        command("ctr", "run", where=_ctr_mounts_host),
        command(("lxc", "incus"), "config", where=_lxc_gives_host),
        command("systemd-nspawn", where=_nspawn_host_root),
        command("curl", where=_engine_api_gives_host),
    ),
    message="the container gets the host's privileges or files",
    must_match=(
        "ctr run --privileged docker.io/library/alpine:latest x sh",
        "ctr run --mount type=bind,src=/,dst=/host,options=rbind:rw docker.io/library/alpine:latest x",
        "lxc config set c1 security.privileged true",
        "lxc config device add c1 host disk source=/ path=/mnt/root recursive=true",
        "systemd-nspawn -D / --bind=/root",
        "curl --unix-socket /var/run/docker.sock -H 'Content-Type: application/json' "
        """-d '{"Image":"alpine","HostConfig":{"Binds":["/:/host"]}}' http://localhost/containers/create""",
    ),
    must_not_match=(
        "ctr run --rm docker.io/library/alpine:latest x echo hi",
        "lxc config set c1 limits.memory 2GB",
        "lxc config device add c1 src disk source=/home/me/project path=/src",
        "systemd-nspawn -D ./rootfs",
        "ctr images ls",
        "curl --unix-socket /var/run/docker.sock http://localhost/containers/json",
        "curl --unix-socket /var/run/docker.sock "
        """-d '{"Image":"alpine","HostConfig":{"Binds":["/home/me/app:/app"]}}' http://localhost/containers/create""",
    ),
)

# A pod spec (YAML or JSON) that gives its containers the host: a privileged container, the
# host's process or IPC namespace, or a hostPath volume of a directory the host needs.
_KUBECTL = ("kubectl", "oc")
_POD_HOST_SETTING = re.compile(r"""["']?\b(privileged|hostPID|hostIPC)["']?\s*:\s*["']?true\b""")
_POD_HOST_PATH = re.compile(
    r"""hostPath["']?\s*:\s*\{?\s*(?:["']?type["']?\s*:\s*["']?\w*["']?\s*,?\s*)?["']?path["']?\s*:\s*["']?([^\s"',}]+)"""
)


def _pod_gives_host(text: str, found: Found) -> bool:
    return _POD_HOST_SETTING.search(text) is not None or _host_path_among(_POD_HOST_PATH.findall(text), found)


def _overrides_give_host(found: Found) -> Arg | None:
    """`kubectl run --overrides='{"spec": {"hostPID": true, ...}}'`."""
    return next(
        (value for value in found.reading.values("--overrides") if _pod_gives_host(value.value or "", found)), None
    )


def _manifest_gives_host(found: Found) -> Arg | None:
    """`kubectl apply -f -` fed a heredoc or here-string, or `-f FILE` the command wrote earlier."""
    subject = found.subject
    written = dict(subject.written)
    for word in found.reading.values("--filename"):
        if word.value == "-":
            text = _document_text(subject)
        else:
            text = written.get(resolve_path(subject.cwd, word.value)) if word.value is not None else None
        if text is not None and _pod_gives_host(text, found):
            return word
    return None


def _document_text(subject: CommandSubject) -> str | None:
    """The literal text of the heredoc or here-string the command reads (run-time parts left out)."""
    stdin = subject.stdin
    if stdin is None or stdin.kind not in (StdinKind.HEREDOC, StdinKind.HERESTRING):
        return None
    return "".join(part.text for part in stdin.parts if type(part) is ast.Literal)


def _node_target(found: Found) -> Arg | None:
    """`kubectl debug node/NAME`: a pod in the node's namespaces, its root filesystem at /host."""
    operands = found.reading.operands
    return operands[0] if operands and (operands[0].value or "").startswith(("node/", "nodes/")) else None


KUBERNETES_HOST = pack_rule(
    id="CT107",
    name="kubernetes-pod-gives-host",
    severity=Severity.HIGH,
    summary=(
        "Starts a Kubernetes pod with its node's privileges, namespaces or files: `kubectl run --privileged`, "
        "`--overrides` or a manifest given on standard input or written by the command (`kubectl apply -f - "
        "<<EOF`) with `privileged: true`, `hostPID`, `hostIPC` or a `hostPath` of `/`, a system directory or "
        "the container engine's socket; `kubectl debug node/NAME`, or `--profile=sysadmin`."
    ),
    rationale=(
        "A node is a host: a pod like this escapes to root on it as `docker run --privileged -v /:/host` does "
        "(CT301, CT302), and from there reaches every pod the node runs and the credentials they carry."
    ),
    safer_alternative=(
        "Keep pods unprivileged in their own namespaces and mount only what they need; ask a cluster "
        "administrator for node access."
    ),
    matches=(
        command(_KUBECTL, "run", requires=("--privileged",), unless=_DRY_RUN),
        command(_KUBECTL, "run", unless=_DRY_RUN, where=_overrides_give_host),
        *(
            command(_KUBECTL, verb, unless=_DRY_RUN, where=_manifest_gives_host)
            for verb in ("apply", "create", "replace")
        ),
        command(_KUBECTL, "debug", where=_node_target),
        command(_KUBECTL, "debug", where=option_value("--profile", "sysadmin")),
    ),
    message="the pod gets its node's privileges or files",
    must_match=(
        "kubectl run x --image=alpine --privileged",
        """kubectl run x --image=alpine --overrides='{"spec":{"hostPID":true}}'""",
        "kubectl apply -f - <<'EOF'\nspec:\n  containers:\n  - securityContext: {privileged: true}\nEOF",
        "kubectl debug node/worker-1 -it --image=busybox",
    ),
    must_not_match=(
        "kubectl run x --image=alpine --rm -it -- sh",
        "kubectl apply -f - <<'EOF'\nspec:\n  containers:\n  - securityContext: {privileged: false}\nEOF",
        "kubectl apply -f pod.yaml",
        "kubectl debug mypod -it --image=busybox --target=app",
    ),
)

PACK = Pack(
    name="containers.host-escape",
    summary=(
        "Containers that reach the host: privileged mode, host mounts and namespaces, `nsenter` into PID 1, "
        "and the same through containerd's ctr, LXD/Incus, systemd-nspawn and a Kubernetes pod on its node."
    ),
    default=True,
    reason="A container with the host's privileges or filesystem turns any command in it into root on the developer's machine.",
    rules=(PRIVILEGED, HOST_MOUNT, HOST_NAMESPACES, nsenter_host_init, OTHER_RUNTIMES_HOST, KUBERNETES_HOST),
)
