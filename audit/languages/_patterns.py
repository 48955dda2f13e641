"""Wildcard patterns in code: a glob call returns the paths its pattern matches (Perl's `glob`,
Ruby's `Dir.glob`, Python's `glob.glob`), judged as the unquoted glob the shell would expand."""

from __future__ import annotations

from collections.abc import Iterable

from ._values import UNKNOWN, Entry, Value, opaque


def wildcard_pattern(pattern: Value, all_values: Iterable[Value]) -> Value:
    """What a glob call returns for one pattern: the pattern itself, standing for the paths it
    matches (`glob("/etc/*")` is the shell's `/etc/*`) when it is known and has a wildcard; a pattern
    with braces or blanks (several patterns) is not known."""
    text = pattern.text
    if text is None or any(char in text for char in "{ ") or not any(char in text for char in "*?["):
        return opaque(all_values)
    return Value(text=text, sources=pattern.sources, pattern=True)


def globs() -> Entry:
    """Returns the paths a wildcard pattern matches (Ruby's `Dir.glob`)."""
    return Entry(returns=lambda call: wildcard_pattern(call.arg(0) or UNKNOWN, call.all_values()))
