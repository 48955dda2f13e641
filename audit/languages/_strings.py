"""Backslash escapes in double-quoted string literals.

The languages agree on the common escapes; they differ on an escape they do
not know (Python and PHP keep the backslash, the others drop it), and an
escape none of our tables knows makes the text unknown rather than guessed.
"""

from __future__ import annotations

import re

_SIMPLE = {
    "a": "\a",
    "b": "\b",
    "e": "\x1b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "v": "\v",
    "0": "\0",
    "\\": "\\",
    "'": "'",
    '"': '"',
    "`": "`",
    "$": "$",
    "\n": "",
}
# Escapes whose meaning depends on what follows or on the language (\N{name},
# Perl's \U...\E case changes, Ruby's \cX and \M-x): rare in a command, not worth a table.
_CONTEXTUAL = frozenset("NcCMLUEQlu")
_ESCAPE = re.compile(
    r"\\(x[0-9a-fA-F]{1,2}|u\{[0-9a-fA-F]{1,6}\}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{1,3}|.|\n)", re.S
)


def decode_escapes(raw: str, *, keeps_unknown_backslash: bool) -> str | None:
    """`raw` with its escapes decoded; None when an escape cannot be decoded here."""
    if "\\" not in raw:
        return raw
    undecodable = False

    def replace(match: re.Match[str]) -> str:
        nonlocal undecodable
        body = match.group(1)
        if body in _SIMPLE:
            return _SIMPLE[body]
        head = body[0]
        try:
            if head == "x":
                return chr(int(body[1:], 16))
            if head == "u" and body.startswith("u{"):
                return chr(int(body[2:-1], 16))
            if head in "uU" and len(body) > 1:
                return chr(int(body[1:], 16))
            if head in "01234567":
                return chr(int(body, 8))
        except (ValueError, OverflowError):
            undecodable = True
            return ""
        if head in _CONTEXTUAL:
            undecodable = True
            return ""
        return "\\" + body if keeps_unknown_backslash else body

    decoded = _ESCAPE.sub(replace, raw)
    return None if undecodable else decoded


# Lua's \ddd is decimal and \z skips blanks, unlike the C-like escapes the shared decoder knows.
_LUA_ONLY_ESCAPE = re.compile(r"\\(\d|z)")


def decode_lua_string(raw: str, *, long_bracket: bool) -> str | None:
    """A Lua string literal's value from its content: a long bracket string (`[[...]]`) as written, a
    quoted one with its escapes decoded; None when it holds an escape of Lua's own (`\\ddd`, `\\z`)."""
    if long_bracket:
        return raw
    if _LUA_ONLY_ESCAPE.search(raw):
        return None
    return decode_escapes(raw, keeps_unknown_backslash=False)
