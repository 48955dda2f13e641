"""Command names computed at run time whose program is known all the same (CP002's exemptions).

`"$JAVA_HOME/bin/java"`, `$(go env GOPATH)/bin/golangci-lint`, `"$(npm bin)/eslint"` and
`$(which python3)` compute only where the program is: its name is written out, and the
directory is a toolchain's bin directory, the project's top level or the PATH lookup bash
itself would do. They are judged as the program they name (`java`, `eslint`), as
`$HOME/.cargo/bin/cargo` and `./node_modules/.bin/tsc` are. A bare variable (`$EDITOR`,
`$PYTHON`) or any other substitution still names nothing known.
"""

from __future__ import annotations

import re

from .._syntax import ast

# Commands that print where a toolchain, a package manager's programs or the project live.
_LOCATION_QUERIES = frozenset({
    "git rev-parse --show-toplevel", "go env GOPATH", "go env GOBIN", "go env GOROOT", "npm bin", "npm bin -g",
    "npm root", "npm root -g", "npm prefix", "npm prefix -g", "yarn bin", "yarn global bin", "pnpm bin",
    "brew --prefix", "pyenv root", "pyenv prefix", "rbenv root", "nodenv root", "rustc --print sysroot",
    "xcode-select -p", "python3 -m site --user-base", "python -m site --user-base", "pwd",
})  # fmt: skip
# `brew --prefix FORMULA`: where one formula is installed.
_FORMULA_PREFIX = re.compile(r"brew --prefix [\w@.+-]+")
# Commands that print the path of the program they name, found on PATH.
_PATH_LOOKUP = re.compile(r"(?:which|command -v|type -P) ([\w.+-]+)")
# After a variable: a program in a bin directory below it (`/bin/java`, `/node_modules/.bin/tsc`).
_TOOLCHAIN_PROGRAM = re.compile(r"(?:/[\w.@+-]+)*/(?:bin|sbin|\.bin|Scripts)/([\w.+-]+)")
# After a location query: any program below it (`/scripts/test.sh`).
_PROGRAM_BELOW = re.compile(r"(?:/[\w.@+-]+)*/([\w.+-]+)")


def located_program(parts: tuple[ast.WordPart, ...]) -> str | None:
    """The program a command name computed only in its directory runs, or None: `$(which NAME)` as the
    whole word, or one variable or location query followed by the literal path of a program below it."""
    if len(parts) == 1 and type(parts[0]) is ast.CommandSubstitution:
        lookup = _PATH_LOOKUP.fullmatch(_command_text(parts[0]) or "")
        return lookup.group(1) if lookup is not None else None
    if len(parts) != 2 or type(parts[1]) is not ast.Literal:
        return None
    directory, rest = parts[0], parts[1].text
    if type(directory) is ast.ParamExpansion:
        if directory.operator or directory.subscript is not None or directory.argument:
            return None
        program = _TOOLCHAIN_PROGRAM.fullmatch(rest)
    elif type(directory) is ast.CommandSubstitution and _is_location_query(_command_text(directory)):
        program = _PROGRAM_BELOW.fullmatch(rest)
    else:
        return None
    return program.group(1) if program is not None and program.group(1) not in (".", "..") else None


def _is_location_query(text: str | None) -> bool:
    return text is not None and (text in _LOCATION_QUERIES or _FORMULA_PREFIX.fullmatch(text) is not None)


def _command_text(substitution: ast.CommandSubstitution) -> str | None:
    """The words of a substitution that runs one plain command, as written (`go env GOPATH`)."""
    statements = substitution.body.statements
    if len(statements) != 1 or statements[0].background:
        return None
    command = statements[0].command
    if type(command) is not ast.SimpleCommand or command.assignments or command.redirects:
        return None
    return " ".join(word.source for word in command.words)
