"""Properties of the human report: any text, any spans, any width renders, and nothing hidden gets out."""

from __future__ import annotations

import io
import unicodedata

from cli_helpers import plain_console, run_cli
from hypothesis import given
from hypothesis import strategies as st

from audit import CommandRecord, Decision, Finding, Position, Severity, Span, Verdict
from audit._report import VerdictReport

# Restated here rather than imported, so the test does not trust the code under test.
NEVER_SHOWN_RAW = {"Cc", "Cf", "Cs", "Zl", "Zp"}

any_text = st.text(st.characters(codec=None, categories=None), max_size=300) | st.text(
    st.sampled_from("\x1b[31m\r\x07\x00\x9b\u202e\u2028\ud800\udcff\t\n ab/-$()'\"|;&"), max_size=300
)
offsets = st.integers(min_value=-5, max_value=400)
spans = st.builds(Span, offsets, offsets)
paths = st.lists(st.sampled_from(["bash -c", "$(...)", "eval", "<(...)", "\x1b[1m"]), max_size=3).map(tuple)


def findings(command: str) -> st.SearchStrategy[Finding]:
    return st.builds(
        Finding,
        rule_id=st.sampled_from(["FS001", "PR001", "ZZ999"]),
        rule_name=st.just("some-rule"),
        severity=st.sampled_from(list(Severity)),
        message=any_text,
        span=spans,
        evidence=any_text,
        position=st.sampled_from(list(Position)),
        path=paths,
    )


records = st.builds(
    CommandRecord,
    argv=st.lists(any_text, min_size=1, max_size=4).map(tuple),
    span=spans,
    position=st.sampled_from(list(Position)),
    path=paths,
)


@st.composite
def verdicts(draw: st.DrawFn) -> Verdict:
    command = draw(any_text)
    return Verdict(
        decision=draw(st.sampled_from(list(Decision))),
        findings=tuple(draw(st.lists(findings(command), max_size=5))),
        command=command,
        commands=tuple(draw(st.lists(records, max_size=6))),
    )


def assert_nothing_hidden(output: str) -> None:
    leaked = {char for char in output if char != "\n" and unicodedata.category(char) in NEVER_SHOWN_RAW}
    assert not leaked, f"raw hidden characters in the output: {sorted(map(hex, map(ord, leaked)))}"


@given(verdicts(), st.integers(min_value=10, max_value=160))
def test_any_verdict_renders_at_any_width_without_hidden_characters(verdict: Verdict, width: int) -> None:
    buffer = io.StringIO()
    plain_console(buffer, width).print(VerdictReport(verdict))
    assert_nothing_hidden(buffer.getvalue())
    assert buffer.getvalue().startswith(verdict.decision.value.upper())


@given(any_text)
def test_any_command_through_the_cli_renders_without_hidden_characters(command: str) -> None:
    result = run_cli("--", command)
    assert result.exit_code in {0, 1}, result.stderr
    assert_nothing_hidden(result.stdout)
