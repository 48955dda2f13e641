"""Disks, volume managers and power: filesystem makers and signature wipers
(which operand is the device, which options only show: the core FS rules),
ZFS, LVM, mdadm, cryptsetup, btrfs, nvme-cli and hdparm (the disks pack), and
the commands that stop the machine (which options only show or cancel: DO)."""

from __future__ import annotations

from ._arg import Arg
from ._grammar import Syntax, attached, flag, valued
from ._program import Program, Reading
from ._tree import leaf, tree

_HELP = (flag("-h", "--help"), flag("--version"))
# glibc getopt without long options (e2fsprogs, xfsprogs): options may follow the device.
_GETOPT = Syntax()

# e2fsprogs' mke2fs (mkfs.ext2/3/4 are mke2fs): `-n` shows what it would do, `-V` its version.
MKE2FS = Program(
    ("mke2fs", "mkfs.ext2", "mkfs.ext3", "mkfs.ext4"),
    syntax=_GETOPT,
    options=(
        valued("-b"), valued("-C"), valued("-d"), valued("-E"), valued("-e"), valued("-G"), valued("-g"),
        valued("-I"), valued("-i"), valued("-J"), valued("-L"), valued("-l"), valued("-M"), valued("-m"),
        valued("-N"), valued("-O"), valued("-o"), valued("-r"), valued("-T"), valued("-t"), valued("-U"),
        valued("-z"), flag("-c"), flag("-D"), flag("-F"), flag("-j"), flag("-K"), flag("-n"), flag("-q"),
        flag("-S"), flag("-v"), flag("-V"),
    ),
    operands=("DEVICE", "SIZE"),
)  # fmt: skip

# util-linux's mkfs front end: `-V` is verbose there, `--version` its version.
MKFS = Program(
    ("mkfs",),
    options=(valued("-t", "--type"), flag("-V", "--verbose"), *_HELP),
    operands=("DEVICE", "SIZE"),
)

MKFS_XFS = Program(
    ("mkfs.xfs",),
    syntax=_GETOPT,
    options=(
        valued("-b"), valued("-d"), valued("-i"), valued("-l"), valued("-L"), valued("-m"), valued("-n"),
        valued("-p"), valued("-r"), valued("-s"), flag("-f"), flag("-K"), flag("-N"), flag("-q"), flag("-V"),
    ),
    operands=("DEVICE",),
)  # fmt: skip

# dosfstools: `-C` creates the image file named as the device.
MKFS_FAT = Program(
    ("mkfs.fat", "mkfs.vfat", "mkfs.msdos", "mkdosfs"),
    options=(
        valued("-a"), valued("-A"), valued("-b"), valued("-D"), valued("-f"), valued("-F"), valued("-g"),
        valued("-h"), valued("-i"), valued("-l"), valued("-m"), valued("-M"), valued("-n"), valued("-r"),
        valued("-R"), valued("-s"), valued("-S"), valued("--codepage"), valued("--offset"), flag("-c"),
        flag("-C"), flag("-I"), flag("-v"), flag("--help"), flag("--version"),
    ),
    operands=("DEVICE", "BLOCK-COUNT"),
)  # fmt: skip

MKFS_BTRFS = Program(
    ("mkfs.btrfs",),
    options=(
        valued("-d", "--data"), valued("-m", "--metadata"), valued("-n", "--nodesize"), valued("-s", "--sectorsize"),
        valued("-L", "--label"), valued("-U", "--uuid"), valued("-O", "--features"), valued("-r", "--rootdir"),
        valued("-b", "--byte-count"), valued("--csum"), flag("-f", "--force"), flag("-K", "--nodiscard"),
        flag("-q", "--quiet"), flag("-V", "--version"), flag("--help"),
    ),
    operands=("DEVICE...",),
)  # fmt: skip

MKSWAP = Program(
    ("mkswap",),
    options=(
        valued("-L", "--label"), valued("-U", "--uuid"), valued("-p", "--pagesize"), attached("--lock"),
        valued("-e", "--endianness"), valued("-o", "--offset"), valued("-s", "--size"), flag("-c", "--check"),
        flag("-f", "--force"), flag("-q", "--quiet"), flag("-v", "--swapversion"), flag("--verbose"),
        valued("-F", "--file"), *_HELP, flag("-V"),
    ),
    operands=("DEVICE", "SIZE"),
)  # fmt: skip

# wipefs erases only with -a or -o; `-n` (--no-act) only shows, and without either it lists.
WIPEFS = Program(
    ("wipefs",),
    options=(
        flag("-a", "--all"), valued("-o", "--offset"), valued("-t", "--types"), flag("-n", "--no-act"),
        flag("-f", "--force"), flag("-b", "--backup"), valued("-O", "--output"), flag("-J", "--json"),
        flag("-i", "--noheadings"), flag("-p", "--parsable"), flag("-q", "--quiet"), attached("--lock"),
        *_HELP, flag("-V"),
    ),
    operands=("DEVICE...",),
)  # fmt: skip


def _written_test(reading: Reading) -> tuple[Arg, ...]:
    """`badblocks -w DEVICE` overwrites the device with test patterns (read-only without -w)."""
    return reading.operands[:1] if reading.has("-w") else ()


BADBLOCKS = Program(
    ("badblocks",),
    syntax=_GETOPT,
    options=(
        valued("-b"), valued("-c"), valued("-d"), valued("-e"), valued("-i"), valued("-o"), valued("-p"),
        valued("-t"), flag("-f"), flag("-n"), flag("-s"), flag("-v"), flag("-w"), flag("-B"), flag("-X"),
    ),
    operands=("DEVICE", "LAST-BLOCK", "FIRST-BLOCK"),
    writes=_written_test,
)  # fmt: skip

# systemd's shutdown: `-c` cancels a pending shutdown, `-k` only sends the warning, `--show` shows it.
SHUTDOWN = Program(
    ("shutdown",),
    options=(
        flag("-H", "--halt"), flag("-P", "--poweroff"), flag("-r", "--reboot"), flag("-h"), flag("-k"),
        flag("--no-wall"), flag("-c"), flag("--show"), flag("--help"), flag("--version"),
    ),
    operands=("TIME", "WALL..."),
)  # fmt: skip

# systemctl's options that take a value; `--when cancel` cancels a scheduled power-off.
SYSTEMCTL = Program(
    ("systemctl",),
    options=(
        valued("-H", "--host"), valued("-M", "--machine"), valued("-t", "--type"), valued("-p", "--property"),
        valued("-P"), valued("--state"), valued("-n", "--lines"), valued("-o", "--output"), valued("-s", "--signal"),
        valued("--kill-whom", "--kill-value"), valued("--root"), valued("--image"), valued("--when"),
        valued("--message"), valued("--reboot-argument"), valued("--boot-loader-entry"),
        valued("--boot-loader-menu"), valued("--timestamp"), valued("--what"), valued("--job-mode"),
        valued("--preset-mode"), valued("--check-inhibitors"), valued("--drop-in"), flag("-i", "--ignore-inhibitors"),
        flag("-f", "--force"), flag("--user"), flag("--system"), flag("--now"), flag("-q", "--quiet"),
        flag("--no-block"), flag("--no-wall"), flag("-a", "--all"), flag("-l", "--full"),
    ),
)  # fmt: skip

_FORCE = flag("-f", "--force")

ZFS = Program(
    ("zfs",),
    syntax=Syntax(permute=False),
    subcommands=tree(
        leaf("destroy", flag("-r"), flag("-R"), flag("-f"), flag("-n"), flag("-p"), flag("-v"), flag("-d"), operands=("TARGET",)),
        leaf("rollback", flag("-r"), flag("-R"), flag("-f"), operands=("SNAPSHOT",)),
        leaf("list", flag("-r"), flag("-H"), valued("-t"), valued("-o"), operands=("TARGET...",)),
    ),
)  # fmt: skip

ZPOOL = Program(
    ("zpool",),
    syntax=Syntax(permute=False),
    subcommands=tree(
        leaf("destroy", flag("-f"), operands=("POOL",)),
        leaf("labelclear", flag("-f"), operands=("DEVICE",)),
        leaf("status|list", flag("-v"), operands=("POOL...",)),
    ),
)

# LVM's removal tools: `--test` runs without changing anything.
_LVM_OPTIONS = (_FORCE, flag("-y", "--yes"), flag("-t", "--test"), flag("-v", "--verbose"), flag("-q", "--quiet"))
LVREMOVE = Program(("lvremove",), options=(*_LVM_OPTIONS, flag("-A", "--autobackup")), operands=("LV...",))
VGREMOVE = Program(("vgremove",), options=_LVM_OPTIONS, operands=("VG...",))
PVREMOVE = Program(("pvremove",), options=_LVM_OPTIONS, operands=("PV...",))

MDADM = Program(
    ("mdadm",),
    options=(
        flag("--zero-superblock"), flag("-S", "--stop"), flag("-D", "--detail"), flag("-E", "--examine"),
        flag("-C", "--create"), flag("-A", "--assemble"), flag("--misc"), _FORCE, valued("-l", "--level"),
        valued("-n", "--raid-devices"),
    ),
    operands=("DEVICE...",),
)  # fmt: skip

CRYPTSETUP = Program(
    ("cryptsetup",),
    options=(
        flag("-q", "--batch-mode"), valued("--type"), valued("-d", "--key-file"), valued("-c", "--cipher"),
        valued("-s", "--key-size"), valued("-S", "--key-slot"), flag("-v", "--verbose"),
    ),
    global_options_anywhere=True,
    subcommands=tree(
        leaf("luksFormat", operands=("DEVICE",)),
        leaf("luksErase|erase", operands=("DEVICE",)),
        leaf("luksKillSlot", operands=("DEVICE", "SLOT")),
        leaf("open|luksOpen", operands=("DEVICE", "NAME")),
        leaf("close|luksClose", operands=("NAME",)),
        leaf("status|luksDump", operands=("DEVICE",)),
    ),
)  # fmt: skip

# btrfs accepts unique prefixes of its commands: `btrfs sub del`.
BTRFS = Program(
    ("btrfs",),
    subcommands=tree(
        leaf("subvolume|subvol|subv|sub delete|del|d", flag("-c", "--commit-after"), flag("-C", "--commit-each"), flag("-R", "--recursive"), operands=("PATH...",)),
        leaf("subvolume|subvol|subv|sub list|l", operands=("PATH",)),
    ),
)  # fmt: skip

NVME = Program(
    ("nvme",),
    subcommands=tree(
        leaf("format", valued("-s", "--ses"), valued("-n", "--namespace-id"), _FORCE, operands=("DEVICE",)),
        leaf("sanitize", valued("-a", "--sanact"), operands=("DEVICE",)),
        leaf("list"),
        leaf("smart-log", operands=("DEVICE",)),
    ),
)  # fmt: skip

HDPARM = Program(
    ("hdparm",),
    options=(
        valued("--security-erase"), valued("--security-erase-enhanced"), valued("--user-master"),
        valued("--security-set-pass"), flag("--trim-sector-ranges"), flag("--please-destroy-my-drive"),
        flag("-I"), flag("-i"), flag("-t"), flag("-T"),
    ),
    operands=("DEVICE...",),
)  # fmt: skip


def _operands_written(reading: Reading) -> tuple[Arg, ...]:
    return reading.operands


def _rescued_onto(reading: Reading) -> tuple[Arg, ...]:
    """`ddrescue INFILE OUTFILE [MAPFILE]` writes OUTFILE."""
    return reading.operands[1:2]


# Disk wipers and copiers that write whole devices (the core FS002 rule judges their targets).
NWIPE = Program(
    ("nwipe",),
    options=(
        valued("-m", "--method"), valued("-r", "--rounds"), valued("-l", "--logfile"), valued("-e", "--exclude"),
        valued("--verify"), valued("--prng"), flag("--autonuke"), flag("--nogui"), flag("--nowait"),
        flag("--nousb"), flag("--nosignals"), *_HELP,
    ),
    operands=("DEVICE...",),
    writes=_operands_written,
)  # fmt: skip
SCRUB = Program(
    ("scrub",),
    syntax=_GETOPT,
    options=(
        valued("-p"), valued("-b"), valued("-s"), valued("-D"), flag("-f"), flag("-S"), flag("-r"), flag("-X"),
        flag("-n"), flag("-v"), flag("-h"),
    ),
    operands=("FILE...",),
    writes=_operands_written,
)  # fmt: skip
DDRESCUE = Program(
    ("ddrescue", "gddrescue"),
    options=(
        valued("-b", "--sector-size"), valued("-c", "--cluster-size"), valued("-i", "--input-position"),
        valued("-o", "--output-position"), valued("-s", "--size"), valued("-r", "--retry-passes"),
        valued("-m", "--domain-mapfile"), flag("-f", "--force"), flag("-n", "--no-scrape"), flag("-d", "--idirect"),
        flag("-D", "--odirect"), flag("-v", "--verbose"), *_HELP,
    ),
    operands=("INFILE", "OUTFILE", "MAPFILE"),
    writes=_rescued_onto,
)  # fmt: skip
# macOS's diskutil: the verbs that erase, zero or repartition a disk or volume.
DISKUTIL = Program(
    ("diskutil",),
    syntax=Syntax(permute=False),
    subcommands=tree(
        leaf("eraseDisk", operands=("FORMAT", "NAME", "DEVICE...")),
        leaf("eraseVolume", operands=("FORMAT", "NAME", "DEVICE")),
        leaf("zeroDisk", operands=("DEVICE",)),
        leaf("randomDisk", operands=("DEVICE",)),
        leaf("secureErase", operands=("LEVEL", "DEVICE")),
        leaf("partitionDisk", operands=("DEVICE...",)),
        leaf("reformat", operands=("DEVICE",)),
        leaf("apfs deleteContainer", operands=("DEVICE",)),
        leaf("apfs deleteVolume", operands=("DEVICE",)),
        leaf("list", operands=("DEVICE...",)),
        leaf("info", operands=("DEVICE",)),
    ),
)

# -- backups and snapshots, firmware, device-mapper and loop devices (the disks pack) ------------

# macOS's Time Machine: the verbs that delete backups or local snapshots.
TMUTIL = Program(
    ("tmutil",),
    syntax=Syntax(permute=False),
    subcommands=tree(
        leaf("delete", valued("-d"), valued("-t"), valued("-p"), operands=("BACKUP...",)),
        leaf("deletelocalsnapshots", operands=("TARGET",)),
        leaf("thinlocalsnapshots", operands=("MOUNT", "BYTES", "URGENCY")),
        leaf("listbackups"),
        leaf("listlocalsnapshots", operands=("MOUNT",)),
        "status",
    ),
)


def _verbs_in_any_case(args: tuple[Arg, ...]) -> tuple[Arg, ...]:
    """Windows tools take their verbs in any case (`vssadmin Delete Shadows`): verbs read in lower case."""
    return tuple(
        arg._replace(values=(arg.values[0].lower(),)) if len(arg.values) == 1 and arg.values[0].isalpha() else arg
        for arg in args
    )


# Windows' Volume Shadow Copy tools, as WSL or Git Bash run them; their `/all`-style switches are operands.
VSSADMIN = Program(
    ("vssadmin", "vssadmin.exe"),
    syntax=Syntax(permute=False),
    aliases=_verbs_in_any_case,
    subcommands=tree(leaf("delete shadows", operands=("SWITCH...",)), leaf("list shadows", operands=("SWITCH...",))),
)
WMIC = Program(
    ("wmic", "wmic.exe"),
    syntax=Syntax(permute=False),
    aliases=_verbs_in_any_case,
    subcommands=tree(leaf("shadowcopy delete", operands=("SWITCH...",)), leaf("shadowcopy list")),
)
WBADMIN = Program(
    ("wbadmin", "wbadmin.exe"),
    syntax=Syntax(permute=False),
    aliases=_verbs_in_any_case,
    subcommands=tree(
        leaf("delete catalog", operands=("SWITCH...",)),
        leaf("delete backup", operands=("SWITCH...",)),
        leaf("delete systemstatebackup", operands=("SWITCH...",)),
        leaf("get versions", operands=("SWITCH...",)),
    ),
)
TIMESHIFT = Program(
    ("timeshift",),
    options=(
        flag("--delete"), flag("--delete-all"), flag("--list"), flag("--create"), flag("--restore"), flag("--check"),
        valued("--snapshot"), valued("--comments"), valued("--tags"), flag("--yes"), flag("--scripted"),
    ),
)  # fmt: skip
# flashrom: `-w` writes a firmware image to the flash chip, `-E` erases it; `-r` only reads it.
FLASHROM = Program(
    ("flashrom",),
    options=(
        valued("-p", "--programmer"), valued("-c", "--chip"), flag("-w", "--write"), flag("-E", "--erase"),
        flag("-r", "--read"), flag("-v", "--verify"), flag("-n", "--noverify"), flag("-f", "--force"),
        valued("-l", "--layout"), valued("-i", "--image"), flag("-V", "--verbose"), *_HELP,
    ),
    operands=("FILE",),
)  # fmt: skip
DMSETUP = Program(
    ("dmsetup",),
    options=(flag("-f", "--force"), flag("--deferred"), flag("--retry"), flag("-v", "--verbose"), flag("--noudevsync")),
    subcommands=tree(leaf("remove_all"), leaf("remove", operands=("DEVICE...",)), "ls", "info", "status", "table"),
    global_options_anywhere=True,
)
LOSETUP = Program(
    ("losetup",),
    options=(
        flag("-D", "--detach-all"), valued("-d", "--detach"), flag("-a", "--all"), flag("-f", "--find"),
        flag("-P", "--partscan"), flag("-r", "--read-only"), flag("-l", "--list"), valued("-o", "--offset"),
        flag("--show"), valued("-j", "--associated"),
    ),
    operands=("LOOPDEV", "FILE"),
)  # fmt: skip

DISK_PROGRAMS: tuple[Program, ...] = (
    MKE2FS, MKFS, MKFS_XFS, MKFS_FAT, MKFS_BTRFS, MKSWAP, WIPEFS, BADBLOCKS, SHUTDOWN, SYSTEMCTL, ZFS, ZPOOL,
    LVREMOVE, VGREMOVE, PVREMOVE, MDADM, CRYPTSETUP, BTRFS, NVME, HDPARM, NWIPE, SCRUB, DDRESCUE, DISKUTIL,
    TMUTIL, VSSADMIN, WMIC, WBADMIN, TIMESHIFT, FLASHROM, DMSETUP, LOSETUP,
)  # fmt: skip
