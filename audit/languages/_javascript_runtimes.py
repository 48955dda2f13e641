"""The file calls of JavaScript's runtimes: node's `fs` (and the glob packages), Deno's and Bun's own
APIs, and the recursive removal they share (an options object with `recursive: true`)."""

from __future__ import annotations

from ._catalogue import changes, changes_mode, changes_owner, moves, opens, path_at, produces
from ._facts import FileOperation, SourceKind
from ._patterns import globs, lists_names
from ._transfers import copies
from ._values import Call, Entry, FileChange


def _chosen_by_option(options_position: int, key: str, on: FileOperation, off: FileOperation) -> Entry:
    """A change to the path in the first argument: `on` when the options object turns `key` on, else `off`."""

    def file_changes(call: Call) -> tuple[FileChange, ...]:
        path = call.arg(0)
        if path is None:
            return ()
        options = call.arg(options_position)
        switch = options.entry(key) if options is not None else None
        switched = switch is not None and switch.truthy() is not False
        return (FileChange(on if switched else off, path),)

    return Entry(file_changes=file_changes)


def removes(plain: FileOperation) -> Entry:
    """fs.rm/rmdir(path, {recursive: true}), Deno.remove(path, {recursive: true}) delete a tree;
    without it, `plain`."""
    return _chosen_by_option(1, "recursive", FileOperation.DELETE_TREE, plain)


def _deno_writes() -> Entry:
    """Deno.writeTextFile(path, data, {append: true}) appends; without it, writes."""
    return _chosen_by_option(2, "append", FileOperation.APPEND_FILE, FileOperation.WRITE_FILE)


def runtime_entries() -> dict[str, Entry]:
    """Deno's file calls (each with its `Sync` twin) and Bun's writer, as the catalogue names them."""
    entries: dict[str, Entry] = {"Bun.write": changes(FileOperation.WRITE_FILE)}
    for suffix in ("", "Sync"):
        entries[f"Deno.remove{suffix}"] = removes(FileOperation.DELETE_FILE)
        entries[f"Deno.writeTextFile{suffix}"] = _deno_writes()
        entries[f"Deno.writeFile{suffix}"] = _deno_writes()
        entries[f"Deno.truncate{suffix}"] = changes(FileOperation.WRITE_FILE)
        entries[f"Deno.copyFile{suffix}"] = copies()
        entries[f"Deno.rename{suffix}"] = moves(path_at(0), (1, None))
        entries[f"Deno.chmod{suffix}"] = changes_mode((1, None), path_at(0))
        entries[f"Deno.chown{suffix}"] = changes_owner((1, None), (2, None), path_at(0))
        entries[f"Deno.readTextFile{suffix}"] = produces(SourceKind.FILE, 0)
        entries[f"Deno.readFile{suffix}"] = produces(SourceKind.FILE, 0)
    return entries


def _write_stream() -> Entry:
    """fs.createWriteStream(path, {flags: 'a'})."""

    def file_changes(call: Call) -> tuple[FileChange, ...]:
        path = call.arg(0)
        if path is None:
            return ()
        options = call.arg(1)
        flags = options.entry("flags") if options is not None else None
        appends = flags is not None and flags.text is not None and "a" in flags.text
        return (FileChange(FileOperation.APPEND_FILE if appends else FileOperation.WRITE_FILE, path),)

    return Entry(file_changes=file_changes)


def fs_entries() -> dict[str, Entry]:
    """node's `fs` file calls (callback, `Sync` and promise forms), its listings and the glob packages' matchers."""
    entries: dict[str, Entry] = {}
    for module in ("fs", "fs.promises"):
        for suffix in ("", "Sync"):
            if module == "fs.promises" and suffix:
                continue
            entries[f"{module}.rm{suffix}"] = removes(FileOperation.DELETE_FILE)
            entries[f"{module}.rmdir{suffix}"] = removes(FileOperation.DELETE_DIR)
            entries[f"{module}.unlink{suffix}"] = changes(FileOperation.DELETE_FILE)
            entries[f"{module}.writeFile{suffix}"] = changes(FileOperation.WRITE_FILE, data=(1, None))
            entries[f"{module}.appendFile{suffix}"] = changes(FileOperation.APPEND_FILE)
            entries[f"{module}.copyFile{suffix}"] = copies()
            entries[f"{module}.cp{suffix}"] = copies()
            entries[f"{module}.truncate{suffix}"] = changes(FileOperation.WRITE_FILE)
            entries[f"{module}.rename{suffix}"] = moves(path_at(0), (1, None))
            for prefix in ("", "l"):
                entries[f"{module}.{prefix}chmod{suffix}"] = changes_mode((1, None), path_at(0))
                entries[f"{module}.{prefix}chown{suffix}"] = changes_owner((1, None), (2, None), path_at(0))
            entries[f"{module}.readFile{suffix}"] = produces(SourceKind.FILE, 0)
            entries[f"{module}.readdir{suffix}"] = lists_names()
        entries[f"{module}.open"] = opens((0, None), (1, None))
    entries["fs.openSync"] = opens((0, None), (1, None))
    entries["fs.createWriteStream"] = _write_stream()
    for pattern_matcher in ("fs.globSync", "glob.sync", "glob.globSync", "glob.glob", "glob", "fast-glob.sync"):
        entries[pattern_matcher] = globs()
    return entries
