"""`NamedTuple` class syntax without typing's per-field cost at class creation.

`typing.NamedTuple` turns every field's annotation into a `ForwardRef` when the
class is made; under `from __future__ import annotations` each annotation is a
string, so that compiles it (about 20 µs a field, over a third of a NamedTuple's
creation on Python 3.11). The engine defines about ninety NamedTuples at import
and never reads their annotations at run time, so at run time this module's
`NamedTuple` builds the same `collections.namedtuple` subclass with the
annotations left as the strings they are (`typing.get_type_hints` reads either).
Type checkers see `typing.NamedTuple` itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import NamedTuple as NamedTuple
else:
    from collections import namedtuple

    # Set by namedtuple itself, or not class attributes at all.
    _NOT_COPIED = frozenset({"__module__", "__annotations__"})

    class _NamedTupleMeta(type):
        """Makes `class Name(NamedTuple): ...` a namedtuple with the class body's methods."""

        def __new__(mcs, name, bases, namespace):
            if bases != (NamedTuple,):
                raise TypeError(f"{name}: a NamedTuple inherits from NamedTuple alone")
            annotations = namespace.get("__annotations__", {})
            defaults = [field for field in annotations if field in namespace]
            # namedtuple gives defaults to the last fields, so they must be the last ones declared.
            if defaults != list(annotations)[len(annotations) - len(defaults) :]:
                raise TypeError(f"{name}: a field without a default follows one with a default")
            made = namedtuple(
                name,
                list(annotations),
                defaults=[namespace[field] for field in defaults],
                module=namespace["__module__"],
            )
            made.__annotations__ = annotations
            for key, value in namespace.items():
                if key not in _NOT_COPIED and key not in annotations:
                    setattr(made, key, value)
            return made

    NamedTuple = type.__new__(_NamedTupleMeta, "NamedTuple", (), {})
