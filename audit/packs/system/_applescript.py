"""The AppleScript lines of `osascript -e`, as the system.macos pack reads them."""

from __future__ import annotations

from ...programs import Arg
from .._invocation import Found, Predicate


def applescript_asks(*fragments: str) -> Predicate:
    """An `osascript -e` line that holds every fragment (in any case and spacing: `make login item`)."""

    def asks(found: Found) -> Arg | None:
        for line in found.reading.values("-e"):
            text = " ".join((line.value or "").lower().split())
            if all(fragment in text for fragment in fragments):
                return line
        return None

    return asks
