"""The analysis layer: from syntax trees to the subjects rules inspect.

`Analyzer` (`_analyzer`) walks a script (`_walker`), resolving each simple command
(`_resolve`, `_wrappers`), following the code commands run (`_contexts`),
knowing variables (`_variables`, `_bindings`) and how risky things are
(`_risks`), with its state in one place (`_state`). What it produces, and the
`Sink` it hands it to, are in `_subjects`.
"""

from ..programs import FindScope, find_scope
from ._analyzer import Analyzer
from ._normalize import HOME, basename, clean_path, resolve_path
from ._static_output import static_output
from ._subjects import (
    Arg,
    AssignmentSubject,
    Autorun,
    AutorunFormat,
    CodeFactKind,
    CodeFactSubject,
    CommandSubject,
    ContextKind,
    DataOrigin,
    DynamicPart,
    ExecContextSubject,
    FunctionSubject,
    Location,
    LoopSubject,
    NameSource,
    RedirectSubject,
    Risk,
    Sink,
    Stdin,
    StdinKind,
)

__all__ = [
    "HOME",
    "Analyzer",
    "Arg",
    "AssignmentSubject",
    "Autorun",
    "AutorunFormat",
    "CodeFactKind",
    "CodeFactSubject",
    "CommandSubject",
    "ContextKind",
    "DataOrigin",
    "DynamicPart",
    "ExecContextSubject",
    "FindScope",
    "FunctionSubject",
    "Location",
    "LoopSubject",
    "NameSource",
    "RedirectSubject",
    "Risk",
    "Sink",
    "Stdin",
    "StdinKind",
    "basename",
    "clean_path",
    "find_scope",
    "resolve_path",
    "static_output",
]
