"""`audit-cmd`: judge shell commands from the command line, as bash would run them.

`main` only routes: the first argument picks the subcommand (`rules`,
`explain`, `hook`) or the audit itself, and each lives in its own module,
imported when it runs (so `run` can turn the garbage collector off before
the engine is imported). That keeps the start-up of the agent hooks and of
`--json` free of rich and of the display code; see `audit.benchmarks.startup`.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Sequence

from ._base import (
    EXIT_CLEAN,
    EXIT_ERROR,
    EXIT_FINDINGS,
    EXIT_INTERRUPTED,
    EXPLAIN,
    HOOK,
    PROGRAM,
    RULES,
    CommandLineError,
)
from ._streams import Streams, silence_stdout


def main(argv: Sequence[str] | None = None, *, streams: Streams | None = None) -> int:
    """Run `audit-cmd` with `argv` (default: the process's arguments); return the exit code."""
    streams = streams or Streams.system()
    arguments = list(sys.argv[1:] if argv is None else argv)
    subcommand = arguments[0] if arguments else None
    try:
        if subcommand == HOOK:
            from ._hook_command import hook

            return hook(arguments[1:], streams)
        if subcommand in (RULES, EXPLAIN):
            from ._catalogue_commands import explain, rules

            return (rules if subcommand == RULES else explain)(arguments[1:], streams)
        from ._audit import audit

        return audit(arguments, streams)
    except CommandLineError as error:
        streams.error(error.message, error.usage)
        return EXIT_ERROR
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        silence_stdout()
        return EXIT_ERROR


def run() -> int:
    """The `audit-cmd` process (and `python -m audit`): `main` with the cyclic garbage collector off.

    The engine makes almost no reference cycles (about one per three audits of the corpus), so in a
    process that audits and exits the collector's passes over the objects the imports create, and its
    last pass over everything at exit, free nothing: they were about a sixth of an agent hook's work
    beyond Python's own start-up (see docs/performance.md). Tests and embedders call `main`."""
    gc.disable()
    code = main()
    gc.freeze()  # nothing left to collect: exit without a last pass over every object
    return code


__all__ = ["EXIT_CLEAN", "EXIT_ERROR", "EXIT_FINDINGS", "PROGRAM", "Streams", "main", "run"]
