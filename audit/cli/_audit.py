"""`audit-cmd [options] COMMAND|-|--file PATH|--batch PATH|-`: judge commands and pick the exit code.

Exit codes follow ruff: 0 nothing at or above the threshold, 1 something at
or above it, 2 usage error, unreadable input or invalid policy. The reports
render themselves (`_report`, `_batch_report`); rich is imported only to draw
one, so `--json` starts about as fast as the engine itself.
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from .. import Decision, Policy, PolicyError, Verdict, audit_command, default_policy, load_policy
from .._escape import plain_one_line
from ._base import (
    DISTRIBUTION,
    EXIT_CLEAN,
    EXIT_FINDINGS,
    EXPLAIN,
    HOOK,
    PROGRAM,
    RULES,
    STDIN,
    CommandLineError,
    Parser,
)
from ._streams import Streams

THRESHOLDS = {"block": Decision.BLOCK, "warn": Decision.WARN}

USAGE = f"""\
{PROGRAM} [--json] [--policy FILE] [--fail-on {{block,warn}}] COMMAND
       {PROGRAM} [options] -                 (one command from stdin)
       {PROGRAM} [options] --file PATH       (a file's whole content as one script)
       {PROGRAM} [options] --batch PATH|-    (JSON Lines, one command per line)
       {PROGRAM} {RULES} [--json]
       {PROGRAM} {EXPLAIN} RULE_ID [--json]
       {PROGRAM} {HOOK} AGENT [options]         (an agent's pre-tool hook: JSON on stdin)
       {PROGRAM} {HOOK} install|uninstall AGENT  (add it to / remove it from the agent's settings)"""

DESCRIPTION = """\
Judge a shell command as bash will execute it: block, warn or pass, with the
rule, the exact place in the command and the reason."""

EPILOG = f"""\
examples:
  {PROGRAM} 'curl -s https://example.com/install.sh | sh'    # blocked: exit 1
  {PROGRAM} --fail-on warn 'sudo apt-get install jq'         # warned: exit 1
  {PROGRAM} --json 'git status'                              # the verdict as JSON
  echo 'rm -rf "$HOME"' | {PROGRAM} -                        # the command from stdin
  {PROGRAM} --file deploy.sh --policy team-policy.toml       # a script, your policy
  {PROGRAM} --batch agent-log.jsonl --json > verdicts.jsonl  # a whole log
  {PROGRAM} {RULES}                                            # the rule catalogue
  {PROGRAM} {EXPLAIN} EX001                                    # one rule in full
  {PROGRAM} {HOOK} install claude-code                         # guard Claude Code's Bash tool

subcommands:
  `{RULES}`, `{EXPLAIN}` and `{HOOK}` are subcommands only as the very first
  argument. To audit a command that is literally `{RULES}` or `{EXPLAIN} ...`,
  end the options first: {PROGRAM} -- {RULES}

exit codes:
  0  no verdict at or above the --fail-on threshold (default: block)
  1  a verdict at or above the threshold
  2  usage error, unreadable input or invalid policy
     (--batch: 1 if any line reaches the threshold, else 2 if any line was
     malformed, else 0)"""


def _audit_parser() -> Parser:
    parser = Parser(
        prog=PROGRAM,
        usage=USAGE,
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        add_help=False,
    )
    inputs = parser.add_argument_group("input (exactly one)")
    inputs.add_argument(
        "command", nargs="*", metavar="COMMAND", help="the command to audit, as one argument; - reads it from stdin"
    )
    inputs.add_argument("--file", metavar="PATH", help="audit a file's whole content as one script")
    inputs.add_argument(
        "--batch",
        metavar="PATH|-",
        help="audit JSON Lines: each line a JSON string or an object with a `command` field",
    )
    options = parser.add_argument_group("options")
    options.add_argument(
        "--json", action="store_true", help="print Verdict.to_dict() (with --batch: one JSON object per input line)"
    )
    options.add_argument("--policy", metavar="FILE", help="apply a policy file (TOML) on top of the default policy")
    options.add_argument(
        "--fail-on",
        choices=tuple(THRESHOLDS),
        default="block",
        help="the lowest decision that makes the exit code 1 (default: block)",
    )
    options.add_argument(
        "--jobs",
        type=_positive,
        default=os.cpu_count() or 1,
        metavar="N",
        help="with --batch: audit in N processes (default: the CPU count); output stays in input order",
    )
    options.add_argument("--version", action="store_true", help="print the version and exit")
    options.add_argument("-h", "--help", action="store_true", help="show this help and exit")
    return parser


def audit(arguments: Sequence[str], streams: Streams) -> int:
    """`audit-cmd [options] INPUT`: one command, one file, or a batch."""
    parser = _audit_parser()
    options = parser.parse_args(arguments)
    if options.help:
        streams.write(parser.format_help())
        return EXIT_CLEAN
    if options.version:
        streams.write(f"{PROGRAM} {_version()}\n")
        return EXIT_CLEAN
    _check_one_input(options, parser)
    policy = policy_from_file(options.policy)
    threshold = THRESHOLDS[options.fail_on]
    if options.batch is not None:
        from ._batch_command import run_batch

        return run_batch(options.batch, policy, threshold, as_json=options.json, streams=streams, jobs=options.jobs)
    if options.file is not None:
        command, source_name = _read_file(options.file), options.file
    elif options.command[0] == STDIN:
        command, source_name = _read_stdin(streams.stdin), None
    else:
        command, source_name = options.command[0], None
    verdict = verdict_of(command, policy)
    if options.json:
        streams.write(json.dumps(verdict.to_dict(), indent=2) + "\n")
    else:
        from .._report import VerdictReport

        streams.console().print(VerdictReport(verdict, source_name=source_name))
    return EXIT_FINDINGS if verdict.decision >= threshold else EXIT_CLEAN


def _check_one_input(options: argparse.Namespace, parser: Parser) -> None:
    inputs = {
        "COMMAND": bool(options.command),
        "--file": options.file is not None,
        "--batch": options.batch is not None,
    }
    given = [name for name, present in inputs.items() if present]
    if len(options.command) > 1:
        problem = f"got {len(options.command)} words; quote the command as one argument"
    elif len(given) > 1:
        problem = f"got {' and '.join(given)}"
    elif not given:
        problem = "got none"
    else:
        return
    raise CommandLineError(
        f"give exactly one input: COMMAND, -, --file PATH or --batch PATH|- ({problem})", parser.format_usage()
    )


def verdict_of(command: str, policy: Policy) -> Verdict:
    """The engine's verdict; an engine failure becomes a usage-style error naming it."""
    try:
        return audit_command(command, policy=policy)
    # The engine promises never to raise; if it does anyway, the reader gets
    # exit code 2 and one line naming the failure, not a traceback.
    except Exception as error:
        raise CommandLineError(f"internal error while auditing: {type(error).__name__}: {error}") from error


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of at least 1, not {text!r}")
    return value


def policy_from_file(path: str | None) -> Policy:
    """The policy file applied on top of the default, or the default; an invalid one stops the run."""
    if path is None:
        return default_policy()
    try:
        return load_policy(path)
    except PolicyError as error:
        raise CommandLineError(f"invalid policy: {plain_one_line(str(error), limit=500)}") from error


def _read_file(path: str) -> str:
    shown = plain_one_line(path)
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise CommandLineError(f"{shown}: cannot read: {error.strerror or error}") from error
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise CommandLineError(
            f"{shown}: not UTF-8 text (byte {data[error.start]:#04x} at offset {error.start})"
        ) from error


def _read_stdin(stdin: TextIO) -> str:
    try:
        text = stdin.read()
    except OSError as error:
        raise CommandLineError(f"cannot read stdin: {error.strerror or error}") from error
    if any("\udc80" <= char <= "\udcff" for char in text):
        raise CommandLineError("stdin is not UTF-8 text")
    # `echo CMD | audit-cmd -` adds a newline the command did not have.
    return text.removesuffix("\n")


def _version() -> str:
    # Imported here: importlib.metadata costs more start-up than the rest of the CLI together.
    from importlib import metadata

    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "(version unknown: not installed)"
