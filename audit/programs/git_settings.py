"""git settings whose value is a command line git hands to a shell (imported with the engine:
`git` is read for them on every audit, so this module keeps clear of the lazy `vcs` family).

`git -c core.fsmonitor='CMD' status` runs CMD at once; `git config core.pager
'CMD'` runs it in every later `git log` of the repository (or of every
repository, with `--global`), which is how a cloned or edited repository
makes an ordinary git command run code. The same settings come from the
environment (`GIT_CONFIG_KEY_0`/`GIT_CONFIG_VALUE_0`), and some have
variables of their own (`GIT_SSH_COMMAND`, `GIT_PAGER`): those are
`COMMAND_VARIABLES`.
"""

from __future__ import annotations

from .._named_tuple import NamedTuple
from ._arg import Arg
from ._known import read_command
from ._program import Reading

# `git config`'s old-style actions other than setting a value (`--get KEY`, `--unset KEY`).
CONFIG_ACTIONS = (
    "get", "get-all", "get-regexp", "get-urlmatch", "get-color", "get-colorbool",
    "unset", "unset-all", "rename-section", "remove-section",
)  # fmt: skip
_CONFIG_GETTERS = (*(f"--{action}" for action in CONFIG_ACTIONS), "-l", "--list", "-e", "--edit")

# By (section, name), lower case (git compares both without case); "*" as the name is any name.
# A subsection, when the key has one, is the driver's or tool's name (`diff.NAME.textconv`).
_RUN_BY_A_SHELL = frozenset(
    {
        ("core", "fsmonitor"), ("core", "sshcommand"), ("core", "pager"), ("core", "editor"),
        ("core", "askpass"), ("core", "gitproxy"), ("sequence", "editor"), ("diff", "external"),
        ("diff", "command"), ("diff", "textconv"), ("filter", "clean"), ("filter", "smudge"),
        ("filter", "process"), ("merge", "driver"), ("mergetool", "cmd"), ("difftool", "cmd"),
        ("pager", "*"), ("gpg", "program"), ("uploadpack", "packobjectshook"), ("sendemail", "smtpserver"),
        ("remote", "uploadpack"), ("remote", "receivepack"),
    }
)  # fmt: skip
# Settings that hold a shell command only when the value starts with `!` (otherwise a git
# command or a helper's name: `alias.st = status`, `credential.helper = store`).
_SHELL_AFTER_BANG = frozenset({("alias", "*"), ("credential", "helper")})
# Values that switch a setting on or off rather than name a command (`pager.log = false`).
_SWITCHES = frozenset({"true", "false", "yes", "no", "on", "off", "1", "0", ""})

COMMAND_VARIABLES = frozenset(
    {
        "GIT_SSH_COMMAND", "GIT_PAGER", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "GIT_EXTERNAL_DIFF",
        "GIT_ASKPASS", "GIT_PROXY_COMMAND", "SSH_ASKPASS", "EDITOR", "VISUAL", "PAGER", "MANPAGER",
        "PROMPT_COMMAND",
    }
)  # fmt: skip
"""Environment variables whose value programs hand to a shell as a command line
(git, ssh, man, crontab -e, less...; bash itself runs PROMPT_COMMAND before every prompt of
an interactive shell, this one's and every interactive shell started from it)."""


def _parts(key: str) -> tuple[str, str] | None:
    section, dot, rest = key.partition(".")
    if not dot or not rest:
        return None
    return section.lower(), rest.rpartition(".")[2].lower()


def setting_command(key: str, value: Arg) -> Arg | None:
    """The command line git runs for the setting `key = value`, if it is one."""
    parts = _parts(key)
    if parts is None:
        return None
    section, name = parts
    text = value.value
    if (section, name) in _SHELL_AFTER_BANG or (section, "*") in _SHELL_AFTER_BANG:
        return value.suffix(1) if text is not None and text.startswith("!") else None
    if (section, name) not in _RUN_BY_A_SHELL and (section, "*") not in _RUN_BY_A_SHELL:
        return None
    return None if text is not None and text.lower() in _SWITCHES else value


class Setting(NamedTuple):
    key: str
    value: Arg
    how: str
    """`-c` (for this command) or `config` (written for every later one)."""


def mentions_setting(args: tuple[Arg, ...], fragment: str) -> bool:
    """A cheap first test before `git_settings`: some word names a setting containing `fragment` (lower
    case), as written or as expanded (`-c` is valid with every subcommand, so a rule about a setting
    cannot be keyed on one)."""
    return any(fragment in arg.source.lower() or any(fragment in value.lower() for value in arg.values) for arg in args)


def git_settings(reading: Reading) -> list[Setting]:
    """The settings a git command line gives: `-c KEY=VALUE` for this command, and
    `git config [SCOPE] KEY VALUE` or `git config set KEY VALUE` for every later one."""
    found: list[Setting] = []
    for setting in reading.values("-c"):
        # A value known only at run time (`core.pager="$CMD"`) still names its key in the source.
        key, equals, _ = (setting.value if setting.value is not None else setting.source).partition("=")
        if equals:
            found.append(Setting(key, setting.suffix(len(key) + 1), "-c"))
    if reading.path == ("config",) and not reading.has(*_CONFIG_GETTERS):
        operands = (
            reading.operands[1:] if reading.operands[:1] and reading.operands[0].value == "set" else reading.operands
        )
        if len(operands) >= 2 and operands[0].value is not None:
            found.append(Setting(operands[0].value, operands[1], "config"))
    return found


def git_setting_commands(args: tuple[Arg, ...]) -> list[tuple[str, Arg]]:
    """The command lines the settings of `git ARGS` give git, labelled with the setting."""
    if not any(arg.value in ("config", "-c") or (arg.value or "").startswith("-c") for arg in args):
        return []  # `git status`, `git push`: no setting (and no reading)
    reading = read_command("git", args)
    found: list[tuple[str, Arg]] = []
    for key, value, how in git_settings(reading):
        command = setting_command(key, value)
        if command is not None:
            found.append((f"git {how} {key}", command))
    return found
