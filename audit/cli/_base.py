"""What every `audit-cmd` subcommand shares: the name, the exit codes, the error that stops a run, argparse."""

from __future__ import annotations

import argparse
from typing import NoReturn

PROGRAM = "audit-cmd"
# The subcommands; any other first argument is the command to audit.
RULES = "rules"
EXPLAIN = "explain"
HOOK = "hook"
DISTRIBUTION = "agent-shell-guard"

EXIT_CLEAN = 0
EXIT_FINDINGS = 1
EXIT_ERROR = 2
EXIT_INTERRUPTED = 130

STDIN = "-"


class CommandLineError(Exception):
    """Stops the run with exit code 2 and a message; `usage` is shown first for usage mistakes."""

    def __init__(self, message: str, usage: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.usage = usage


class Parser(argparse.ArgumentParser):
    """argparse, but its errors reach our stderr instead of exiting the process."""

    def error(self, message: str) -> NoReturn:
        if message.startswith("unrecognized arguments") and self.prog == PROGRAM:
            message += f"\n(give the command as one quoted argument: {PROGRAM} 'ls -la /tmp')"
        raise CommandLineError(message, self.format_usage())


def subcommand_parser(subcommand: str, description: str, epilog: str | None = None) -> Parser:
    """A parser for `audit-cmd SUBCOMMAND` with `-h/--help` as a plain flag (help is printed by the caller)."""
    parser = Parser(
        prog=f"{PROGRAM} {subcommand}",
        description=description,
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        add_help=False,
    )
    parser.add_argument("-h", "--help", action="store_true", help="show this help and exit")
    return parser
