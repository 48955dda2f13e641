"""The labelled regression corpus: commands with their exact expected verdicts.

The data lives next to this module as TOML files, one `[[case]]` per command:

    corpus/rules/<RULE ID>.toml   one file per core catalogue rule, cases both ways
    corpus/packs/<PACK>.toml      one file per threat pack (`git.toml`, `cloud.aws.toml`), its rules both ways
    corpus/contexts/*.toml        one file per execution context (eval, -c, stdin...)
    corpus/parsing/*.toml         syntax classes (continuations, heredocs, quoting...)
    corpus/benign/*.toml          everyday agent commands that must pass
    corpus/candidates/            unreviewed fuzz-campaign findings (never loaded)

`load_corpus()` validates every label before a single case runs: a malformed
case fails the whole load with a message naming the file, line and key.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from audit import (
    Decision,
    Policy,
    PolicyError,
    audit_command,
    default_policy,
    policy_from_mapping,
)
from audit.rules import REGISTRY

CORPUS_ROOT = Path(__file__).resolve().parent
SECTIONS = ("rules", "packs", "contexts", "parsing", "benign")
CANDIDATES = "candidates"

_REQUIRED_KEYS = frozenset({"command", "decision", "rules", "reason"})
_OPTIONAL_KEYS = frozenset({"provenance", "status", "policy"})
_STATUSES = frozenset({"todo"})
_FILE_NAME = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*\.toml$")
_CASE_HEADER = re.compile(r"^\[\[case\]\]\s*(#.*)?$", re.MULTILINE)


Fail = Callable[[str], None]


class CorpusError(ValueError):
    """The corpus itself is malformed; the message lists every problem found."""


@dataclass(frozen=True, slots=True)
class Case:
    """One labelled command. `decision` and `rules` are always the correct verdict;
    `todo` marks a known gap where the engine currently answers otherwise."""

    file: str
    line: int
    command: str
    decision: Decision
    rules: frozenset[str]
    reason: str
    provenance: str | None
    todo: bool
    policy_document: Mapping[str, Any] | None

    @property
    def id(self) -> str:
        return f"{self.file}:{self.line}"

    @property
    def section(self) -> str:
        return self.file.split("/", 1)[0]

    def policy(self) -> Policy:
        if self.policy_document is None:
            return default_policy()
        return policy_from_mapping(self.policy_document, self.id)


    def engine_labels(self) -> tuple[Decision, frozenset[str]]:
        """What the engine says today: its decision and set of rule ids."""
        verdict = audit_command(self.command, policy=self.policy())
        return verdict.decision, frozenset(verdict.rule_ids)


def load_corpus(root: Path = CORPUS_ROOT) -> tuple[Case, ...]:
    """Every case of every section, validated; raises CorpusError listing all problems."""
    problems: list[str] = []
    cases: list[Case] = []
    for path in _corpus_files(root, problems):
        cases.extend(_load_file(path, path.relative_to(root).as_posix(), problems))
    _check_duplicates(cases, problems)
    if problems:
        raise CorpusError("malformed corpus:\n  " + "\n  ".join(problems))
    return tuple(cases)


def _corpus_files(root: Path, problems: list[str]) -> list[Path]:
    files: list[Path] = []
    for entry in sorted(root.iterdir()):
        if entry.name.startswith(("_", ".")) or entry.name == CANDIDATES or entry.name == "README.md":
            continue
        if not entry.is_dir() or entry.name not in SECTIONS:
            problems.append(f"{entry.name}: not a corpus section (expected one of {', '.join(SECTIONS)})")
            continue
        for path in sorted(entry.iterdir()):
            relative = f"{entry.name}/{path.name}"
            if not path.is_file() or path.suffix != ".toml":
                problems.append(f"{relative}: only .toml files belong in a corpus section")
            elif entry.name == "rules" and REGISTRY.get(path.stem) is None:
                problems.append(f"{relative}: rule files are named after a rule id in the registry")
            elif entry.name == "packs" and path.stem not in REGISTRY.pack_by_name:
                problems.append(f"{relative}: pack files are named after a pack in the registry")
            elif entry.name not in ("rules", "packs") and not _FILE_NAME.match(path.name):
                problems.append(f"{relative}: file names are kebab-case")
            else:
                files.append(path)
    return files


def _load_file(path: Path, relative: str, problems: list[str]) -> list[Case]:
    text = path.read_text(encoding="utf-8")
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        problems.append(f"{relative}: invalid TOML: {error}")
        return []
    unknown = set(document) - {"case"}
    if unknown:
        problems.append(f"{relative}: unknown top-level keys {sorted(unknown)} (only [[case]] tables)")
    tables = document.get("case", [])
    if not isinstance(tables, list) or not tables:
        problems.append(f"{relative}: holds no [[case]] tables")
        return []
    lines = [text.count("\n", 0, match.start()) + 1 for match in _CASE_HEADER.finditer(text)]
    if len(lines) != len(tables):
        problems.append(f"{relative}: found {len(lines)} `[[case]]` header lines for {len(tables)} cases; keep headers on lines of their own")
        return []
    cases = []
    for line, table in zip(lines, tables):
        case = _case(table, relative, line, problems)
        if case is not None:
            cases.append(case)
    return cases


def _case(table: Mapping[str, Any], relative: str, line: int, problems: list[str]) -> Case | None:
    where = f"{relative}:{line}"
    before = len(problems)

    def fail(message: str) -> None:
        problems.append(f"{where}: {message}")

    missing = _REQUIRED_KEYS - set(table)
    unknown = set(table) - _REQUIRED_KEYS - _OPTIONAL_KEYS
    if missing:
        fail(f"missing keys {sorted(missing)}")
    if unknown:
        fail(f"unknown keys {sorted(unknown)} (allowed: {sorted(_REQUIRED_KEYS | _OPTIONAL_KEYS)})")
    if missing:
        return None
    command, decision_text, rules, reason = table["command"], table["decision"], table["rules"], table["reason"]
    if not isinstance(command, str):
        fail("command must be a string")
    decision = _decision(decision_text, fail)
    rule_ids = _rule_ids(rules, fail)
    for key in ("reason", "provenance"):
        value = table.get(key)
        if key in table and (not isinstance(value, str) or not value.strip() or "\n" in value):
            fail(f"{key} must be one non-empty line")
    status = table.get("status")
    if "status" in table and status not in _STATUSES:
        fail(f"status {status!r} is not one of {sorted(_STATUSES)}")
    policy_document = table.get("policy")
    policy = _policy(policy_document, where, fail)
    if decision is not None and rule_ids is not None and policy is not None:
        _check_decision_matches_rules(decision, rule_ids, policy, fail)
    if len(problems) > before:
        return None
    return Case(
        file=relative,
        line=line,
        command=command,
        decision=decision,  # type: ignore[arg-type]
        rules=rule_ids,  # type: ignore[arg-type]
        reason=reason,
        provenance=table.get("provenance"),
        todo=status == "todo",
        policy_document=policy_document,
    )


def _decision(value: Any, fail: Fail) -> Decision | None:
    try:
        return Decision(value)
    except ValueError:
        fail(f"decision {value!r} is not one of {[decision.value for decision in Decision]}")
        return None


def _rule_ids(value: Any, fail: Fail) -> frozenset[str] | None:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        fail("rules must be a list of rule id strings")
        return None
    if len(set(value)) != len(value):
        fail(f"rules lists an id twice: {value}")
    retired = {entry.id for entry in REGISTRY.retired}
    unknown = [item for item in value if REGISTRY.get(item) is None]
    for item in unknown:
        fail(f"unknown rule id {item!r}" + (" (retired)" if item in retired else ""))
    return None if unknown else frozenset(value)


def _policy(document: Any, where: str, fail: Fail) -> Policy | None:
    if document is None:
        return default_policy()
    if not isinstance(document, dict):
        fail("policy must be a table (a policy document)")
        return None
    try:
        return policy_from_mapping(document, where)
    except PolicyError as error:
        fail(f"invalid policy: {error}")
        return None


def _check_decision_matches_rules(decision: Decision, rule_ids: frozenset[str], policy: Policy, fail: Fail) -> None:
    """The engine's decision is the strictest finding's; a label must agree with itself."""
    strictest = Decision.PASS
    for rule_id in rule_ids:
        declared = REGISTRY.get(rule_id)
        assert declared is not None
        severity = policy.severity_of(rule_id, declared.severity)
        if severity is None:
            fail(f"{rule_id} is turned off by the case's policy and cannot be expected")
            return
        strictest = max(strictest, severity.decision)
    if strictest is not decision:
        fail(f"decision {decision.value!r} disagrees with the rules {sorted(rule_ids)} (their strictest is {strictest.value!r})")


def _check_duplicates(cases: list[Case], problems: list[str]) -> None:
    seen: dict[tuple[str, str], str] = {}
    for case in cases:
        key = (case.command, json.dumps(case.policy_document, sort_keys=True))
        if key in seen:
            problems.append(f"{case.id}: duplicate command, already at {seen[key]}")
        else:
            seen[key] = case.id
