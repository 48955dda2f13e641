"""A glob in command position is expanded against the standard binary directories and the programs the engine
knows: one candidate is that program, several are each judged (with CP002), none or a relative glob is a name
known only at run time (corpus/parsing/command-globs.toml holds the verdicts both ways)."""

from __future__ import annotations

import pytest
from audit_helpers import rule_ids

from audit import default_policy

TABLES = default_policy().tables

# Spellings of `/usr/bin/rm` and `/bin/rm` that bash expands to exactly that path on a standard system.
ONE_PROGRAM_GLOBS = ["/bin/[r]m", "/usr/b?n/rm", "/?in/r[m]", "/usr/bin/r[m]", "/u*/bin/[r]m", "/usr/[b]in/[rR]m"]


@pytest.mark.parametrize("glob", ONE_PROGRAM_GLOBS)
@pytest.mark.parametrize(
    "structure", ["X", "true && X", "true | X", "(X)", "{ X; }", "if true; then X; fi", "sudo X", "bash -c 'X'"]
)
def test_a_glob_that_can_only_be_rm_deletes_wherever_bash_runs_it(glob: str, structure: str) -> None:
    assert "FS001" in rule_ids(structure.replace("X", f"{glob} -rf /"))


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        ("/usr/b?n/c?rl", ("/usr/bin/curl",)),
        ("/?in/rm", ("/bin/rm",)),
        ("/usr/b?n/iconv", ("/usr/bin/iconv",)),
        ("/bin/rm*", ("/bin/rm", "/bin/rmdir", "/bin/rmmod")),
        ("/bin/[^n]m", ("/bin/rm",)),
        ("/bin/[!r]m", ("/bin/nm",)),
        ("/home/*/rm", ()),
        ("/usr/bin/zz*", ()),
    ],
)
def test_standard_programs_match_a_glob_segment_by_segment(pattern: str, expected: tuple[str, ...]) -> None:
    assert TABLES.standard_programs_matching(pattern) == expected


@pytest.mark.parametrize(
    "command", ["/usr/bin/l? -la", "./build-*.sh", "~/bin/deploy-* --prod", "/opt/x/run-*", "r? -rf /", "/bin/*"]
)
def test_a_glob_that_is_no_single_known_program_is_a_dynamic_name_and_nothing_else(command: str) -> None:
    assert rule_ids(command) == {"CP002"}


@pytest.mark.parametrize(
    "command", ["/usr/bin/[l]s -la", "/usr/b?n/git status", "/usr/bin/[ -f x ]", '"/bin/[r]m" -rf /', "ls /bin/r*"]
)
def test_a_glob_that_resolves_to_a_harmless_program_or_is_no_glob_passes(command: str) -> None:
    assert rule_ids(command) == set()
