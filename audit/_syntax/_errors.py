"""Errors and parse troubles of the syntax layer."""

from __future__ import annotations

from dataclasses import dataclass

from .._model import Span


class SyntaxLayerError(Exception):
    """Base class for errors raised by the syntax layer."""


class BudgetExceeded(SyntaxLayerError):
    """Parsing did not finish within the analysis time budget."""


@dataclass(frozen=True, slots=True)
class ParseTrouble:
    """Something a parser could not read, or where parsers disagreed."""

    parser: str
    message: str
    span: Span
