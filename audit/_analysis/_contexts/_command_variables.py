"""Variables whose value a program runs as a command line: `GIT_SSH_COMMAND='CMD' git fetch`,
`env PAGER=CMD man ls`, `export EDITOR=CMD`, and git settings from the environment
(`GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0=CMD git log`).

The value is audited as shell code one level deeper wherever it is set, whether a program
follows or a later one inherits it (position-blind, as for `eval`): an ordinary value
(`GIT_PAGER=cat`, `EDITOR='code --wait'`) is a harmless command and passes.
"""

from __future__ import annotations

import re

from ..._syntax import ast
from ...programs import Arg
from ...programs.git_settings import COMMAND_VARIABLES, setting_command
from .._bindings import DECLARATION_BUILTINS
from .._normalize import basename, normalize_word
from .._variables import Env
from .._wrappers import Unwrapped
from ._code import prefix_assignments

_GIT_CONFIG_PAIR = re.compile(r"GIT_CONFIG_(KEY|VALUE)_(\d+)")


def _wanted(variable: str) -> bool:
    return variable in COMMAND_VARIABLES or variable.startswith("GIT_CONFIG_")


def variable_commands(
    node: ast.SimpleCommand, argv: tuple[Arg, ...], unwrapped: Unwrapped | None, env: Env
) -> list[tuple[str, Arg]]:
    """The command lines the variables this command sets hold, labelled with the variable."""
    declares = _declares(argv)
    if not node.assignments and not (unwrapped is not None and unwrapped.assignments) and not declares:
        return []
    values: dict[str, Arg] = {}
    for variable, word in prefix_assignments(node, unwrapped, _wanted):
        fields = normalize_word(word, env)
        if len(fields) == 1:
            values[variable] = fields[0]._replace(word=word)
    if declares:
        for arg in argv[1:]:  # `export EDITOR=CMD`, `declare -x PAGER=CMD`
            variable, equals, _ = (arg.value or "").partition("=")
            if equals and _wanted(variable):
                values[variable] = arg.suffix(len(variable) + 1)
    found = [(f"{variable}=", value) for variable, value in values.items() if variable in COMMAND_VARIABLES]
    for variable, key in values.items():
        pair = _GIT_CONFIG_PAIR.fullmatch(variable)
        if pair is None or pair.group(1) != "KEY" or key.value is None:
            continue
        value = values.get(f"GIT_CONFIG_VALUE_{pair.group(2)}")
        command = setting_command(key.value, value) if value is not None else None
        if command is not None:
            found.append((f"GIT_CONFIG_VALUE_{pair.group(2)}= ({key.value})", command))
    return found


def _declares(argv: tuple[Arg, ...]) -> bool:
    return bool(argv) and argv[0].value is not None and basename(argv[0].value) in DECLARATION_BUILTINS
