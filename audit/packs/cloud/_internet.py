"""What the cloud packs' exposure rules share: every address as a source, and the ports a
public web server is reached on (opening those to everyone is the point of one)."""

from __future__ import annotations

import re

from ...programs import Arg
from .._invocation import Found, Predicate

# A prefix length of 0, whatever address is written: `0.0.0.0/0`, `10.0.0.0/0`, `::/0`.
_EVERY_ADDRESS = re.compile(r"[0-9a-f.:]+/0(?!\d)", re.IGNORECASE)
WEB_PORTS = frozenset({"80", "443"})


def every_address_from(*options: str) -> Predicate:
    """One of the options' values lists every address (`--cidr 0.0.0.0/0`, `--authorized-networks=10.0.0.0/8,::/0`)."""

    def world(found: Found) -> Arg | None:
        return next(
            (
                word
                for word in found.reading.values(*options)
                if any(_EVERY_ADDRESS.search(value) for value in word.values)
            ),
            None,
        )

    return world
