"""Word-level lexing shared by the adapters: escapes, ANSI-C strings, and
double-quote-like text (heredoc bodies) scanned for expansions."""

from __future__ import annotations

import re

from . import _ast as ast
from ._origin import Origin
from ._prepass import HeredocBody, find_substitution_end
from ._session import ParseSession

_SIMPLE_ESCAPES = {
    "a": "\a",
    "b": "\b",
    "e": "\x1b",
    "E": "\x1b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "v": "\v",
    "\\": "\\",
    "'": "'",
    '"': '"',
    "?": "?",
}
_ANSI_C_NUMERIC = re.compile(r"[0-7]{1,3}|x[0-9A-Fa-f]{1,2}|u[0-9A-Fa-f]{1,4}|U[0-9A-Fa-f]{1,8}|c.")
_PARAMETER_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!\-]")
_SIMPLE_PARAMETER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!\-]")
# Steps (see _budget) for one expansion inside a double-quoted string or a
# heredoc body: the part built, then walked and checked by the analysis.
STEPS_PER_EXPANSION = 24
# Steps for each character the scan for a substitution's end reads (1-2.5 µs of CPU each
# when openers nest, as each one is scanned in a call of its own).
STEPS_PER_SCANNED_CHARACTER = 3
_PARAMETER_OPERATOR = re.compile(r"@[A-Za-z]|:[-=?+]?|[-=?+]|##?|%%?|//?|\^\^?|,,?")
# What opens a construct inside a subscript that its closing `]` cannot be part of (longest first).
_SUBSCRIPT_OPENERS = re.compile(r"\$\(\(|\$\(|\$\{|`")


def ansi_c_decode(body: str) -> str:
    """Decode the inside of `$'...'` as bash does."""
    if "\\" not in body:
        return body
    out: list[str] = []
    index = 0
    length = len(body)
    while index < length:
        char = body[index]
        if char != "\\" or index + 1 >= length:
            out.append(char)
            index += 1
            continue
        following = body[index + 1]
        if following in _SIMPLE_ESCAPES:
            out.append(_SIMPLE_ESCAPES[following])
            index += 2
            continue
        match = _ANSI_C_NUMERIC.match(body, index + 1)
        if match is None:
            out.append(char)
            index += 1
            continue
        token = match.group()
        index = match.end()
        if token[0] == "c":
            out.append(chr(ord(token[1]) & 0x1F))
        elif token[0] in "xuU":
            out.append(_code_point(int(token[1:], 16)))
        else:
            out.append(chr(int(token, 8) & 0xFF))
    return "".join(out)


def _code_point(value: int) -> str:
    return chr(value) if value <= 0x10FFFF else "\ufffd"


def unquoted_literals(raw: str, origin: Origin) -> list[ast.Literal]:
    """An unquoted word's text: a backslash quotes the character after it."""
    if "\\" not in raw:
        return [ast.Literal(raw, False, origin.span(0, len(raw)))] if raw else []
    literals: list[ast.Literal] = []
    run_start = 0
    index = 0
    while index < len(raw):
        if raw[index] != "\\":
            index += 1
            continue
        if index > run_start:
            literals.append(ast.Literal(raw[run_start:index], False, origin.span(run_start, index)))
        escaped = raw[index + 1 : index + 2]
        if escaped and escaped != "\n":
            literals.append(ast.Literal(escaped, True, origin.span(index, index + 2)))
        index += 2
        run_start = index
    if run_start < len(raw):
        literals.append(ast.Literal(raw[run_start:], False, origin.span(run_start, len(raw))))
    return literals


def unescape_backquoted(text: str, start: int, end: int) -> tuple[str, tuple[int, ...]]:
    """The command inside backquotes: `\\$`, `` \\` `` and `\\\\` lose the backslash.

    Returns the inner text and, for each of its characters, its offset in
    `text` (plus one entry for the end).
    """
    chars: list[str] = []
    offsets: list[int] = []
    index = start
    while index < end:
        char = text[index]
        if char == "\\" and index + 1 < end and text[index + 1] in "$`\\":
            index += 1
            char = text[index]
        chars.append(char)
        offsets.append(index)
        index += 1
    offsets.append(end)
    return "".join(chars), tuple(offsets)


def double_quoted_parts(text: str, origin: Origin, session: ParseSession, *, heredoc: bool) -> tuple[ast.WordPart, ...]:
    """Scan double-quote-like text for the expansions bash performs in it.

    In a heredoc body a double quote is an ordinary character; in a
    double-quoted string it is escapable.
    """
    escapable = "$`\\\n" if heredoc else '$`"\\\n'
    parts: list[ast.WordPart] = []
    literal: list[str] = []
    literal_start = 0
    index = 0
    length = len(text)

    def flush(until: int) -> None:
        if literal:
            parts.append(ast.Literal("".join(literal), True, origin.span(literal_start, until)))
            literal.clear()

    while index < length:
        char = text[index]
        if char == "\\" and index + 1 < length and text[index + 1] in escapable:
            if not literal:
                literal_start = index
            if text[index + 1] != "\n":
                literal.append(text[index + 1])
            index += 2
            continue
        expansion, end = _expansion_at(text, index, origin, session) if char in "$`" else (None, index)
        if expansion is None:
            if not literal:
                literal_start = index
            literal.append(char)
            index += 1
            continue
        flush(index)
        parts.append(expansion)
        index = end
    flush(length)
    return tuple(parts)


def _substitution_end(text: str, index: int, opener: str, session: ParseSession) -> int:
    """Where the substitution opened at `index` ends, its scan charged: each level of a nested
    one scans what it holds, so the steps grow as the work does, with the square of the depth."""
    end = find_substitution_end(text, index, opener)
    session.charge((end - index) * STEPS_PER_SCANNED_CHARACTER)
    return end


def _expansion_at(text: str, index: int, origin: Origin, session: ParseSession) -> tuple[ast.WordPart | None, int]:
    session.charge(STEPS_PER_EXPANSION)
    if text[index] == "`":
        end = _substitution_end(text, index, "`", session)
        inner_end = end - 1 if end - 1 > index and text[end - 1] == "`" else end
        inner, offsets = unescape_backquoted(text, index + 1, inner_end)
        body = session.parse_fragment(inner, origin.compose(offsets).approximate())
        return ast.CommandSubstitution(body, True, True, origin.span(index, end)), end
    if text.startswith("$((", index):
        end = _substitution_end(text, index, "$((", session)
        inner = text[index + 3 : max(end - 2, index + 3)]
        inner_parts = double_quoted_parts(inner, origin.shifted(index + 3), session, heredoc=True)
        expansions = tuple(part for part in inner_parts if not isinstance(part, ast.Literal))
        return ast.ArithmeticExpansion(expansions, origin.span(index, end)), end
    if text.startswith("$(", index):
        end = _substitution_end(text, index, "$(", session)
        inner_end = end - 1 if end - 1 > index + 1 and text[end - 1] == ")" else end
        body = session.parse_fragment(text[index + 2 : inner_end], origin.shifted(index + 2))
        return ast.CommandSubstitution(body, False, True, origin.span(index, end)), end
    if text.startswith("${", index):
        end = _substitution_end(text, index, "${", session)
        inner_end = end - 1 if end - 1 > index + 1 and text[end - 1] == "}" else end
        return _braced_parameter(text, index, inner_end, end, origin, session), end
    match = _SIMPLE_PARAMETER.match(text, index + 1)
    if match is None:
        return None, index
    return ast.ParamExpansion(match.group(), "", (), True, origin.span(index, match.end())), match.end()


def _braced_parameter(
    text: str, start: int, inner_end: int, end: int, origin: Origin, session: ParseSession
) -> ast.ParamExpansion:
    """`${...}` from text: prefix operator, name, operator, argument."""
    cursor = start + 2
    prefix = ""
    if cursor < inner_end and text[cursor] in "!#" and cursor + 1 < inner_end:
        prefix = text[cursor]
        cursor += 1
    match = _PARAMETER_NAME.match(text, cursor, inner_end)
    name = match.group() if match else ""
    cursor = match.end() if match else cursor
    subscript: ast.Word | None = None
    if cursor < inner_end and text[cursor] == "[":
        close = _subscript_end(text, cursor, inner_end)
        index_origin = origin.shifted(cursor + 1)
        index_text = text[cursor + 1 : close]
        index_parts = double_quoted_parts(index_text, index_origin, session, heredoc=True)
        subscript = ast.Word(index_parts, index_origin.span(0, len(index_text)), index_text)
        cursor = min(close + 1, inner_end)
    operator_match = _PARAMETER_OPERATOR.match(text, cursor, inner_end)
    operator = prefix + (operator_match.group() if operator_match else "")
    argument_start = operator_match.end() if operator_match else cursor
    argument: tuple[ast.Word, ...] = ()
    if argument_start < inner_end:
        argument_text = text[argument_start:inner_end]
        argument_origin = origin.shifted(argument_start)
        argument_parts = double_quoted_parts(argument_text, argument_origin, session, heredoc=False)
        argument = (ast.Word(argument_parts, argument_origin.span(0, len(argument_text)), argument_text),)
    return ast.ParamExpansion(name, operator, argument, True, origin.span(start, end), subscript)


def _subscript_end(text: str, opening: int, end: int) -> int:
    """The `]` that closes the subscript opened at `opening` (`end` when none does). Brackets nest,
    and a substitution inside is skipped whole: the `]]` of a `[[ ]]` in `${a[$([[ ... ]]; cmd)]}`
    does not close it."""
    depth = 0
    cursor = opening
    while cursor < end:
        char = text[cursor]
        if char == "\\":
            cursor += 2
            continue
        opener = _SUBSCRIPT_OPENERS.match(text, cursor, end)
        if opener is not None:
            cursor = find_substitution_end(text, cursor, opener.group())
            continue
        if char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
            if depth == 0:
                return cursor
        cursor += 1
    return end


def heredoc_node(body: HeredocBody, source_origin: Origin, session: ParseSession) -> ast.Heredoc:
    """The node for a heredoc the pre-pass cut out; unquoted bodies are scanned for expansions."""
    body_origin = source_origin.compose(body.offsets)
    span = body_origin.span(0, len(body.text))
    if body.quoted:
        parts: tuple[ast.WordPart, ...] = (ast.Literal(body.text, True, span),)
    else:
        parts = double_quoted_parts(body.text, body_origin, session, heredoc=True)
    return ast.Heredoc(body.delimiter, body.quoted, body.operator == "<<-", parts, body.text, span)


def word_parts_from_text(text: str, origin: Origin, session: ParseSession) -> tuple[ast.WordPart, ...]:
    """The parts of one unquoted-context word given as source text (the fallback's words)."""
    parts: list[ast.WordPart] = []
    index = 0
    length = len(text)
    run_start = 0

    def flush(until: int) -> None:
        if until > run_start:
            parts.extend(unquoted_literals(text[run_start:until], origin.shifted(run_start)))

    while index < length:
        char = text[index]
        if char == "\\":
            index += 2
            continue
        if char == "'":
            flush(index)
            end = text.find("'", index + 1)
            end = length if end < 0 else end + 1
            parts.append(ast.Literal(text[index + 1 : max(end - 1, index + 1)], True, origin.span(index, end)))
            index = run_start = end
        elif char == '"' or text.startswith('$"', index):
            flush(index)
            opening = index + (1 if char == '"' else 2)
            end = find_substitution_end(text, opening - 1, '"')
            inner_end = end - 1 if end - 1 >= opening and text[end - 1] == '"' else end
            parts.extend(double_quoted_parts(text[opening:inner_end], origin.shifted(opening), session, heredoc=False))
            index = run_start = end
        elif text.startswith("$'", index):
            flush(index)
            end = index + 2
            while end < length and text[end] != "'":
                end += 2 if text[end] == "\\" else 1
            parts.append(ast.Literal(ansi_c_decode(text[index + 2 : end]), True, origin.span(index, end + 1)))
            index = run_start = min(end + 1, length)
        elif char in "$`":
            expansion, end = _expansion_at(text, index, origin, session)
            if expansion is None:
                index += 1
                continue
            flush(index)
            parts.append(_unquoted(expansion))
            index = run_start = end
        else:
            index += 1
    flush(length)
    return tuple(parts)


def _unquoted(part: ast.WordPart) -> ast.WordPart:
    if type(part) is ast.ParamExpansion:
        return part._replace(quoted=False)
    if type(part) is ast.CommandSubstitution:
        return ast.CommandSubstitution(part.body, part.backquoted, False, part.span)
    return part
