"""`classify_cypher`: the destructive statements of a Cypher text (Neo4j's cypher-shell, Memgraph's mgconsole).

The text is split into statements at `;` outside strings, quoted names and
comments; each statement is read as its words, strings blanked out so that a
quoted `'DELETE'` is data. A `DELETE` (or `DETACH DELETE`) in a statement
that neither filters with `WHERE` nor matches by property (`MATCH (n {id:
7})`) removes every node or relationship its pattern matches: every node of
a label, or the whole graph. `DROP DATABASE` and `CREATE OR REPLACE DATABASE`
drop a database; `DROP` of an index, constraint, user, role or alias is
rebuilt from its definition; `STOP DATABASE` takes one offline.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .._model import Span
from ._model import DatabaseInputError, StatementFinding, StatementKind, evidence_of, merged

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*")
_QUOTES = "'\"`"
_FILTERS = frozenset({"WHERE", "LIMIT"})


def classify_cypher(text: str) -> tuple[StatementFinding, ...]:
    """The destructive statements in a Cypher text, in text order.

    >>> [finding.kind.value for finding in classify_cypher("MATCH (n) DETACH DELETE n")]
    ['delete-without-where']
    >>> classify_cypher("MATCH (n:User {id: 7}) DETACH DELETE n")
    ()
    """
    if not isinstance(text, str):  # pyright: ignore[reportUnnecessaryIsInstance]  # callers outside the type checker
        raise DatabaseInputError(f"classify_cypher reads text, not {type(text).__name__}")
    findings: list[StatementFinding] = []
    for span, blanked in _statements(text):
        finding = _classify(blanked, span, text)
        if finding is not None:
            findings.append(finding)
    return merged(findings)


def _classify(blanked: str, span: Span, text: str) -> StatementFinding | None:
    words = [match.group().upper() for match in _WORD.finditer(blanked)]
    evidence = evidence_of(text[span.start : span.end])
    first, second = [*words, "", ""][:2]
    if first == "DROP" and second == "DATABASE":
        return StatementFinding(StatementKind.DROP_DATABASE, True, span, _after(words, "DATABASE"), evidence)
    if first == "CREATE" and words[1:4] == ["OR", "REPLACE", "DATABASE"]:
        return StatementFinding(StatementKind.DROP_DATABASE, True, span, _after(words, "DATABASE"), evidence)
    if first == "DROP" and second in ("INDEX", "CONSTRAINT", "USER", "ROLE", "ALIAS", "COMPOSITE"):
        return StatementFinding(StatementKind.DROP_OTHER, False, span, _after(words, second), evidence)
    if first == "STOP" and second == "DATABASE":
        return StatementFinding(StatementKind.SHUTDOWN, False, span, _after(words, "DATABASE"), evidence)
    if "DELETE" in words and not _FILTERS & set(words) and "{" not in blanked:
        return StatementFinding(StatementKind.DELETE_WITHOUT_WHERE, True, span, None, evidence)
    return None


def _after(words: list[str], keyword: str) -> str | None:
    index = words.index(keyword) + 1
    return words[index].lower() if index < len(words) else None


def _statements(text: str) -> Iterator[tuple[Span, str]]:
    """Each statement's span, and its text with strings, quoted names and comments blanked."""
    blanked: list[str] = []
    start = index = 0
    while index < len(text):
        char = text[index]
        end = _skipped(text, index)
        if end is not None:
            blanked.append(" " * (end - index))
            index = end
        elif char == ";":
            if "".join(blanked).strip():
                yield Span(start, index), "".join(blanked)
            blanked, start, index = [], index + 1, index + 1
        else:
            blanked.append(char)
            index += 1
    if "".join(blanked).strip():
        yield Span(start, len(text)), "".join(blanked)


def _skipped(text: str, index: int) -> int | None:
    """Where a string, quoted name or comment starting at `index` ends (None: none starts there)."""
    if text[index] in _QUOTES:
        return _closing(text, index)
    for opening, closing in (("//", "\n"), ("/*", "*/")):
        if text.startswith(opening, index):
            end = text.find(closing, index + 2)
            return len(text) if end < 0 else end + len(closing)
    return None


def _closing(text: str, opening: int) -> int:
    """The index after the quote closing the one at `opening` (a backslash escapes; the end when unclosed)."""
    quote = text[opening]
    index = opening + 1
    while index < len(text):
        if text[index] == "\\":
            index += 2
            continue
        if text[index] == quote:
            return index + 1
        index += 1
    return len(text)
