"""The shell lines of a justfile's recipes, as `just` hands them to the shell.

A recipe starts with its name at the start of a line, its parameters and a
`:` (not `:=`, an assignment), and its body is the indented lines after it;
`just` runs each body line in a shell, `@` and `-` in front only changing how
it reports the line, and a line ending in a backslash goes on in the next. An
interpolation (`{{name}}`) becomes a neutral word: its value is the
justfile's business, not the shell's. A recipe whose body starts with `#!`
is a script in the language it names, not shell lines, and is not read.
This is a reading for the audit, not just: imports, modules and settings are
not followed.
"""

from __future__ import annotations

import re

_HEADER = re.compile(r"^@?[A-Za-z_][A-Za-z0-9_-]*(?:\s[^:]*)?:(?!=)")
_INTERPOLATION = re.compile(r"\{\{.*?\}\}")
_LINE_PREFIXES = "@-"
# What an interpolation stands for in the shell line: one plain word.
_NEUTRAL = "JUST_VALUE"


def just_recipe_lines(text: str) -> list[str]:
    """Each shell line of the justfile `text`'s recipes, as just would hand it to the shell."""
    lines: list[str] = []
    body: list[str] | None = None  # the indented lines of the recipe being read (None: outside one)
    for line in text.split("\n"):
        if line[:1] in (" ", "\t"):
            if body is not None and line.strip():
                body.append(line.strip())
        elif line.strip():  # a line at the margin ends the recipe, and may start the next
            lines.extend(_shell_lines(body or []))
            body = [] if _HEADER.match(line) else None
    lines.extend(_shell_lines(body or []))
    return lines


def _shell_lines(body: list[str]) -> list[str]:
    if not body or body[0].startswith("#!"):
        return []
    lines: list[str] = []
    pending: list[str] = []
    for line in body:
        pending.append(line)
        if not line.endswith("\\"):
            lines.append(_INTERPOLATION.sub(_NEUTRAL, "\n".join(pending).lstrip(_LINE_PREFIXES)))
            pending = []
    return lines
