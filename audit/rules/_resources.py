"""The machine's shared resources used up (SY025 to SY027): a disk filled by a file that grows until
it is full or is allocated larger than a disk, and a cryptocurrency miner started (by name, by
container image, or by the mining pool it joins).

Fork bombs and endless loops of background shells are DO001 and DO002 (`_network_and_resources.py`);
processes and memory used up by another language's code, floods and load are `_exhaustion.py`'s;
writing to a block device is FS002's.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .._analysis import CommandSubject, RedirectSubject
from .._model import Severity
from .._tables import Tables
from ._paths import is_device, reading, redirect_writes_file, writes_a_file
from ._pushes import image_repository
from ._rule import Hit, Inspects, rule

# Devices that never run dry: a copy from them ends only when the disk is full.
_ENDLESS_SOURCES = frozenset({"/dev/zero", "/dev/urandom", "/dev/random"})
# An allocation this large is more than most disks hold free.
_LARGEST_ALLOCATION = 50 * 1024**3
_SIZE = r"(\d+(?:\.\d+)?)([KMGTPE]?)(?:I?B)?"
_SIZE_POWERS = {"": 0, "K": 1, "M": 2, "G": 3, "T": 4, "P": 5, "E": 6}


def _bytes(text: str) -> float | None:
    """`500G`, `1.5TiB`, `100GB` in bytes (powers of 1024, as fallocate reads them)."""
    match = re.fullmatch(_SIZE, text.strip().upper())
    return None if match is None else float(match.group(1)) * 1024 ** _SIZE_POWERS[match.group(2)]


def _dd_fills(subject: CommandSubject) -> str | None:
    """`dd if=/dev/zero of=FILE` with no `count=`: it writes until the disk is full (a device
    as `of=` is FS002's)."""
    operands = {key: value for key, _, value in (arg.value.partition("=") for arg in subject.args if arg.value)}
    source, target = operands.get("if"), operands.get("of")
    if source not in _ENDLESS_SOURCES or not target or target.startswith("/dev/"):
        return None
    if "count" not in operands:
        return f"`dd` copies {source} into `{target}` with no count: it grows until the disk is full"
    block, count = _bytes(operands.get("bs", "512")), _bytes(operands["count"])
    if block is not None and count is not None and block * count >= _LARGEST_ALLOCATION:
        return f"`dd` writes {operands['count']} blocks of {operands.get('bs', '512')} into `{target}`"
    return None


def _fallocate_fills(subject: CommandSubject) -> str | None:
    for length in reading(subject).values("--length"):
        size = _bytes(length.value or "")
        if size is not None and size >= _LARGEST_ALLOCATION:
            return f"`fallocate` reserves {length.value} on the disk"
    return None


@rule(
    id="SY025",
    name="disk-filled",
    severity=Severity.MEDIUM,
    summary=(
        "Fills the disk: `dd if=/dev/zero of=FILE` (or /dev/urandom) with no `count=` or a count of 50 "
        "GiB or more, or `fallocate -l` of 50 GiB or more."
    ),
    rationale=(
        "A full disk stops every service that writes (databases, logs, builds, the agent itself) until "
        "someone finds and deletes the file. It warns: test files are made this way, with a count or a "
        "size that fits."
    ),
    safer_alternative="Give dd a `count=` and fallocate a size the disk can spare, in the workspace.",
    inspects=Inspects.COMMAND,
    commands=("dd", "fallocate"),
    must_match=(
        "dd if=/dev/zero of=/tmp/fill bs=1M",
        "fallocate -l 500G /tmp/fill",
        "dd if=/dev/urandom of=big",
        "dd if=/dev/zero of=pad bs=1G count=100",
    ),
    must_not_match=(
        "dd if=/dev/zero of=test.img bs=1M count=100",
        "fallocate -l 1G swapfile",
        "dd if=/dev/zero of=/dev/null bs=1M",
    ),
)
def disk_filled(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    what = _dd_fills(subject) if subject.name == "dd" else _fallocate_fills(subject)
    if what is not None:
        yield Hit(subject.span, what)


def _head_takes_more_than_a_disk(args: list[str | None]) -> bool:
    """`head -c 200G`, `head --bytes=1T`: a count of bytes larger than most disks hold free."""
    for at, arg in enumerate(args):
        if arg in ("-c", "--bytes") and at + 1 < len(args):
            size = _bytes(args[at + 1] or "")
        elif arg is not None and arg.startswith(("-c", "--bytes=")):
            size = _bytes(arg.removeprefix("--bytes=").removeprefix("-c"))
        else:
            continue
        return size is not None and size >= _LARGEST_ALLOCATION
    return False


@rule(
    id="SY026",
    name="endless-output-redirected-to-file",
    severity=Severity.MEDIUM,
    summary=(
        "A redirect saves output that never ends into a file (`cat /dev/zero > FILE`, `yes > FILE`), or "
        "50 GiB or more of it (`head -c 200G /dev/zero > FILE`)."
    ),
    rationale="The file grows until the disk is full, and every service that writes stops with it (SY025).",
    safer_alternative="Bound it: `head -c 100M /dev/zero > FILE`, or `fallocate -l 100M FILE`.",
    inspects=Inspects.REDIRECT,
    applies=writes_a_file,
    must_match=("cat /dev/zero > /tmp/fill", "yes > big.txt", "cat /dev/urandom >> ~/x", "head -c 200G /dev/zero > f"),
    must_not_match=(
        "yes | head -n 5 > y.txt",
        "cat /dev/zero > /dev/null",
        "cat notes.txt > out.txt",
        "head -c 100M /dev/urandom > test.bin",
    ),
)
def endless_output_redirected(subject: RedirectSubject, tables: Tables) -> Iterator[Hit]:
    words = subject.command_words
    if not words or subject.command_name not in ("cat", "yes", "head"):
        return
    args = [arg.value for arg in words[1:]]
    endless = subject.command_name == "yes" or any(arg in _ENDLESS_SOURCES for arg in args)
    if subject.command_name == "head":
        endless = endless and _head_takes_more_than_a_disk(args)
    target = redirect_writes_file(subject) if endless else None
    if target is not None and not is_device(target):
        yield Hit(
            subject.span, f"`{subject.command_name}` never stops: `{target.display()}` grows until the disk is full"
        )


# Cryptocurrency miners by program name.
_MINERS = frozenset({
    "xmrig", "xmr-stak", "xmr-stak-rx", "minerd", "cpuminer", "cpuminer-multi", "cpuminer-opt", "ccminer",
    "ethminer", "t-rex", "nbminer", "lolminer", "phoenixminer", "gminer", "teamredminer", "nanominer",
    "cgminer", "bfgminer", "srbminer-multi", "xmrig-cuda", "xmrig-nvidia",
})  # fmt: skip
# The mining pools' protocol: a program told to connect to one mines, whatever it is called.
_POOL_URL = r"\bstratum2?\+(?:tcp|ssl|tls)://|\bstratum://"  # compiled on first use (re's cache)
# Commands whose words name a container image, and the subcommands that start one.
# The subcommands that start a container from an image, by the command that runs it.
_STARTS_CONTAINERS = {
    "docker": (("run",), ("create",), ("container", "run"), ("container", "create"), ("service", "create")),
    "kubectl": (("run",), ("create", "deployment"), ("create", "job"), ("create", "cronjob")),
}
_STARTS_CONTAINERS["podman"] = _STARTS_CONTAINERS["nerdctl"] = _STARTS_CONTAINERS["docker"]
# Where the system's own programs live: a program run from anywhere else by its path may be renamed.
_SYSTEM_BINARIES = ("/bin/", "/sbin/", "/usr/bin/", "/usr/sbin/")


def _may_mine(subject: CommandSubject) -> bool:
    """The cheap first test, asked of every command: a miner's name, an image runner, or a pool address
    among the words (only a word holding a URL is lowered)."""
    return (
        subject.name in _MINERS
        or subject.name in _STARTS_CONTAINERS
        or any("://" in arg.source and "stratum" in arg.source.lower() for arg in subject.args)
    )


def _mining_evidence(subject: CommandSubject) -> str | None:
    """Why the command mines: the program's name, the image it starts, or the pool it joins."""
    if subject.name in _MINERS:
        return f"`{subject.name}` mines cryptocurrency with the machine's processors"
    program = subject.argv[subject.command_index].display()
    if "/" in program and not program.startswith(_SYSTEM_BINARIES):
        # A program run by its path from outside the system's directories (`./kworker`, `/tmp/.x/app`)
        # and told to join a pool is a renamed miner; `grep` or `git commit -m` only handle the address.
        pool = next((arg for arg in subject.args if re.search(_POOL_URL, arg.display(), re.IGNORECASE)), None)
        if pool is not None:
            return f"`{program}` joins the mining pool `{pool.display()}`"
    words = tuple(arg.value or "" for arg in subject.args)
    starts = _STARTS_CONTAINERS.get(subject.name or "", ())
    if any(words[: len(subcommand)] == subcommand for subcommand in starts):
        miner = next((word for word in words if image_repository(word.removeprefix("--image=")) in _MINERS), None)
        if miner is not None:
            return f"`{subject.name}` starts the miner image `{miner}`"
    return None


@rule(
    id="SY027",
    name="cryptocurrency-miner",
    severity=Severity.HIGH,
    summary=(
        "Runs a cryptocurrency miner: a miner program (`xmrig`, `minerd`, `cpuminer`, `ethminer`, `t-rex`...), "
        "a container of a miner's image, or any program told to join a mining pool (`stratum+tcp://`)."
    ),
    rationale=(
        "A miner spends every core or GPU it can for someone's wallet: on a developer's machine or a "
        "cloud account it is theft of compute, and the usual payload of a compromise. A renamed miner "
        "still speaks the pools' protocol, and a container image is a miner under another command. It blocks."
    ),
    safer_alternative="Do not run miners on shared or borrowed machines; ask a human.",
    inspects=Inspects.COMMAND,
    applies=_may_mine,
    must_match=(
        "xmrig -o pool.minexmr.com:4444 -u 44wallet",
        "./xmrig --donate-level 1",
        "nohup minerd -a cryptonight &",
        "./.cache/kworker -o stratum+tcp://pool.example.net:3333 -u wallet",
        "docker run -d --restart always metal3d/xmrig",
        "kubectl run helper --image=ghcr.io/someone/xmrig:latest",
    ),
    must_not_match=(
        "echo xmrig",
        "grep -r xmrig /var/log",
        "pip install xmr-tools",
        "grep -rn 'stratum+tcp://' src/",
        "git commit -m 'block stratum+tcp:// pools in the proxy'",
        "docker run --rm -it python:3.11 python -V",
        "docker rm -f xmrig",
    ),
)
def cryptocurrency_miner(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    evidence = _mining_evidence(subject)
    if evidence is not None:
        yield Hit(subject.span, evidence)


RESOURCE_RULES = (disk_filled, endless_output_redirected, cryptocurrency_miner)
