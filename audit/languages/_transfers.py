"""Calls that carry data between files and the network: a copy reads its source and writes its
target, a download saved to a file makes that file a download (`urlretrieve`, a handle's write of a
network read, PHP's `copy` of a URL), a module imported from a URL is the network's code."""

from __future__ import annotations

from ._catalogue import fetches, imports, is_url, merge
from ._facts import DataSource, FileOperation, SourceKind
from ._values import UNKNOWN, Call, Entry, FileChange, Value


def copies(destination: int = 1, destination_keyword: str | None = None, source_keyword: str | None = None) -> Entry:
    """Copies the file in the first argument to the one at `destination`: reads the one, writes the other."""

    def file_changes(call: Call) -> tuple[FileChange, ...]:
        source = call.arg(0, source_keyword)
        target = call.arg(destination, destination_keyword)
        if source is None:
            return () if target is None else (FileChange(FileOperation.WRITE_FILE, target),)
        if "://" in (source.text or ""):
            # PHP's copy takes a URL too: a download saved to the target.
            data = Value(sources=frozenset({DataSource(SourceKind.NETWORK, source.text)}))
            return () if target is None else (FileChange(FileOperation.WRITE_FILE, target, data=data),)
        read = (FileChange(FileOperation.READ_FILE, source),)
        return read + (() if target is None else (FileChange(FileOperation.WRITE_FILE, target),))

    return Entry(file_changes=file_changes)


def saves(url: tuple[int | None, str | None], path: tuple[int | None, str | None]) -> Entry:
    """Downloads a URL into a file (`urlretrieve(url, filename)`): a request, and a write of its data."""

    def file_changes(call: Call) -> tuple[FileChange, ...]:
        target = call.arg(*path)
        if target is None:
            return ()
        address = call.arg(*url) or UNKNOWN
        data = Value(sources=frozenset({DataSource(SourceKind.NETWORK, address.text)}))
        return (FileChange(FileOperation.WRITE_FILE, target, data=data),)

    return merge(fetches(url), Entry(file_changes=file_changes))


def saves_through_handle() -> Entry:
    """`open(p, 'wb').write(urlopen(u).read())`, `open(p, 'w').write('rm -rf ~')`: a handle's write of a
    network read saves a download to the handle's path, and one of known text a script that may run
    later (any other write through it is the open's own)."""

    def file_changes(call: Call) -> tuple[FileChange, ...]:
        data = call.arg(0)
        path = call.receiver.entry("path") if call.receiver is not None else None
        if path is None or path.text is None or data is None:
            return ()
        if not (data.has_source(SourceKind.NETWORK) or data.text is not None):
            return ()
        appends = call.receiver.entry("appends") if call.receiver is not None else None
        operation = FileOperation.APPEND_FILE if appends is not None and appends.flag else FileOperation.WRITE_FILE
        return (FileChange(operation, path, data=data),)

    return Entry(file_changes=file_changes)


def imports_url(position: int = 0) -> Entry:
    """`import('https://...')` (node's network imports, deno, bun): a module from a URL is the
    network's code, run: download-and-execute; any other module is an import."""

    def code(call: Call) -> Value | None:
        module = call.arg(position)
        if module is None or not is_url(module):
            return None
        return Value(sources=frozenset({DataSource(SourceKind.NETWORK, module.text)}))

    return merge(imports(position), Entry(code=code))
