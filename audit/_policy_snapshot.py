"""The default policy as parsed, shipped beside its TOML so that a process need not parse it.

Reading `default_policy.toml` is most of a process's first audit: importing `tomllib` and
running its pure-Python parser over the file costs about as much as a sixth of importing the
engine, and an agent hook is a fresh process per command. `default_policy.json` holds the
document `tomllib` makes of it, with the length and CRC-32 of the TOML text it was made from:
the engine uses the snapshot only when both match the TOML it ships, and parses the TOML
otherwise, so an edited TOML is never judged by a stale snapshot (the check guards against a
forgotten regeneration, not an attacker, who could edit either file). `python -m
audit._policy_snapshot` writes the snapshot again; a test fails while it is stale.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Mapping
from importlib import resources
from typing import Any, cast

TOML_NAME = "default_policy.toml"
SNAPSHOT_NAME = "default_policy.json"


def _files() -> Any:
    return resources.files(__package__ or "audit")


def _fingerprint(text: str) -> dict[str, int]:
    data = text.encode("utf-8")
    return {"length": len(data), "crc32": zlib.crc32(data)}


def snapshot_document(toml_text: str) -> Mapping[str, Any] | None:
    """The snapshot's document when it was made from `toml_text`; None when it is missing,
    unreadable or made from another text."""
    try:
        snapshot: object = json.loads(_files().joinpath(SNAPSHOT_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(snapshot, dict):
        return None
    made = cast(dict[str, object], snapshot)
    document = made.get("document")
    if made.get("source") != _fingerprint(toml_text) or not isinstance(document, dict):
        return None
    return cast(dict[str, Any], document)


def snapshot_text(toml_text: str) -> str:
    """The snapshot of `toml_text`, as written to `default_policy.json`."""
    import tomllib

    document = tomllib.loads(toml_text)
    # A TOML date or time has no JSON form: the snapshot would not be the document.
    try:
        kept = json.loads(json.dumps(document))
    except TypeError:
        kept = None
    if kept != document:
        raise ValueError(f"{TOML_NAME} holds values JSON cannot keep; it cannot be snapshotted")
    return json.dumps({"source": _fingerprint(toml_text), "document": document}, indent=1, sort_keys=True) + "\n"


def main() -> None:
    """Write `default_policy.json` from the package's `default_policy.toml`."""
    toml_text = _files().joinpath(TOML_NAME).read_text(encoding="utf-8")
    target = _files().joinpath(SNAPSHOT_NAME)
    with resources.as_file(target) as path:
        path.write_text(snapshot_text(toml_text), encoding="utf-8")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
