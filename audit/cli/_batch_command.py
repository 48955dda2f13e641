"""`audit-cmd --batch PATH|-`: JSON Lines in, one result per line or a summary out, with a progress bar.

With `--jobs N` (default: the CPU count) N worker processes audit the lines,
read ahead in chunks; results come back, and are printed, in input order.
"""

from __future__ import annotations

import itertools
import json
import multiprocessing
import os
from collections.abc import Callable, Generator, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

from .. import Decision, Policy, Verdict
from .._batch import BatchError, BatchItem, BatchResult, BatchSummary, read_batch
from .._escape import plain_one_line
from ._audit import verdict_of
from ._base import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS, STDIN, CommandLineError
from ._streams import Streams

# Lines a worker audits per round trip; each round reads this many per worker ahead.
_LINES_PER_TASK = 64


def run_batch(
    source: str, policy: Policy, threshold: Decision, *, as_json: bool, streams: Streams, jobs: int = 1
) -> int:
    """Audit every line; exit 1 if any reaches the threshold, else 2 if any was malformed, else 0."""
    reached_threshold = False
    malformed = False
    summary = BatchSummary("stdin" if source == STDIN else source)
    show_progress = not as_json and streams.stderr_is_terminal()
    with (
        _batch_lines(source, streams.stdin) as (lines, total_bytes),
        _progress(streams, show_progress, total_bytes) as advance,
    ):
        for outcome in _outcomes(read_batch(_counted(lines, advance)), policy, jobs):
            if isinstance(outcome, BatchError):
                malformed = True
            elif outcome.verdict.decision >= threshold:
                reached_threshold = True
            if as_json:
                streams.write(json.dumps(outcome.to_dict()) + "\n")
            else:
                summary.add(outcome)
    if not as_json:
        from .._batch_report import BatchSummaryReport

        streams.console().print(BatchSummaryReport(summary))
    if reached_threshold:
        return EXIT_FINDINGS
    return EXIT_ERROR if malformed else EXIT_CLEAN


@contextmanager
def _batch_lines(source: str, stdin: TextIO) -> Generator[tuple[Iterable[str], int | None]]:
    """The batch input's lines and, for a regular file, its size for the progress bar."""
    if source == STDIN:
        yield stdin, None
        return
    try:
        handle = open(source, encoding="utf-8", errors="surrogateescape", newline="")  # noqa: SIM115 (closed by the with below, after the error is translated)
        size = os.fstat(handle.fileno()).st_size if Path(source).is_file() else None
    except OSError as error:
        raise CommandLineError(f"{plain_one_line(source)}: cannot read: {error.strerror or error}") from error
    with handle:
        yield handle, size


def _outcomes(
    entries: Iterable[BatchItem | BatchError], policy: Policy, jobs: int
) -> Iterator[BatchResult | BatchError]:
    """The outcome of every entry, in input order; audited by `jobs` worker processes when
    there are several and the system can fork (workers inherit the policy, which does not pickle)."""
    if jobs <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        for entry in entries:
            yield entry if isinstance(entry, BatchError) else _outcome(entry, _answer(entry.command, policy))
        return
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(jobs, mp_context=context, initializer=_use_policy, initargs=(policy,)) as pool:
        iterator = iter(entries)
        while chunk := list(itertools.islice(iterator, _LINES_PER_TASK * jobs)):
            commands = [entry.command for entry in chunk if isinstance(entry, BatchItem)]
            answers = iter(pool.map(_answer_in_worker, commands, chunksize=_LINES_PER_TASK))
            for entry in chunk:
                yield entry if isinstance(entry, BatchError) else _outcome(entry, next(answers))


def _answer(command: str, policy: Policy) -> Verdict | str:
    """The verdict, or the message of an engine failure: one command that crashes the
    engine must not cost the rest of the batch its verdicts."""
    try:
        return verdict_of(command, policy)
    except CommandLineError as error:
        return error.message


def _outcome(entry: BatchItem, answer: Verdict | str) -> BatchResult | BatchError:
    """A failure is reported like a malformed line."""
    return BatchResult(entry, answer) if isinstance(answer, Verdict) else BatchError(entry.line, answer, entry.fields)


_worker_policy: Policy | None = None


def _use_policy(policy: Policy) -> None:
    global _worker_policy
    _worker_policy = policy


def _answer_in_worker(command: str) -> Verdict | str:
    assert _worker_policy is not None
    return _answer(command, _worker_policy)


def _counted(lines: Iterable[str], advance: Callable[[int], None]) -> Iterator[str]:
    """The lines, reporting each one's size to the progress bar; a failed read ends the run."""
    iterator = iter(lines)
    while True:
        try:
            line = next(iterator)
        except StopIteration:
            return
        except OSError as error:
            raise CommandLineError(f"cannot read the batch input: {error.strerror or error}") from error
        advance(len(line.encode("utf-8", "surrogateescape")))
        yield line


@contextmanager
def _progress(streams: Streams, enabled: bool, total_bytes: int | None) -> Generator[Callable[[int], None]]:
    """A transient progress bar on stderr, advanced by bytes read; a no-op when stderr is not a terminal."""
    if not enabled:
        yield lambda _read: None
        return
    from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeElapsedColumn

    columns = (
        TextColumn("auditing"),
        BarColumn(),
        TaskProgressColumn(),
        TextColumn("{task.fields[lines]:,} lines"),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=streams.console(stderr=True), transient=True) as progress:
        task = progress.add_task("batch", total=total_bytes, lines=0)
        lines_read = 0

        def advance(read: int) -> None:
            nonlocal lines_read
            lines_read += 1
            progress.update(task, advance=read, lines=lines_read)

        yield advance
