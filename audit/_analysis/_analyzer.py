"""The entry point of the analysis: one command string (and the code nested in
it) walked for the rules."""

from __future__ import annotations

from .._budget import Budget
from .._model import CommandRecord
from .._syntax import ast
from .._tables import Tables
from ._risks import RiskAnswers
from ._secrets import SecretFlows
from ._state import TOP, Frame, ParseCode, RunsLater, WalkConfig, WalkState, never_runs_later
from ._subjects import Sink
from ._variables import Env
from ._walker import Walker


class Analyzer:
    """Walks one command string (and the code nested in it) for the rules."""

    def __init__(
        self,
        tables: Tables,
        max_depth: int,
        budget: Budget,
        sink: Sink,
        parse_code: ParseCode,
        runs_later: RunsLater = never_runs_later,
    ) -> None:
        self._budget = budget
        self._state = WalkState(sink)
        secrets = SecretFlows(tables, budget)
        config = WalkConfig(tables, max_depth, budget, parse_code, RiskAnswers(), secrets, runs_later)
        self._walker = Walker(config, self._state)

    @property
    def records(self) -> list[CommandRecord]:
        """Every simple command found, in walk order (for display)."""
        return self._state.records

    def run(self, script: ast.Script) -> None:
        self._walker.visit_script(script, Frame(TOP, 0, Env(script, self._budget), None, False, False))
