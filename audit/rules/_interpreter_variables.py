"""Variables that make an interpreter or a shell load code before its own (EX017): a module search
path (`PYTHONPATH`, `PERL5LIB`, `RUBYLIB`, `NODE_PATH`), options read at every start
(`NODE_OPTIONS=--require F`, `RUBYOPT=-rF`, `PERL5OPT=-ID`, `JAVA_TOOL_OPTIONS=-javaagent:F`) or a
start-up file (`BASH_ENV`, `ENV`, `PYTHONSTARTUP`).

A project's own paths and the installed modules are how tests and tools are run
(`PYTHONPATH=src`, `NODE_OPTIONS='-r dotenv/config'`); the rule reports code loaded from a
temporary directory, which every user of the machine may write, as SY007 does for the dynamic
linker's search path.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .._analysis import AssignmentSubject
from .._model import Severity
from .._tables import Tables
from ..programs import Arg
from ._paths import TEMP_DIRECTORIES, path_under
from ._rule import Hit, Inspects, rule

# What each variable holds, for what the interpreter loads from it.
_LOADERS = {
    "PYTHONPATH": "module search path", "PERL5LIB": "module search path", "PERLLIB": "module search path",
    "RUBYLIB": "module search path", "NODE_PATH": "module search path",
    "NODE_OPTIONS": "start-up options", "PERL5OPT": "start-up options", "RUBYOPT": "start-up options",
    "JAVA_TOOL_OPTIONS": "start-up options", "_JAVA_OPTIONS": "start-up options", "JDK_JAVA_OPTIONS": "start-up options",
    "BASH_ENV": "start-up file", "ENV": "start-up file", "PYTHONSTARTUP": "start-up file",
}  # fmt: skip
LOADING_VARIABLES = frozenset(_LOADERS)
"""The variables that make an interpreter or a shell load code (what an append to a startup file may not set)."""
# Where a path stands in such a value: between spaces, the `:` of a search path or of
# `-javaagent:F`, and the `=` of `--require=F`.
_SEPARATORS = re.compile(r"[\s:=]+")
# `-rF`, `-IDIR`, `-MMod`: a short option written together with its value.
_SHORT_OPTION = re.compile(r"-[A-Za-z]")


@rule(
    id="EX017",
    name="interpreter-loads-temp-code",
    severity=Severity.HIGH,
    summary=(
        "Sets a variable that makes an interpreter or a shell load code before its own (`PYTHONPATH`, "
        "`PERL5LIB`, `RUBYLIB`, `NODE_PATH`, `NODE_OPTIONS`, `PERL5OPT`, `RUBYOPT`, `JAVA_TOOL_OPTIONS`, "
        "`BASH_ENV`, `ENV`, `PYTHONSTARTUP`) to a path in a temporary directory (/tmp, /var/tmp, /dev/shm)."
    ),
    rationale=(
        "Every Python, Node, Perl, Ruby, Java or shell the command starts (and, exported, every one the "
        "session starts later) runs that code first, with the user's rights: `NODE_OPTIONS='--require "
        "/tmp/x.js'` or `PYTHONPATH=/tmp/evil` hijacks the program that follows. Any user of the machine "
        "may write a temporary directory, so what is there is not the project's."
    ),
    safer_alternative=(
        "Point the variable at the project's own directories (`PYTHONPATH=src`, `NODE_OPTIONS='-r "
        "./test/setup.js'`) or an installed module, or run the file directly where it can be read."
    ),
    inspects=Inspects.ASSIGNMENT,
    must_match=(
        "NODE_OPTIONS='--require /tmp/x.js' node app.js",
        "export NODE_OPTIONS=--import=/dev/shm/hook.mjs",
        "PYTHONPATH=/tmp/evil python3 -m pytest",
        "PERL5OPT='-I/tmp/lib -MHook' perl app.pl",
        "RUBYOPT=-r/var/tmp/x ruby app.rb",
        "BASH_ENV=/tmp/.x bash -c true",
        "env JAVA_TOOL_OPTIONS=-javaagent:/tmp/a.jar java -jar app.jar",
        "export PYTHONPATH=src:/tmp/mods",
    ),
    must_not_match=(
        "PYTHONPATH=src python3 -m pytest",
        "NODE_OPTIONS='-r dotenv/config' node app.js",
        "NODE_OPTIONS=--max-old-space-size=4096 npm run build",
        "PERL5OPT=-MDevel::Cover prove -l",
        "RUBYOPT=-rbundler/setup ruby app.rb",
        "BASH_ENV=~/.bashrc bash -c make",
        "export PYTHONPATH=$PYTHONPATH:/opt/app/lib",
        "TMPDIR=/tmp/build make",
    ),
)
def interpreter_loads_temp_code(subject: AssignmentSubject, tables: Tables) -> Iterator[Hit]:
    what = _LOADERS.get(subject.name)
    value = subject.value
    if what is None or not subject.exported or value is None:
        return
    for text in value.values:
        for path in _paths_in(text):
            where = path_under(Arg((path,), value.source, value.span), TEMP_DIRECTORIES)
            if where is not None:
                yield Hit(subject.span, f"`{subject.name}` ({what}) loads code from `{path}`, in {where}")
                return


def _paths_in(text: str) -> Iterator[str]:
    """The paths a search path or an options value names: each piece between separators, a short
    option written with its value (`-r/tmp/x`) read as the value."""
    for piece in _SEPARATORS.split(text):
        if _SHORT_OPTION.match(piece):
            piece = piece[2:]
        if piece and not piece.startswith("-"):
            yield piece


INTERPRETER_VARIABLE_RULES = (interpreter_loads_temp_code,)
