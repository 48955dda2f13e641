"""Volume managers and storage devices: ZFS, LVM, mdadm, cryptsetup, btrfs,
nvme-cli and hdparm. (Partitioning and formatting tools are the core rule
FS004's and need no declaration.)"""

from __future__ import annotations

from ._grammar import Syntax, flag, valued
from ._program import Program
from ._tree import leaf, tree

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

DISK_PROGRAMS: tuple[Program, ...] = (ZFS, ZPOOL, LVREMOVE, VGREMOVE, PVREMOVE, MDADM, CRYPTSETUP, BTRFS, NVME, HDPARM)
