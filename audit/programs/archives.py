"""Archivers: where `tar -x -C DIR`, `unzip -d DIR` and `7z x -oDIR` unpack (`extracts`, asked by
SY001 through `extraction_directories`), and what `tar --remove-files` into /dev/null deletes."""

from __future__ import annotations

from ._arg import Arg
from ._grammar import attached, flag, valued
from ._program import Program, Reading, Subcommand, option_values


def _old_style_letters(reading: Reading) -> str:
    """`tar xzf a.tgz`: the bundled letters of an old-style first word ("" when there are none)."""
    first = (reading.args[0].value or "") if reading.args else ""
    return "" if first.startswith("-") else first


def tar_extracts(reading: Reading) -> bool:
    """`tar -x`, also with old-style bundled letters first (`tar xzf a.tgz`)."""
    return "x" in _old_style_letters(reading) or reading.has("--extract")


def tar_archive(reading: Reading) -> Arg | None:
    """The archive `tar -f FILE` reads or writes; old style, the word after the letters (`tar xzf FILE`)."""
    files = reading.values("--file")
    if files:
        return files[-1]
    operands = reading.operands
    if "f" in _old_style_letters(reading) and len(operands) >= 2:
        return operands[1]
    return None


def _tar_extraction(reading: Reading) -> tuple[Arg, ...]:
    """`tar -x -C DIR` (`tar xzf a.tgz -C DIR`): DIR."""
    return reading.values("--directory") if tar_extracts(reading) else ()


def _seven_zip_extraction(reading: Reading) -> tuple[Arg, ...]:
    """`7z x -oDIR` and `7z e -oDIR` unpack into DIR."""
    return reading.values("-o") if reading.path[:1] in (("x",), ("e",)) else ()


def _thrown_away(reading: Reading) -> tuple[Arg, ...]:
    """`tar -cf /dev/null --remove-files DIR`: the files archived into nothing, then removed. Into a
    real archive, `--remove-files` moves them there; into /dev/null, it is `rm -r`."""
    if not reading.has("--remove-files") or not reading.has("--create", "--append", "--update"):
        return ()
    archives = reading.values("--file")
    if not archives or archives[-1].value != "/dev/null":
        return ()
    return reading.operands


TAR = Program(
    ("tar",),
    options=(
        flag("-x", "--extract", "--get"), flag("-c", "--create"), flag("-t", "--list"), flag("-r", "--append"),
        flag("-u", "--update"), valued("-f", "--file"), valued("-C", "--directory"), valued("-T", "--files-from"),
        valued("-X", "--exclude-from"), valued("--exclude"), valued("-b", "--blocking-factor"),
        valued("-H", "--format"), valued("-g", "--listed-incremental"), valued("-I", "--use-compress-program"),
        valued("--transform", "--xform"), valued("--owner"), valued("--group"), valued("--mode"),
        valued("--strip-components"), valued("-N", "--newer", "--after-date"), valued("-K", "--starting-file"),
        valued("-L", "--tape-length"), valued("-V", "--label"), valued("--to-command"),
        valued("-F", "--info-script", "--new-volume-script"), valued("--rsh-command"), valued("--checkpoint-action"),
        attached("--checkpoint"), flag("--remove-files"),
    ),
    writes=_tar_extraction,
    extracts=_tar_extraction,
    removes=_thrown_away,
    removes_trees=_thrown_away,
)  # fmt: skip

UNZIP = Program(
    ("unzip",),
    options=(valued("-d"), valued("-P"), valued("-O"), valued("-I")),
    operands=("ARCHIVE", "FILE..."),
    writes=option_values("-d"),
    extracts=option_values("-d"),
)

_SEVEN_ZIP_COMMANDS = ("a", "b", "d", "e", "h", "i", "l", "rn", "t", "u", "x")
# 7-Zip's switches are one word each, their value attached (`-o/out`, `-pSECRET`, `-aoa`,
# `-tzip`); read as clusters, a switch with a value still takes the rest of its word.
SEVEN_ZIP = Program(
    ("7z", "7za", "7zr", "7zz"),
    options=(
        attached("-o"), attached("-p"), attached("-a"), attached("-t"), attached("-m"), attached("-v"),
        attached("-w"), attached("-x"), attached("-i"), attached("-r"), attached("-s"), attached("-b"),
        attached("-u"), flag("-y"),
    ),
    subcommands=tuple(Subcommand((command,), operands=("ARCHIVE", "FILE...")) for command in _SEVEN_ZIP_COMMANDS),
    global_options_anywhere=True,
    writes=_seven_zip_extraction,
    extracts=_seven_zip_extraction,
)  # fmt: skip

ARCHIVE_PROGRAMS: tuple[Program, ...] = (TAR, UNZIP, SEVEN_ZIP)
