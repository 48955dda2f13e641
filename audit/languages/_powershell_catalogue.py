"""What the PowerShell analyser knows: cmdlets (their aliases and parameters) and .NET calls.

A cmdlet is named by its canonical name in lower case (`invoke-expression`); its
parameters by their full names in lower case, found from any unique prefix as
PowerShell finds them (`-useb` is `-UseBasicParsing`, `-fo` is `-Force`). What a
command is fed through the pipe is its keyword `|`. A .NET call is named by its
type without `System.` and its method, in lower case (`net.webclient.downloadstring`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .._named_tuple import NamedTuple
from ._catalogue import decodes, merge, passes, produces, runs_code, socket
from ._facts import FileOperation, SourceKind
from ._values import UNKNOWN, Call, Command, Entry, FileChange, Request, Value, outside_value
from ._windows import program_name, windows_path

PIPED = "|"
"""The keyword of what the pipe feeds a command."""


class Cmdlet(NamedTuple):
    """A cmdlet's parameters: the ones bound by position, in order; the switches; the others take a value."""

    positional: tuple[str, ...]
    switches: frozenset[str]
    values: frozenset[str]
    aliases: Mapping[str, str]

    def parameter(self, written: str) -> str:
        """The parameter a `-Name` names: its full name, an alias, or a unique prefix (else as written)."""
        name = written.lower().lstrip("-").rstrip(":")
        if name in self.switches or name in self.values:
            return name
        if name in self.aliases:
            return self.aliases[name]
        matches = [full for full in (*self.switches, *self.values) if full.startswith(name)]
        return matches[0] if len(matches) == 1 else name

    def is_switch(self, parameter: str) -> bool:
        return parameter in self.switches


# The common parameters every cmdlet takes (-WhatIf only reports, -Confirm asks).
_COMMON_SWITCHES = ("whatif", "confirm", "verbose", "debug")
_COMMON_VALUES = (
    "erroraction",
    "warningaction",
    "informationaction",
    "outvariable",
    "errorvariable",
    "pipelinevariable",
)


def _cmdlet(
    positional: Iterable[str], switches: Iterable[str] = (), values: Iterable[str] = (), **aliases: str
) -> Cmdlet:
    positional = tuple(positional)
    return Cmdlet(
        positional,
        frozenset((*switches, *_COMMON_SWITCHES)),
        frozenset((*positional, *values, *_COMMON_VALUES)),
        {"wi": "whatif", "cf": "confirm", "ea": "erroraction", **aliases},
    )


_WEB = _cmdlet(
    ("uri",),
    ("usebasicparsing", "usedefaultcredentials", "skipcertificatecheck", "passthru", "disablekeepalive"),
    ("method", "body", "infile", "outfile", "headers", "contenttype", "useragent", "credential", "proxy", "form",
     "timeoutsec", "websession", "sessionvariable", "maximumredirection", "customethod"),
    url="uri",
)  # fmt: skip
_PATHS = ("literalpath", "filter", "include", "exclude", "credential", "stream")
CMDLETS: dict[str, Cmdlet] = {
    "invoke-expression": _cmdlet(("command",)),
    "invoke-webrequest": _WEB,
    "invoke-restmethod": _WEB,
    "remove-item": _cmdlet(("path",), ("recurse", "force"), _PATHS, lp="literalpath", pspath="literalpath"),
    "start-process": _cmdlet(
        ("filepath", "argumentlist"),
        ("wait", "nonewwindow", "passthru", "loaduserprofile", "usenewenvironment"),
        (
            "verb",
            "workingdirectory",
            "windowstyle",
            "credential",
            "redirectstandardoutput",
            "redirectstandardinput",
            "redirectstandarderror",
        ),
        args="argumentlist",
        path="filepath",
    ),
    "get-content": _cmdlet(
        ("path",), ("raw", "wait", "force", "asbytestream"), (*_PATHS, "tail", "totalcount", "encoding", "delimiter")
    ),
    "set-content": _cmdlet(("path", "value"), ("force", "nonewline", "passthru"), (*_PATHS, "encoding")),
    "add-content": _cmdlet(("path", "value"), ("force", "nonewline", "passthru"), (*_PATHS, "encoding")),
    "out-file": _cmdlet(("filepath", "encoding"), ("append", "force", "noclobber", "nonewline"), ("inputobject",)),
    "get-childitem": _cmdlet(
        ("path", "filter"), ("recurse", "force", "name", "directory", "file", "hidden"), (*_PATHS[:-1], "depth")
    ),
    "new-object": _cmdlet(("typename", "argumentlist"), ("strict",), ("comobject", "property"), args="argumentlist"),
}
"""The cmdlets whose effects the analysis follows; any other command is reported as the program it runs."""

ALIASES = {
    "iex": "invoke-expression",
    "iwr": "invoke-webrequest",
    "curl": "invoke-webrequest",
    "wget": "invoke-webrequest",
    "irm": "invoke-restmethod",
    "rm": "remove-item",
    "del": "remove-item",
    "ri": "remove-item",
    "rd": "remove-item",
    "rmdir": "remove-item",
    "erase": "remove-item",
    "saps": "start-process",
    "start": "start-process",
    "gc": "get-content",
    "gci": "get-childitem",
    "ls": "get-childitem",
    "dir": "get-childitem",
    "cat": "get-content",
    "type": "get-content",
    "sc": "set-content",
    "ac": "add-content",
}
"""Windows PowerShell's aliases of those cmdlets (curl and wget are the web cmdlets there)."""


def command_name(written: str) -> str:
    """The cmdlet a command name calls (an alias resolved, any case), or the program it runs:
    a name with `.exe` is always the program (`curl.exe` is curl, `sc.exe` the service manager)."""
    lowered = written.lower()
    if lowered.endswith(".exe"):
        return program_name(written)
    return ALIASES.get(lowered, lowered)


def _path_values(value: Value | None) -> tuple[Value, ...]:
    if value is None:
        return ()
    return value.items if value.items is not None else (value,)


def _engine_path(value: Value, *, wildcards: bool = False) -> Value:
    """A path as the engine spells it; with `wildcards` (`-Path`, not `-LiteralPath`), `*`, `?` and `[` make
    it a pattern, as the shell's glob."""
    if value.text is None:
        return value
    pattern = wildcards and any(char in value.text for char in "*?[")
    return Value(text=windows_path(value.text), sources=value.sources, pattern=pattern)


LISTED = "get-childitem()"
"""The name of a directory listing's value: its text is the directory, when the listing takes all of it."""


def _remove_item() -> Entry:
    """Remove-Item: each path deleted, with its tree under -Recurse; -WhatIf deletes nothing."""

    def file_changes(call: Call) -> tuple[FileChange, ...]:
        if _switched(call, "whatif"):
            return ()
        operation = FileOperation.DELETE_TREE if _switched(call, "recurse") else FileOperation.DELETE_FILE
        wildcards = call.arg(0, "path")
        named = wildcards or call.arg(None, "literalpath")
        listed = call.arg(None, PIPED)
        if named is None and listed is not None and listed.name == LISTED and listed.text is not None:
            # `Get-ChildItem DIR | Remove-Item`: everything DIR holds, so DIR's tree is emptied.
            return (FileChange(FileOperation.DELETE_TREE, Value(text=listed.text, sources=listed.sources)),)
        paths = _path_values(named)
        return tuple(FileChange(operation, _engine_path(path, wildcards=wildcards is not None)) for path in paths)

    return Entry(file_changes=file_changes)


def _switched(call: Call, switch: str) -> bool:
    given = call.keywords.get(switch)
    return given is not None and given.flag is not False


def _writes(operation: FileOperation, keyword: str) -> Entry:
    """Set-Content, Add-Content, Out-File (-Append): the file written."""

    def file_changes(call: Call) -> tuple[FileChange, ...]:
        path = call.arg(0, keyword)
        if path is None or _switched(call, "whatif"):
            return ()
        appends = operation is FileOperation.APPEND_FILE or _switched(call, "append")
        return (FileChange(FileOperation.APPEND_FILE if appends else operation, _engine_path(path)),)

    return Entry(file_changes=file_changes)


def _lists() -> Entry:
    """Get-ChildItem DIR: the entries of DIR (`.` when none is named); a filter or a pattern narrows them to
    entries not known here."""

    def returns(call: Call) -> Value:
        folder = call.arg(0, "path") or call.arg(None, "literalpath") or Value(text=".")
        narrowed = any(keyword in call.keywords for keyword in ("filter", "include", "exclude")) or len(call.args) > 1
        whole = folder.text is not None and not narrowed and not any(char in folder.text for char in "*?[")
        text = windows_path(folder.text) if whole and folder.text is not None else None
        return Value(text=text, name=LISTED, sources=folder.sources)

    return Entry(returns=returns)


def _reads_file() -> Entry:
    """Get-Content: the file's data."""

    def returns(call: Call) -> Value:
        path = call.arg(0, "path") or call.arg(None, "literalpath")
        detail = None if path is None or path.text is None else windows_path(path.text)
        return outside_value(SourceKind.FILE, detail)

    return Entry(returns=returns)


def _web_request() -> Entry:
    """Invoke-WebRequest, Invoke-RestMethod: a download, an upload with a body, a file (-InFile) or what the pipe feeds
    it; -OutFile saves the response."""

    def request(call: Call) -> Request:
        data: list[Value] = []
        body = call.arg(None, "body") or call.arg(None, PIPED)
        if body is not None:
            data.append(body)
        infile = call.arg(None, "infile")
        if infile is not None:
            data.append(outside_value(SourceKind.FILE, None if infile.text is None else windows_path(infile.text)))
        method = call.arg(None, "method")
        sends = bool(data) or (method is not None and (method.text or "").lower() in ("post", "put", "patch"))
        return Request(call.arg(0, "uri") or UNKNOWN, tuple(data), sends)

    def file_changes(call: Call) -> tuple[FileChange, ...]:
        saved = call.arg(None, "outfile")
        return () if saved is None else (FileChange(FileOperation.WRITE_FILE, _engine_path(saved)),)

    return Entry(request=request, file_changes=file_changes)


def _start_process() -> Entry:
    """Start-Process FILE ARGS: the program and its arguments (a string is split where the program would split it)."""

    def command(call: Call) -> Command | None:
        program = call.arg(0, "filepath")
        if program is None:
            return None
        words = [Value(text=program_name(program.text)) if program.text is not None else program]
        for argument in _path_values(call.arg(1, "argumentlist")):
            words.extend(
                [Value(text=word) for word in split_arguments(argument.text)]
                if argument.text is not None
                else [argument]
            )
        return Command.argv(words)

    return Entry(command=command)


def split_arguments(line: str) -> list[str]:
    """A Windows command line's words: split at blanks outside double quotes, the quotes removed."""
    words: list[str] = []
    current: list[str] = []
    quoted = started = False
    for char in line:
        if char == '"':
            quoted = not quoted
            started = True
        elif char in " \t" and not quoted:
            if started:
                words.append("".join(current))
            current, started = [], False
        else:
            current.append(char)
            started = True
    if started:
        words.append("".join(current))
    return words


def _invokes(call: Call) -> Value | None:
    """Invoke-Expression's code: its argument, or what the pipe feeds it."""
    return call.arg(0, "command") or call.arg(None, PIPED)


def _uploads(file_argument: bool) -> Entry:
    """WebClient's Upload*(url, [method,] data): the last argument is sent (a path, for UploadFile)."""

    def request(call: Call) -> Request:
        last = call.args[-1] if len(call.args) > 1 else UNKNOWN
        if file_argument:
            last = outside_value(SourceKind.FILE, None if last.text is None else windows_path(last.text))
        return Request(call.arg(0) or UNKNOWN, (last,), True)

    return Entry(request=request)


def _changes(operation: FileOperation, position: int = 0) -> Entry:
    """A .NET file call: the path at `position` changed."""

    def file_changes(call: Call) -> tuple[FileChange, ...]:
        path = call.arg(position)
        return () if path is None else (FileChange(operation, _engine_path(path)),)

    return Entry(file_changes=file_changes)


def _downloads(saves: bool) -> Entry:
    """WebClient's Download*(url[, path]): network data, saved to the path for DownloadFile."""

    def request(call: Call) -> Request:
        return Request(call.arg(0) or UNKNOWN)

    return merge(Entry(request=request), _changes(FileOperation.WRITE_FILE, 1)) if saves else Entry(request=request)


def _deletes_directory() -> Entry:
    """[IO.Directory]::Delete(path, recursive)."""

    def file_changes(call: Call) -> tuple[FileChange, ...]:
        path = call.arg(0)
        recursive = call.arg(1)
        if path is None:
            return ()
        tree = recursive is not None and recursive.flag is not False
        return (FileChange(FileOperation.DELETE_TREE if tree else FileOperation.DELETE_DIR, _engine_path(path)),)

    return Entry(file_changes=file_changes)


def _made() -> Entry:
    """`[Type]::new(...)`, `New-Object Type`: an object of that type."""
    return Entry(returns=lambda call: Value(name=call.receiver.name if call.receiver is not None else None))


def _build_catalogue() -> dict[str, Entry]:
    catalogue: dict[str, Entry] = {
        "invoke-expression": Entry(code=_invokes),
        "invoke-webrequest": _web_request(),
        "invoke-restmethod": _web_request(),
        "remove-item": _remove_item(),
        "start-process": _start_process(),
        "get-content": _reads_file(),
        "get-childitem": _lists(),
        "set-content": _writes(FileOperation.WRITE_FILE, "path"),
        "add-content": _writes(FileOperation.APPEND_FILE, "path"),
        "out-file": _writes(FileOperation.WRITE_FILE, "filepath"),
        "*.new": _made(),
        "net.sockets.tcpclient.new": merge(_made(), socket()),
        "scriptblock.create": runs_code(0),
        "executioncontext.invokecommand.invokescript": runs_code(0),
        "convert.frombase64string": decodes("base64"),
        "*.getstring": passes(0),
        "io.file.delete": _changes(FileOperation.DELETE_FILE),
        "io.directory.delete": _deletes_directory(),
        "io.file.readalltext": produces(SourceKind.FILE, 0),
        "io.file.readallbytes": produces(SourceKind.FILE, 0),
        "environment.getenvironmentvariable": produces(SourceKind.ENVIRONMENT, 0),
        "net.webclient.uploadfile": _uploads(file_argument=True),
        "net.webclient.downloadfile": _downloads(saves=True),
    }
    for method in ("downloadstring", "downloaddata", "openread"):
        catalogue[f"net.webclient.{method}"] = _downloads(saves=False)
    for method in ("uploadstring", "uploaddata", "uploadvalues"):
        catalogue[f"net.webclient.{method}"] = _uploads(file_argument=False)
    for method, operation in (
        ("writealltext", FileOperation.WRITE_FILE),
        ("writeallbytes", FileOperation.WRITE_FILE),
        ("writealllines", FileOperation.WRITE_FILE),
        ("appendalltext", FileOperation.APPEND_FILE),
    ):
        catalogue[f"io.file.{method}"] = _changes(operation)
    return catalogue


CATALOGUE = _build_catalogue()
