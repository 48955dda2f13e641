"""What an append to a shell startup file adds, when the command prints it with known words:
only settings (`echo 'export PATH="$HOME/.local/bin:$PATH"' >> ~/.bashrc`) or anything else.

A settings line is `export NAME=VALUE` or `NAME=VALUE` whose value expands nothing but plain
variables (`$HOME`, `${PATH}`): no command substitution, no command after it, and a name that makes
no program load or run code, hides the history or sends traffic through a proxy. A PATH keeps the
current one and adds only absolute or home directories outside the temporary ones. SY004 blocks
every other write; SY032 warns on these.
"""

from __future__ import annotations

import re

from .._analysis import RedirectSubject
from .._analysis._static_output import static_output
from .._tables import Tables
from ._interception import PROXY_VARIABLES
from ._interpreter_variables import LOADING_VARIABLES
from ._paths import TEMP_DIRECTORIES

_SETTING = re.compile(r"(?:export[ \t]+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)")
# `$NAME` and `${NAME}`: the only expansions a settings value may hold.
_PLAIN_EXPANSION = re.compile(r"\$(?:\{[A-Za-z_][A-Za-z0-9_]*\}|[A-Za-z_][A-Za-z0-9_]*)")
_UNQUOTED = re.compile(r"[A-Za-z0-9_@%+=:,./~-]*")
# Names whose value the shell itself runs or reads as code, or that stop the history being kept.
_SHELL_CODE_VARIABLES = frozenset({
    "PROMPT_COMMAND", "PS0", "PS1", "PS2", "PS4", "IFS", "SHELLOPTS", "BASHOPTS", "ZDOTDIR", "HISTFILE",
    "HISTSIZE", "HISTFILESIZE", "HISTCONTROL", "HISTIGNORE", "SAVEHIST", "GIT_SSH_COMMAND", "GIT_SSH",
    "GIT_EXEC_PATH", "GIT_ASKPASS", "SSH_ASKPASS", "SUDO_ASKPASS",
})  # fmt: skip
_CURRENT_PATH = frozenset({"$PATH", "${PATH}"})
_HOME_PREFIXES = ("~/", "$HOME/", "${HOME}/")


def appends_only_settings(subject: RedirectSubject, tables: Tables) -> bool:
    """The redirect appends (`>>`) what echo or printf prints with known words, and every line of
    it is a comment or a settings line."""
    if subject.operator != ">>" or not subject.command_words:
        return False
    words = [arg.value for arg in subject.command_words]
    printed = static_output([word for word in words if word is not None]) if None not in words else None
    if not printed or not printed.strip():
        return False
    lines = [line.strip() for line in printed.splitlines()]
    return all(not line or line.startswith("#") or _plain_setting(line, tables) for line in lines)


def _plain_setting(line: str, tables: Tables) -> bool:
    match = _SETTING.fullmatch(line)
    if match is None:
        return False
    name, value = match.group(1), _unquoted(match.group(2))
    if value is None or _loads_code(name, tables):
        return False
    return name != "PATH" or _plain_path(value)


def _loads_code(name: str, tables: Tables) -> bool:
    return (
        name in _SHELL_CODE_VARIABLES
        or name in LOADING_VARIABLES
        or name in tables.linker_variables
        or name.lower() in PROXY_VARIABLES
    )


def _unquoted(value: str) -> str | None:
    """The value without its quotes when it is one plain word: single-quoted, double-quoted with
    only plain expansions, or bare; None for anything else (`$(...)`, backquotes, `;`, a second word)."""
    if len(value) >= 2 and value[0] == value[-1] == "'":
        inner = value[1:-1]
        return None if "'" in inner else inner
    quoted = len(value) >= 2 and value[0] == value[-1] == '"'
    inner = value[1:-1] if quoted else value
    rest = _PLAIN_EXPANSION.sub("", inner)
    if any(character in rest for character in '$`\\"'):
        return None
    return inner if quoted or _UNQUOTED.fullmatch(rest) else None


def _plain_path(value: str) -> bool:
    """The current PATH kept, and every other entry an absolute or home directory that is not a
    temporary one (`/tmp/bin` or `.` in a startup file shadows programs in every later shell)."""
    entries = value.split(":")
    if not _CURRENT_PATH.intersection(entries):
        return False
    return all(entry in _CURRENT_PATH or _plain_directory(entry) for entry in entries)


def _plain_directory(entry: str) -> bool:
    if entry.startswith(_HOME_PREFIXES):
        return True
    if not entry.startswith("/"):
        return False
    return not any(entry == temp or entry.startswith(temp + "/") for temp in TEMP_DIRECTORIES)
