"""Wildcard patterns in code: a glob call returns the paths its pattern matches (Perl's `glob`,
Ruby's `Dir.glob`, Python's `glob.glob`), judged as the unquoted glob the shell would expand; a
directory listing returns names that stand for every entry (`*`), and a loop over either, or a
method that calls its callback or block with each element (`forEach`, `each`), sees one of them."""

from __future__ import annotations

from collections.abc import Iterable

from ._values import UNKNOWN, Entry, Value, opaque, sources_of

ANY_NAME = Value(text="*", pattern=True)
"""Any name in a directory, what one step over a listing of names yields (`os.listdir`, `readdirSync`)."""

EACH_ELEMENT_METHODS = frozenset(
    {
        # both: JavaScript's arrays and Ruby's Enumerable
        "map", "filter", "find",
        # JavaScript's only
        "forEach", "flatMap", "some", "every", "findLast",
        # Ruby's only
        "each", "each_with_index", "each_with_object", "each_entry", "collect", "flat_map",
        "select", "reject", "filter_map", "detect", "each_slice",
    }
)  # fmt: skip
"""Methods that call their callback (JavaScript) or block (Ruby) with each element of the receiver, first."""
KEEPS_ELEMENTS_METHODS = frozenset(
    {"filter", "select", "reject", "sort", "sort_by", "slice", "reverse", "uniq", "to_a"}
)
"""Methods that return some of the receiver's elements, as they are."""


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


def lists_names() -> Entry:
    """`os.listdir(d)`, `fs.readdirSync(d)`, `Dir.children(d)`: the names in a directory (not their paths)."""
    return Entry(returns=lambda call: Value(each=ANY_NAME, sources=sources_of(call.all_values())))
