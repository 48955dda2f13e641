"""mktemp: the new file or directory it creates and prints.

Its random part is unknown, but where the name lies is not: directly in the temporary directory
(`/tmp/tmp.XXXXXXXXXX`, or in `$TMPDIR`, or in the directory `-p DIR` names), or where a template
with a directory says. The engine takes the template's X's as the name's random part, so a path
climbing out of it is resolved (`"$(mktemp -d)/../.."` is `/`) while the name itself stays one new
entry of the temporary directory.
"""

from __future__ import annotations

from ._arg import Arg
from ._grammar import attached, flag, valued
from ._program import Program, read

MKTEMP = Program(
    ("mktemp",),
    options=(
        flag("-d", "--directory"), flag("-u", "--dry-run"), flag("-q", "--quiet"), attached("--suffix"),
        valued("-p"), attached("--tmpdir"), flag("-t"),
    ),
    operands=("TEMPLATE",),
)  # fmt: skip

# The random part of a name, and what GNU and BSD mktemp name a file when given no template.
_RANDOM = "XXXXXXXXXX"
_DEFAULT_TEMPLATE = "tmp." + _RANDOM
# Where the temporary files go when $TMPDIR is not set.
SYSTEM_TEMPORARY_DIRECTORY = "/tmp"


def temporary_name(args: tuple[Arg, ...], temporary_directory: str | None) -> str | None:
    """The path `mktemp ARGS` prints (its random part as the template's X's), given the value of
    $TMPDIR (None when only known at run time); None when it depends on what is not known."""
    reading = read(MKTEMP, args)
    if any(use.value is not None and use.value.value is None for use in reading.options):
        return None
    template = reading.operands[0].value if reading.operands else _DEFAULT_TEMPLATE
    if template is None or len(reading.operands) > 1:
        return None
    suffix = next((arg.value or "" for arg in reading.values("--suffix")), "")
    given = next((arg.value for arg in reading.values("-p", "--tmpdir")), None)
    in_temporary = not reading.operands or reading.has("-p", "--tmpdir", "-t")
    if reading.has("-t"):
        # GNU's -t and BSD's `-t PREFIX` both name one entry of the temporary directory.
        template = template.rsplit("/", 1)[-1] + ("" if "XXX" in template else "." + _RANDOM)
    if not in_temporary:
        return template + suffix  # relative to the working directory, or absolute
    directory = given or temporary_directory
    if directory is None:
        return None
    return f"{directory.rstrip('/')}/{template}{suffix}"
