"""The README's sections and fenced blocks, for the tests that check the
README's examples still run and print what they show."""

from __future__ import annotations

import re
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]
README = REPOSITORY / "README.md"


def section(title: str) -> str:
    """The text from the `## title` heading up to the next `## ` heading."""
    text = README.read_text(encoding="utf-8")
    start = text.index(f"\n{title}\n")
    end = text.find("\n## ", start + len(title) + 1)
    return text[start:] if end == -1 else text[start:end]


def fenced(title: str, language: str) -> list[str]:
    """The bodies of the ```language blocks in the README section `title`."""
    return re.findall(rf"^```{language}\n(.*?)^```$", section(title), flags=re.DOTALL | re.MULTILINE)
