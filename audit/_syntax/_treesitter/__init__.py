"""tree-sitter-bash adapter: the primary parser, converted to our frozen nodes.

tree-sitter objects never leave this package. The builder is split by what it
reads: `_words` (quoting, expansions, substitutions; the shared node helpers),
`_elements` (assignments and redirects) and `_statements` (commands and
compound statements, the whole builder); `_parser` runs tree-sitter itself, and
`_kinds` gives node kinds as the grammar's ids, which the builder tests.
Known blind spots of the grammar are compensated there or in the pre-pass:

* backquoted substitutions are re-parsed from their unescaped text, because
  tree-sitter keeps escaped inner backquotes as literal words;
* `$"..."` comes out as a bare `$` next to a string, and adjacent nodes with no
  blank between them (one bash word) are sometimes split: both are merged;
* a newline it reads as a blank after a long pipeline (`_line_breaks`) splits
  the statement at that line;
* ERROR regions are converted best-effort (their statements and words still
  reach the rules) and reported as parse troubles.
"""

from __future__ import annotations

from tree_sitter import Node

from .. import _ast as ast
from .._plain import plain_script
from .._session import ParseSession, PreparedText
from ._kinds import ERROR
from ._parser import CANCELLABLE_FROM_BYTES, run_parser
from ._statements import StatementBuilder

__all__ = ["CANCELLABLE_FROM_BYTES", "parse_tree_sitter", "tree_sitter_fragment"]


def parse_tree_sitter(ready: PreparedText, session: ParseSession) -> tuple[ast.Script, bool]:
    """Parse the prepared text; return the script and whether tree-sitter saw errors it could not repair.
    A text of plain words takes the fast path, with the same tree and no parser."""
    plain = plain_script(ready, session)
    if plain is not None:
        return plain, False
    data = ready.text.encode("utf-8", "surrogatepass")
    root = run_parser(data, session.budget).root_node
    builder = StatementBuilder(ready, data, session)
    script = builder.script(root)
    return script, root.has_error and _has_unrepaired_error(root, builder.repaired_errors)


def tree_sitter_fragment(session: ParseSession, ready: PreparedText) -> ast.Script:
    """A nested fragment of code (the session's fragment parser): its errors are not judged separately."""
    return parse_tree_sitter(ready, session)[0]


def _has_unrepaired_error(root: Node, repaired_errors: set[int]) -> bool:
    """Whether the tree has an error the builder did not read correctly itself."""
    stack = [root]
    while stack:
        node = stack.pop()
        if node.id in repaired_errors:
            continue
        if node.kind_id in ERROR or node.is_missing:
            return True
        erroneous = [child for child in node.children if child.has_error or child.is_missing]
        if not erroneous:
            return True  # the error sits in a token py-tree-sitter does not list (a MISSING number)
        stack.extend(erroneous)
    return False
