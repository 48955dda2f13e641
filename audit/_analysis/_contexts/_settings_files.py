"""Settings files written with known content, read as the tool that reads them will
(`_paths.SETTINGS_FILES` says which file is which).

ssh runs the commands of `ProxyCommand`, `LocalCommand`, `KnownHostsCommand` and `Match exec`
through a shell on this machine, VS Code runs a task's command when it is asked for, or when
the folder opens (`"runOn": "folderOpen"`), and vim and Emacs run their startup files' shell
commands at every start: those commands are audited as shell code where they are written, and
each one that runs by itself is handed to the rules (SY029).

A git configuration, an .npmrc, .yarnrc or .yarnrc.yml and a pip.conf are read as the `git
config KEY VALUE`, `npm config set KEY=VALUE` and `pip config set KEY VALUE` commands that
would write the same settings: a setting is judged one way however it is written (a command
git runs, SC014; a package index over plain HTTP, SC006; a certificate check turned off, SC005).

Each line of a file written by `echo` may also end at a literal `\\n`: zsh's and dash's `echo`
print it as a line break.
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Iterator
from typing import cast

from ..._syntax import Origin
from .._risks import NO_RISKS
from .._state import Frame, WrittenScript
from .._subjects import Autorun, AutorunFormat, ContextKind, DynamicPart, ExecContextSubject, Risk
from ._call import ContextWalk
from ._emacs import emacs_commands

SETTINGS_FORMATS = frozenset(
    {
        AutorunFormat.SSH_CONFIG,
        AutorunFormat.GIT_CONFIG,
        AutorunFormat.NODE_CONFIG,
        AutorunFormat.PIP_CONFIG,
        AutorunFormat.VSCODE_TASKS,
        AutorunFormat.VIM_SCRIPT,
        AutorunFormat.EMACS_LISP,
    }
)


def settings_code(
    walk: ContextWalk, label: str, autorun: Autorun, content: WrittenScript, frame: Frame
) -> frozenset[Risk]:
    """The commands a settings file makes its tool run, and its settings, audited as they will be read."""
    if autorun.format is AutorunFormat.SSH_CONFIG:
        return _ssh_commands(walk, label, content, frame)
    if autorun.format is AutorunFormat.VSCODE_TASKS:
        return _task_commands(walk, label, content, frame)
    if autorun.format is AutorunFormat.VIM_SCRIPT:
        return _vim_commands(walk, label, content, frame)
    if autorun.format is AutorunFormat.EMACS_LISP:
        return _emacs_commands(walk, label, content, frame)
    # Settings and their values are unquoted and rewritten: no offset maps into the source.
    commands = "\n".join(_setting_commands(autorun, content.text))
    where = f"{label}, read as the commands that set it"
    return walk.nested_code(commands, Origin.derived_from(content.span), where, content.span, frame)


def _lines(text: str) -> Iterator[tuple[int, str]]:
    """Each non-empty line and where it starts, a literal `\\n` ending a line too."""
    start = 0
    for end in [found.start() for found in _LINE_BREAK.finditer(text)] + [len(text)]:
        if end > start:
            yield start, text[start:end]
        start = end + (1 if text.startswith("\n", end) else 2)


_LINE_BREAK = re.compile(r"\n|\\n")


def _run_by_itself(walk: ContextWalk, what: str, command: str, content: WrittenScript, frame: Frame) -> None:
    """Hand the rules a command the written file makes its tool run by itself later (SY029)."""
    if walk.reporting:
        part = DynamicPart(content.span, command, NO_RISKS, None, False)
        kind = ContextKind.SETTING_COMMAND
        walk.emit(ExecContextSubject(kind, what, "shell", content.span, frame.location, (part,)))


# -- ssh ------------------------------------------------------------------------------------


_SSH_COMMANDS = frozenset({"proxycommand", "localcommand", "knownhostscommand"})
_SSH_KEYWORD = re.compile(r"\s*(\w+)(?:\s*=\s*|\s+)")
# `Match` criteria: a word or a double-quoted string; `exec` (or `!exec`) takes a command.
_MATCH_WORD = re.compile(r'"([^"]*)"|(\S+)')


def _ssh_commands(walk: ContextWalk, label: str, content: WrittenScript, frame: Frame) -> frozenset[Risk]:
    risks = NO_RISKS
    for keyword, start, end in _ssh_command_places(content.text):
        code = content.text[start:end]
        what = f"`{keyword}` of {label}"
        risks = risks | walk.nested_code(code, content.origin.shifted(start), what, content.span, frame)
        _run_by_itself(walk, what, code, content, frame)
    return risks


def _ssh_command_places(text: str) -> Iterator[tuple[str, int, int]]:
    """Each command of an ssh configuration: its keyword, and where it starts and ends."""
    for start, line in _lines(text):
        found = _SSH_KEYWORD.match(line)
        if found is None:
            continue
        keyword, value = found.group(1), line[found.end() :].rstrip()
        if keyword.lower() in _SSH_COMMANDS and value and value.lower() != "none":
            yield keyword, start + found.end(), start + found.end() + len(value)
        elif keyword.lower() == "match":
            yield from _match_exec(value, start + found.end())


def _match_exec(criteria: str, offset: int) -> Iterator[tuple[str, int, int]]:
    after_exec = False
    for word in _MATCH_WORD.finditer(criteria):
        group = 1 if word.group(1) is not None else 2
        if after_exec:
            yield "Match exec", offset + word.start(group), offset + word.end(group)
        after_exec = word.group().lower() in ("exec", "!exec")


# -- vim ------------------------------------------------------------------------------------

# A command's modifiers, and `autocmd [GROUP] EVENTS PATTERN [++once] [++nested]` before the command it runs.
_VIM_MODIFIER = re.compile(r"[\s:]*(?:(?:sil(?:ent)?!?|keepalt|noautocmd|noa)\s+)*")
_VIM_AUTOCMD = re.compile(
    r"au(?:tocmd)?!?\s+(?:(?!(?:[A-Z][A-Za-z]*,?)+\s)\S+\s+)?(?:[A-Z][A-Za-z]*,?)+\s+\S+\s+(?:(?:\+\+once|\+\+nested|nested)\s+)*"
)
# `!CMD` and `r[ead] !CMD`: the rest of the line is the shell's, `|` included.
_VIM_BANG = re.compile(r"(?:r(?:ead)?\s*)?!(?!=)")
# `system('CMD')`, `systemlist("CMD")`, neovim's `jobstart('CMD')`, `exe[cute] '!CMD'`: a quoted string.
_VIM_STRING_CALL = re.compile(r"""(?:\b(?:system|systemlist|jobstart)\s*\(\s*|\bexe(?:cute)?\s+)(['"])""")


def _vim_commands(walk: ContextWalk, label: str, content: WrittenScript, frame: Frame) -> frozenset[Risk]:
    risks = NO_RISKS
    for start, end in _vim_command_places(content.text):
        code = content.text[start:end]
        what = f"a shell command of {label}, run when the editor starts"
        risks = risks | walk.nested_code(code, content.origin.shifted(start), what, content.span, frame)
        _run_by_itself(walk, what, code, content, frame)
    return risks


def _vim_command_places(text: str) -> Iterator[tuple[int, int]]:
    """Where each shell command of a vim script starts and ends: `!CMD` (after modifiers and an autocmd's
    events and pattern) to the end of the line, and the string a `system()` or `execute '!...'` is given."""
    for start, line in _lines(text):
        at = _after_modifiers(line, 0)
        autocmd = _VIM_AUTOCMD.match(line, at)
        if autocmd is not None:
            at = _after_modifiers(line, autocmd.end())
        bang = _VIM_BANG.match(line, at)
        if bang is not None and line[bang.end() :].strip():
            yield start + bang.end(), start + len(line.rstrip())
            continue
        for call in _VIM_STRING_CALL.finditer(line, at):
            close = line.find(call.group(1), call.end())
            inner = line[call.end() : close] if close > call.end() else ""
            if call.group().startswith("exe"):
                # `execute '!CMD'` runs a shell command; `execute 'normal gg'` does not.
                if inner.startswith("!") and inner[1:].strip():
                    yield start + call.end() + 1, start + close
            elif inner.strip():
                yield start + call.end(), start + close


def _after_modifiers(line: str, at: int) -> int:
    """Past the `:`, blanks and `silent!`-like modifiers before a vim command."""
    found = _VIM_MODIFIER.match(line, at)
    return found.end() if found is not None else at


# -- Emacs ----------------------------------------------------------------------------------


def _emacs_commands(walk: ContextWalk, label: str, content: WrittenScript, frame: Frame) -> frozenset[Risk]:
    origin = Origin.derived_from(content.span)  # Lisp string escapes: no offset maps into the source
    risks = NO_RISKS
    what = f"a command of {label}, run when the editor starts"
    for command in emacs_commands(content.text):
        risks = risks | walk.nested_code(command, origin, what, content.span, frame)
        _run_by_itself(walk, what, command, content, frame)
    return risks


# -- VS Code tasks ---------------------------------------------------------------------------


def _task_commands(walk: ContextWalk, label: str, content: WrittenScript, frame: Frame) -> frozenset[Risk]:
    origin = Origin.derived_from(content.span)  # JSON escapes: no offset maps into the source
    risks = NO_RISKS
    for name, command, at_open in _tasks(content.text):
        what = f"task `{name}` of {label}" + (", run when the folder opens" if at_open else "")
        risks = risks | walk.nested_code(command, origin, what, content.span, frame)
        if at_open:
            _run_by_itself(walk, what, command, content, frame)
    return risks


def _tasks(text: str) -> Iterator[tuple[str, str, bool]]:
    """Each task's name, its command line, and whether it runs when the folder opens (none when
    the text is not such JSON: VS Code also takes comments, which JSON does not)."""
    try:
        document: object = json.loads(text)
    except ValueError:
        return
    tasks = cast("dict[str, object]", document).get("tasks") if isinstance(document, dict) else None
    for task in cast("list[object]", tasks) if isinstance(tasks, list) else []:
        if not isinstance(task, dict):
            continue
        fields = cast("dict[str, object]", task)
        command, args = fields.get("command"), fields.get("args")
        if not isinstance(command, str):
            continue
        words = [arg for arg in cast("list[object]", args) if isinstance(arg, str)] if isinstance(args, list) else []
        # A shell task's command is a command line; a process task's is a program. Arguments are words.
        line = " ".join(
            [command if fields.get("type") != "process" else shlex.quote(command)]
            + [shlex.quote(word) for word in words]
        )
        options = fields.get("runOptions")
        at_open = isinstance(options, dict) and cast("dict[str, object]", options).get("runOn") == "folderOpen"
        yield str(fields.get("label", command)), line, at_open


# -- git, npm and yarn, pip ------------------------------------------------------------------


def _setting_commands(autorun: Autorun, text: str) -> Iterator[str]:
    """The `git config`, `npm config set` or `pip config set` command line of each setting."""
    if autorun.format is AutorunFormat.NODE_CONFIG:
        for key, value in _node_settings(autorun.entry, text):
            yield f"npm config set {shlex.quote(f'{key}={value}')}"
        return
    program = "git config" if autorun.format is AutorunFormat.GIT_CONFIG else "pip config set"
    for key, value in _ini_settings(text, autorun.format is AutorunFormat.GIT_CONFIG):
        yield f"{program} {shlex.quote(key)} {shlex.quote(value)}"


_YAML_SETTING = re.compile(r"\s*([\w-]+)\s*:\s*(.*)")
_COMMENT_STARTS = ("#", ";")


def _node_settings(entry: str, text: str) -> Iterator[tuple[str, str]]:
    """`key=value` (.npmrc), `key value` (yarn 1's .yarnrc), `key: value` (.yarnrc.yml, at any depth)."""
    for _, line in _lines(text):
        stripped = line.strip()
        if not stripped or stripped.startswith(_COMMENT_STARTS):
            continue
        if entry.endswith(".yml"):
            found = _YAML_SETTING.fullmatch(stripped)
            key, value = (found.group(1), found.group(2)) if found is not None else ("", "")
        elif entry.endswith(".yarnrc"):
            key, _, value = stripped.partition(" ")
        else:
            key, _, value = stripped.partition("=")
        value = _unquoted(value.strip())
        if key.strip() and value:
            yield key.strip(), value


def _unquoted(value: str) -> str:
    quoted = len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'"
    return value[1:-1] if quoted else value


_SECTION = re.compile(r'\s*\[\s*([\w.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]')
_INI_KEY = re.compile(r"\s*([A-Za-z][\w.-]*)\s*(?:([=:])(.*))?")


def _ini_settings(text: str, git: bool) -> Iterator[tuple[str, str]]:
    """`[section]` (git's `[section "name"]` too) and its `key = value` lines, as `section.key`
    and the value; a git key alone is `true`."""
    section = ""
    for _, line in _lines(text):
        header = _SECTION.match(line)
        if header is not None:
            name = header.group(2)
            section = header.group(1) if name is None else header.group(1) + "." + _git_value('"' + name + '"')
            line = line[header.end() :]
        setting = _INI_KEY.fullmatch(line.rstrip())
        if setting is None or not section or (setting.group(2) == ":" and git):
            continue
        raw = setting.group(3)
        if raw is None and not git:
            continue
        value = "true" if raw is None else _git_value(raw) if git else raw.strip()
        yield f"{section}.{setting.group(1)}", value


def _git_value(raw: str) -> str:
    """A git value as git reads it: quotes removed, `\\"`, `\\\\`, `\\n` and `\\t` unescaped, a
    comment (`#` or `;` outside quotes) and the blanks around the value dropped."""
    chars: list[str] = []
    quoted = False
    index = 0
    while index < len(raw):
        char = raw[index]
        if char == "\\" and index + 1 < len(raw):
            index += 1
            chars.append({"n": "\n", "t": "\t", "b": "\b"}.get(raw[index], raw[index]))
        elif char == '"':
            quoted = not quoted
        elif char in "#;" and not quoted:
            break
        else:
            chars.append(char)
        index += 1
    return "".join(chars).strip()
