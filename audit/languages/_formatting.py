"""Strings built by more than concatenation, read when every piece is known: a separator joining a
list (Python's `' '.join([...])`, JavaScript's `[...].join(' ')`), Python's `%` formatting and
`str.format`. What is built is a concatenation of the pieces, so a pattern or a loop's choices in
one carry over (`joined`). A piece not known, a conversion (`%r`, `{!r}`) or a format spec
(`{:>8}`) leaves the result unknown but for its origins."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from ._values import Value, joined, opaque

_PERCENT = re.compile(r"%(?:\(([A-Za-z_]\w*)\))?([sdi%])|%")
_BRACES = re.compile(r"\{\{|\}\}|\{([A-Za-z_]\w*|\d*)\}|[{}]")


def joined_items(separator: Value, listed: Value) -> Value:
    """The items of `listed` joined with `separator` between them."""
    items = listed.items
    if separator.text is None or items is None:
        return opaque((separator, listed))
    parts: list[Value] = []
    for item in items:
        parts.extend((separator, _as_text(item)) if parts else (_as_text(item),))
    return joined(parts) if parts else Value(text="", sources=listed.sources)


def percent_formatted(template: Value, arguments: Value) -> Value:
    """`'rm -rf %s' % path`, `'%s %s' % (a, b)`, `'%(dir)s' % {'dir': d}`."""
    text = template.text
    if text is None:
        return opaque((template, arguments))
    positional = list(arguments.items) if arguments.items is not None and arguments.entries is None else [arguments]
    parts: list[Value] = []
    position = 0
    for match in _PERCENT.finditer(text):
        parts.append(Value(text=text[position : match.start()]))
        position = match.end()
        name, conversion = match.group(1), match.group(2)
        if conversion is None:
            return opaque((template, arguments))  # a conversion not read here (`%r`, `%5s`)
        if conversion == "%":
            parts.append(Value(text="%"))
        elif name is not None:
            found = arguments.entry(name)
            parts.append(_as_text(found) if found is not None else opaque((arguments,)))
        elif positional:
            parts.append(_as_text(positional.pop(0)))
        else:
            return opaque((template, arguments))
    parts.append(Value(text=text[position:]))
    return joined([part for part in parts if part.text != ""] or [Value(text="", sources=template.sources)])


def brace_formatted(template: Value, arguments: Sequence[Value], keywords: Mapping[str, Value]) -> Value:
    """`'rm -rf {}'.format(path)`, `'{0}/{name}'.format(a, name=b)`."""
    text = template.text
    everything = (template, *arguments, *keywords.values())
    if text is None:
        return opaque(everything)
    parts: list[Value] = []
    position = automatic = 0
    for match in _BRACES.finditer(text):
        parts.append(Value(text=text[position : match.start()]))
        position = match.end()
        field = match.group(1)
        if match.group() in ("{{", "}}"):
            parts.append(Value(text=match.group()[0]))
            continue
        if field is None:
            return opaque(everything)  # a spec or a conversion (`{:>8}`, `{!r}`), or a lone brace
        if field == "":
            field, automatic = str(automatic), automatic + 1
        found = arguments[int(field)] if field.isdigit() and int(field) < len(arguments) else keywords.get(field)
        if found is None:
            return opaque(everything)
        parts.append(_as_text(found))
    parts.append(Value(text=text[position:]))
    return joined([part for part in parts if part.text != ""] or [Value(text="", sources=template.sources)])


def _as_text(value: Value) -> Value:
    """How a value reads inside a string: its text, an integer's digits."""
    if value.text is None and value.number is not None and value.choices is None:
        return Value(text=str(value.number), sources=value.sources)
    return value
