"""The README's sandbox example runs on a real bwrap and prints what it shows."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"
SECTION_TITLE = "## Sandbox"


def _sandbox_sessions() -> list[str]:
    text = README.read_text(encoding="utf-8")
    start = text.index(f"\n{SECTION_TITLE}\n")
    end = text.find("\n## ", start + len(SECTION_TITLE) + 1)
    section = text[start:] if end == -1 else text[start:end]
    return re.findall(r"^```pycon\n(.*?)^```$", section, flags=re.DOTALL | re.MULTILINE)


@pytest.mark.bwrap
def test_the_readme_example_runs_and_prints_what_it_shows(
    bwrap_available: None, state_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    [session] = _sandbox_sessions()
    monkeypatch.chdir(state_dir)
    test = doctest.DocTestParser().get_doctest(
        session, {}, "README sandbox", str(README), 0
    )
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    output: list[str] = []

    runner.run(test, out=output.append)

    assert runner.failures == 0, "".join(output)
    assert runner.tries == len(test.examples) >= 12
    assert list((state_dir / "agent-sandboxes" / "workspaces").iterdir()) == []
