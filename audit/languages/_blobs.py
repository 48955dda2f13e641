"""Blobs the code decodes from a literal (`base64.b64decode('cm0gLXJmIH4=')`): what they decode to.

Only the text codecs a payload is commonly hidden in are read (base64 in its
standard and URL-safe alphabets, base32, hex); the result counts when it is
UTF-8 text. Compressed or serialised data (zlib, marshal) stays unknown.
"""

from __future__ import annotations

import base64
from collections.abc import Callable

# A code snippet is at most a command's length; a blob longer than this is not decoded.
MAX_BLOB = 65_536


def _base64(text: str) -> bytes:
    return base64.b64decode(_padded(text), validate=True)


def _base64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(_padded(text))


def _padded(text: str) -> str:
    stripped = "".join(text.split())
    return stripped + "=" * (-len(stripped) % 4)


_CODECS: dict[str, Callable[[str], bytes]] = {
    "base64": _base64,
    "base64url": _base64url,
    "base32": lambda text: base64.b32decode("".join(text.split()), casefold=True),
    "hex": lambda text: bytes.fromhex(text),
}


def decode_blob(codec: str, text: str) -> str | None:
    """The UTF-8 text `text` decodes to in `codec`; None when it is not valid there or not text."""
    if len(text) > MAX_BLOB:
        return None
    try:
        return _CODECS[codec](text).decode("utf-8")
    except ValueError:  # binascii.Error and UnicodeDecodeError are ValueErrors
        return None
