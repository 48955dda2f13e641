"""What each path of `audit-cmd` imports: the hook and `--json` never load rich or the display code,
and a command of no pack loads no pack, no lazy program family and not the full registry.

Start-up time itself is measured by `python -m audit.benchmarks.startup`, not
here; these pin the imports that would bring the time back.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hook_helpers import environment, payload, payload_with_command

DISPLAY_MODULES = ("rich", "audit._display", "audit._report", "audit._batch_report", "audit._catalogue")
# Loaded only for the commands that name their programs (or for listings of every rule).
LAZY_MODULES = (
    "audit.rules._registry",
    "audit.packs._all",
    "audit.packs._invocation",
    "audit.programs.cloud",
    "audit.programs.databases",
    "audit.programs.vcs",
    "audit.programs.vendors",
)

# Runs audit-cmd's entry point in a fresh interpreter and reports, on stderr,
# which of the watched modules (or their submodules) were imported by the time it returned.
PROBE = """\
import json, sys
from audit.cli import main
code = main(sys.argv[1:])
watched = {watched}
loaded = sorted(name for name in sys.modules if any(name == w or name.startswith(w + ".") for w in watched))
print(json.dumps({{"exit": code, "loaded": loaded}}), file=sys.stderr)
"""


def loaded_display_modules(tmp_path: Path, *argv: str, stdin: bytes = b"") -> list[str]:
    return loaded_modules(DISPLAY_MODULES, tmp_path, *argv, stdin=stdin)


def loaded_modules(watched: tuple[str, ...], tmp_path: Path, *argv: str, stdin: bytes = b"") -> list[str]:
    script = PROBE.format(watched=set(watched))
    process = subprocess.run(
        [sys.executable, "-c", script, *argv],
        input=stdin,
        capture_output=True,
        cwd=tmp_path,
        env=environment(tmp_path),
        timeout=60,
        check=False,
    )
    report = json.loads(process.stderr.decode().splitlines()[-1])
    return report["loaded"]


@pytest.mark.parametrize("agent", ["claude-code", "gemini-cli", "cursor"])
@pytest.mark.parametrize("case", ["block", "warn", "pass"])
def test_the_hook_imports_no_display_code(tmp_path: Path, agent: str, case: str) -> None:
    assert loaded_display_modules(tmp_path, "hook", agent, stdin=payload(agent, case)) == []


@pytest.mark.parametrize("argv", [("--json", "rm -rf /"), ("--json", "git status"), ("--version",), ("--json", "-")])
def test_json_output_imports_no_display_code(tmp_path: Path, argv: tuple[str, ...]) -> None:
    assert loaded_display_modules(tmp_path, *argv, stdin=b"ls") == []


def test_a_batch_as_json_imports_no_display_code(tmp_path: Path) -> None:
    assert loaded_display_modules(tmp_path, "--batch", "-", "--json", stdin=b'"ls"\n"sudo ls"\n') == []


@pytest.mark.parametrize(("argv", "module"), [(("git status",), "audit._report"), (("rules",), "audit._catalogue")])
def test_a_report_for_a_reader_does_load_the_display_code(tmp_path: Path, argv: tuple[str, ...], module: str) -> None:
    loaded = loaded_display_modules(tmp_path, *argv)
    assert module in loaded
    assert "rich.console" in loaded


@pytest.mark.parametrize("agent", ["claude-code", "gemini-cli", "cursor"])
def test_the_hook_loads_no_pack_for_a_command_of_no_pack(tmp_path: Path, agent: str) -> None:
    stdin = payload_with_command(agent, "pass", "ls -la src | grep -c test")
    assert loaded_modules(LAZY_MODULES, tmp_path, "hook", agent, stdin=stdin) == []


def test_the_hook_loads_the_pack_of_the_program_a_command_names(tmp_path: Path) -> None:
    stdin = payload_with_command("claude-code", "pass", "git status")
    loaded = loaded_modules(LAZY_MODULES, tmp_path, "hook", "claude-code", stdin=stdin)
    assert loaded == ["audit.packs._invocation", "audit.programs.vcs"]
