"""What the step costs count, so that the step limit, not the CPU-time backstop, stops an input:
each part of a command the analysis walks, each level of a nested scan, the lexical reading's scan
before it starts; and the input shapes tree-sitter must not read from 1,024 characters.

How long an audit takes is measured by `python -m audit.benchmark` (its step-limit headroom),
never here: these tests count steps, which are the same on every machine.
"""

from __future__ import annotations

import pytest
from audit_helpers import steps_needed, tree_sitter_asked

from audit import Decision, Verdict, audit_command, default_policy, policy_from_mapping
from audit.benchmarks.step_limit import step_limit_headroom

_NO_BACKSTOP = {"time_budget_ms": 60_000}


def _audit(command: str, **limits: int) -> Verdict:
    return audit_command(command, policy=policy_from_mapping({"limits": {**_NO_BACKSTOP, **limits}}))


def _asked(monkeypatch: pytest.MonkeyPatch, command: str) -> tuple[bool, Verdict]:
    return tree_sitter_asked(monkeypatch, command, policy_from_mapping({"limits": _NO_BACKSTOP}))


@pytest.mark.parametrize(
    ("bigger", "smaller"),
    [
        ("echo a b c d e f", "echo a"),
        ("a=1 b=2 c=3 echo a", "echo a"),
        ("echo a > x 2> y < z", "echo a"),
        ("echo a$b$c$d", "echo abcd"),
    ],
)
def test_every_word_assignment_redirect_and_expansion_of_a_command_costs_steps(bigger: str, smaller: str) -> None:
    assert steps_needed(bigger) > steps_needed(smaller)


def test_an_everyday_command_needs_a_small_part_of_the_default_step_limit() -> None:
    limit = default_policy().limits.max_steps
    for command in ("git status", 'cp "${HOME}/a.txt" "$DEST/"', "awk '{print $1}' access.log | sort | uniq -c"):
        assert steps_needed(command) < limit // 50, command


def test_each_level_of_nested_parameter_expansions_pays_for_what_it_rescans() -> None:
    # 250 levels: each scans what it holds again, so the work (and the steps) grow with the
    # square of the depth; the step limit, not the clock, stops it.
    verdict = _audit("${" * 250)
    assert verdict.decision is Decision.BLOCK
    assert "budget of 25,000 steps" in verdict.findings[0].message
    assert steps_needed("${" * 40) > 2 * steps_needed("${" * 20)  # more than linear


def test_the_lexical_reading_charges_its_scan_of_a_long_quoted_word_before_it_starts() -> None:
    verdict = _audit('echo "' + "$x " * 2_500)
    assert verdict.rule_ids == ("IN004",)
    assert "steps" in verdict.findings[0].message
    assert _audit('echo "' + "$x " * 100).decision is Decision.WARN  # unterminated: a parse warning only


def test_text_made_mostly_of_heredoc_operators_is_read_lexically_from_1024_characters(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked, verdict = _asked(monkeypatch, "<<" * 512)
    assert not asked
    assert "PA001" in verdict.rule_ids
    assert verdict.decision is not Decision.PASS
    assert _asked(monkeypatch, "<<" * 500)[0]  # shorter: tree-sitter stalls less


def test_a_script_of_real_heredocs_is_still_read_by_tree_sitter(monkeypatch: pytest.MonkeyPatch) -> None:
    script = "".join(f"cat <<EOF{n} > part{n}.txt\nline {n}\nEOF{n}\n" for n in range(60))
    assert len(script) > 1_024
    asked, verdict = _asked(monkeypatch, script)
    assert asked
    assert verdict.decision is Decision.PASS


def test_a_pipeline_with_a_dangling_pipe_is_read_lexically_from_1024_characters(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # `$x`: a pipeline of plain words never needs tree-sitter (the parser's fast path).
    asked, verdict = _asked(monkeypatch, "a $x | " * 147)
    assert not asked
    assert "PA001" in verdict.rule_ids
    asked, verdict = _asked(monkeypatch, "a $x | " * 147 + "a")
    assert asked
    assert verdict.decision is Decision.PASS


def test_the_step_limit_benchmark_names_the_slowest_input_and_the_backstop() -> None:
    report = step_limit_headroom(default_policy(), [("one", "ls"), ("two", "ls | grep x")])
    assert report["inputs"] == 2
    assert report["slowest"] in {"one", "two"}
    assert report["backstop_ms"] == default_policy().limits.time_budget_ms
    assert report["headroom"] == report["backstop_ms"] / report["slowest_ms"]
