"""A disk or another device taken away from the running kernel through sysfs (DO005, DO006).

`echo 1 > /sys/block/sda/device/delete` detaches the disk at once, mounted or not:
a root disk takes the machine down, a data disk's unwritten data is lost and its
filesystem left unclean. `remove` under a device on a bus, `unbind` of a driver
and the machine's power state act as immediately. Rescanning a bus (`echo 1 >
/sys/bus/pci/rescan`, `.../scan`), which brings devices back, passes.
"""

from __future__ import annotations

from collections.abc import Iterator
from fnmatch import fnmatchcase

from .._analysis import Arg, CommandSubject, RedirectSubject
from .._model import Severity
from .._tables import Tables
from ._paths import redirect_writes_file, written_paths
from ._rule import Hit, Inspects, rule

# sysfs files a write to which takes a device, or the machine, away; `*` spans directories.
_DEVICE_REMOVALS = {
    "/sys/block/*/device/delete": "detaches the disk from the kernel",
    "/sys/class/block/*/device/delete": "detaches the disk from the kernel",
    "/sys/devices/*/delete": "detaches the device from the kernel",
    "/sys/bus/*/devices/*/remove": "removes the device from its bus",
    "/sys/devices/*/remove": "removes the device from its bus",
    "/sys/bus/*/drivers/*/unbind": "unbinds the device from its driver",
    "/sys/power/state": "suspends the machine",
}
_SYSFS = ("/sys/",)


def _removal(target: Arg) -> str | None:
    """What writing to the file does, when it takes a device or the machine away."""
    for value in target.values:
        if not value.startswith(_SYSFS):
            continue
        for pattern, what in _DEVICE_REMOVALS.items():
            if fnmatchcase(value, pattern):
                return what
    return None


@rule(
    id="DO005",
    name="device-removal-by-redirect",
    severity=Severity.HIGH,
    summary=(
        "A redirect writes to a sysfs file that detaches a disk or removes a device from the running kernel "
        "(`echo 1 > /sys/block/sda/device/delete`, `.../remove`, a driver's `unbind`), or suspends the machine."
    ),
    rationale=(
        "The device is gone at once, mounted or not: a root disk takes the machine down, and a data disk "
        "loses what was not yet written and leaves its filesystem unclean."
    ),
    safer_alternative="Unmount the filesystem and leave taking hardware away to a human.",
    inspects=Inspects.REDIRECT,
    must_match=(
        "echo 1 > /sys/block/sda/device/delete",
        "echo 1 > /sys/bus/pci/devices/0000:00:1f.2/remove",
        "echo mem > /sys/power/state",
    ),
    must_not_match=(
        "echo 1 > /sys/bus/pci/rescan",
        "cat /sys/block/sda/size > size.txt",
        "echo '- - -' > /sys/class/scsi_host/host0/scan",
    ),
)
def device_removal_by_redirect(subject: RedirectSubject, tables: Tables) -> Iterator[Hit]:
    target = redirect_writes_file(subject)
    what = None if target is None else _removal(target)
    if target is not None and what is not None:
        yield Hit(subject.span, f"redirect to `{target.display()}` {what}")


@rule(
    id="DO006",
    name="device-removal-by-writer",
    severity=Severity.HIGH,
    summary=(
        "A writer (`tee`, `dd`, `cp`) writes to a sysfs file that detaches a disk or removes a device from the "
        "running kernel (`echo 1 | sudo tee /sys/block/sda/device/delete`), or suspends the machine."
    ),
    rationale="`sudo tee` is how a redirect is written as root: the device is gone as with DO005's redirect.",
    safer_alternative="Unmount the filesystem and leave taking hardware away to a human.",
    inspects=Inspects.COMMAND,
    commands=("tee", "dd", "cp"),
    must_match=(
        "echo 1 | sudo tee /sys/block/nvme0n1/device/delete",
        "echo 0000:03:00.0 | tee /sys/bus/pci/drivers/nvme/unbind",
    ),
    must_not_match=("echo 1 | sudo tee /sys/bus/pci/rescan", "tee /tmp/sys/block/x/device/delete"),
)
def device_removal_by_writer(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    if not any(value.startswith(_SYSFS) or "of=/sys/" in value for arg in subject.args for value in arg.values):
        return  # most writes are nowhere near sysfs, and are not read against their declarations for it
    for target in written_paths(subject):
        what = _removal(target)
        if what is not None:
            yield Hit(target.span, f"`{subject.name}` writes to `{target.display()}`: it {what}")


DEVICE_REMOVAL_RULES = (device_removal_by_redirect, device_removal_by_writer)
