"""What the file transfer clients send: sftp, ftp, tftp, lftp and smbclient upload
the files their commands name (`put FILE`, `mput FILES`, lftp's `mirror -R DIR`),
whether the commands come in a script option (`lftp -c 'open HOST; put FILE'`,
`smbclient //HOST/SHARE -c 'put FILE'`), on standard input (`ftp HOST <<< 'put
FILE'`, the analysis reads that batch) or, for busybox's tftp and BSD ftp, as
options (`tftp -p -l FILE HOST`, `ftp -u URL FILE`)."""

from __future__ import annotations

from ._arg import Arg
from ._program import Reading
from ._sent import Sending, SentFile, SentWord, Slot
from .destinations import Destination, Form

_UPLOAD_COMMANDS = frozenset({"put", "mput", "reput"})
_REVERSE_MIRROR = frozenset({"-R", "--reverse"})


def batch_uploads(batch: str) -> list[str]:
    """The local paths a batch of commands uploads: `put FILE [REMOTE]` lines (sftp, ftp), or commands
    separated by `;` (lftp, smbclient), and lftp's `mirror -R DIR` (a directory with everything in it)."""
    paths: list[str] = []
    for line in batch.replace(";", "\n").splitlines():
        command, *rest = line.split() or [""]
        # A leading `-` (ignore errors) or `@` (do not echo) is not part of the command's name.
        command = command.lstrip("-@")
        operands = [word for word in rest if not word.startswith("-")]
        reverse_mirror = command == "mirror" and any(word in _REVERSE_MIRROR for word in rest)
        if operands and (command in _UPLOAD_COMMANDS or reverse_mirror):
            paths.append(operands[0])
    return paths


def _script_files(name: str, scripts: tuple[Arg, ...]) -> tuple[SentFile, ...]:
    """The files the scripts given as options upload (`-c 'put .env'`)."""
    files: list[SentFile] = []
    for script in scripts:
        if script.value is not None:
            label = f"{name} {script.source}"
            files.extend(SentFile(Arg((path,), path, script.span), label, True) for path in batch_uploads(script.value))
    return tuple(files)


def _opened_sites(scripts: tuple[Arg, ...]) -> list[Destination]:
    """The sites lftp's `open SITE` commands connect to."""
    sites: list[Destination] = []
    for script in scripts:
        for line in (script.value or "").replace(";", "\n").splitlines():
            command, *rest = line.split() or [""]
            operands = [word for word in rest if not word.startswith("-")]
            if command == "open" and operands:
                sites.append(Destination(Arg((operands[-1],), script.source, script.span), Form.URL))
    return sites


def sftp_sending(reading: Reading) -> Sending:
    hosts = reading.operand("DESTINATION")
    words = tuple(SentWord(host, Slot.HOST_NAME, "sftp DESTINATION") for host in hosts)
    return Sending(words, (), (), tuple(Destination(host, Form.HOST) for host in hosts), batch_uploads=True)


def ftp_sending(reading: Reading) -> Sending:
    """`ftp HOST` with a batch on standard input, or BSD ftp's `ftp -u URL FILE...`."""
    targets = reading.values("-u")
    if targets:
        files = tuple(SentFile(file, f"ftp -u {file.source}") for file in reading.operands)
        return Sending((), files, (), tuple(Destination(target, Form.URL) for target in targets))
    hosts = reading.operand("HOST")
    words = tuple(SentWord(host, Slot.HOST_NAME, "ftp HOST") for host in hosts)
    return Sending(words, (), (), tuple(Destination(host, Form.HOST) for host in hosts), batch_uploads=True)


def tftp_sending(reading: Reading) -> Sending:
    """tftp-hpa's `tftp HOST -c put FILE`, busybox's `tftp -p -l FILE HOST`, or a batch on standard input."""
    operands = reading.operands
    hosts = operands[:1]
    files: list[SentFile] = []
    if reading.has("-p"):
        files.extend(SentFile(file, f"tftp -p -l {file.source}") for file in reading.values("-l"))
    if reading.has("-c") and len(operands) > 2 and operands[1].value in _UPLOAD_COMMANDS:
        files.append(SentFile(operands[2], f"tftp -c put {operands[2].source}"))
    words = tuple(SentWord(host, Slot.HOST_NAME, "tftp HOST") for host in hosts)
    destinations = tuple(Destination(host, Form.HOST) for host in hosts)
    return Sending(words, tuple(files), (), destinations, batch_uploads=not files)


def lftp_sending(reading: Reading) -> Sending:
    """`lftp -c 'open SITE; put FILE'`, `lftp -e 'mirror -R DIR' SITE`, or a batch on standard input."""
    scripts = (*reading.values("-c"), *reading.values("-e"))
    destinations = [Destination(site, Form.URL) for site in reading.operand("SITE")]
    destinations.extend(_opened_sites(scripts))
    return Sending((), _script_files("lftp", scripts), (), tuple(destinations), batch_uploads=True)


def smbclient_sending(reading: Reading) -> Sending:
    """`smbclient //HOST/SHARE -c 'put FILE'`, or a batch on standard input."""
    destinations: list[Destination] = []
    for service in reading.operand("SERVICE"):
        text = service.value or service.source
        destinations.append(Destination(service.suffix(2) if text.startswith("//") else service, Form.URL))
    files = _script_files("smbclient", reading.values("--command"))
    return Sending((), files, (), tuple(destinations), batch_uploads=True)
