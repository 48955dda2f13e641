"""disks: volume managers and storage devices beyond the core FS rules (which
own mkfs, wipefs, the partitioners and blkdiscard): ZFS, LVM, mdadm,
cryptsetup, btrfs subvolumes, NVMe and ATA secure erase, macOS diskutil's erase verbs; the deletion
of backups and snapshots (Time Machine, Windows' shadow copies, Timeshift), firmware flashing, and
tearing down every device-mapper or loop device."""

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

DELETE_BACKUPS = pack_rule(
    id="DK003",
    name="delete-backups-and-snapshots",
    severity=Severity.HIGH,
    summary=(
        "Deletes the machine's backups or restore points: Time Machine backups and local snapshots (`tmutil "
        "delete`, `tmutil deletelocalsnapshots`), Windows' shadow copies and backup catalog (`vssadmin delete "
        "shadows`, `wmic shadowcopy delete`, `wbadmin delete`), every Timeshift snapshot."
    ),
    rationale=(
        "Backups are what every other mistake is undone from; deleting shadow copies is the first step of "
        "ransomware. No build or clean-up needs them gone."
    ),
    safer_alternative="Let the backup tool thin its own history (`tmutil thinlocalsnapshots`, retention settings).",
    matches=(
        command("tmutil", "delete"),
        command("tmutil", "deletelocalsnapshots"),
        command(("vssadmin", "vssadmin.exe"), "delete shadows"),
        command(("wmic", "wmic.exe"), "shadowcopy delete"),
        command(("wbadmin", "wbadmin.exe"), "delete catalog"),
        command(("wbadmin", "wbadmin.exe"), "delete backup"),
        command(("wbadmin", "wbadmin.exe"), "delete systemstatebackup"),
        command("timeshift", requires=("--delete-all",)),
    ),
    message="deletes backups or snapshots",
    must_match=(
        "tmutil deletelocalsnapshots /",
        "sudo tmutil delete /Volumes/Backup/Backups.backupdb/mac/2024-01-01-000000",
        "vssadmin delete shadows /all /quiet",
        "wmic shadowcopy delete",
        "wbadmin delete catalog -quiet",
        "timeshift --delete-all --yes",
    ),
    must_not_match=("tmutil listlocalsnapshots /", "vssadmin list shadows", "timeshift --list", "tmutil status"),
)

WRITE_FIRMWARE = pack_rule(
    id="DK004",
    name="write-firmware",
    severity=Severity.HIGH,
    summary="Writes or erases the firmware flash chip (`flashrom -w`, `flashrom -E`).",
    rationale="A wrong or interrupted image leaves the machine unable to boot, and only an external programmer can repair it.",
    safer_alternative="Update firmware through the vendor's tool (`fwupdmgr update`); read the chip first (`flashrom -r backup.bin`).",
    matches=(command("flashrom", any_of=("--write", "--erase")),),
    message="rewrites the firmware flash chip",
    must_match=("flashrom -p internal -w bios.bin", "sudo flashrom --programmer internal --erase"),
    must_not_match=("flashrom -p internal -r backup.bin", "flashrom --help"),
)

DETACH_ALL = pack_rule(
    id="DK005",
    name="detach-every-block-device",
    severity=Severity.MEDIUM,
    summary="Removes every device-mapper device (`dmsetup remove_all`) or detaches every loop device (`losetup -D`).",
    rationale=(
        "LVM volumes, encrypted volumes, snaps and mounted images sit on these devices: tearing them all down "
        "at once breaks what is mounted, and with `--force` writes in flight are lost."
    ),
    safer_alternative="Remove the one device you mean (`dmsetup remove NAME`, `losetup -d /dev/loop3`).",
    matches=(command("dmsetup", "remove_all"), command("losetup", requires=("--detach-all",))),
    message="tears down every device of its kind",
    must_match=("dmsetup remove_all --force", "sudo losetup -D", "losetup --detach-all"),
    must_not_match=("dmsetup remove vg0-scratch", "losetup -d /dev/loop3", "losetup -a", "dmsetup ls"),
)

PACK = Pack(
    name="disks",
    summary=(
        "Volume managers and drives: ZFS, LVM, mdadm, cryptsetup, btrfs, NVMe and ATA erase; backups and "
        "snapshots (Time Machine, shadow copies); firmware flashing; device-mapper and loop devices."
    ),
    default=True,
    reason="A destroyed volume, pool or encryption header takes its data with it, beyond any undo by the agent.",
    rules=(DESTROY, ROLLBACK, DELETE_BACKUPS, WRITE_FIRMWARE, DETACH_ALL),
)
