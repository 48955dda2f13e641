"""The dynamic linker's variables (SY007): libraries loaded into every program started.

A preload (`LD_PRELOAD`, `LD_AUDIT`, `DYLD_INSERT_LIBRARIES`) runs its library's
code in every program, whatever the library is. A search path
(`LD_LIBRARY_PATH`, `DYLD_LIBRARY_PATH`) only says where to look first: a local
build's own directories and the system's library directories (`/usr/lib`, CUDA's)
are how programs are built and run, and the rule reports the other places, where
a planted `libc.so.6` would be found first.
"""

from __future__ import annotations

from collections.abc import Iterator

from .._analysis import AssignmentSubject, cleaned_values
from .._model import Severity
from .._syntax import ast
from .._tables import Tables
from ..programs import Arg
from ._paths import names_working_directory, path_under
from ._rule import Hit, Inspects, rule

# The linker variables that hold a list of directories searched for libraries, not libraries to load.
_SEARCH_PATHS = frozenset({"LD_LIBRARY_PATH", "DYLD_LIBRARY_PATH", "DYLD_FALLBACK_LIBRARY_PATH", "DYLD_FRAMEWORK_PATH"})


@rule(
    id="SY007",
    name="dynamic-linker-hijack",
    severity=Severity.HIGH,
    summary=(
        "Sets LD_PRELOAD or LD_AUDIT for the commands that follow, or a library search path "
        "(LD_LIBRARY_PATH) outside the project and the system's library directories."
    ),
    rationale=(
        "The dynamic linker loads the named libraries into every program started, before its own code runs; "
        "a search path through /tmp or a download finds a planted library before the system's."
    ),
    safer_alternative=(
        "Link the library properly, point the search path at the build's own directory (`./build/lib`), "
        "or run the program inside the sandbox."
    ),
    inspects=Inspects.ASSIGNMENT,
    must_match=(
        "LD_PRELOAD=/tmp/x.so ls",
        "export LD_PRELOAD=/tmp/evil.so",
        "declare -x LD_LIBRARY_PATH=/tmp",
        "env LD_AUDIT=/x.so id",
        "sudo LD_PRELOAD=x.so id",
        "LD_LIBRARY_PATH=/opt/lib; export LD_LIBRARY_PATH",
        "LD_PRELOAD=./build/libhook.so ./app",
        "export LD_LIBRARY_PATH=/dev/shm/lib:$LD_LIBRARY_PATH",
        "LD_LIBRARY_PATH=./lib:$DIR ./app",
        "LD_LIBRARY_PATH=../../../../tmp/x ./app",
        "DYLD_LIBRARY_PATH=~/Downloads/lib ./app",
    ),
    must_not_match=(
        "echo $LD_PRELOAD",
        "unset LD_PRELOAD",
        "LD_DEBUG=libs ls",
        "grep LD_PRELOAD notes.md",
        "LD_LIBRARY_PATH=./build/lib ./build/bin/test_runner",
        "export LD_LIBRARY_PATH=/usr/local/cuda/lib64:$LD_LIBRARY_PATH",
        "DYLD_LIBRARY_PATH=./lib ./app",
        'LD_LIBRARY_PATH="$PWD/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" ./app',
        "LD_LIBRARY_PATH=$(pwd)/out:/usr/lib/x86_64-linux-gnu make test",
    ),
)
def dynamic_linker_hijack(subject: AssignmentSubject, tables: Tables) -> Iterator[Hit]:
    name = subject.name
    if name not in tables.linker_variables or not subject.exported:
        return
    if name not in _SEARCH_PATHS:
        yield Hit(subject.span, f"`{name}` makes the dynamic linker load code into every program started")
    elif not _searches_known_directories(subject, tables):
        yield Hit(subject.span, f"`{name}` makes the dynamic linker look for libraries outside the system's first")


def _searches_known_directories(subject: AssignmentSubject, tables: Tables) -> bool:
    """Whether every directory of the search path is the project's, the system's, or already in it."""
    value = subject.value
    if value is None:
        return False
    if value.values:
        components = [component for text in value.values for component in text.split(":")]
        return all(_known_directory(component, value, tables) for component in components)
    if value.word is None:
        return False
    return all(_known_run_time_directory(parts, subject.name, value, tables) for parts in _components(value.word.parts))


def _components(parts: tuple[ast.WordPart, ...]) -> list[list[ast.WordPart]]:
    """The word's parts split into the `:`-separated directories of a search path."""
    components: list[list[ast.WordPart]] = [[]]
    for part in parts:
        if type(part) is not ast.Literal:
            components[-1].append(part)
            continue
        first, *rest = part.text.split(":")
        if first:
            components[-1].append(part._replace(text=first))
        components.extend([part._replace(text=text)] if text else [] for text in rest)
    return components


def _known_run_time_directory(parts: list[ast.WordPart], name: str, value: Arg, tables: Tables) -> bool:
    """A directory of a search path known only at run time: the variable's own previous value, or a
    path under the working directory (`$PWD/lib`, `$(pwd)/lib`); else its literal text is judged."""
    parts = [part for part in parts if not _appended_previous_value(part, name)]
    if not parts or (len(parts) == 1 and _previous_value(parts[0], name)):
        return True
    in_working_directory = names_working_directory(parts[0])
    rest = parts[1:] if in_working_directory else parts
    texts = [part.text for part in rest if type(part) is ast.Literal]
    if len(texts) != len(rest):
        return False
    return _known_directory(("." if in_working_directory else "") + "".join(texts), value, tables)


def _known_directory(directory: str, value: Arg, tables: Tables) -> bool:
    """The working directory (an empty entry), a relative path (the project's), or a system library directory."""
    if not directory:
        return True
    path = Arg((directory,), value.source, value.span)
    if not any(cleaned.startswith(("/", "~")) for cleaned in cleaned_values(path)):
        return True  # relative, and not climbing to `/`
    return path_under(path, tables.library_directories) is not None


def _previous_value(part: ast.WordPart, name: str) -> bool:
    """`$LD_LIBRARY_PATH`: what the variable held already."""
    return type(part) is ast.ParamExpansion and part.name == name and not part.operator and part.subscript is None


def _appended_previous_value(part: ast.WordPart, name: str) -> bool:
    """`${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}`: nothing, or the previous value as directories of their own."""
    if type(part) is not ast.ParamExpansion or part.name != name or part.operator not in (":+", "+"):
        return False
    if len(part.argument) != 1 or len(part.argument[0].parts) != 2:
        return False
    first, second = part.argument[0].parts
    return (type(first) is ast.Literal and first.text == ":" and _previous_value(second, name)) or (
        type(second) is ast.Literal and second.text == ":" and _previous_value(first, name)
    )


LINKER_RULES = (dynamic_linker_hijack,)
