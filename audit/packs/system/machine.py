"""system.machine: the machine an agent runs on, taken over or cut off.

Kernel code loaded from a file or forced in (SC007), the running kernel replaced by kexec
(SC008), kernel modules the machine's security, storage or network rely on removed (SC009), a
file system mounted over a system directory or the root file system unmounted (SC010), the
services that keep the machine reachable or run its containers stopped or the web going out dropped
by its firewall (SC011), its operators locked out by ssh stopped, the network taken down or ssh
dropped by its firewall (SC017, `lockout.py`), init or every process a `ps` lists killed (SC012), and
every process of a runtime or whatever holds a service's port killed (SC018, SC019, `broad_kills.py`). `kill -1`, `killall5`, powering off and writing to /proc/sysrq-trigger are core
rules (DO003, DO004), older than this pack, and a redirect names no program.
"""

from __future__ import annotations

from fnmatch import fnmatchcase

from ..._model import Severity
from ...programs import Arg
from ...rules._pack import Pack
from ...rules._paths import cleaned_values, path_is
from .._invocation import Found, any_operand, command, listed_by, operand, pack_rule
from .broad_kills import BROAD_KILLS
from .controls import IPTABLES_NAMES
from .interfaces import firewall_cuts_outbound
from .lockout import REMOTE_ACCESS_CUT
from .processes import killed_by_listing, killed_by_name
from .service_stops import SERVICE_MANAGERS, stops_service


def _module_words(found: Found) -> tuple[Arg, ...]:
    """The modules named: every operand with `-a` or `-r`, else the first (the rest are its parameters)."""
    operands = found.reading.operands
    return operands if found.reading.has("--all", "--remove") else operands[:1]


def _module_from_file(found: Found) -> Arg | None:
    """`modprobe ./rootkit.ko`, `modprobe /tmp/x.ko`: a word with a `/` or a module file's suffix is
    loaded from that file, not from the modules the system's packages installed."""
    return next(
        (
            word
            for word in _module_words(found)
            if any("/" in value or value.endswith(".ko") or ".ko." in value for value in word.values)
        ),
        None,
    )


_MODPROBE_ONLY_SHOWS = ("--dry-run", "--show-depends", "--showconfig", "--dump-modversions", "--show-exports")
_MODPROBE_FORCES = ("--force", "--force-vermagic", "--force-modversion")

KERNEL_MODULE_LOADED = pack_rule(
    id="SC007",
    name="kernel-module-loaded-from-file",
    severity=Severity.HIGH,
    summary=(
        "Loads code into the running kernel from a file or by force: `insmod FILE.ko`, `modprobe "
        "./x.ko` or `modprobe /path/x.ko`, `modprobe --force` (or `--force-vermagic`, `--force-modversion`)."
    ),
    rationale=(
        "A kernel module runs with no boundary at all: it can hide files and processes, read every "
        "process's memory and turn every other control off, which is how rootkits install. A module "
        "from a file has passed no package manager, and a forced one was built for another kernel and "
        "can crash this one. It blocks; loading a module the system ships by name (`modprobe "
        "br_netfilter`) passes."
    ),
    safer_alternative=(
        "Load the module the distribution ships by its name (`modprobe NAME`), check it first with "
        "`modprobe -n -v NAME` or `modinfo`, or ask a human to install a module from a file."
    ),
    matches=(
        command("insmod", where=any_operand("*")),
        command("modprobe", unless=(*_MODPROBE_ONLY_SHOWS, "--remove"), where=_module_from_file),
        command("modprobe", any_of=_MODPROBE_FORCES, unless=(*_MODPROBE_ONLY_SHOWS, "--remove")),
    ),
    message="loads code into the running kernel from a file or by force",
    must_match=(
        "insmod /tmp/rootkit.ko",
        "sudo insmod ./hello.ko debug=1",
        "modprobe /tmp/x.ko",
        "modprobe ./drivers/net.ko.xz",
        "modprobe --force nvidia",
        "modprobe -f vboxdrv",
    ),
    must_not_match=(
        "lsmod",
        "modinfo e1000",
        "modprobe br_netfilter",
        "modprobe -n -v br_netfilter",
        "modprobe -D ./x.ko",
        "modprobe snd-hda-intel model=auto firmware=/lib/firmware/x.bin",
        "insmod --help",
    ),
)

# Unloading the kernel that was loaded, or asking whether there is one.
_KEXEC_ASKS = ("--unload", "--status")

KERNEL_REPLACED = pack_rule(
    id="SC008",
    name="kernel-replaced-by-kexec",
    severity=Severity.HIGH,
    summary=(
        "Loads another kernel to boot without the firmware, or boots it at once: `kexec -l KERNEL`, "
        "`kexec -e`, `kexec -p`, `kexec KERNEL`."
    ),
    rationale=(
        "`kexec -e` replaces the running kernel on the spot: every process dies without a shutdown, "
        "disks are not synced unless the caller did, and the machine comes back running whatever "
        "kernel and command line were loaded, past secure boot's and the boot loader's checks. A "
        "kernel loaded now boots on the next `kexec -e` or `systemctl kexec`. It blocks."
    ),
    safer_alternative="Leave kernels and reboots to a human; `kexec -S` says whether one is loaded.",
    matches=(
        command("kexec", any_of=("--load", "--exec", "--load-panic"), unless=_KEXEC_ASKS),
        command("kexec", unless=_KEXEC_ASKS, where=any_operand("*")),
    ),
    message="loads or boots another kernel, skipping the firmware and the boot loader",
    must_match=(
        "kexec -l /boot/vmlinuz --initrd=/boot/initrd.img --reuse-cmdline",
        "kexec -e",
        "sudo kexec -p /tmp/vmlinuz",
    ),
    must_not_match=("kexec -u", "kexec -S", "kexec --help", "kexec --version"),
)

# Modules whose removal takes a protection away, or the disks and network the machine runs on.
_GUARDING_MODULES = (
    # security: firewalls, audit helpers, lockdown
    "ip_tables", "ip6_tables", "iptable_filter", "ip6table_filter", "nf_tables", "nft_*", "x_tables", "nf_conntrack",
    "br_netfilter", "lockdown", "yama", "tpm*", "dm_verity",
    # storage: encrypted and mapped block devices, RAID, filesystems, disk controllers
    "dm_*", "md_mod", "raid*", "ext4", "xfs", "btrfs", "zfs", "nvme",
    "nvme_core", "ahci", "libahci", "sd_mod", "virtio_blk", "virtio_scsi", "scsi_mod",
    # network: the machine's own network interfaces and bonding
    "virtio_net", "e1000*", "igb", "ixgbe", "i40e", "ice", "mlx*", "ena", "vmxnet3", "bonding", "8021q",
    "bridge", "wireguard",
)  # fmt: skip


def _guarding_module(found: Found) -> Arg | None:
    """A module named among those the machine's protection, storage or network depend on;
    `-f` makes any module one (the kernel's refusal of an in-use module is skipped)."""
    words = found.reading.operands if found.subject.name == "rmmod" else _module_words(found)
    forced = found.reading.has("--force")
    for word in words:
        names = [_module_name(value) for value in word.values]
        if any(name and (forced or _guards(name)) for name in names):
            return word
    return None


def _module_name(word: str) -> str:
    """The module a word names: rmmod also takes the module's file (`/lib/modules/.../dm-crypt.ko`),
    and kmod reads `-` and `_` alike. Empty for a word that names none (`/`)."""
    name = word.rsplit("/", 1)[-1]
    return name.split(".ko", 1)[0].replace("-", "_")


def _guards(name: str) -> bool:
    return any(fnmatchcase(name, pattern) for pattern in _GUARDING_MODULES)


KERNEL_MODULE_REMOVED = pack_rule(
    id="SC009",
    name="kernel-module-removed",
    severity=Severity.MEDIUM,
    summary=(
        "Removes a kernel module the machine's firewall, disks or network rely on (`rmmod dm_crypt`, "
        "`modprobe -r nf_tables`, `rmmod nvme`), or any module by force (`rmmod -f`)."
    ),
    rationale=(
        "Unloading the firewall's tables drops its rules, and unloading a disk or network driver "
        "takes the disks or the network with it; `-f` removes a module the kernel says is in use, "
        "which crashes its users. It warns: the kernel refuses most such removals while the module "
        "is busy, and reloading a driver is a real debugging step."
    ),
    safer_alternative="List what uses the module first (`lsmod`, `modinfo`), and ask a human before unloading it.",
    matches=(
        command("rmmod", where=_guarding_module),
        command("modprobe", requires=("--remove",), unless=("--dry-run",), where=_guarding_module),
    ),
    message="removes a kernel module the machine's protection, disks or network rely on",
    must_match=(
        "rmmod dm_crypt",
        "sudo modprobe -r nf_tables",
        "rmmod -f vboxdrv",
        "modprobe -r -a nvme xfs",
        "rmmod /lib/modules/6.8.0/kernel/drivers/md/dm-crypt.ko",
    ),
    must_not_match=(
        "rmmod vboxdrv",
        "modprobe -r snd_hda_intel",
        "modprobe -r -n dm_crypt",
        "lsmod | grep nvme",
        "rmmod -f /",
    ),
)


# Below these, a file mounted over another replaces a system program, library or setting.
_SYSTEM_TREES = ("/etc/", "/usr/", "/bin/", "/sbin/", "/lib/", "/lib64/", "/lib32/", "/boot/")


def _mount_target(found: Found) -> Arg | None:
    """Where the mount goes: `--target`, else the second operand (one operand is an fstab entry)."""
    targets = found.reading.values("--target")
    if targets:
        return targets[-1]
    operands = found.reading.operands
    return operands[1] if len(operands) == 2 else None


def _remounts(found: Found) -> bool:
    """`-o remount,...` changes the flags of what is already mounted there; it hides nothing."""
    return any("remount" in value.split(",") for arg in found.reading.values("--options") for value in arg.values)


def _over_system_path(found: Found) -> Arg | None:
    """A mount whose target is a protected directory (`/`, `/etc`, `/usr`, the home directory...), a
    credential store (`~/.ssh`), or a file or directory under a system tree (`/usr/bin/sudo`)."""
    target = _mount_target(found)
    if target is None or _remounts(found):
        return None
    tables, cwd = found.tables, found.subject.cwd
    if path_is(target, (*tables.protected_directories, *tables.credential_stores), cwd) is not None:
        return target
    under = any(value.startswith(_SYSTEM_TREES) for value in cleaned_values(target, cwd))
    return target if under else None


# Unmounting these takes the programs, logs or homes of everything running away.
_ROOT_MOUNTS = ("/", "/usr", "/var", "/home", "/etc")


def _unmounts_root(found: Found) -> Arg | None:
    """`umount /`, `umount -l /usr`, or `umount -a` (every mount not narrowed by `-t`)."""
    if found.reading.has("--all") and not found.reading.has("--types"):
        return found.reading.args[0]
    cwd = found.subject.cwd
    return next((word for word in found.reading.operands if path_is(word, _ROOT_MOUNTS, cwd) is not None), None)


MOUNTED_OVER_SYSTEM = pack_rule(
    id="SC010",
    name="mount-over-system-directory",
    severity=Severity.HIGH,
    summary=(
        "Mounts something over a system directory or file, or unmounts the root file system: `mount "
        "--bind SRC /etc` (or `/usr`, `/bin`, `/boot`, `~/.ssh`, `/usr/bin/sudo`), `mount -t tmpfs tmpfs "
        "/etc`, `umount -l /`, `umount -a`."
    ),
    rationale=(
        "A mount over `/etc` or `/usr/bin` hides the real files behind whatever the source holds: "
        "every program that starts afterwards reads the replacement's passwords, sudoers, binaries "
        "and keys, and nothing on disk changed to show it. Unmounting `/` (lazily, it always "
        "succeeds) takes the files of every running program away. It blocks."
    ),
    safer_alternative=(
        "Mount into a directory of your own (`mount --bind SRC /tmp/work/etc`), or use a container "
        "or chroot for a different system tree; `mount -o remount` changes flags without hiding anything."
    ),
    matches=(
        command("mount", unless=("--fake",), where=_over_system_path),
        command("umount", unless=("--fake",), where=_unmounts_root),
    ),
    message="mounts over a system directory or unmounts the root file system",
    must_match=(
        "mount --bind /tmp/x /etc",
        "sudo mount -o bind /tmp/x /usr",
        "mount --rbind /tmp/keys ~/.ssh",
        "mount -t tmpfs tmpfs /etc",
        "mount --bind /tmp/fake-sudo /usr/bin/sudo",
        "umount -l /",
        "umount /",
        "umount -a",
    ),
    must_not_match=(
        "mount",
        "mount | grep /dev",
        "mount -t tmpfs tmpfs /tmp/x",
        "mount --bind /etc /tmp/etc-view",
        "mount /dev/sdb1 /mnt/data",
        "mount /boot",
        "mount -o remount,rw /",
        "mount -f --bind /tmp/x /etc",
        "umount /mnt/data",
        "umount -a -t nfs",
    ),
)

# Units whose loss may cut the machine off the network, or stops its containers (the ssh server and
# the services that take every interface down are SC017's, a lock-out).
_LIFELINE_UNITS = (
    "systemd-networkd", "NetworkManager", "systemd-resolved", "wpa_supplicant", "dhcpcd", "tailscaled", "docker",
    "docker.socket", "containerd",
)  # fmt: skip
# The processes of those services, by the names a kill by name matches.
_LIFELINE_PROCESSES = (
    "systemd-networkd", "NetworkManager", "networkd-dispatcher", "systemd-resolved", "wpa_supplicant",
    "dhcpcd", "dhclient", "tailscaled", "dockerd", "containerd",
)  # fmt: skip
# loginctl commands that end every process of a user's logins or of a session.
_SESSION_ENDINGS = ("terminate-user", "kill-user", "terminate-session", "kill-session", "terminate-seat")

LIFELINE_SERVICE_STOPPED = pack_rule(
    id="SC011",
    name="remote-access-service-stopped",
    severity=Severity.MEDIUM,
    summary=(
        "Stops a service the machine is reached through or that runs its containers (`systemctl stop "
        "NetworkManager`, `systemctl stop systemd-resolved`, `pkill tailscaled`, `systemctl stop docker`), "
        "ends a user's logins (`loginctl terminate-user`), or has the firewall drop the web or everything "
        "going out (`iptables -A OUTPUT -p tcp --dport 443 -j REJECT`)."
    ),
    rationale=(
        "Stopping the network manager, the resolver or a VPN daemon can cut the machine off, and stopping "
        "docker stops every container. It warns: these daemons leave the interfaces configured when they "
        "stop, freeing the resolver's port for a local DNS server is common, and a local machine survives "
        "it. Stopping ssh or taking the interface down is SC017's, a lock-out."
    ),
    safer_alternative=(
        "`systemctl restart` or `reload` the service after a change (`sshd -t` checks its configuration "
        "first), or stop only the container or connection you mean."
    ),
    matches=(
        command(SERVICE_MANAGERS, where=stops_service(*_LIFELINE_UNITS)),
        command(("pkill", "killall"), where=killed_by_name(*_LIFELINE_PROCESSES)),
        command("kill", unless=("-l", "-L"), where=killed_by_listing(*_LIFELINE_PROCESSES)),
        command("loginctl", where=operand("COMMAND", *_SESSION_ENDINGS)),
        command(IPTABLES_NAMES, where=firewall_cuts_outbound),
    ),
    message="stops a service the machine is reached through or that runs its containers, or ends every login",
    must_match=(
        "pkill -x NetworkManager",
        "loginctl terminate-user $USER",
        "systemctl stop systemd-networkd",
        "systemctl mask NetworkManager.service",
        "systemctl stop docker",
        "iptables -A OUTPUT -p tcp --dport 443 -j REJECT",
    ),
    must_not_match=(
        "systemctl restart nginx",
        "systemctl stop nginx",
        "service ssh status",
        "kill $(pgrep -f 'node server.js')",
        "loginctl list-sessions",
        "iptables -A INPUT -j DROP",
        "iptables -A OUTPUT -p tcp --dport 25 -j DROP",
        "systemctl stop sshd",
    ),
)

# The names PID 1 runs under.
_INIT = ("systemd", "init")

# Signals init takes in stride: 0 only asks whether it exists, HUP makes it reread its configuration.
_HARMLESS_TO_INIT = frozenset({"0", "SIG0", "1", "HUP", "SIGHUP"})


def _signal(found: Found) -> str:
    """The signal `kill` sends (`-9`, `-KILL`, `-SIGKILL`, `-s KILL`, `-n 9`), upper-case; TERM by default."""
    for use in found.reading.options:
        if use.named("-s", "-n"):
            return (use.value.value or "?").upper() if use.value is not None else "?"
        if not use.declared:
            return use.spelling[1:].upper()
    return "TERM"


def _signals_init(found: Found) -> Arg | None:
    """PID 1: init (systemd) on a machine, the main process in a container; SIGINT reboots
    under systemd, and a container whose PID 1 dies stops."""
    if _signal(found) in _HARMLESS_TO_INIT:
        return None
    return next((word for word in found.reading.operands if word.value == "1"), None)


# A process listing narrowed to some processes (`ps -u bob -o pid=`, `ps -C node -o pid=`).
_PS_NARROWING = ("-p", "-q", "-u", "-U", "-g", "-G", "-C", "-t", "-s", "--pid", "--ppid", "--quick-pid",
                 "--user", "--User", "--group", "--Group", "--tty", "--sid")  # fmt: skip


def _lists_every_process(words: list[str]) -> bool:
    return not any(word.startswith(_PS_NARROWING) for word in words[1:])


INIT_OR_EVERY_LISTED_PROCESS_KILLED = pack_rule(
    id="SC012",
    name="init-or-every-listed-process-killed",
    severity=Severity.HIGH,
    summary=(
        "Signals PID 1 (`kill -9 1`, `kill -KILL 1`, `kill -INT 1`, `pkill systemd`, `killall init`), or every "
        "process an unnarrowed `ps` lists (`ps -eo pid= | xargs kill -9`, `kill -9 $(ps -eo pid=)`)."
    ),
    rationale=(
        "PID 1 is init: SIGINT reboots a systemd machine, other signals make it re-execute or, in a "
        "container, end the container with everything in it. A `ps` listing nothing narrows is every "
        "process, init and the agent's own shell included. It blocks; `kill -1` and `killall5` are "
        "DO003's."
    ),
    safer_alternative="Kill the process you started by its PID, or narrow the listing (`pgrep -f 'node server.js'`).",
    matches=(
        command("kill", unless=("-l", "-L"), where=_signals_init),
        command("kill", unless=("-l", "-L"), where=listed_by("ps", selects_all=_lists_every_process)),
        command(("pkill", "killall"), where=killed_by_name(*_INIT)),
        command("kill", unless=("-l", "-L"), where=killed_by_listing(*_INIT)),
    ),
    message="signals init or every process on the machine",
    must_match=(
        "kill -9 1",
        "sudo kill -KILL 1",
        "kill -s SIGINT 1",
        "kill 1",
        "ps -eo pid= | xargs kill -9",
        "ps aux | grep -v grep | awk '{print $2}' | xargs kill -9",
        "kill -9 $(ps -e -o pid=)",
        "pkill -9 -f 'sshd|systemd'",
        "killall -9 init",
    ),
    must_not_match=(
        "kill 12345",
        "kill -9 $PID",
        "kill %1",
        "kill -0 1",
        "kill -HUP 1",
        "kill -l 1",
        "kill -9 10 11",
        "ps -u bob -o pid= | xargs kill",
        "ps aux | grep node | awk '{print $2}' | xargs kill",
        "kill $(ps -C node -o pid=)",
        "kill -9 $(pgrep -f 'node server.js')",
    ),
)

PACK = Pack(
    name="system.machine",
    summary=(
        "The machine itself: kernel code loaded or replaced, kernel modules removed, mounts over "
        "system directories, the services that keep it reachable stopped, init or every process killed."
    ),
    default=True,
    reason=(
        "An agent's tasks never need a kernel module from a file, a new kernel or a mount over /etc, "
        "and each of these hands the whole machine to whoever wrote the file or cuts it off."
    ),
    rules=(
        KERNEL_MODULE_LOADED,
        KERNEL_REPLACED,
        KERNEL_MODULE_REMOVED,
        MOUNTED_OVER_SYSTEM,
        LIFELINE_SERVICE_STOPPED,
        REMOTE_ACCESS_CUT,
        INIT_OR_EVERY_LISTED_PROCESS_KILLED,
        *BROAD_KILLS,
    ),
)
