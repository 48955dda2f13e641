"""The regression corpus: every labelled case through the real engine.

Each case must give exactly its decision and its set of rule ids. A case
marked `status = "todo"` is a known gap: it is expected to fail (strict
xfail), so a gap that closes fails the run until the label is promoted. The
gap list is printed at the end of the run (see conftest.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from audit import Decision
from audit.rules import ENGINE_FAILURE, REGISTRY, Rule
from corpus import CORPUS_ROOT, Case, CorpusError, load_corpus

# Each execution context and each syntax class the engine page describes (docs/engine.md,
# "How a command is judged") has a file; each must hold cases both ways.
CONTEXT_FILES = (
    "eval",
    "source",
    "code-string-shell",
    "code-string-python",
    "code-string-perl",
    "code-string-ruby",
    "code-string-node",
    "code-string-php",
    "code-string-other",
    "runners",
    "find-exec",
    "stdin-pipe",
    "heredoc",
    "herestring",
    "script-substitution",
    "taint",
    "prompt-expansion",
    "stdin-code",
    "schedulers",
    "remote",
    "written-then-run",
    "database-clients",
    "exfiltration-sources",
    "exfiltration-flows",
    "exfiltration-sinks",
)
PARSING_FILES = (
    "line-continuations",
    "heredoc-shapes",
    "quoting",
    "ansi-c",
    "paths",
    "wrappers",
    "options",
    "positions",
    "substitutions",
    "variables",
    "command-globs",
    "gnu-abbreviations",
    "arrays",
)
MINIMUM_CASES = 800


def _load() -> tuple[tuple[Case, ...], CorpusError | None]:
    try:
        return load_corpus(), None
    except CorpusError as error:
        return (), error


CASES, LOAD_ERROR = _load()


def _param(case: Case) -> pytest.param:  # type: ignore[valid-type]
    marks = [pytest.mark.xfail(strict=True, reason=f"known gap: {case.reason}")] if case.todo else []
    return pytest.param(case, id=case.id, marks=marks)


def test_every_label_in_the_corpus_is_well_formed() -> None:
    if LOAD_ERROR is not None:
        pytest.fail(str(LOAD_ERROR), pytrace=False)


@pytest.fixture
def cases() -> tuple[Case, ...]:
    """The loaded corpus; the invariants say nothing useful about a corpus that failed to load."""
    if LOAD_ERROR is not None:
        pytest.skip("the corpus did not load: see test_every_label_in_the_corpus_is_well_formed")
    return CASES


@pytest.mark.parametrize("case", [_param(case) for case in CASES])
def test_case(case: Case) -> None:
    decision, rule_ids = case.engine_labels()
    expected = (case.decision, case.rules)
    assert (decision, rule_ids) == expected, (
        f"{case.id}: {case.reason}\n  command: {case.command!r}\n"
        f"  expected {case.decision.value} {sorted(case.rules)}, got {decision.value} {sorted(rule_ids)}"
    )


def test_the_corpus_has_at_least_800_cases_and_a_third_benign(cases: tuple[Case, ...]) -> None:
    passing = [case for case in cases if case.decision is Decision.PASS]
    assert len(cases) >= MINIMUM_CASES
    assert len(passing) * 3 >= len(cases), f"{len(passing)} of {len(cases)} cases pass"


def _own_file(declared: Rule) -> str:
    """A core rule's cases are in rules/<ID>.toml, a pack rule's in packs/<PACK>.toml."""
    return f"packs/{declared.pack}.toml" if declared.pack is not None else f"rules/{declared.id}.toml"


@pytest.mark.parametrize("declared", list(REGISTRY), ids=lambda declared: declared.id)
def test_every_rule_has_its_own_file_with_cases_both_ways(cases: tuple[Case, ...], declared: Rule) -> None:
    relative = _own_file(declared)
    own = [case for case in cases if case.file == relative and not case.todo]
    # No honest command makes a correct engine fail: test_engine_failure.py injects the fault.
    expected = any(declared.id in case.rules for case in own) or declared is ENGINE_FAILURE
    assert expected, f"{relative}: no case expects {declared.id}"
    assert any(declared.id not in case.rules and _neighbour_of(declared, case) for case in own), (
        f"{relative}: no case where {declared.id} stays quiet on a command of its own programs"
    )


def _neighbour_of(declared: Rule, case: Case) -> bool:
    """A case that runs one of the rule's programs (a core rule's quiet cases may be anything in its file)."""
    if declared.pack is None or declared.commands is None:
        return True
    names = declared.commands(case.policy().tables)
    return any(name in case.command for name in names)


@pytest.mark.parametrize(("section", "name"), [("contexts", name) for name in CONTEXT_FILES] + [("parsing", name) for name in PARSING_FILES])
def test_every_context_and_syntax_class_has_cases_both_ways(cases: tuple[Case, ...], section: str, name: str) -> None:
    relative = f"{section}/{name}.toml"
    assert (CORPUS_ROOT / relative).is_file(), f"{relative} is missing"
    own = [case for case in cases if case.file == relative and not case.todo]
    assert any(case.decision is not Decision.PASS for case in own), f"{relative}: no case with a finding"
    assert any(case.decision is Decision.PASS for case in own), f"{relative}: no passing case"


def test_every_pack_has_a_file_and_its_cases_run_with_the_pack_on(cases: tuple[Case, ...]) -> None:
    for pack in REGISTRY.packs:
        assert (CORPUS_ROOT / "packs" / f"{pack.name}.toml").is_file(), f"packs/{pack.name}.toml is missing"
    off = [case.id for case in cases if case.section == "packs" and case.file[6:-5] not in case.policy().packs]
    assert not off, f"cases of a pack that is off by default need a policy enabling it: {off}"


def test_every_benign_case_is_labelled_pass(cases: tuple[Case, ...]) -> None:
    wrong = [case.id for case in cases if case.section == "benign" and case.decision is not Decision.PASS]
    assert not wrong, f"benign cases must be labelled pass: {wrong}"


# -- the loader rejects malformed labels ---------------------------------------------

_GOOD_CASE = "[[case]]\ncommand = 'ls'\ndecision = 'pass'\nrules = []\nreason = 'lists files'\n"


def _corpus_with(tmp_path: Path, relative: str, text: str) -> Path:
    path = tmp_path / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(
    ("relative", "text", "message"),
    [
        ("benign/x.toml", _GOOD_CASE + "colour = 'red'\n", "unknown keys ['colour']"),
        ("benign/x.toml", _GOOD_CASE.replace("rules = []", "rules = ['ZZ999']"), "unknown rule id 'ZZ999'"),
        ("benign/x.toml", _GOOD_CASE.replace("'pass'", "'allow'"), "decision 'allow' is not one of"),
        ("benign/x.toml", _GOOD_CASE.replace("reason = 'lists files'\n", ""), "missing keys ['reason']"),
        ("benign/x.toml", _GOOD_CASE.replace("'lists files'", "''"), "reason must be one non-empty line"),
        ("benign/x.toml", _GOOD_CASE + _GOOD_CASE, "duplicate command, already at benign/x.toml:1"),
        ("benign/x.toml", _GOOD_CASE.replace("rules = []", "rules = ['FS001']"), "disagrees with the rules"),
        ("benign/x.toml", _GOOD_CASE + "status = 'wip'\n", "status 'wip' is not one of"),
        ("benign/x.toml", _GOOD_CASE + "policy = { limits = { max_depth = 'deep' } }\n", "invalid policy"),
        ("rules/XX123.toml", _GOOD_CASE, "named after a rule id in the registry"),
        ("benign/Not_Kebab.toml", _GOOD_CASE, "file names are kebab-case"),
        ("misc/x.toml", _GOOD_CASE, "not a corpus section"),
        ("benign/x.toml", "[[case]]\ncommand = 'ls'\n", "missing keys"),
        ("benign/x.toml", "title = 'x'\n" + _GOOD_CASE, "unknown top-level keys ['title']"),
    ],
)
def test_the_loader_rejects_a_malformed_label(tmp_path: Path, relative: str, text: str, message: str) -> None:
    root = _corpus_with(tmp_path, relative, text)
    with pytest.raises(CorpusError, match="malformed corpus") as raised:
        load_corpus(root)
    assert message in str(raised.value)


def test_the_loader_reads_a_multi_line_heredoc_case_with_its_line_number(tmp_path: Path) -> None:
    text = "# a comment\n\n" + _GOOD_CASE + "\n[[case]]\ncommand = '''\ncat <<'EOF'\nrm -rf /\nEOF'''\ndecision = 'pass'\nrules = []\nreason = 'data'\n"
    (first, second) = load_corpus(_corpus_with(tmp_path, "benign/x.toml", text))
    assert (first.line, second.line) == (3, 9)
    assert second.command == "cat <<'EOF'\nrm -rf /\nEOF"
