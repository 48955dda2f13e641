"""Programs whose whole output is integers by construction: `python3 -c 'import sys;
print(sys.version_info.minor)'`, the version check a shell compares with `-ge`.

Such output is text nobody can shape into code, wherever the shell puts it (an
arithmetic operand, whose `a[$(cmd)]` would run cmd). The program must be
nothing but imports of `sys` (built into the interpreter: no file in the
working directory can stand in for it) and `print` calls of one integer
expression each: integer literals, the interpreter's version numbers and sizes,
and `+ - * // %` over them. Anything else (another module, a keyword argument
such as `end=`, a string, a call) may print text, and the answer is no.
"""

from __future__ import annotations

from tree_sitter import Node

from .._caches import CODE_REPORTS, Memo
from ._grammars import parse

_MAX_SOURCE_CHARACTERS = 400
"""A version check is one short line; longer code is not read at all."""
_INTEGER_ATTRIBUTES = frozenset({
    "sys.version_info.major", "sys.version_info.minor", "sys.version_info.micro", "sys.hexversion",
    "sys.maxsize", "sys.api_version",
})  # fmt: skip
# `sys.version_info[3]` is the release level, a string.
_INTEGER_VERSION_FIELDS = frozenset({"0", "1", "2"})
# Not `**`: `9**9**9` prints an integer, after hours.
_INTEGER_OPERATORS = frozenset({"+", "-", "*", "//", "%"})

_ANSWERS: Memo[str, bool] = Memo(CODE_REPORTS)


def prints_only_integers(language: str, source: str) -> bool:
    """Whether the program `source` in `language` prints nothing but integers (Python only, for now)."""
    if language != "python" or len(source) > _MAX_SOURCE_CHARACTERS:
        return False
    known = _ANSWERS.get(source)
    if known is None:
        known = _ANSWERS.remember(source, _python_prints_only_integers(source))
    return known


def _python_prints_only_integers(source: str) -> bool:
    root = parse("python", source.encode(), None).root_node
    if root.has_error:
        return False
    prints = False
    for statement in root.named_children:
        if statement.type == "comment" or _imports_sys(statement):
            continue
        if not _prints_an_integer(statement):
            return False
        prints = True
    return prints


def _imports_sys(statement: Node) -> bool:
    names = statement.named_children
    return statement.type == "import_statement" and len(names) == 1 and _text(names[0]) == "sys"


def _prints_an_integer(statement: Node) -> bool:
    """`print(EXPRESSION)` with one integer expression and nothing else."""
    if statement.type != "expression_statement" or statement.named_child_count != 1:
        return False
    call = statement.named_children[0]
    function = call.child_by_field_name("function")
    arguments = call.child_by_field_name("arguments")
    if call.type != "call" or function is None or _text(function) != "print" or arguments is None:
        return False
    given = arguments.named_children
    return arguments.type == "argument_list" and len(given) == 1 and _integer(given[0])


def _integer(node: Node) -> bool:
    """Whether the expression is an integer by construction."""
    kind = node.type
    if kind == "integer":
        return True
    if kind == "attribute":
        return _text(node) in _INTEGER_ATTRIBUTES
    if kind == "subscript":
        value = node.child_by_field_name("value")
        index = node.child_by_field_name("subscript")
        return (
            value is not None
            and index is not None
            and _text(value) == "sys.version_info"
            and _text(index) in _INTEGER_VERSION_FIELDS
        )
    if kind == "parenthesized_expression":
        inner = node.named_children
        return len(inner) == 1 and _integer(inner[0])
    operator = node.child_by_field_name("operator")
    if operator is None or _text(operator) not in _INTEGER_OPERATORS:
        return False
    if kind == "unary_operator":
        argument = node.child_by_field_name("argument")
        return argument is not None and _integer(argument)
    if kind == "binary_operator":
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        return left is not None and right is not None and _integer(left) and _integer(right)
    return False


def _text(node: Node) -> str:
    text = node.text
    return text.decode(errors="replace") if text is not None else ""
