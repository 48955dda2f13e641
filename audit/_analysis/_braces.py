"""Bash brace expansion of static text (`/{etc,usr}`, `{1..3}`, `{a..e..2}`,
`{01..10}`), one result at a time.

Nothing is built before it is asked for: a sequence is a range, and each
result is made when the caller takes it, so `{1..100000000}` costs what the
caller keeps. Every result taken is charged to the audit's budget (in
proportion to its length), so an expansion too large to judge in full ends
the audit with a budget finding instead of growing memory or passing
unjudged.

Known divergence from bash: quoting inside the value is already removed, so
a quoted brace or comma (`"{a,b}"x{c,d}`) is expanded here; that reads more
words than bash would, never fewer.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterator

Charge = Callable[[int], None]
"""Spends steps of the audit's budget (raises BudgetExceeded when it is spent)."""

# Each text taken costs steps: it becomes an argument the rules judge, its
# characters are copied and scanned (one step per CHARACTERS_PER_STEP), and
# each brace or comma in it is looked at in Python (one step per
# GROUP_MARKS_PER_STEP). What is joined onto values elsewhere costs one step
# per CHARACTERS_PER_STEP characters copied.
STEPS_PER_WORD = 8
CHARACTERS_PER_STEP = 64
GROUP_MARKS_PER_STEP = 2

# Compiled on first use (re's own cache), not at import: only some commands need these patterns.
_GROUP_CHARACTERS = r"[{},]"
_SEQUENCE = r"(?P<start>-?\d+)\.\.(?P<end>-?\d+)(?:\.\.(?P<step>-?\d+))?"
_LETTERS = r"(?P<start>[A-Za-z])\.\.(?P<end>[A-Za-z])(?:\.\.(?P<step>-?\d+))?"


def expand_braces(value: str, charge: Charge) -> Iterator[str]:
    """The words bash's brace expansion makes of `value`, in bash's order.

    The first group varies slowest (`{a,b}{c,d}`: ac ad bc bd) and a nested
    group expands in place (`/{etc,{1..2}}`: /etc /1 /2). A value without a
    valid group is its own only word.
    """
    # Depth-first over the groups, one group opened per level: the stack
    # holds, per level, the words still to come from the group opened there.
    pending: list[Iterator[str]] = [iter((value,))]
    while pending:
        text = next(pending[-1], None)
        if text is None:
            pending.pop()
            continue
        marks = text.count("{") + text.count("}") + text.count(",")
        charge(STEPS_PER_WORD + len(text) // CHARACTERS_PER_STEP + marks // GROUP_MARKS_PER_STEP)
        group = _first_group(text)
        if group is None:
            yield text
            continue
        start, end, options = group
        pending.append(_framed(text[:start], options, text[end + 1 :]))


def _framed(prefix: str, options: Iterator[str], suffix: str) -> Iterator[str]:
    for option in options:
        yield prefix + option + suffix


def _first_group(text: str) -> tuple[int, int, Iterator[str]] | None:
    """The leftmost brace group bash expands in `text`: where it opens and
    closes, and its options (None when there is none).

    A group is `{...}` with a comma at its own level, or a sequence; any
    other braces (`{}`, `{a}`, an unclosed `{`) are text, and a group may
    sit inside them (`{x{a,b}}`: {xa} {xb}).
    """
    if "{" not in text:
        return None
    # Per open brace: where it opens, and where its own commas are.
    open_braces: list[tuple[int, list[int]]] = []
    found: tuple[int, int, list[int]] | None = None
    for match in re.finditer(_GROUP_CHARACTERS, text):
        index, char = match.start(), match.group()
        if char == "{":
            open_braces.append((index, []))
        elif char == "," and open_braces:
            open_braces[-1][1].append(index)
        elif char == "}" and open_braces:
            start, commas = open_braces.pop()
            if found is not None and found[0] < start:
                continue
            if commas or _sequence(text[start + 1 : index]) is not None:
                found = (start, index, commas)
    if found is None:
        return None
    start, end, commas = found
    if commas:
        bounds = [start, *commas, end]
        return start, end, (text[low + 1 : high] for low, high in itertools.pairwise(bounds))
    options = _sequence(text[start + 1 : end])
    assert options is not None
    return start, end, options


def _sequence(inner: str) -> Iterator[str] | None:
    """The words of a sequence expression (`1..10`, `a..e`, `01..10..3`), or None."""
    match = re.fullmatch(_SEQUENCE, inner)
    if match is not None:
        first, last = match["start"], match["end"]
        start, end = int(first), int(last)
        # `{01..10}`: a leading zero on either end pads every word to the longer end's width.
        width = max(len(first), len(last)) if _zero_padded(first) or _zero_padded(last) else 0
        return (f"{number:0{width}d}" for number in _steps(start, end, match["step"]))
    match = re.fullmatch(_LETTERS, inner)
    if match is not None:
        # Between Z and a lies a backslash, which quote removal then takes out of its word.
        return (chr(code).replace("\\", "") for code in _steps(ord(match["start"]), ord(match["end"]), match["step"]))
    return None


def _zero_padded(number: str) -> bool:
    digits = number.lstrip("-")
    return len(digits) > 1 and digits[0] == "0"


def _steps(start: int, end: int, step: str | None) -> range:
    """From `start` to `end` inclusive, by the step's size in the direction of `end` (bash ignores its sign)."""
    size = abs(int(step)) if step else 1
    size = size or 1
    return range(start, end + 1, size) if end >= start else range(start, end - 1, -size)
