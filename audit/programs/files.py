"""File utilities: their options, and the files each opens for writing.

`writes` says which arguments a command writes (`cp`'s destination, `sed
-i`'s files, `dd of=`...); the writer rules (SY001, SY003, SY005, DO003) ask
`written_files`, and every program declared with `writes` is a writer.
`removes` says which it deletes (`rm`, `rimraf`, `rmdir`, `unlink`, `shred
-u`, what `mv` moves away): SY001 asks `removed_files`. The archivers, and
where they unpack, are in `archives`.
"""

from __future__ import annotations

from ._arg import Arg
from ._grammar import attached, flag, valued
from ._program import Program, Reading, option_values
from .interpreters import interpreter_program
from .sed_script import sed_effects

_TARGET_DIRECTORY = valued("-t", "--target-directory")
_SUFFIX = valued("-S", "--suffix")
_NO_TARGET_DIRECTORY = flag("-T", "--no-target-directory")
_BACKUP = (flag("-b"), attached("--backup"))
_VERBOSE = flag("-v", "--verbose")
_FORCE = flag("-f", "--force")
_INTERACTIVE = flag("-i", "--interactive")
_ROOT_GUARDS = (flag("--preserve-root"), flag("--no-preserve-root"))
_CONTEXT = (flag("-Z"), attached("--context"))


# -- what each writer writes ---------------------------------------------------------------


def _destination(reading: Reading) -> tuple[Arg, ...]:
    """`cp A B DIR` writes into the last operand, `cp -t DIR A B` into DIR."""
    targets = reading.values("--target-directory")
    if targets:
        return targets
    return reading.operands[-1:] if len(reading.operands) >= 2 else ()


def _operands(reading: Reading) -> tuple[Arg, ...]:
    return reading.operands


def _moved_away(reading: Reading) -> tuple[Arg, ...]:
    """What `mv` takes away: every operand with `-t DIR`, else all but the destination."""
    if reading.has("--target-directory"):
        return reading.operands
    return reading.operands[:-1]


def _moved_into_nothing(reading: Reading) -> tuple[Arg, ...]:
    """`mv DIR /dev/null`: a move onto a device that keeps nothing is a delete of every source with
    everything below it (as root it also replaces the device with the source)."""
    destination = _destination(reading)
    if len(destination) != 1 or destination[0].value not in _EMPTY_SOURCES:
        return ()
    return _moved_away(reading)


def _recursive_operands(reading: Reading) -> tuple[Arg, ...]:
    """`rm -r`, `srm -r`, `wipe -r`: every operand goes with everything below it."""
    return reading.operands if reading.has("--recursive") else ()


def _shredded_and_removed(reading: Reading) -> tuple[Arg, ...]:
    """`shred -u` (`--remove`) deletes the files after overwriting them."""
    return reading.operands if reading.has("-u", "--remove") else ()


def _installed(reading: Reading) -> tuple[Arg, ...]:
    """`install -d DIR...` creates every operand; otherwise it writes its destination."""
    return reading.operands if reading.has("--directory") else _destination(reading)


def sed_scripts(reading: Reading) -> tuple[Arg, ...]:
    """The script words of a sed command: each `-e SCRIPT`, else its first operand."""
    if reading.has("--expression", "--file"):
        return reading.values("--expression")
    return reading.operands[:1]


def _sed_writes(reading: Reading) -> tuple[Arg, ...]:
    """`sed -i SCRIPT FILE...` edits the files (with -e/-f the script is not an operand), and the
    script's `w FILE` commands write theirs (located at the script's word)."""
    edited: tuple[Arg, ...] = ()
    if reading.has("--in-place"):
        edited = reading.operands if reading.has("--expression", "--file") else reading.operands[1:]
    if reading.has("--sandbox"):
        return edited
    written = tuple(
        Arg((file,), file, script.span)
        for script in sed_scripts(reading)
        if script.value is not None
        for file in sed_effects(script.value).written
    )
    return edited + written


def _dd_output(reading: Reading) -> tuple[Arg, ...]:
    """`dd of=FILE`."""
    return tuple(
        Arg(tuple(value.partition("=")[2] for value in arg.values), arg.source, arg.span, arg.pattern, arg.word)
        for arg in reading.operands
        if (arg.value or "").startswith("of=")
    )


# Sources that hold no data of their own: copied or dd'ed onto a file, they leave it empty or noise.
_EMPTY_SOURCES = frozenset({"/dev/null", "/dev/zero", "/dev/random", "/dev/urandom"})


def emptied_files(reading: Reading) -> tuple[Arg, ...]:
    """The files a command overwrites with nothing of their own, which loses them as a delete does:
    `truncate -s 0 F`, `cp /dev/null F`, `install /dev/null F`, `dd if=/dev/zero of=F`."""
    name = reading.program.name
    if name == "truncate":
        return reading.operands if any(size.value == "0" for size in reading.values("--size")) else ()
    if name == "dd":
        inputs = [arg.value or "" for arg in reading.operands if (arg.value or "").startswith("if=")]
        return _dd_output(reading) if inputs and inputs[-1][3:] in _EMPTY_SOURCES else ()
    if name in ("cp", "install") and not reading.has("--directory"):
        destination = _destination(reading)
        sources = [arg for arg in reading.operands if all(arg is not target for target in destination)]
        if sources and all(source.value in _EMPTY_SOURCES for source in sources):
            return destination
    return ()


def _script_in_place(reading: Reading) -> tuple[Arg, ...]:
    """`perl -i`/`ruby -i` edit the files after the program (the -e code, or the script)."""
    if not reading.has("-i"):
        return ()
    return reading.operands if reading.has("-e", "-E") else reading.operands[1:]


def _awk_in_place(reading: Reading) -> tuple[Arg, ...]:
    """gawk's inplace extension: `-i inplace`, `-iinplace`, `--include=inplace`."""
    if not any(included.value == "inplace" for included in reading.values("-i", "--include")):
        return ()
    program_given = reading.has("-f", "--file", "-e", "--source")
    return reading.operands if program_given else reading.operands[1:]


# -- declarations ----------------------------------------------------------------------------

RM = Program(
    ("rm",),
    options=(
        flag("-r", "-R", "--recursive"),
        _FORCE,
        flag("-i"),
        flag("-I"),
        attached("--interactive"),
        flag("-d", "--dir"),
        flag("--one-file-system"),
        flag("--no-preserve-root"),
        attached("--preserve-root"),
        _VERBOSE,
    ),
    operands=("FILE...",),
    removes=_operands,
    removes_trees=_recursive_operands,
)

# Deleters that overwrite each file first (secure-delete's and macOS's srm, wipe): the same loss as rm's.
SRM = Program(
    ("srm",),
    options=(
        flag("-r", "-R", "--recursive"), _FORCE, _INTERACTIVE, _VERBOSE, flag("-d", "--dod"), flag("-l", "--lessmode"),
        flag("-z", "--zero"), flag("-s", "--simple"), flag("-m", "--medium"), flag("-n", "--nounlink"),
    ),
    operands=("FILE...",),
    removes=_operands,
    removes_trees=_recursive_operands,
)  # fmt: skip

WIPE = Program(
    ("wipe",),
    options=(
        flag("-r", "-R", "--recursive"), flag("-f"), flag("-i"), flag("-c"), flag("-s"), flag("-q"), flag("-v"),
        flag("-k"), flag("-D"), flag("-e"), flag("-Z"), flag("-X"), valued("-Q"), valued("-l"), valued("-x"),
        valued("-p"), valued("-S"), valued("-M"),
    ),
    operands=("FILE...",),
    removes=_operands,
    removes_trees=_recursive_operands,
)  # fmt: skip

# npm's rimraf (`npx rimraf dist`, in package scripts): each path or glob it is given, with everything in it.
RIMRAF = Program(
    ("rimraf",),
    options=(
        flag("-v", "--verbose"), flag("-i", "--interactive"), flag("-G", "--no-glob"), flag("-g", "--glob"),
        flag("--preserve-root"), flag("--no-preserve-root"), attached("--impl"), attached("--tmp"),
        attached("--max-retries"), attached("--retry-delay"), attached("--backoff"), attached("--max-backoff"),
    ),
    operands=("PATH...",),
    removes=_operands,
    removes_trees=_operands,
)  # fmt: skip

# `cmake -E remove_directory DIR...` (the wrapper `cmake -E` runs it): each directory with everything in it.
CMAKE_REMOVE_DIRECTORY = Program(
    ("remove_directory",), operands=("DIR...",), removes=_operands, removes_trees=_operands
)

RMDIR = Program(
    ("rmdir",),
    options=(flag("-p", "--parents"), flag("--ignore-fail-on-non-empty"), _VERBOSE),
    operands=("DIRECTORY...",),
    removes=_operands,
)

UNLINK = Program(("unlink",), operands=("FILE",), removes=_operands)

_COPY_OPTIONS = (
    _TARGET_DIRECTORY, _SUFFIX, _NO_TARGET_DIRECTORY, *_BACKUP, _VERBOSE, _FORCE, _INTERACTIVE, *_CONTEXT,
    flag("-n", "--no-clobber"), attached("--update"), flag("-u"), flag("--strip-trailing-slashes"),
)  # fmt: skip

CP = Program(
    ("cp",),
    options=(
        *_COPY_OPTIONS,
        flag("-r", "-R", "--recursive"),
        flag("-a", "--archive"),
        flag("-p"),
        attached("--preserve"),
        attached("--no-preserve"),
        flag("-l", "--link"),
        flag("-s", "--symbolic-link"),
        flag("-d"),
        flag("-L", "--dereference"),
        flag("-P", "--no-dereference"),
        flag("-H"),
        flag("-x", "--one-file-system"),
        flag("--parents"),
        attached("--sparse"),
        attached("--reflink"),
        flag("--remove-destination"),
        flag("--attributes-only"),
        flag("--copy-contents"),
    ),
    operands=("SOURCE...", "DEST"),
    writes=_destination,
)

MV = Program(
    ("mv",),
    options=(*_COPY_OPTIONS, flag("--exchange"), flag("--no-copy")),
    operands=("SOURCE...", "DEST"),
    writes=_destination,
    removes=_moved_away,
    removes_trees=_moved_into_nothing,
)

INSTALL = Program(
    ("install",),
    options=(
        _TARGET_DIRECTORY, _SUFFIX, _NO_TARGET_DIRECTORY, *_BACKUP, _VERBOSE, *_CONTEXT,
        valued("-m", "--mode"), valued("-o", "--owner"), valued("-g", "--group"), flag("-d", "--directory"),
        flag("-D"), flag("-c"), flag("-C", "--compare"), flag("-p", "--preserve-timestamps"), flag("-s", "--strip"),
        valued("--strip-program"), flag("--preserve-context"),
    ),
    operands=("SOURCE...", "DEST"),
    writes=_installed,
)  # fmt: skip

LN = Program(
    ("ln",),
    options=(
        _TARGET_DIRECTORY, _SUFFIX, _NO_TARGET_DIRECTORY, *_BACKUP, _VERBOSE, _FORCE, _INTERACTIVE,
        flag("-s", "--symbolic"), flag("-n", "--no-dereference"), flag("-r", "--relative"), flag("-L", "--logical"),
        flag("-P", "--physical"), flag("-d", "-F", "--directory"),
    ),
    operands=("TARGET...", "LINK"),
    writes=_destination,
)  # fmt: skip

RSYNC = Program(
    ("rsync",),
    options=(
        valued("-e", "--rsh"), valued("--rsync-path"), valued("-f", "--filter"), valued("--exclude"),
        valued("--include"), valued("--exclude-from"), valued("--include-from"), valued("--files-from"),
        valued("--password-file"), valued("--log-file"), valued("--log-file-format"), valued("--chmod"),
        valued("--chown"), valued("--usermap"), valued("--groupmap"), valued("--timeout"), valued("--contimeout"),
        valued("--bwlimit"), valued("-M", "--remote-option"), valued("--port"), valued("-T", "--temp-dir"),
        valued("--compare-dest"), valued("--copy-dest"), valued("--link-dest"), valued("--partial-dir"),
        valued("--backup-dir"), valued("--suffix"), valued("--max-size"), valued("--min-size"), valued("--max-delete"),
        valued("--info"), valued("--debug"), valued("--out-format"), valued("--iconv"), valued("-B", "--block-size"),
        valued("--modify-window"), valued("--checksum-choice", "--cc"), valued("--compress-choice", "--zc"),
        valued("--compress-level", "--zl"), valued("--skip-compress"), valued("--sockopts"), valued("--outbuf"),
        valued("--stop-after"), valued("--stop-at"), valued("--address"), valued("--protocol"),
        valued("--write-batch"), valued("--only-write-batch"), valued("--read-batch"),
        flag("--del"), flag("--delete"), flag("--delete-before"), flag("--delete-during"), flag("--delete-delay"),
        flag("--delete-after"), flag("--delete-excluded"), flag("--delete-missing-args"),
        flag("--remove-source-files"), flag("-n", "--dry-run"), flag("--list-only"),
    ),
    operands=("SOURCE...", "DEST"),
    writes=_destination,
)  # fmt: skip

TEE = Program(
    ("tee",),
    options=(flag("-a", "--append"), flag("-i", "--ignore-interrupts"), flag("-p"), attached("--output-error")),
    operands=("FILE...",),
    writes=_operands,
)

TOUCH = Program(
    ("touch",),
    options=(
        flag("-a"), flag("-c", "--no-create"), valued("-d", "--date"), flag("-f"), flag("-h", "--no-dereference"),
        flag("-m"), valued("-r", "--reference"), valued("-t"), valued("--time"),
    ),
    operands=("FILE...",),
    writes=_operands,
)  # fmt: skip

TRUNCATE = Program(
    ("truncate",),
    options=(flag("-c", "--no-create"), flag("-o", "--io-blocks"), valued("-r", "--reference"), valued("-s", "--size")),
    operands=("FILE...",),
    writes=_operands,
)

DD = Program(("dd",), operands=("OPERAND...",), writes=_dd_output)

SHRED = Program(
    ("shred",),
    options=(
        valued("-n", "--iterations"), valued("-s", "--size"), valued("--random-source"), _FORCE, _VERBOSE,
        flag("-x", "--exact"), flag("-z", "--zero"), flag("-u"), attached("--remove"),
    ),
    operands=("FILE...",),
    removes=_shredded_and_removed,
)  # fmt: skip

SED = Program(
    ("sed",),
    options=(
        valued("-e", "--expression"), valued("-f", "--file"), attached("-i", "--in-place"),
        valued("-l", "--line-length"), flag("-n", "--quiet", "--silent"), flag("-E", "-r", "--regexp-extended"),
        flag("-s", "--separate"), flag("-z", "--null-data"), flag("-u", "--unbuffered"), flag("-b", "--binary"),
        flag("--posix"), flag("--debug"), flag("--sandbox"), flag("--follow-symlinks"),
    ),
    operands=("SCRIPT", "FILE..."),
    writes=_sed_writes,
)  # fmt: skip

SORT = Program(
    ("sort",),
    options=(
        valued("-o", "--output"), valued("-k", "--key"), valued("-t", "--field-separator"),
        valued("-T", "--temporary-directory"), valued("-S", "--buffer-size"), valued("--parallel"),
        valued("--batch-size"), valued("--files0-from"), valued("--compress-program"), valued("--random-source"),
        valued("--sort"), attached("--check"),
    ),
    operands=("FILE...",),
    writes=option_values("--output"),
)  # fmt: skip

SPONGE = Program(("sponge",), options=(flag("-a"),), operands=("FILE",), writes=_operands)


def _patched(reading: Reading) -> tuple[Arg, ...]:
    """`patch FILE [PATCHFILE]` changes FILE, `-o OUT` writes OUT instead; `--dry-run` writes nothing.
    Without FILE the names come from the patch itself, which no rule sees."""
    if reading.has("--dry-run"):
        return ()
    return reading.values("--output") or reading.operand("ORIGINAL")


# GNU patch: the patch comes on standard input, from `-i FILE`, or as the second operand.
PATCH = Program(
    ("patch",),
    options=(
        valued("-p", "--strip"), valued("-i", "--input"), valued("-o", "--output"), valued("-d", "--directory"),
        valued("-D", "--ifdef"), valued("-F", "--fuzz"), valued("-r", "--reject-file"), valued("-B", "--prefix"),
        valued("-z", "--suffix"), valued("-V", "--version-control"), valued("-Y", "--basename-prefix"),
        valued("--backup-if-mismatch"), valued("--merge"), valued("--quoting-style"), valued("--reject-format"),
        flag("-b", "--backup"), flag("-R", "--reverse"), flag("-N", "--forward"), flag("-E", "--remove-empty-files"),
        flag("-f", "--force"), flag("-t", "--batch"), flag("-s", "--silent", "--quiet"), flag("-l", "--ignore-whitespace"),
        flag("-u", "--unified"), flag("-c", "--context"), flag("-n", "--normal"), flag("-e", "--ed"),
        flag("--dry-run"), flag("--verbose"), flag("--posix"), flag("-T", "--set-time"), flag("-Z", "--set-utc"),
        flag("--binary"), flag("--follow-symlinks"),
    ),
    operands=("ORIGINAL", "PATCHFILE"),
    writes=_patched,
)  # fmt: skip


_MODE_CHANGE = (
    flag("-R", "--recursive"), flag("-c", "--changes"), flag("-f", "--silent", "--quiet"), _VERBOSE,
    valued("--reference"), *_ROOT_GUARDS,
)  # fmt: skip
_OWNER_CHANGE = (
    *_MODE_CHANGE, valued("--from"), flag("-h", "--no-dereference"), flag("--dereference"), flag("-H"), flag("-L"),
    flag("-P"),
)  # fmt: skip

CHMOD = Program(("chmod",), options=_MODE_CHANGE, operands=("MODE", "FILE..."))
CHOWN = Program(("chown",), options=_OWNER_CHANGE, operands=("OWNER", "FILE..."))
CHGRP = Program(("chgrp",), options=_OWNER_CHANGE, operands=("GROUP", "FILE..."))

PERL = interpreter_program("perl", ("perl",), _script_in_place)
RUBY = interpreter_program("ruby", ("ruby",), _script_in_place)
# Only gawk has the inplace extension; plain `awk` is gawk on most Linux systems.
AWK = interpreter_program("awk", ("awk", "gawk"), _awk_in_place)

FILE_PROGRAMS: tuple[Program, ...] = (
    RM, SRM, WIPE, RIMRAF, CMAKE_REMOVE_DIRECTORY, RMDIR, UNLINK, CP, MV, INSTALL, LN, RSYNC, TEE, TOUCH, TRUNCATE, DD,
    SHRED, SED, SORT, SPONGE, CHMOD, CHOWN, CHGRP, PERL, RUBY, AWK, PATCH,
)  # fmt: skip
