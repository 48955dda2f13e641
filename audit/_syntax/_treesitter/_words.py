"""Words of the tree-sitter tree: quoting, expansions and substitutions, as
frozen word parts with spans in the user's string.

`WordBuilder` also holds what every part of the builder needs: the text, its
origin, and node spans. The statement builder extends it.
"""

from __future__ import annotations

from tree_sitter import Node

from ..._model import Span
from .. import _ast as ast
from .._ast import new_node
from .._origin import Origin
from .._prepass import find_substitution_end
from .._session import STEPS_PER_FRAGMENT, STEPS_PER_NODE_SEARCHED, STEPS_PER_WORD_PART, ParseSession, PreparedText
from .._words import ansi_c_decode, double_quoted_parts, unescape_backquoted, unquoted_literals, word_parts_from_text
from ._kinds import ARRAY, COMMENT, SUBSCRIPT, VARIABLE_ASSIGNMENT, WORD, kinds

WORD_NODES = kinds(
    "word",
    "string",
    "raw_string",
    "ansi_c_string",
    "translated_string",
    "concatenation",
    "simple_expansion",
    "expansion",
    "command_substitution",
    "process_substitution",
    "arithmetic_expansion",
    "number",
    "brace_expression",
    "extglob_pattern",
    "regex",
    "test_operator",
    "special_variable_name",
    "variable_name",
    "$",
)
_PLAIN_WORD_NODES = kinds("word", "number")
EXPANSION_NODES = kinds(
    "simple_expansion", "expansion", "command_substitution", "process_substitution", "arithmetic_expansion"
)
_DOLLAR = kinds("$")
_STRING = kinds("string")
_STRINGS = kinds("string", "translated_string")
_SPLICED = kinds("concatenation", "brace_expression")
_RAW_STRING = kinds("raw_string")
_ANSI_C_STRING = kinds("ansi_c_string")
_COMMAND_SUBSTITUTION = kinds("command_substitution")
_SIMPLE_EXPANSION = kinds("simple_expansion")
_EXPANSION = kinds("expansion")
_PROCESS_SUBSTITUTION = kinds("process_substitution")
_NAMES = kinds("variable_name", "special_variable_name")
_EXPANSION_BRACES = kinds("${", "}")
_BARE_NAMES = kinds("word", "variable_name")
_TEST_BRACKETS = kinds("[[", "]]", "[", "]")


class WordBuilder:
    """Converts the word nodes of one tree into frozen nodes with original-string spans."""

    __slots__ = (
        "base",
        "byte_to_char",
        "data",
        "multiline",
        "origin",
        "prepared",
        "repaired_errors",
        "session",
        "source_origin",
        "span_shift",
        "text",
    )

    def __init__(self, ready: PreparedText, data: bytes, session: ParseSession, base: int = 0) -> None:
        text = ready.text
        origin = ready.origin
        self.text = text
        # Where `text` starts in the pre-pass output (whose offsets key the heredocs).
        self.base = base
        self.source_origin = ready.source_origin
        self.data = data
        self.origin = origin
        self.session = session
        self.prepared = ready.prepared
        # ERROR nodes whose text the builder read as bash does (their ids).
        self.repaired_errors: set[int] = set()
        self.multiline = "\n" in text
        # The character offset of each byte offset; None when the text is ASCII
        # (one byte per character), which is nearly always.
        self.byte_to_char: list[int] | None = None
        if len(data) != len(text):
            byte_to_char = [0] * (len(data) + 1)
            position = 0
            for index, char in enumerate(text):
                width = len(char.encode("utf-8", "surrogatepass"))
                for k in range(width):
                    byte_to_char[position + k] = index
                position += width
            byte_to_char[position] = len(text)
            self.byte_to_char = byte_to_char
        # When the text is ASCII and a verbatim slice of the original, a node's
        # span is its byte range shifted by this much (None otherwise).
        self.span_shift: int | None = None
        if self.byte_to_char is None and origin.offsets is None and origin.pinned is None:
            self.span_shift = origin.base

    # -- where nodes are -------------------------------------------------------

    def chars(self, node: Node) -> tuple[int, int]:
        byte_to_char = self.byte_to_char
        if byte_to_char is None:
            return node.start_byte, node.end_byte
        return byte_to_char[node.start_byte], byte_to_char[node.end_byte]

    def span(self, node: Node) -> Span:
        shift = self.span_shift
        if shift is not None:
            return new_node(Span, (node.start_byte + shift, node.end_byte + shift))
        start, end = self.chars(node)
        return self.origin.span(start, end)

    def source(self, node: Node) -> str:
        start, end = self.chars(node)
        return self.text[start:end]

    def trouble(self, node: Node, message: str) -> None:
        self.session.trouble("tree-sitter", message, self.span(node))

    def statements(self, children: list[Node]) -> tuple[ast.Statement, ...]:
        """The statements among `children` (a substitution's body); the statement builder reads them."""
        raise NotImplementedError

    # -- words -----------------------------------------------------------------

    def words(self, nodes: list[Node]) -> tuple[ast.Word, ...]:
        """Group nodes into bash words: nodes with no blank between are one word."""
        words: list[ast.Word] = []
        group: list[Node] = []
        group_end = -1
        for node in nodes:
            if node.kind_id in COMMENT:
                continue
            if group and node.start_byte != group_end:
                words.append(self.word(group))
                group = []
            group.append(node)
            group_end = node.end_byte
        if group:
            words.append(self.word(group))
        return tuple(words)

    def word(self, nodes: list[Node]) -> ast.Word:
        node = nodes[0]
        if len(nodes) == 1 and node.kind_id in _PLAIN_WORD_NODES:
            shift = self.span_shift
            if shift is not None:
                # Most words: plain ASCII text at a fixed shift (chars() and span() inlined).
                start, end = node.start_byte, node.end_byte
                text = self.text[start:end]
                if "\\" not in text and "$" not in text:
                    span = new_node(Span, (start + shift, end + shift))
                    return new_node(ast.Word, ((new_node(ast.Literal, (text, False, span)),), span, text))
            else:
                start, end = self.chars(node)
                text = self.text[start:end]
                if "\\" not in text and "$" not in text:
                    span = self.span(node)
                    return ast.Word((ast.Literal(text, False, span),), span, text)
        self.session.charge(len(nodes) * STEPS_PER_WORD_PART)
        parts: list[ast.WordPart] = []
        for index, node in enumerate(nodes):
            if node.kind_id in _DOLLAR and index + 1 < len(nodes) and nodes[index + 1].kind_id in _STRING:
                continue  # `$"..."` is a translated string: the `$` is not text
            self.word_parts(node, parts)
        start = self.chars(nodes[0])[0]
        if len(parts) > 1:
            parts = _merge_literals(parts)
        end = self.chars(nodes[-1])[1]
        source = self.source_slice(start, end)[0] if self.prepared is not None else self.text[start:end]
        if "$" in source and any(type(part) is ast.Literal and not part.quoted and "$" in part.text for part in parts):
            # tree-sitter sometimes files a `$` and the name after it as plain text (`rm$IFS-rf$IFS/`
            # ends its concatenation at the second `$`): bash expands an unquoted `$NAME` wherever
            # it stands, so the word is read again from its text.
            text, origin = self.source_slice(start, end)
            parts = list(word_parts_from_text(text, origin, self.session))
        return new_node(ast.Word, (tuple(parts), self.origin.span(start, end), source))

    def word_parts(self, node: Node, parts: list[ast.WordPart]) -> None:
        kind = node.kind_id
        if kind in _SPLICED:
            children = node.children
            self.session.charge(len(children) * STEPS_PER_WORD_PART)
            for child in children:
                self.word_parts(child, parts)
        elif kind in _RAW_STRING:
            start, end = self.chars(node)
            parts.append(ast.Literal(self.text[start + 1 : end - 1], True, self.origin.span(start, end)))
        elif kind in _ANSI_C_STRING:
            start, end = self.chars(node)
            decoded = ansi_c_decode(self.text[start + 2 : end - 1])
            parts.append(ast.Literal(decoded, True, self.origin.span(start, end)))
        elif kind in _STRINGS:
            self.string_parts(node, parts)
        elif kind in _COMMAND_SUBSTITUTION and self.misread_backquotes(node):
            # tree-sitter reads `` `a` `b` `` as one substitution: re-read the text.
            start, end = self.chars(node)
            text, origin = self.source_slice(start, end)
            parts.extend(word_parts_from_text(text, origin, self.session))
        elif kind in EXPANSION_NODES:
            parts.append(self.expansion(node, quoted=False))
        elif kind in VARIABLE_ASSIGNMENT:
            self.assignment_word_parts(node, parts)
        elif node.child_count and kind not in _PLAIN_WORD_NODES:
            for child in node.children:
                self.word_parts(child, parts)
        else:
            start, end = self.chars(node)
            parts.extend(unquoted_literals(self.text[start:end], self.origin.shifted(start)))

    def assignment_word_parts(self, node: Node, parts: list[ast.WordPart]) -> None:
        for child in node.children:
            if child.kind_id in ARRAY:
                start, end = self.chars(child)
                parts.extend(unquoted_literals(self.text[start:end], self.origin.shifted(start)))
            else:
                self.word_parts(child, parts)

    def string_parts(self, node: Node, parts: list[ast.WordPart]) -> None:
        """A double-quoted string: the gaps between expansions are literal text.

        tree-sitter's string_content nodes do not always cover the gaps (a
        blank before an expansion is folded into the expansion's start), so
        literal text is taken from the source between expansion nodes.
        """
        start, end = self.chars(node)
        text = self.text
        opening = text.find('"', start, end)
        cursor = (opening if opening >= 0 else start) + 1
        stop = end - 1 if end - 1 >= cursor and text[end - 1] == '"' else end
        if text.find("`", cursor, stop) >= 0:
            # Backquotes inside a string are misread as often as outside one.
            content, content_origin = self.source_slice(cursor, stop)
            parts.extend(double_quoted_parts(content, content_origin, self.session, heredoc=False))
            return
        for child in node.children:
            if child.kind_id not in EXPANSION_NODES:
                continue
            child_start, child_end = self.chars(child)
            while child_start < child_end and text[child_start] in " \t\n":
                child_start += 1
            if child_start > cursor:
                parts.extend(self.quoted_literals(cursor, child_start))
            parts.append(self.expansion(child, quoted=True))
            cursor = child_end
        if stop > cursor:
            parts.extend(self.quoted_literals(cursor, stop))

    def source_slice(self, start: int, end: int) -> tuple[str, Origin]:
        """The text to re-read for [start, end) of this text, and its origin.

        The pre-pass blanked heredoc bodies here; a region that holds one is
        re-read from the pre-pass input, where the body is still intact.
        """
        prepared = self.prepared
        if prepared is not None:
            low, high = start + self.base, end + self.base
            if high > low and any(low <= offset < high for offset in prepared.heredocs):
                first, last = prepared.offsets[low], prepared.offsets[high - 1] + 1
                return prepared.source[first:last], self.source_origin.shifted(first)
        return self.text[start:end], self.origin.shifted(start)

    def misread_backquotes(self, node: Node) -> bool:
        """A backquoted node whose real closing backquote comes before its end."""
        start, end = self.chars(node)
        while start < end and self.text[start] in " \t\n":
            start += 1
        if not self.text.startswith("`", start):
            return False
        return find_substitution_end(self.text, start, "`") < end

    def quoted_literals(self, start: int, end: int) -> list[ast.Literal]:
        """Double-quoted text. An escape (`\\$`, `\\"`...) is a literal of its own, so
        every other literal keeps exact offsets for spans found in nested code."""
        raw = self.text[start:end]
        if "\\" not in raw:
            return [new_node(ast.Literal, (raw, True, self.origin.span(start, end)))]
        literals: list[ast.Literal] = []
        run_start = 0
        index = 0
        while index < len(raw):
            if raw[index] != "\\" or index + 1 >= len(raw) or raw[index + 1] not in '$`"\\\n':
                index += 1
                continue
            if index > run_start:
                literals.append(
                    ast.Literal(raw[run_start:index], True, self.origin.span(start + run_start, start + index))
                )
            if raw[index + 1] != "\n":
                literals.append(ast.Literal(raw[index + 1], True, self.origin.span(start + index, start + index + 2)))
            index += 2
            run_start = index
        if run_start < len(raw):
            literals.append(ast.Literal(raw[run_start:], True, self.origin.span(start + run_start, start + len(raw))))
        return literals

    def expansion(self, node: Node, *, quoted: bool) -> ast.WordPart:
        kind = node.kind_id
        span = self.span(node)
        if kind in _SIMPLE_EXPANSION:
            start, end = self.chars(node)
            name = self.text[start:end].lstrip(" \t\n")[1:]
            return new_node(ast.ParamExpansion, (name, "", (), quoted, span, None))
        if kind in _EXPANSION:
            return self.parameter(node, quoted)
        if kind in _COMMAND_SUBSTITUTION:
            return self.command_substitution(node, quoted)
        if kind in _PROCESS_SUBSTITUTION:
            start, _ = self.chars(node)
            direction = self.text[start : start + 1]
            body = self.script_between(node)
            return ast.ProcessSubstitution(body, direction, span)
        return ast.ArithmeticExpansion(self.expansions_within(node), span)

    def parameter(self, node: Node, quoted: bool) -> ast.ParamExpansion:
        name = ""
        operator: list[str] = []
        argument_nodes: list[Node] = []
        subscript: ast.Word | None = None
        seen_name = False
        for index, child in enumerate(node.children):
            kind = child.kind_id
            if kind in _EXPANSION_BRACES:
                continue
            if not seen_name and kind in SUBSCRIPT:
                # `${arr[$(cmd)]}`: the array's name, and its index expression.
                name_node = child.child_by_field_name("name")
                name = self.source(name_node) if name_node is not None else self.source(child)
                index_nodes = child.children_by_field_name("index")
                subscript = self.parameter_argument(index_nodes)[0] if index_nodes else None
                seen_name = True
            elif not seen_name and kind in _NAMES:
                name = self.source(child)
                seen_name = True
            elif not child.is_named or node.field_name_for_child(index) == "operator":
                operator.append(self.source(child))
            else:
                argument_nodes.append(child)
        return ast.ParamExpansion(
            name, "".join(operator), self.parameter_argument(argument_nodes), quoted, self.span(node), subscript
        )

    def parameter_argument(self, nodes: list[Node]) -> tuple[ast.Word, ...]:
        """The words after a `${x:-...}` operator.

        tree-sitter leaves a backquoted command there as a plain word; such
        a word is re-read from its text so the substitution is found.
        """
        words: list[ast.Word] = []
        for node in nodes:
            start, end = self.chars(node)
            text = self.text[start:end]
            if node.kind_id in WORD and "`" in text:
                source, origin = self.source_slice(start, end)
                parts = word_parts_from_text(source, origin, self.session)
                words.append(ast.Word(parts, self.origin.span(start, end), text))
            else:
                words.append(self.word([node]))
        return tuple(words)

    def command_substitution(self, node: Node, quoted: bool) -> ast.CommandSubstitution:
        start, end = self.chars(node)
        while start < end and self.text[start] in " \t\n":
            start += 1
        if self.text.startswith("`", start):
            inner_end = end - 1 if end - 1 > start and self.text[end - 1] == "`" else end
            source, origin = self.source_slice(start + 1, inner_end)
            inner, offsets = unescape_backquoted(source, 0, len(source))
            body = self.session.parse_fragment(inner, origin.compose(offsets).approximate())
            return ast.CommandSubstitution(body, True, quoted, self.origin.span(start, end))
        return ast.CommandSubstitution(self.script_between(node), False, quoted, self.origin.span(start, end))

    def script_between(self, node: Node) -> ast.Script:
        """The statements inside `$( )`, `<( )` or `>( )`."""
        # A nested script, parsed in place, costs what a fragment parsed apart does.
        self.session.charge(STEPS_PER_FRAGMENT)
        return ast.Script(self.statements(node.children), self.span(node))

    def expansions_within(self, node: Node) -> tuple[ast.WordPart, ...]:
        """Every expansion under `node` (arithmetic contexts only need these)."""
        found: list[ast.WordPart] = []
        stack = list(reversed(node.children))
        while stack:
            child = stack.pop()
            if child.kind_id in EXPANSION_NODES:
                found.append(self.expansion(child, quoted=False))
            elif child.kind_id in _BARE_NAMES and child.parent is not None and child.parent.kind_id not in _EXPANSION:
                start, end = self.chars(child)
                # A bare name in arithmetic is a variable reference.
                found.append(ast.ParamExpansion(self.text[start:end], "", (), False, self.origin.span(start, end)))
            else:
                children = child.children
                self.session.charge(len(children) * STEPS_PER_NODE_SEARCHED)
                stack.extend(reversed(children))
        return tuple(found)

    def word_leaves(self, node: Node) -> list[Node]:
        """The word-like nodes of a test expression, in order."""
        found: list[Node] = []
        stack = list(reversed(node.children))
        while stack:
            child = stack.pop()
            if child.kind_id in WORD_NODES:
                found.append(child)
            elif child.kind_id not in _TEST_BRACKETS:
                children = child.children
                self.session.charge(len(children) * STEPS_PER_NODE_SEARCHED)
                stack.extend(reversed(children))
        return found


def _exact(literal: ast.Literal) -> bool:
    """Whether each character of the literal sits at its own offset (no escape removed)."""
    return literal.span.end - literal.span.start == len(literal.text)


def _merge_literals(parts: list[ast.WordPart]) -> list[ast.WordPart]:
    """Join neighbouring literals of the same quoting (tree-sitter splits `PATH`, `=`)."""
    merged: list[ast.WordPart] = []
    for part in parts:
        previous = merged[-1] if merged else None
        if (
            type(part) is ast.Literal
            and type(previous) is ast.Literal
            and previous.quoted == part.quoted
            and previous.span.end == part.span.start
            and _exact(previous)
            and _exact(part)
        ):
            merged[-1] = ast.Literal(previous.text + part.text, part.quoted, Span(previous.span.start, part.span.end))
        else:
            merged.append(part)
    return merged
