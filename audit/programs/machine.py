"""The machine underneath: kernel modules (kmod's insmod, modprobe and rmmod), kexec, which
boots another kernel without the firmware, util-linux's mount and umount, kill, loginctl, and the
commands that take a network interface down (ip, ifconfig, ifdown, nmcli)."""

from __future__ import annotations

from ._grammar import GNU, Syntax, flag, valued
from ._program import HelpForms, Program

_HELP = HelpForms(("-h", "--help"))

# kmod: `-f` forces a module built for another kernel in; the file is the first operand, the
# module's parameters (`name=value`) follow it.
INSMOD = Program(
    ("insmod",),
    syntax=GNU,
    help_forms=_HELP,
    options=(flag("-f", "--force"), flag("-s", "--syslog"), flag("-v", "--verbose"), flag("-V", "--version"),
             flag("-h", "--help")),
    operands=("FILE", "PARAMETERS..."),
)  # fmt: skip

# kmod's modprobe: one module and its parameters, or several modules with `-a` or `-r`. A word
# with a `/` is a file, loaded as it is. `-n` only shows what would be done; `-D` and `-c` print.
MODPROBE = Program(
    ("modprobe",),
    syntax=GNU,
    help_forms=_HELP,
    options=(
        valued("-C", "--config"), valued("-d", "--dirname"), valued("-S", "--set-version"), valued("-w", "--wait"),
        flag("-a", "--all"), flag("-b", "--use-blacklist"), flag("-c", "--showconfig"),
        flag("-D", "--show-depends"), flag("--dump-modversions"), flag("-f", "--force"),
        flag("--force-modversion"), flag("--force-vermagic"), flag("-i", "--ignore-install", "--ignore-remove"),
        flag("-n", "--dry-run", "--show"), flag("-q", "--quiet"), flag("-R", "--resolve-alias"),
        flag("-r", "--remove"), flag("--remove-dependencies"), flag("--remove-holders"),
        flag("--show-exports"), flag("--show-modversions"), flag("-s", "--syslog"), flag("-v", "--verbose"),
        flag("-V", "--version"), flag("--first-time"), flag("-h", "--help"),
    ),
    operands=("MODULE", "ARGUMENTS..."),
)  # fmt: skip

# `-f` removes a module the kernel says is in use (its users crash).
RMMOD = Program(
    ("rmmod",),
    syntax=GNU,
    help_forms=_HELP,
    options=(flag("-f", "--force"), flag("-s", "--syslog"), flag("-v", "--verbose"), flag("-V", "--version"),
             flag("-h", "--help")),
    operands=("MODULE...",),
)  # fmt: skip

# kexec-tools: `-l` loads a kernel, `-e` boots the loaded one at once, `-p` loads one for a
# panic; `kexec KERNEL` with none of them loads and boots it. `-u` unloads, `-S` asks.
KEXEC = Program(
    ("kexec",),
    syntax=GNU,
    help_forms=_HELP,
    options=(
        valued("-t", "--type"), valued("--initrd", "--ramdisk"), valued("--append", "--command-line"),
        valued("--dtb"), valued("--mem-min"), valued("--mem-max"), flag("-l", "--load"), flag("-e", "--exec"),
        flag("-p", "--load-panic"), flag("-u", "--unload"), flag("-S", "--status"), flag("-s", "--kexec-file-syscall"),
        flag("-c", "--kexec-syscall"), flag("-a", "--kexec-syscall-auto"), flag("-f", "--force"),
        flag("-x", "--no-ifdown"), flag("-y", "--no-sync"), flag("-i", "--no-checks"), flag("--reuse-cmdline"),
        flag("-d", "--debug"), flag("-v", "--version"), flag("-h", "--help"),
    ),
    operands=("KERNEL",),
)  # fmt: skip

# util-linux mount: `mount [options] SOURCE TARGET`, one operand for an fstab entry, none to list.
# `-B`/`-R` (or `-o bind`) mount a directory over another; `-f` only pretends.
MOUNT = Program(
    ("mount",),
    syntax=GNU,
    help_forms=_HELP,
    options=(
        valued("-t", "--types"), valued("-o", "--options"), valued("-O", "--test-opts"), valued("-L", "--label"),
        valued("-U", "--uuid"), valued("-T", "--fstab"), valued("-N", "--namespace"), valued("--source"),
        valued("--target"), valued("--target-prefix"), flag("-a", "--all"), flag("-B", "--bind"),
        flag("-R", "--rbind"), flag("-M", "--move"), flag("-r", "--read-only"), flag("-w", "--rw", "--read-write"),
        flag("-f", "--fake"), flag("-n", "--no-mtab"), flag("-l", "--show-labels"), flag("-s"),
        flag("-i", "--internal-only"), flag("-c", "--no-canonicalize"), flag("-F", "--fork"),
        flag("-m", "--mkdir"), flag("-v", "--verbose"), flag("-V", "--version"), flag("-h", "--help"),
        flag("--make-private"), flag("--make-rprivate"), flag("--make-shared"), flag("--make-rshared"),
        flag("--make-slave"), flag("--make-rslave"), flag("--make-unbindable"), flag("--make-runbindable"),
    ),
    operands=("SOURCE", "TARGET"),
)  # fmt: skip

# `-l` detaches at once and cleans up when no longer busy; `-a` unmounts everything in /proc/self/mountinfo.
UMOUNT = Program(
    ("umount",),
    syntax=GNU,
    help_forms=_HELP,
    options=(
        valued("-t", "--types"), valued("-O", "--test-opts"), valued("-N", "--namespace"), flag("-a", "--all"),
        flag("-A", "--all-targets"), flag("-c", "--no-canonicalize"), flag("-d", "--detach-loop"),
        flag("--fake"), flag("-f", "--force"), flag("-i", "--internal-only"), flag("-n", "--no-mtab"),
        flag("-l", "--lazy"), flag("-R", "--recursive"), flag("-r", "--read-only"), flag("-q", "--quiet"),
        flag("-v", "--verbose"), flag("-V", "--version"), flag("-h", "--help"),
    ),
    operands=("TARGET...",),
)  # fmt: skip

# bash's kill builtin (and procps' kill): one option a word, so `-KILL` is a signal, not a cluster;
# `-9` and `-SIGKILL` name the signal in the option itself, `-s`/`-n` in its value. `-l`/`-L` list
# signal names and send nothing.
KILL = Program(
    ("kill",),
    syntax=Syntax(clusters=False, numbers=True),
    options=(valued("-s"), valued("-n"), flag("-l"), flag("-L")),
    operands=("PID...",),
)

# systemd's loginctl: `terminate-user`, `kill-user` and their session kin end every process of a login.
LOGINCTL = Program(
    ("loginctl",),
    syntax=GNU,
    help_forms=_HELP,
    options=(
        valued("-H", "--host"), valued("-M", "--machine"), valued("-p", "--property"), valued("-s", "--signal"),
        valued("--kill-whom"), valued("-n", "--lines"), valued("-o", "--output"), flag("-a", "--all"),
        flag("-l", "--full"), flag("--value"), flag("--no-pager"), flag("--no-legend"), flag("--no-ask-password"),
        flag("-h", "--help"), flag("--version"),
    ),
    operands=("COMMAND", "ARGUMENTS..."),
)  # fmt: skip

# iproute2's ip: `ip [OPTIONS] OBJECT COMMAND ARGUMENTS`; its options are single-dash words.
IP = Program(
    ("ip",),
    syntax=Syntax(clusters=False),
    options=(
        flag("-4"), flag("-6"), flag("-0"), flag("-br", "-brief"), flag("-c", "-color"), flag("-d", "-details"),
        flag("-s", "-stats", "-statistics"), flag("-j", "-json"), flag("-p", "-pretty"), flag("-o", "-oneline"),
        flag("-r", "-resolve"), flag("-a", "-all"), valued("-n", "-netns"), valued("-b", "-batch"),
        valued("-f", "-family"), flag("-V", "-Version"), flag("-h", "-help"),
    ),
    operands=("OBJECT", "COMMAND", "ARGUMENTS..."),
)  # fmt: skip

# net-tools' ifconfig (`ifconfig eth0 down`) and ifupdown's ifdown.
IFCONFIG = Program(("ifconfig",), options=(flag("-a"), flag("-s"), flag("-v")), operands=("INTERFACE", "SETTINGS..."))
IFDOWN = Program(
    ("ifdown",),
    syntax=GNU,
    options=(flag("-a", "--all"), flag("-f", "--force"), flag("-n", "--no-act"), flag("-v", "--verbose"),
             valued("-i", "--interfaces"), valued("-X", "--exclude"), flag("-h", "--help")),
    operands=("INTERFACE...",),
)  # fmt: skip

# NetworkManager's nmcli: `nmcli [OPTIONS] OBJECT COMMAND ARGUMENTS` (`nmcli networking off`).
NMCLI = Program(
    ("nmcli",),
    syntax=Syntax(clusters=False),
    options=(
        valued("-t", "--terse"), flag("-p", "--pretty"), valued("-m", "--mode"), valued("-f", "--fields"),
        valued("-g", "--get-values"), valued("-c", "--colors"), flag("-e", "--escape"), flag("-a", "--ask"),
        flag("-s", "--show-secrets"), valued("-w", "--wait"), flag("-v", "--version"), flag("-h", "--help"),
    ),
    operands=("OBJECT", "COMMAND", "ARGUMENTS..."),
)  # fmt: skip

MACHINE_PROGRAMS: tuple[Program, ...] = (
    INSMOD, MODPROBE, RMMOD, KEXEC, MOUNT, UMOUNT, KILL, LOGINCTL, IP, IFCONFIG, IFDOWN, NMCLI,
)  # fmt: skip
