"""`audit-cmd rules` and `audit-cmd explain RULE_ID`: the rule catalogue, as text or JSON."""

from __future__ import annotations

import json
from collections.abc import Sequence

from .._catalogue import RuleCatalogue, RuleExplanation, lookup_rule
from .._escape import plain_one_line
from ..rules import REGISTRY
from ._audit import policy_from_file
from ._base import EXIT_CLEAN, EXPLAIN, PROGRAM, RULES, CommandLineError, Parser, subcommand_parser
from ._streams import Streams


def _catalogue_parser(subcommand: str, description: str) -> Parser:
    parser = subcommand_parser(subcommand, description)
    parser.add_argument("--json", action="store_true", help="print the same information as JSON")
    return parser


def rules(arguments: Sequence[str], streams: Streams) -> int:
    """`audit-cmd rules [--json] [--policy FILE]`: every rule with its id, name, severity and
    summary, grouped by pack, with which packs the policy turns on."""
    parser = _catalogue_parser(
        RULES, "List every rule: id, name, severity and summary, grouped by pack, with which packs are on."
    )
    parser.add_argument("--policy", metavar="FILE", help="show which packs this policy file turns on")
    options = parser.parse_args(arguments)
    if options.help:
        streams.write(parser.format_help())
        return EXIT_CLEAN
    catalogue = RuleCatalogue(REGISTRY, policy_from_file(options.policy))
    if options.json:
        streams.write(json.dumps(catalogue.to_dict(), indent=2) + "\n")
    else:
        streams.console().print(catalogue)
    return EXIT_CLEAN


def explain(arguments: Sequence[str], streams: Streams) -> int:
    """`audit-cmd explain RULE_ID [--json]`: one rule in full; a retired or unknown id is an error."""
    parser = _catalogue_parser(EXPLAIN, "Show one rule in full: summary, rationale, safer alternative and examples.")
    parser.add_argument("rule", nargs="?", metavar="RULE_ID", help="a rule id (EX001) or name (pipe-into-interpreter)")
    options = parser.parse_args(arguments)
    if options.help:
        streams.write(parser.format_help())
        return EXIT_CLEAN
    if options.rule is None:
        raise CommandLineError(
            f"{EXPLAIN} needs a RULE_ID (`{PROGRAM} {RULES}` lists them; to audit the command `{EXPLAIN}`, run `{PROGRAM} -- {EXPLAIN}`)",
            parser.format_usage(),
        )
    lookup = lookup_rule(REGISTRY, options.rule)
    if lookup.retired is not None:
        retired = lookup.retired
        raise CommandLineError(f"{retired.id} ({retired.name}) is retired and no longer checked: {retired.reason}")
    if lookup.rule is None:
        hint = f"did you mean {', '.join(lookup.suggestions)}? " if lookup.suggestions else ""
        raise CommandLineError(
            f"unknown rule {plain_one_line(options.rule)!r}; {hint}`{PROGRAM} {RULES}` lists every rule"
        )
    explanation = RuleExplanation(lookup.rule)
    if options.json:
        streams.write(json.dumps(explanation.to_dict(), indent=2) + "\n")
    else:
        streams.console().print(explanation)
    return EXIT_CLEAN
