"""The syntax layer: bash source in, frozen nodes out.

`parse(source, budget=...)` is the entry point the engine uses (the driver
is `_parse`); the plain-command lane of the analysis reads a text of plain
words with `plain_words` and counts the steps `parse` would charge with the
step constants. The nodes are in `ast`; `Visitor` and `walk` traverse them
and `dump` renders them for tests and debugging.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._budget import Budget
from .._lazy import lazy_names
from ..errors import BudgetExceeded, SyntaxLayerError
from . import _ast as ast
from ._origin import VERBATIM, Origin
from ._parse import ParseResult, parse
from ._plain import plain_words
from ._session import CHARACTERS_PER_STEP, STEPS_PER_COMMAND_NODE, STEPS_PER_FRAGMENT, ParseTrouble
from ._traverse import Node, Visitor, children, walk

if TYPE_CHECKING:  # `__getattr__` loads it at run time: only tests and debugging render trees
    from ._dump import dump as dump

__all__ = [
    "CHARACTERS_PER_STEP",
    "STEPS_PER_COMMAND_NODE",
    "STEPS_PER_FRAGMENT",
    "VERBATIM",
    "Budget",
    "BudgetExceeded",
    "Node",
    "Origin",
    "ParseResult",
    "ParseTrouble",
    "SyntaxLayerError",
    "Visitor",
    "ast",
    "children",
    "dump",
    "parse",
    "plain_words",
    "walk",
]


__getattr__, __dir__ = lazy_names(__name__, {"dump": "._dump"}, globals())
