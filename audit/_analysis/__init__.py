"""The analysis layer: from syntax trees to the subjects rules inspect.

`Analyzer` (`_analyzer`) walks a script (`_walker`), resolving each simple command
(`_resolve`, `_wrappers`), following the code commands run (`_contexts`),
knowing variables (`_variables`, `_bindings`) and how risky things are
(`_risks`), with its state in one place (`_state`). What it produces, and the
`Sink` it hands it to, are in `_subjects`.
"""

from ..programs import FindScope, find_scope
from ._analyzer import Analyzer
from ._clean_paths import clean_path, resolve_path
from ._normalize import HOME, basename
from ._paths import (
    CLIMB_TO_ROOT,
    HARMLESS_DEVICES,
    RUN_TIME,
    autorun_location,
    cleaned_values,
    contents_glob,
    directory_held,
    literal_prefix,
    path_holding,
    path_is,
    path_is_anywhere,
    path_under,
    read_arguments,
    run_time_shape,
)
from ._plain_lane import PlainCommand, plain_command
from ._resolve import substitution_producer
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
    Secret,
    SecretFlowSubject,
    SecretKind,
    SentSecret,
    Sink,
    Stdin,
    StdinKind,
    Trail,
)

__all__ = [
    "CLIMB_TO_ROOT",
    "HARMLESS_DEVICES",
    "HOME",
    "RUN_TIME",
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
    "PlainCommand",
    "RedirectSubject",
    "Risk",
    "Secret",
    "SecretFlowSubject",
    "SecretKind",
    "SentSecret",
    "Sink",
    "Stdin",
    "StdinKind",
    "Trail",
    "autorun_location",
    "basename",
    "clean_path",
    "cleaned_values",
    "contents_glob",
    "directory_held",
    "find_scope",
    "literal_prefix",
    "path_holding",
    "path_is",
    "path_is_anywhere",
    "path_under",
    "plain_command",
    "read_arguments",
    "resolve_path",
    "run_time_shape",
    "static_output",
    "substitution_producer",
]
