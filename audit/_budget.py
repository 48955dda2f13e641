"""What one audit may spend: work steps, the limit verdicts depend on, and a
CPU-time backstop.

Steps count work the parsers and the analysis do (characters pre-scanned,
tree-sitter's progress, nodes built, commands walked, words and characters
an expansion makes), so an input over the limit is over it on every machine
and under any load: the verdict is a function of the input and the policy.
The CPU-time backstop only catches work the steps would undercount; it is
generous, so near the step limit it never decides.

The backstop is CPU time of the auditing thread, less garbage collection.
Wall-clock time would make a verdict depend on how busy the machine is, and
a garbage-collection pause in a host process full of objects (30-60 ms with
LangChain loaded) would turn `ls` into an IN004 block.
"""

from __future__ import annotations

import contextlib
import gc
import threading
import time
from collections.abc import Generator, Hashable
from typing import Any

from .errors import BudgetExceeded

DEFAULT_MAX_STEPS = 25_000
"""The step limit of the default policy (`[limits] max_steps`).

Step costs are calibrated against CPU time on the adversarial inputs of
`python -m audit.benchmark` at about a microsecond of CPU per step at most on
the CI machine, so the limit stops any input in about half the CPU-time
backstop (`audit.benchmarks.step_limit` reports the slowest audit it allows);
the busiest everyday command of the benchmark takes 341."""

STEPS_PER_COMMAND = 40
"""Steps a walk of the analysis charges per simple command, plus what it charges per word,
assignment and redirect: resolving the command, walking its parts and running its rules."""

STEPS_PER_ARGUMENT = 4
STEPS_PER_REDIRECT = 8
"""A redirect's target is resolved and the redirect rules run on it."""
STEPS_PER_ASSIGNMENT = 24
"""An assignment's value is walked, normalised, checked for taint and bound."""


def command_steps(words: int, assignments: int = 0, redirects: int = 0) -> int:
    """What a walk of the analysis charges for one simple command."""
    return (
        STEPS_PER_COMMAND
        + STEPS_PER_ARGUMENT * words
        + STEPS_PER_ASSIGNMENT * assignments
        + STEPS_PER_REDIRECT * redirects
    )


_collection_seconds = 0.0
_collection_started = threading.local()
_timer_installed = False
_timer_lock = threading.Lock()


def _time_collections(phase: str, info: dict[str, Any]) -> None:
    """Time full collections only: their cost is the host's whole heap.

    Young-generation collections scale with what the audit itself allocates,
    so they stay in the budget.
    """
    global _collection_seconds
    if info.get("generation") != 2:
        return
    if phase == "start":
        _collection_started.at = time.perf_counter()
    else:
        started = getattr(_collection_started, "at", None)
        if started is not None:
            _collection_seconds += time.perf_counter() - started
            _collection_started.at = None


def _install_collection_timer() -> None:
    """Start timing collections on the first audit, not at import: importing the
    engine must not change the host's garbage collection."""
    global _timer_installed
    with _timer_lock:
        if not _timer_installed:
            gc.callbacks.append(_time_collections)
            _timer_installed = True


class Budget:
    """How much of one audit's budget is left: steps, and CPU seconds as a backstop."""

    __slots__ = (
        "_clock_at_steps",
        "_collections_at_start",
        "_cpu_at_start",
        "_excluded",
        "_shared_work",
        "max_steps",
        "seconds",
        "steps_left",
    )

    # Reading the clock costs about as much as a few steps; reading it once per
    # this many steps keeps the backstop's overshoot far below a millisecond.
    STEPS_PER_CLOCK_READ = 1024

    def __init__(self, seconds: float, max_steps: int = DEFAULT_MAX_STEPS) -> None:
        if not _timer_installed:
            _install_collection_timer()
        self.seconds = seconds
        self.max_steps = max_steps
        self.steps_left = max_steps
        self._clock_at_steps = max(max_steps - self.STEPS_PER_CLOCK_READ, 0)
        self._cpu_at_start = time.thread_time()
        self._collections_at_start = _collection_seconds
        self._excluded = 0.0
        self._shared_work: set[Hashable] | None = None

    def charge(self, steps: int, work: str) -> None:
        """Spend `steps` on `work` (named in the error); BudgetExceeded when the budget is spent."""
        left = self.steps_left - steps
        self.steps_left = left
        if left < self._clock_at_steps:
            self._check(work)

    def first_time(self, work: Hashable) -> bool:
        """Whether this audit meets `work` for the first time (and remembers it).

        Work whose result is kept between audits (the analysis of a snippet in
        another language) is charged once per audit whether it ran or its
        result was taken from the cache, so no verdict depends on what was
        audited before; two walks of one audit reading the same snippet pay once.
        """
        if self._shared_work is None:
            self._shared_work = set()
        elif work in self._shared_work:
            return False
        self._shared_work.add(work)
        return True

    def _check(self, work: str) -> None:
        if self.steps_left < 0:
            raise BudgetExceeded(f"{work} exceeded the budget of {self.max_steps:,} steps")
        # Never past zero: the step limit is exact, whatever the clock-reading interval.
        self._clock_at_steps = max(self.steps_left - self.STEPS_PER_CLOCK_READ, 0)
        if self.spent() > self.seconds:
            raise self.backstop_exceeded(work)

    def backstop_exceeded(self, work: str) -> BudgetExceeded:
        """The error for `work` that ran past the CPU-time backstop."""
        return BudgetExceeded(f"{work} exceeded the CPU-time backstop of {self.seconds * 1000:g} ms")

    def affords(self, steps: int) -> bool:
        """Whether `steps` more fit in the budget (for work that cannot be stopped once started)."""
        return self.steps_left >= steps

    def spent(self) -> float:
        """CPU seconds this audit has spent, less garbage collection and paused work."""
        collections = _collection_seconds - self._collections_at_start
        return time.thread_time() - self._cpu_at_start - collections - self._excluded

    @contextlib.contextmanager
    def paused(self) -> Generator[None, None, None]:
        """Work that is not this audit's (a one-time lazy import) is not counted."""
        started = time.thread_time()
        try:
            yield
        finally:
            self._excluded += time.thread_time() - started

    def exceeded(self) -> bool:
        """Whether the budget is spent (steps or backstop), without spending any."""
        return self.steps_left < 0 or self.spent() > self.seconds

    def remaining(self) -> float:
        """CPU seconds left before the backstop."""
        return max(self.seconds - self.spent(), 0.0)
