"""disks: volume managers and storage devices beyond the core FS rules (which
own mkfs, wipefs, the partitioners and blkdiscard): ZFS, LVM, mdadm,
cryptsetup, btrfs subvolumes, NVMe and ATA secure erase, macOS diskutil's erase verbs."""

from __future__ import annotations

from .._model import Severity
from ..rules._pack import Pack
from ._invocation import command, device_operand, pack_rule

_LVM_TEST = ("--test",)
# macOS diskutil's verbs that erase or repartition a disk, or delete an APFS container or volume.
_DISKUTIL_ERASES = (
    "eraseDisk", "eraseVolume", "zeroDisk", "randomDisk", "secureErase", "partitionDisk", "reformat",
    "apfs deleteContainer", "apfs deleteVolume",
)  # fmt: skip

DESTROY = pack_rule(
    id="DK001",
    name="destroy-storage-volume",
    severity=Severity.HIGH,
    summary="Destroys a ZFS dataset or pool, an LVM volume, group or physical volume, a RAID superblock, a LUKS header, a btrfs subvolume, or erases an NVMe or ATA drive or (diskutil) a macOS disk or volume.",
    rationale="These remove the volume and the data on it at once; there is no trash and snapshots usually go with it.",
    safer_alternative="Check the target (`zfs list`, `lvs`, `lsblk`) and take a snapshot or backup first; `zfs destroy -n` and `lvremove --test` only report.",
    matches=(
        command("zfs", "destroy", unless=("-n",)),
        command("zpool", "destroy"),
        command("zpool", "labelclear"),
        command(("lvremove", "vgremove", "pvremove"), unless=_LVM_TEST),
        command("mdadm", requires=("--zero-superblock",)),
        command("cryptsetup", "luksErase"),
        # A new LUKS header on a device; on an image file it is the container being made, like mkfs on one.
        command("cryptsetup", "luksFormat", where=device_operand("DEVICE")),
        command("cryptsetup", "luksKillSlot"),
        command("btrfs", "subvolume delete"),
        command("nvme", "format"),
        command("nvme", "sanitize"),
        command("hdparm", any_of=("--security-erase", "--security-erase-enhanced", "--trim-sector-ranges")),
        *(command("diskutil", path) for path in _DISKUTIL_ERASES),
    ),
    message="destroys a storage volume and its data",
    must_match=(
        "zfs destroy -r pool/data",
        "vgremove -f vg1",
        "lvremove -y vg0/scratch",
        "cryptsetup luksFormat /dev/sdb1",
        'cryptsetup -q luksFormat "$DISK"',
        "btrfs sub del /mnt/@snapshots/old",
        "diskutil eraseDisk APFS Backup disk4",
    ),
    must_not_match=(
        "zfs destroy -nv pool/data@old",
        "zfs list -t snapshot",
        "lvremove --test vg0/scratch",
        "cryptsetup open /dev/sdb1 data",
        "cryptsetup luksFormat vault.img",
        "diskutil list",
    ),
)

ROLLBACK = pack_rule(
    id="DK002",
    name="zfs-rollback-recursive",
    severity=Severity.MEDIUM,
    summary="`zfs rollback -r` rolls a dataset back and destroys every later snapshot.",
    rationale="The changes since the snapshot and the snapshots taken after it are gone; the scope is one dataset.",
    safer_alternative="Clone the snapshot (`zfs clone`) to take what you need from it without destroying anything.",
    matches=(command("zfs", "rollback", any_of=("-r", "-R")),),
    message="rolls back and destroys later snapshots",
    must_match=("zfs rollback -r pool/data@monday", "zfs rollback -Rf pool/db@pre-upgrade"),
    must_not_match=("zfs rollback pool/data@latest", "zfs list -t snapshot pool/data"),
)

PACK = Pack(
    name="disks",
    summary="Volume managers and drives: ZFS, LVM, mdadm, cryptsetup, btrfs, NVMe and ATA erase.",
    default=True,
    reason="A destroyed volume, pool or encryption header takes its data with it, beyond any undo by the agent.",
    rules=(DESTROY, ROLLBACK),
)
