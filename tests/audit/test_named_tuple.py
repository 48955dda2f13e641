"""`audit._named_tuple.NamedTuple`: the class syntax of `typing.NamedTuple` without its
per-field annotation check at class creation; what it makes behaves as typing's does."""

from __future__ import annotations

import ast
import pickle
import typing
from pathlib import Path

import pytest

import audit
from audit._model import CommandRecord, Position, Span
from audit._named_tuple import NamedTuple


class Pair(NamedTuple):
    """Two values, the second optional."""

    first: str
    second: tuple[int, ...] = ()
    """Numbers."""

    @property
    def size(self) -> int:
        return len(self.second)

    def doubled(self) -> Pair:
        return self._replace(second=self.second * 2)


class TypingPair(typing.NamedTuple):
    """The same declared with typing's NamedTuple, to compare with."""

    first: str
    second: tuple[int, ...] = ()


def test_a_named_tuple_has_its_fields_defaults_methods_and_docstring() -> None:
    pair = Pair("a", (1, 2))
    assert (pair.first, pair.second, pair.size, pair.doubled()) == ("a", (1, 2), 2, Pair("a", (1, 2, 1, 2)))
    assert Pair("b") == Pair(first="b", second=())
    assert Pair._fields == TypingPair._fields == ("first", "second")
    assert Pair._field_defaults == TypingPair._field_defaults == {"second": ()}
    assert Pair.__doc__ == "Two values, the second optional."
    assert (Pair.__module__, Pair.__qualname__) == (__name__, "Pair")


def test_a_named_tuple_is_a_tuple_compared_hashed_and_printed_as_typing_makes_it() -> None:
    pair, same, other = Pair("a", (1,)), Pair("a", (1,)), Pair("a", (2,))
    assert isinstance(pair, tuple)
    assert pair == same == ("a", (1,)) == TypingPair("a", (1,))
    assert pair != other
    assert hash(pair) == hash(same) == hash(TypingPair("a", (1,)))
    assert repr(pair) == "Pair(first='a', second=(1,))"
    assert repr(TypingPair("a", (1,))) == "TypingPair(first='a', second=(1,))"
    first, second = pair
    assert (first, second) == ("a", (1,))
    with pytest.raises(AttributeError):
        pair.first = "b"  # type: ignore[misc]  # immutable, as typing's are


def test_a_named_tuple_keeps_its_annotations_for_type_hints() -> None:
    assert Pair.__annotations__ == {"first": "str", "second": "tuple[int, ...]"}
    assert typing.get_type_hints(Pair) == typing.get_type_hints(TypingPair) == {"first": str, "second": tuple[int, ...]}


def test_the_engine_s_named_tuples_pickle_by_module_and_name() -> None:
    record = CommandRecord(("ls",), Span(0, 2), Position.COMMAND, ())
    assert pickle.loads(pickle.dumps(record)) == record


def test_a_field_without_a_default_after_one_with_a_default_is_refused() -> None:
    with pytest.raises(TypeError, match="without a default follows one with a default"):

        class Misordered(NamedTuple):
            first: str = ""
            second: str  # pyright: ignore[reportGeneralTypeIssues]


def test_a_named_tuple_inherits_from_named_tuple_alone() -> None:
    with pytest.raises(TypeError, match="inherits from NamedTuple alone"):

        class Mixed(NamedTuple, Exception):  # pyright: ignore[reportGeneralTypeIssues]
            first: str


def _named_tuples_from_typing(path: Path) -> bool:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.ImportFrom)
            and node.module == "typing"
            and any(alias.name == "NamedTuple" for alias in node.names)
        ):
            return True
        if isinstance(node, ast.Attribute) and node.attr == "NamedTuple":
            return True
    return False


def test_every_named_tuple_of_the_engine_is_made_by_audit_named_tuple() -> None:
    """typing's costs about 20 µs a field at import; the engine declares about ninety."""
    package = Path(audit.__file__).resolve().parent
    offenders = [
        path.relative_to(package).as_posix()
        for path in sorted(package.rglob("*.py"))
        if path.name != "_named_tuple.py" and _named_tuples_from_typing(path)
    ]
    assert not offenders
