"""Python's listings: the calls whose result a loop iterates path by path (`glob.glob`,
`os.walk`, `Path.rglob`), so a delete inside the loop is judged for the paths it yields."""

from __future__ import annotations

from dataclasses import replace

from ._catalogue import joined_path
from ._patterns import ANY_NAME, lists_names, wildcard_pattern
from ._values import UNKNOWN, Call, Entry, Value, opaque


def _every_depth(found: Value) -> Value:
    """A pattern whose `**` parts match any depth, as one level's pattern standing for every level
    (`/srv/**/*.log` is `/srv/*.log` at any depth; a trailing `**` matches every path)."""
    text = found.text or ""
    parts = [part for part in text.split("/") if part != "**"]
    if text.endswith("**"):
        parts.append("*")
    return replace(found, text="/".join(parts), recursive=True)


def _globs() -> Entry:
    """`glob.glob(p)`: the paths the pattern matches; `**` at any depth with `recursive=True`."""

    def returns(call: Call) -> Value:
        found = wildcard_pattern(call.arg(0, "pathname") or UNKNOWN, call.all_values())
        recursive = call.arg(None, "recursive")
        if found.pattern and "**" in (found.text or "") and recursive is not None and recursive.truthy():
            return _every_depth(found)
        return found

    return Entry(returns=returns)


def _path_globs(path_object: str, *, every_depth: bool, pattern: str | None = None) -> Entry:
    """`Path(d).glob(p)` (`**` at any depth), `rglob(p)` (at any depth), `iterdir()` (`*`): path objects."""

    def returns(call: Call) -> Value:
        spelled = Value(text=pattern) if pattern is not None else call.arg(0, "pattern") or UNKNOWN
        path = joined_path((call.receiver or UNKNOWN, spelled), restarts_at_absolute=False)
        found = wildcard_pattern(path, call.all_values())
        if not found.pattern:
            return found
        deep = every_depth or "**" in (spelled.text or "")
        return replace(_every_depth(found) if deep else found, name=path_object)

    return Entry(returns=returns)


def _walks() -> Entry:
    """`os.walk(top)`: for each directory of the tree, the directory and its entries' names."""

    def returns(call: Call) -> Value:
        top = call.arg(0, "top") or UNKNOWN
        if top.text is None:
            return opaque(call.all_values())
        directory = Value(text=top.text, sources=top.sources, recursive=True)
        names = Value(each=ANY_NAME)
        return Value(each=Value(items=(directory, names, names)), sources=top.sources)

    return Entry(returns=returns)


def unpacked(whole: Value, index: int, count: int) -> Value:
    """One name of `a, b = whole` (a loop's `root, dirs, files`): its item, when `whole` is a tuple of that many."""
    items = whole.items
    return items[index] if items is not None and len(items) == count else opaque((whole,))


def listings(path_object: str) -> dict[str, Entry]:
    """The catalogue rows of the listings; `path_object` names what `pathlib.Path(...)` makes."""
    return {
        "glob.glob": _globs(),
        "glob.iglob": _globs(),
        "os.listdir": lists_names(),
        "os.walk": _walks(),
        f"{path_object}.glob": _path_globs(path_object, every_depth=False),
        f"{path_object}.rglob": _path_globs(path_object, every_depth=True),
        f"{path_object}.iterdir": _path_globs(path_object, every_depth=False, pattern="*"),
    }
