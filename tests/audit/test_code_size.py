"""Issue 12's size limits on the engine's code: no module in `audit/` over 500
lines, no function over 60 unless a `# long:` comment on its def line or the
line above it says why (a table literal is long as data, not as logic)."""

from __future__ import annotations

import ast
from pathlib import Path

import audit

AUDIT = Path(audit.__file__).resolve().parent
MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 60
LONG_MARKER = "# long:"


def _modules() -> list[Path]:
    return sorted(AUDIT.rglob("*.py"))


def _name(path: Path) -> str:
    return path.relative_to(AUDIT.parent).as_posix()


def long_modules(limit: int) -> list[str]:
    """Each module over `limit` lines, with its length."""
    found: list[str] = []
    for path in _modules():
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > limit:
            found.append(f"{_name(path)} ({lines} lines)")
    return found


def _says_why(line: str) -> bool:
    """A `# long: REASON` comment, with a reason."""
    _, marker, reason = line.partition(LONG_MARKER)
    return bool(marker) and bool(reason.strip())


def long_functions(source: str, module: str, limit: int) -> list[str]:
    """Each function (or method, or nested function) of the source over `limit` lines
    that no `# long:` comment explains, with its length."""
    lines = source.splitlines()
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) or node.end_lineno is None:
            continue
        length = node.end_lineno - node.lineno + 1
        if length <= limit:
            continue
        first = min([node.lineno, *(decorator.lineno for decorator in node.decorator_list)])
        above = lines[first - 2] if first >= 2 else ""
        if _says_why(lines[node.lineno - 1]) or _says_why(above):
            continue
        found.append(f"{module}:{node.lineno} {node.name} ({length} lines)")
    return found


def long_functions_in_audit(limit: int) -> list[str]:
    found: list[str] = []
    for path in _modules():
        found.extend(long_functions(path.read_text(encoding="utf-8"), _name(path), limit))
    return found


def test_no_module_in_audit_is_over_500_lines() -> None:
    offenders = long_modules(MAX_MODULE_LINES)
    assert not offenders, f"modules over {MAX_MODULE_LINES} lines (split them by responsibility): " + ", ".join(
        offenders
    )


def test_no_function_in_audit_is_over_60_lines_unless_a_long_comment_says_why() -> None:
    offenders = long_functions_in_audit(MAX_FUNCTION_LINES)
    assert not offenders, (
        f"functions over {MAX_FUNCTION_LINES} lines (split them into named pieces, or say why on the line "
        f"above the def with `{LONG_MARKER} REASON`): " + ", ".join(offenders)
    )


def test_the_limits_name_offenders_when_lowered() -> None:
    # The checks read real modules: lowered limits must find the engine's longest module and functions.
    assert any(offender.startswith("audit/_analysis/_walker.py ") for offender in long_modules(300))
    assert any(" visit_simple_command (" in offender for offender in long_functions_in_audit(20))


_FIVE_LINES = "def table():\n    return {\n        'a': 1,\n        'b': 2,\n    }\n"


def test_a_long_function_is_named_with_its_length() -> None:
    assert long_functions(_FIVE_LINES, "m.py", 4) == ["m.py:1 table (5 lines)"]
    assert long_functions(_FIVE_LINES, "m.py", 5) == []


def test_a_long_comment_with_a_reason_on_the_def_line_or_above_it_excuses_a_function() -> None:
    above = "# long: one table literal\n" + _FIVE_LINES
    on_the_line = _FIVE_LINES.replace("def table():", "def table():  # long: one table literal")
    decorated = "# long: one table literal\n@staticmethod\n" + _FIVE_LINES
    assert long_functions(above, "m.py", 4) == []
    assert long_functions(on_the_line, "m.py", 4) == []
    assert long_functions(decorated, "m.py", 4) == []


def test_a_long_comment_without_a_reason_or_elsewhere_excuses_nothing() -> None:
    no_reason = "# long:\n" + _FIVE_LINES
    in_the_body = _FIVE_LINES.replace("    return {", "    # long: one table literal\n    return {")
    two_lines_above = "# long: one table literal\n\n" + _FIVE_LINES
    assert long_functions(no_reason, "m.py", 4) == ["m.py:2 table (5 lines)"]
    assert long_functions(in_the_body, "m.py", 4) == ["m.py:1 table (6 lines)"]
    assert long_functions(two_lines_above, "m.py", 4) == ["m.py:3 table (5 lines)"]
