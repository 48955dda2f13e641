"""What code in another language does: shell-outs, destructive file calls, files read,
download-and-execute, reverse shells and network sends, found by parsing the
code (python -c, node -e, perl -e, ruby -e, php -r, lua -e, awk programs...)
with real grammars.

The package only reports facts with spans into the code; the engine judges
them. Grammars are loaded on first use.

>>> report = analyse_code("python", "import shutil; shutil.rmtree('build')")
>>> report.facts[0].operation.value, report.facts[0].path
('delete-tree', 'build')
"""

from typing import TYPE_CHECKING

from .._lazy import lazy_names
from ._api import DEFAULT_MAX_DEPTH, DEFAULT_MAX_STEPS, LANGUAGES, analyse_code
from ._facts import (
    CodeReport,
    DataSource,
    DestructiveCall,
    DownloadExecute,
    Fact,
    FileOperation,
    FileRead,
    LanguageError,
    NetworkSend,
    ReverseShell,
    ShellOut,
    ShellOutKind,
    SourceKind,
    Unresolved,
    UnresolvedKind,
)

__all__ = [
    "DEFAULT_MAX_DEPTH",
    "DEFAULT_MAX_STEPS",
    "LANGUAGES",
    "CodeReport",
    "DataSource",
    "DestructiveCall",
    "DownloadExecute",
    "Fact",
    "FileOperation",
    "FileRead",
    "LanguageError",
    "NetworkSend",
    "ReverseShell",
    "ShellOut",
    "ShellOutKind",
    "SourceKind",
    "Unresolved",
    "UnresolvedKind",
    "analyse_code",
    "prints_only_integers",
]

if TYPE_CHECKING:  # `__getattr__` loads it on first use: it needs a grammar, the fact types do not
    from ._output import prints_only_integers as prints_only_integers

__getattr__, __dir__ = lazy_names(__name__, {"prints_only_integers": "._output"}, globals())
