"""What one analysis may spend, and where its positions are.

Shared by the tree-sitter analysers and the awk tokenizer: a `Run` counts
steps against its own limit and, inside an audit, against the audit's budget
(so a verdict near the limit is the same on every machine), and `CharOffsets` turns tree-sitter's byte
offsets into offsets in the Python string the spans are reported in.
"""

from __future__ import annotations

import bisect

from .._budget import Budget
from ..errors import BudgetExceeded

# One step here (a syntax node visited or valued, a token read) costs about
# twice the CPU time of one of the engine's own steps (measured on Python,
# JavaScript, Ruby, Perl and awk code of a few kilobytes: 2-4 µs against
# 1-2.5 µs), so it is charged as two.
AUDIT_STEPS_PER_STEP = 2


class OutOfBudget(Exception):
    """The analysis used up its steps or its time."""


class Run:
    """Limits shared by one analysis and the code nested in it, and the program's
    command-line arguments they all see (None when not known; each None when only known at run time)
    and the variables the command line sets before the program starts (`awk -v NAME=VALUE`)."""

    __slots__ = ("arguments", "budget", "max_depth", "steps_left", "variables")

    def __init__(
        self,
        budget: Budget | None,
        max_steps: int,
        max_depth: int,
        arguments: tuple[str | None, ...] | None = None,
        variables: tuple[tuple[str, str], ...] = (),
    ) -> None:
        self.budget = budget
        self.steps_left = max_steps
        self.max_depth = max_depth
        self.arguments = arguments
        self.variables = dict(variables)

    def step(self, count: int = 1) -> None:
        self.steps_left -= count
        if self.steps_left < 0:
            raise OutOfBudget
        if self.budget is not None:
            try:
                self.budget.charge(count * AUDIT_STEPS_PER_STEP, "the analysis of code in another language")
            except BudgetExceeded as exceeded:
                raise OutOfBudget from exceeded


class CharOffsets:
    """Maps tree-sitter byte offsets to offsets in the Python string."""

    def __init__(self, source: str) -> None:
        self._starts: list[int] | None = None
        if not source.isascii():
            starts: list[int] = []
            position = 0
            for char in source:
                starts.append(position)
                position += len(char.encode("utf-8", "surrogatepass"))
            starts.append(position)
            self._starts = starts

    def char(self, byte_offset: int) -> int:
        """The character holding `byte_offset` (the end offset for the end)."""
        if self._starts is None:
            return byte_offset
        return bisect.bisect_right(self._starts, byte_offset) - 1
