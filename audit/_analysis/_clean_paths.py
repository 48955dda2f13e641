"""Paths cleaned up lexically, as the analysis compares them: `//`, `.` and `..` resolved, `~` the home."""

from __future__ import annotations

from ._normalize import HOME


def resolve_path(cwd: str | None, value: str) -> str:
    """A path as a clean path, relative to `cwd` when it is known."""
    if cwd is not None and not value.startswith(("/", HOME)):
        value = f"{cwd}/{value}"
    return clean_path(value)


def clean_path(value: str) -> str:
    """Lexical clean-up: `//`, `.` and `..` resolved; `~` stays the home.

    `..` above the home climbs into /home (and from there to /), because the
    home of an agent is /home/NAME or /root.
    """
    if value.startswith(HOME) and (len(value) == 1 or value[1] == "/"):
        segments = ["home", HOME]
        rest = value[1:]
        absolute = True
    elif value.startswith("/"):
        segments = []
        rest = value
        absolute = True
    else:
        segments = []
        rest = value
        absolute = False
    for segment in rest.split("/"):
        if segment in ("", "."):
            continue
        if segment == "..":
            if segments and segments[-1] != "..":
                segments.pop()
            elif not absolute:
                segments.append("..")
            continue
        segments.append(segment)
    if absolute:
        if segments[:2] == ["home", HOME]:
            return "/".join([HOME, *segments[2:]])
        return "/" + "/".join(segments)
    relative = "/".join(segments) or "."
    # A file literally named `~` must not read as the home after clean-up.
    return "./" + relative if relative[:1] == HOME else relative
