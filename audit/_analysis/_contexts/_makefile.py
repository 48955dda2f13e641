"""The shell lines of a Makefile's recipes, as make hands them to the shell.

A recipe line starts with a tab, or follows a `;` on the rule's own line
(`clean: ; rm -rf build`); `@`, `-` and `+` in front only change how make
reports it, and a line ending in a backslash goes on in the next. Make
expands the line before the shell sees it: `$$` is a `$`, `$(shell CMD)` is
the shell's own `$(CMD)`, a variable the Makefile defines plainly (`BUILD =
build`) is its value, another variable is left to the shell as `${NAME}`
(unknown), and automatic variables (`$@`, `$<`) and other functions
(`$(wildcard ...)`) become a neutral word. This is a reading for the audit,
not make: conditionals, includes and pattern rules are not followed.
"""

from __future__ import annotations

import re

_DEFINITION = re.compile(r"^([A-Za-z_][A-Za-z0-9_.-]*)\s*(?::{1,3}=|\?=|=)\s*(.*)$")
# `target: prerequisites ; recipe`: a recipe line on the rule's own line.
_INLINE_RECIPE = re.compile(r"^[^\t#=:;]+::?(?!=)[^;#]*;(.*)$")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*")
_RECIPE_PREFIXES = "@-+ "
# What a function or an automatic variable stands for in the shell line: one plain word.
_NEUTRAL = "MAKE_VALUE"
_CLOSING = {"(": ")", "{": "}"}


def recipe_lines(text: str) -> list[str]:
    """Each recipe line of the Makefile `text`, expanded as make would hand it to the shell."""
    definitions: dict[str, str] = {}
    lines: list[str] = []
    pending: list[str] = []
    for line in text.split("\n"):
        if pending or line.startswith("\t"):
            pending.append(line[1:] if line.startswith("\t") else line)
            if line.endswith("\\"):
                continue
            joined = "\n".join(pending).lstrip(_RECIPE_PREFIXES)
            pending = []
            lines.append(_expanded(joined, definitions))
            continue
        definition = _DEFINITION.match(line)
        if definition is not None:
            if "$" not in definition.group(2):
                definitions[definition.group(1)] = definition.group(2).strip()
            continue
        inline = _INLINE_RECIPE.match(line)
        if inline is not None and inline.group(1).strip():
            lines.append(_expanded(inline.group(1).strip().lstrip(_RECIPE_PREFIXES), definitions))
    return lines


def _expanded(line: str, definitions: dict[str, str]) -> str:
    out: list[str] = []
    index = 0
    while index < len(line):
        char = line[index]
        if char != "$" or index + 1 == len(line):
            out.append(char)
            index += 1
            continue
        following = line[index + 1]
        if following == "$":
            out.append("$")
            index += 2
        elif following in _CLOSING:
            end = _matching(line, index + 1)
            inner = line[index + 2 : end]
            out.append(_reference(inner, definitions))
            index = end + 1
        else:  # `$@`, `$<`, `$X`: one character names the variable
            out.append(_NEUTRAL)
            index += 2
    return "".join(out)


def _matching(line: str, opening: int) -> int:
    """The index of the bracket closing the one at `opening` (the line's end when none does)."""
    close = _CLOSING[line[opening]]
    depth = 0
    for index in range(opening, len(line)):
        if line[index] == line[opening]:
            depth += 1
        elif line[index] == close:
            depth -= 1
            if depth == 0:
                return index
    return len(line)


def _reference(inner: str, definitions: dict[str, str]) -> str:
    if inner.startswith("shell "):
        return f"$({inner[6:]})"
    if _NAME.fullmatch(inner):
        return definitions.get(inner, "${" + inner.replace(".", "_").replace("-", "_") + "}")
    return _NEUTRAL
