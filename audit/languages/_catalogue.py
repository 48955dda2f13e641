"""Building blocks for the languages' catalogues of callables.

Each language module declares a mapping from a qualified callee name to an
`Entry`; these helpers build the common entries so a catalogue reads as a
table (`"os.system": shell(0, "command")`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace

from ._blobs import decode_blob
from ._facts import DataSource, FileOperation, SourceKind
from ._values import (
    HOME,
    UNKNOWN,
    Call,
    Command,
    Entry,
    FileChange,
    Request,
    Value,
    each_choice,
    listed_in,
    outside_value,
    sources_of,
)


def shell(position: int | None = 0, keyword: str | None = None) -> Entry:
    """Runs one string through a shell."""

    def command(call: Call) -> Command | None:
        value = call.arg(position, keyword)
        return None if value is None else Command.shell(value)

    return Entry(command=command)


def argv_list(position: int | None = 0, keyword: str | None = None) -> Entry:
    """Runs the argument vector held in one list argument (a lone string is the program)."""

    def command(call: Call) -> Command | None:
        value = call.arg(position, keyword)
        return None if value is None else Command.argv(words_of(value))

    return Entry(command=command)


def shell_or_argv(position: int = 0) -> Entry:
    """Runs one argument: a string through a shell, a list as an argument vector (neovim's `vim.fn.system`)."""

    def command(call: Call) -> Command | None:
        value = call.arg(position)
        if value is None:
            return None
        return Command.argv(words_of(value)) if value.items is not None else Command.shell(value)

    return Entry(command=command)


def argv_args(start: int = 0, *, drop_last: bool = False) -> Entry:
    """Runs the argument vector spelled as the call's arguments from `start` on."""

    def command(call: Call) -> Command | None:
        if not call.complete:
            return Command.argv(None)
        words = call.args[start : len(call.args) - 1 if drop_last else None]
        return Command.argv(words) if words else None

    return Entry(command=command)


def perl_style(skip_leading_mapping: bool = False) -> Entry:
    """Perl's and Ruby's `system`: one string goes through the shell, several are an argument vector."""

    def command(call: Call) -> Command | None:
        args = call.args
        if skip_leading_mapping and args and args[0].entries is not None:
            args = args[1:]
        if not call.complete:
            return Command.argv(None)
        if len(args) == 1:
            only = args[0]
            return Command.argv(only.items) if only.items is not None else Command.shell(only)
        return Command.argv(args) if args else None

    return Entry(command=command)


def words_of(value: Value) -> tuple[Value, ...] | None:
    """An argument vector: a list's items, or a lone string as the program; None when not known."""
    if value.items is not None:
        return value.items
    if value.text is not None:
        return (value,)
    return None


def changes(
    operation: FileOperation,
    position: int | None = 0,
    keyword: str | None = None,
    data: tuple[int | None, str | None] | None = None,
) -> Entry:
    """Deletes or writes the path in one argument (a write, the `data` argument when given)."""

    def file_changes(call: Call) -> tuple[FileChange, ...]:
        value = call.arg(position, keyword)
        written = call.arg(*data) if data is not None else None
        return () if value is None else (FileChange(operation, value, data=written),)

    return Entry(file_changes=file_changes)


def changes_receiver(operation: FileOperation, data: tuple[int | None, str | None] | None = None) -> Entry:
    """Deletes or writes the path a path object stands for (`Path('/x').unlink()`; a write, the `data`
    argument when given)."""

    def file_changes(call: Call) -> tuple[FileChange, ...]:
        written = call.arg(*data) if data is not None else None
        return (FileChange(operation, call.receiver or UNKNOWN, data=written),)

    return Entry(file_changes=file_changes)


def changes_each(operation: FileOperation) -> Entry:
    """Deletes every path given as an argument (Perl's `unlink LIST`)."""

    def file_changes(call: Call) -> tuple[FileChange, ...]:
        return tuple(FileChange(operation, path) for path in _paths_from(call, 0))

    return Entry(file_changes=file_changes)


def _paths_from(call: Call, start: int) -> tuple[Value, ...]:
    """Every path from argument `start` on, a list's items each (Perl's `chmod MODE, LIST`)."""
    values: Iterable[Value] = call.args[start:] if call.complete else (*call.args[start:], UNKNOWN)
    return tuple(item for value in values for item in (value.items or (value,)))


Ref = tuple[int | None, str | None]
"""An argument by position and keyword (`(1, "mode")`)."""

PathsOf = Callable[[Call], tuple[Value, ...]]
"""The paths a call changes."""


def path_at(position: int | None, keyword: str | None = None) -> PathsOf:
    """The path in one argument."""

    def paths(call: Call) -> tuple[Value, ...]:
        value = call.arg(position, keyword)
        return () if value is None else (value,)

    return paths


def receiver_path(call: Call) -> tuple[Value, ...]:
    """The path the object a method is called on stands for (`Path(p).chmod(m)`)."""
    return (call.receiver or UNKNOWN,)


def paths_from(start: int) -> PathsOf:
    """Every path from argument `start` on (Ruby's `File.chmod(mode, *paths)`)."""
    return lambda call: _paths_from(call, start)


def _changes_with(operation: FileOperation, paths: PathsOf, operand: Callable[[Call], str | None]) -> Entry:
    def file_changes(call: Call) -> tuple[FileChange, ...]:
        spelled = operand(call)
        return tuple(FileChange(operation, path, spelled) for path in paths(call))

    return Entry(file_changes=file_changes)


def mode_text(value: Value) -> str | None:
    """A file mode as chmod reads it: an integer as octal digits (`0o4755` is `4755`), a string
    (Node's `"755"`, Ruby's `"u+x"`) as written; None when not known."""
    if value.number is not None:
        return f"{value.number:03o}" if 0 <= value.number <= 0o7777 else None
    return value.text


def changes_mode(mode: Ref, paths: PathsOf, *, tree: bool = False) -> Entry:
    """Sets the mode of paths (`os.chmod(p, 0o755)`); with `tree`, of everything under them."""
    operation = FileOperation.CHANGE_MODE_TREE if tree else FileOperation.CHANGE_MODE

    def operand(call: Call) -> str | None:
        value = call.arg(*mode)
        return None if value is None else mode_text(value)

    return _changes_with(operation, paths, operand)


def changes_owner(user: Ref | None, group: Ref | None, paths: PathsOf, *, tree: bool = False) -> Entry:
    """Sets the owner and group of paths (`os.chown(p, uid, gid)`) as chown's `USER:GROUP`; a part
    the call leaves out stays as it is, a part that is not known makes the whole not known."""
    operation = FileOperation.CHANGE_OWNER_TREE if tree else FileOperation.CHANGE_OWNER

    def operand(call: Call) -> str | None:
        parts: list[str] = []
        for ref in (user, group):
            value = None if ref is None else call.arg(*ref)
            if value is None:
                parts.append("")
            elif value.number is not None or value.text is not None:
                parts.append(str(value.number) if value.number is not None else value.text or "")
            else:
                return None
        owner = parts[0] if not parts[1] else ":".join(parts)
        return owner or None

    return _changes_with(operation, paths, operand)


def moves(source: PathsOf, destination: Ref) -> Entry:
    """Moves or renames a path (`os.rename(a, b)`)."""

    def operand(call: Call) -> str | None:
        value = call.arg(*destination)
        return None if value is None else value.text

    return _changes_with(FileOperation.MOVE, source, operand)


def write_mode(mode: str) -> FileOperation | None:
    """What opening a file with this fopen-style mode does to it; None for reading."""
    if "a" in mode:
        return FileOperation.APPEND_FILE
    if any(flag in mode for flag in "wx+"):
        return FileOperation.WRITE_FILE
    return None


def opens(
    path: tuple[int | None, str | None],
    mode: tuple[int | None, str | None],
    *,
    operation_of: Callable[[str], FileOperation | None] = write_mode,
) -> Entry:
    """Opens a file: a write/append mode changes it, a read mode makes its content outside data. A mode
    the analysis cannot read counts as writing: the engine judges the path, a harmless path stays harmless."""

    def operation(call: Call) -> FileOperation | None:
        mode_value = call.arg(*mode)
        if mode_value is None:
            return None
        if mode_value.text is None:
            return FileOperation.WRITE_FILE
        return operation_of(mode_value.text)

    def file_changes(call: Call) -> tuple[FileChange, ...]:
        found = operation(call)
        return () if found is None else (FileChange(found, call.arg(*path) or UNKNOWN),)

    def returns(call: Call) -> Value:
        target = call.arg(*path) or UNKNOWN
        # The handle keeps its path and whether it appends, for what is written through it (`saves_through_handle`).
        entries = (("path", target), ("appends", Value(flag=operation(call) is FileOperation.APPEND_FILE)))
        base = Value(name=f"{call.callee}()", sources=sources_of(call.all_values()), entries=entries)
        if operation(call) is None:
            return base.with_sources((DataSource(SourceKind.FILE, target.text),))
        return base

    return Entry(file_changes=file_changes, returns=returns)


def runs_code(position: int | None = 0, keyword: str | None = None, *, strings_only: bool = False) -> Entry:
    """Runs one argument as code in the snippet's language.

    `strings_only`: the argument may also be a function (`setTimeout`); only
    a string or outside data counts as code.
    """

    def code(call: Call) -> Value | None:
        value = call.arg(position, keyword)
        if value is None or (strings_only and value.text is None and not value.sources):
            return None
        return value

    return Entry(code=code)


def runs_last_argument() -> Entry:
    """`new Function(a, b, body)`: the body is the last argument."""

    def code(call: Call) -> Value | None:
        if not call.complete:
            return UNKNOWN
        return call.args[-1] if call.args else None

    return Entry(code=code)


def produces(kind: SourceKind, position: int | None = None, keyword: str | None = None) -> Entry:
    """Returns outside data (`os.getenv('HOME')`, `base64.b64decode(blob)`)."""

    def returns(call: Call) -> Value:
        detail = call.arg(position, keyword) if position is not None or keyword is not None else None
        return outside_value(kind, detail.text if detail is not None else None, sources_of(call.all_values()))

    return Entry(returns=returns)


def home(name: str | None = None) -> Entry:
    """Returns the home directory (`os.homedir()`), named `name` if given (a path object's type)."""
    value = HOME if name is None else replace(HOME, name=name)
    return Entry(returns=lambda call: value)


def decodes(codec: str, position: int | None = 0, keyword: str | None = None) -> Entry:
    """Decodes a blob in `codec` (`base64.b64decode(b)`): decoded data, whose text is known
    when the blob is a literal in one of the codecs `_blobs` reads."""

    def returns(call: Call) -> Value:
        blob = call.arg(position, keyword)
        text = None if blob is None or blob.text is None else decode_blob(codec, blob.text)
        return Value(text=text, sources=sources_of(call.all_values()) | {DataSource(SourceKind.DECODED)})

    return Entry(returns=returns)


def converts_receiver() -> Entry:
    """`blob.decode()`, `buffer.toString()`: the receiver's text as a string (the name of a
    method of any object, so an object it cannot read gives nothing but its origins)."""

    def returns(call: Call) -> Value:
        receiver = call.receiver or UNKNOWN
        return Value(text=receiver.text, sources=sources_of(call.all_values()))

    return Entry(returns=returns)


def passes(position: int = 0, *, name: str | None = None) -> Entry:
    """Returns its argument unchanged (`compile(src)`, `String(x)`), named `name` if given."""

    def returns(call: Call) -> Value:
        value = call.arg(position) or UNKNOWN
        if name is None:
            return value
        return listed_in((value,), Value(text=value.text, name=name, sources=value.sources))

    return Entry(returns=returns)


def joined_path(parts: Sequence[Value], *, restarts_at_absolute: bool, name: str | None = None) -> Value:
    """A path joined from parts, known when every part is; with `restarts_at_absolute` a later
    absolute part starts over (Python's `os.path.join`), without it it is joined too (`File.join`)."""
    if any(part.choices for part in parts):
        return each_choice(
            parts, lambda chosen: joined_path(chosen, restarts_at_absolute=restarts_at_absolute, name=name)
        )
    path: str | None = ""
    for part in parts:
        if part.text is None or path is None:
            path = None
        elif not path or (restarts_at_absolute and part.text.startswith("/")):
            path = part.text
        else:
            path = path.rstrip("/") + "/" + part.text.lstrip("/")
    if path is None or not parts:
        return Value(name=name, sources=sources_of(parts))
    return listed_in(parts, Value(text=path, name=name, sources=sources_of(parts)))


def joins_paths(*, restarts_at_absolute: bool) -> Entry:
    """`os.path.join(a, b)`, `File.join`, `path.join`: the path its arguments join to."""

    def returns(call: Call) -> Value:
        if not call.complete:
            return Value(sources=sources_of(call.args))
        return joined_path(call.args, restarts_at_absolute=restarts_at_absolute)

    return Entry(returns=returns)


def passes_receiver(name: str | None = None) -> Entry:
    """A method that returns the object it is called on, as a path method returns the same path
    (`Path('~').expanduser()`), named `name` if given."""

    def returns(call: Call) -> Value:
        receiver = call.receiver or UNKNOWN
        return listed_in((receiver,), Value(text=receiver.text, name=name, sources=receiver.sources))

    return Entry(returns=returns)


def fetches(
    url: tuple[int | None, str | None] = (0, None),
    data: Iterable[tuple[int | None, str | None]] = (),
    *,
    sends: bool | Callable[[Call], bool] = False,
) -> Entry:
    """An HTTP request: its response is network data; with `sends`, it uploads."""
    data = tuple(data)

    def request(call: Call) -> Request | None:
        values = tuple(value for ref in data if (value := call.arg(*ref)) is not None)
        uploads = sends(call) if callable(sends) else sends
        return Request(call.arg(*url) or UNKNOWN, values, uploads or bool(values))

    return Entry(request=request)


def posts() -> Entry:
    """`post(url, data)`: an upload of its second argument."""
    return fetches((0, None), [(1, None)], sends=True)


def imports(position: int = 0, keyword: str | None = None) -> Entry:
    """Returns the module named by one argument (`__import__('os')`, `require('fs')`)."""

    def target(call: Call) -> tuple[Value | None, Value] | None:
        value = call.arg(position, keyword)
        return None if value is None else (None, value)

    return Entry(imports=target)


def gets_member(owner: int = 0, name: int = 1) -> Entry:
    """`getattr(os, 'system')`: the member of one argument named by another."""

    def target(call: Call) -> tuple[Value | None, Value] | None:
        owner_value = call.arg(owner)
        name_value = call.arg(name)
        if owner_value is None or name_value is None:
            return None
        return (owner_value, name_value)

    return Entry(imports=target)


def calls_named(function: int = 0, first_argument: int = 1, *, spread: int | None = None) -> Entry:
    """`call_user_func('system', 'id')`: calls the function one argument names.

    `spread`: the arguments are the items of this argument (`call_user_func_array`).
    """

    def target(call: Call) -> tuple[Value, tuple[Value, ...]] | None:
        named = call.arg(function)
        if named is None:
            return None
        if spread is not None:
            listed = call.arg(spread)
            return (named, listed.items if listed is not None and listed.items is not None else (UNKNOWN,))
        return (named, call.args[first_argument:])

    return Entry(calls_named=target)


def socket() -> Entry:
    return Entry(socket=True)


def reopens_stdin(position: int = 0) -> Entry:
    """`$stdin.reopen(io)`, `STDIN->fdopen($fh, "r")`: the argument at `position` becomes the standard input."""
    return Entry(rebinds_stdin=lambda call: call.arg(position))


def merge(*entries: Entry) -> Entry:
    """One entry with the facets of several (a call that both runs a command and reads a URL)."""
    result = Entry()
    for entry in entries:
        result = Entry(
            command=entry.command or result.command,
            file_changes=entry.file_changes or result.file_changes,
            code=entry.code or result.code,
            request=entry.request or result.request,
            socket=entry.socket or result.socket,
            returns=entry.returns or result.returns,
            imports=entry.imports or result.imports,
            calls_named=entry.calls_named or result.calls_named,
            rebinds_stdin=entry.rebinds_stdin or result.rebinds_stdin,
        )
    return result


def piped_command(spec: Value, *, trailing: bool) -> Value | None:
    """The command of a pipe open: `"| cmd"` (and, with `trailing`, Perl's `"cmd |"`)."""
    text = spec.text
    if text is None:
        return None
    stripped = text.strip()
    start = len(text) - len(text.lstrip())
    if stripped.startswith("|") and not stripped.startswith("|-"):
        inner = stripped[1:]
        offset = start + 1 + len(inner) - len(inner.lstrip())
        return spec.sliced(offset, start + len(stripped))
    if trailing and stripped.endswith("|") and not stripped.endswith("-|"):
        inner = stripped[:-1].rstrip()
        return spec.sliced(start, start + len(inner))
    return None


def is_url(value: Value) -> bool:
    return value.text is not None and value.text.lstrip().lower().startswith(("http://", "https://", "ftp://"))
