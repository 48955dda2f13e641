"""`audit-cmd`: audit one shell command from the command line."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence

from . import Decision, audit_command


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    as_json = "--json" in arguments
    commands = [argument for argument in arguments if argument != "--json"]
    if len(commands) != 1:
        print("usage: audit-cmd [--json] COMMAND", file=sys.stderr)
        return 2
    verdict = audit_command(commands[0])
    if as_json:
        print(json.dumps(verdict.to_dict(), indent=2))
    else:
        print(verdict.decision.value)
        for finding in verdict.findings:
            print(f"  {finding.rule_id} {finding.rule_name}: {finding.message} [{finding.evidence}]")
    return 1 if verdict.decision is Decision.BLOCK else 0
