"""An AI coding agent's own guardrails (AG100 to AG106): the settings files that decide what it may do
by itself (the policy's `agent_settings_files`: permissions, approval and sandbox modes, the hooks
that check its commands, this guard's among them, and the MCP servers it starts), and the options that
start an agent with all of them off, this guard's hook removed (AG105) and MCP servers added
with the agents' own commands (AG106).

A command that writes, moves or deletes such a file warns (AG100, AG101): a human sets an agent up,
and an agent may be asked to. When the words the command writes there visibly turn a guardrail off
(`bypassPermissions`, `"Bash(*)"`, `approval_policy = "never"`, hooks deleted), it blocks (AG102,
AG103). The text a heredoc writes through a redirect (`cat > .claude/settings.json <<EOF`) is not
read here: that write warns.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

from .._analysis import CommandSubject, RedirectSubject, StdinKind, path_is_anywhere, resolve_path
from .._caches import PATH_TABLES
from .._model import Severity
from .._syntax import ast
from .._tables import Tables
from ..programs import REMOVERS, WRITERS, Arg
from ._paths import extracted_into, keep_last, placed_paths, redirect_writes_file, removed_paths, writes_a_file
from ._rule import Hit, Inspects, rule

# Settings values that turn a guardrail off, in the agents' own spellings: Claude Code's permission
# mode, allow-everything rules and hook switch, Codex's approval policy and sandbox, Gemini's and
# Qwen's YOLO mode, editors' auto-approval of tools and MCP servers; and edits that delete the hooks
# or empty the deny list (`jq 'del(.hooks)'`, `sed '/PreToolUse/d'`).
# Compiled on first use (re's own cache), not at import: most commands write no agent settings.
_GUARDRAILS_OFF = (
    r"bypassPermissions|dangerously|danger-full-access|yolo|disableAllHooks|enableAllProjectMcpServers"
    r"|autoApprove|autoAccept|alwaysAllow|approval_policy\W+never|approvalMode\W+yolo"
    r"|\bBash\s*\(\s*:?\*\s*\)|\"allow\"\s*:\s*\[[^\]]*\"Bash\"|\"deny\"\s*:\s*\[\s*\]|\"hooks\"\s*:\s*\{\s*\}"
    r"|del\(\s*\.(?:hooks|permissions)|/[^/]*(?:PreToolUse|BeforeTool|beforeShellExecution|hooks)[^/]*/\s*d"
)


@functools.lru_cache(maxsize=PATH_TABLES)
def _holding_directories(entries: tuple[str, ...]) -> tuple[str, ...]:
    """The directories the entries are in (`**/.claude` for `**/.claude/settings.json`): deleting or
    moving one takes its settings with it."""
    return tuple(dict.fromkeys(entry.rpartition("/")[0] for entry in entries if entry.count("/") > 1))


@functools.lru_cache(maxsize=PATH_TABLES)
def _by_last_name(entries: tuple[str, ...]) -> tuple[dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
    """The entries by the name they end in, and those ending in a glob by their directory's name
    (`hooks` of `**/.claude/hooks/*`): a path can only be an entry listed under its own names."""
    named: dict[str, list[str]] = {}
    globbed: dict[str, list[str]] = {}
    for entry in entries:
        directory, _, name = entry.rpartition("/")
        if "*" in name:
            globbed.setdefault(directory.rpartition("/")[2], []).append(entry)
        else:
            named.setdefault(name, []).append(entry)
    return {key: tuple(value) for key, value in named.items()}, {key: tuple(value) for key, value in globbed.items()}


def _entry_named(target: Arg, entries: tuple[str, ...], cwd: str | None) -> str | None:
    """The entry `target` names, matching only the entries that end in its name (most paths end in
    none, and matching every entry is the cost of every write)."""
    named, globbed = _by_last_name(entries)
    candidates: list[str] = []
    for value in target.values:
        directory, _, name = resolve_path(cwd, value).rpartition("/")
        candidates.extend((*named.get(name, ()), *globbed.get(directory.rpartition("/")[2], ())))
    return path_is_anywhere(target, tuple(dict.fromkeys(candidates)), cwd) if candidates else None


def _settings_file(target: Arg, tables: Tables, cwd: str | None, *, whole_directory: bool = False) -> str | None:
    """The agent settings entry `target` names; with `whole_directory`, also a directory holding one.
    A path known only at run time or a glob names none: `$TMPDIR/x` could be any file of
    `**/.claude/hooks/*`, and `rm -rf ~/*` deletes far more than settings (FS001's)."""
    if not target.values or target.pattern:
        return None
    entries = tables.agent_settings_files
    matched = _entry_named(target, entries, cwd)
    if matched is None and whole_directory:
        matched = _entry_named(target, _holding_directories(entries), cwd)
    return matched


@keep_last
def _changed_settings(subject: CommandSubject, tables: Tables) -> tuple[tuple[Arg, str, str], ...]:
    """The settings changes of `_settings_changes`, worked out once for the rules that ask."""
    return tuple(_settings_changes(subject, tables))


def _settings_changes(subject: CommandSubject, tables: Tables) -> Iterator[tuple[Arg, str, str]]:
    """Each agent settings file the command writes or removes, with the entry and what it does: a
    directory holding one counts when it is copied or unpacked whole (`rsync -a dots/.claude/ ~/.claude/`,
    `tar xf b.tgz -C ~/.claude`), moved or deleted."""
    for target in (*placed_paths(subject), *extracted_into(subject)):
        matched = _settings_file(target, tables, subject.cwd, whole_directory=True)
        if matched is not None:
            yield target, matched, "writes"
    for target in removed_paths(subject):
        matched = _settings_file(target, tables, subject.cwd, whole_directory=True)
        if matched is not None:
            yield target, matched, "removes"


def _literal_text(parts: tuple[ast.WordPart, ...]) -> str:
    return "".join(part.text for part in parts if type(part) is ast.Literal)


def _written_words(words: tuple[Arg, ...], subject_stdin: str = "") -> str:
    """The text a command's words and its heredoc or here-string carry, as far as it is literal."""
    return " ".join([*(word.value or word.source for word in words), subject_stdin])


def _turns_guardrails_off(text: str) -> str | None:
    found = re.search(_GUARDRAILS_OFF, text, re.IGNORECASE)
    return None if found is None else found.group(0)


def _command_text(subject: CommandSubject) -> str:
    """The command's words, and the literal text of its heredoc, here-string or the simple command piped
    into it (`jq 'del(.hooks)' F | sponge F`)."""
    stdin = subject.stdin
    document = ""
    if stdin is not None and stdin.kind in (StdinKind.HEREDOC, StdinKind.HERESTRING):
        document = _literal_text(stdin.parts)
    elif stdin is not None and stdin.kind is StdinKind.PIPE and type(stdin.writer) is ast.SimpleCommand:
        document = " ".join(_literal_text(word.parts) for word in stdin.writer.words)
    return _written_words(subject.args, document)


@rule(
    id="AG100",
    name="change-agent-settings",
    severity=Severity.MEDIUM,
    summary=(
        "Writes, moves or deletes an AI coding agent's settings: its permissions, hooks, sandbox or MCP servers "
        "(.claude/settings.json, ~/.codex/config.toml, .gemini/settings.json, .cursor/hooks.json, .mcp.json...)."
    ),
    rationale=(
        "These files decide what the agent may do without asking, which hooks check its commands (this guard's "
        "among them) and which servers it starts: an agent that edits them changes its own guardrails. It "
        "warns because setting an agent up is a task a user may ask for; words that visibly turn a guardrail "
        "off block (AG102)."
    ),
    safer_alternative="Show the user the change to make to the agent's settings and let them make it.",
    inspects=Inspects.COMMAND,
    commands=(*WRITERS, *REMOVERS),
    must_match=(
        "cp /tmp/s.json ~/.claude/settings.json",
        "rm -f .claude/settings.json",
        "rm -rf .claude",
        "mv .claude/settings.json .claude/settings.json.bak",
        "tee .cursor/mcp.json",
        "truncate -s0 .gemini/settings.json",
    ),
    must_not_match=(
        "cat .claude/settings.json",
        "cp .claude/settings.json backup/",
        "rm -rf .cursor-server",
        "cp settings.json config/settings.json",
        'sed -i \'s/"yolo": false/"yolo": true/\' ~/.gemini/settings.json',
    ),
)
def change_agent_settings(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    changed = list(_changed_settings(subject, tables))
    if changed and _turns_guardrails_off(_command_text(subject)) is None:
        for target, matched, does in changed:
            yield Hit(target.span, f"`{subject.name}` {does} the agent settings file {matched}")


@rule(
    id="AG101",
    name="redirect-into-agent-settings",
    severity=Severity.MEDIUM,
    summary="A redirect writes an AI coding agent's settings file (permissions, hooks, sandbox, MCP servers).",
    rationale=(
        "What is written there decides what the agent may do without asking and which hooks check it; the "
        "agent changes its own guardrails. It warns: a heredoc's text is not read here, and a user may ask for "
        "the agent to be set up. Words that visibly turn a guardrail off block (AG103)."
    ),
    safer_alternative="Show the user the change to make to the agent's settings and let them make it.",
    inspects=Inspects.REDIRECT,
    applies=writes_a_file,
    must_match=(
        "echo '{}' > .claude/settings.local.json",
        "cat new.json > ~/.codex/config.toml",
        "jq '.model = \"x\"' s.json > .gemini/settings.json",
    ),
    must_not_match=(
        "cat .claude/settings.json > backup.json",
        "echo '{}' > settings.json",
        "echo '{\"hooks\":{}}' > .claude/settings.json",
    ),
)
def redirect_agent_settings(subject: RedirectSubject, tables: Tables) -> Iterator[Hit]:
    target = redirect_writes_file(subject)
    matched = None if target is None else _settings_file(target, tables, subject.cwd)
    if target is not None and matched is not None and _redirected_guardrails_off(subject) is None:
        yield Hit(subject.span, f"redirect writes `{target.display()}`, the agent settings file {matched}")


def _redirected_guardrails_off(subject: RedirectSubject) -> str | None:
    return _turns_guardrails_off(_written_words(subject.command_words or ()))


@rule(
    id="AG102",
    name="agent-guardrails-off-in-settings",
    severity=Severity.HIGH,
    summary=(
        "Writes an AI coding agent's settings with words that turn a guardrail off: `bypassPermissions`, "
        '`"Bash(*)"`, `approval_policy = "never"`, `danger-full-access`, YOLO or auto-approval, hooks deleted.'
    ),
    rationale=(
        "The agent would run every command without asking, outside its sandbox, or unchecked by its hooks: "
        "no task needs an agent to lift its own limits."
    ),
    safer_alternative="Ask the user to change the agent's permissions; allow the one command the task needs.",
    inspects=Inspects.COMMAND,
    commands=(*WRITERS, *REMOVERS),
    must_match=(
        'sed -i \'s/"yolo": false/"yolo": true/\' ~/.gemini/settings.json',
        "sed -i '/PreToolUse/d' .claude/settings.json",
        'tee .claude/settings.json <<< \'{"permissions":{"defaultMode":"bypassPermissions"}}\'',
        "jq 'del(.hooks)' ~/.claude/settings.json | sponge ~/.claude/settings.json",
    ),
    must_not_match=(
        "sed -i 's/sonnet/opus/' .claude/settings.json",
        'sed -i \'s/"yolo": false/"yolo": true/\' notes.json',
    ),
)
def agent_guardrails_off_in_settings(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    changed = list(_changed_settings(subject, tables))
    marker = _turns_guardrails_off(_command_text(subject)) if changed else None
    if marker is not None:
        for target, matched, does in changed:
            yield Hit(target.span, f"`{subject.name}` {does} the agent settings file {matched} with `{marker}`")


@rule(
    id="AG103",
    name="redirect-guardrails-off-into-agent-settings",
    severity=Severity.HIGH,
    summary="A redirect writes an AI coding agent's settings with words that turn a guardrail off.",
    rationale=(
        '`bypassPermissions`, `"Bash(*)"`, a never-asking approval policy, no sandbox or empty hooks: the '
        "agent would lift its own limits, which no task needs."
    ),
    safer_alternative="Ask the user to change the agent's permissions; allow the one command the task needs.",
    inspects=Inspects.REDIRECT,
    applies=writes_a_file,
    must_match=(
        'echo \'{"permissions":{"allow":["Bash(*)"]}}\' > .claude/settings.json',
        "echo 'approval_policy = \"never\"' >> ~/.codex/config.toml",
        "printf '{\"hooks\":{}}' > $HOME/.claude/settings.json",
    ),
    must_not_match=(
        'echo \'{"permissions":{"allow":["Bash(npm test)"]}}\' > .claude/settings.json',
        "echo 'approval_policy = \"never\"' >> notes.toml",
    ),
)
def redirect_guardrails_off(subject: RedirectSubject, tables: Tables) -> Iterator[Hit]:
    target = redirect_writes_file(subject)
    matched = None if target is None else _settings_file(target, tables, subject.cwd)
    marker = None if matched is None else _redirected_guardrails_off(subject)
    if target is not None and marker is not None:
        yield Hit(
            subject.span, f"redirect writes `{target.display()}`, the agent settings file {matched}, with `{marker}`"
        )


# The options that start an agent with its permission checks, approvals or sandbox off, by program:
# a flag alone, or an option whose value (`--permission-mode bypassPermissions`, `-s
# danger-full-access`, `--approval-mode=yolo`) is one of the listed ones.
_UNGUARDED_FLAGS: dict[str, frozenset[str]] = {
    "claude": frozenset({"--dangerously-skip-permissions", "--allow-dangerously-skip-permissions"}),
    "codex": frozenset({"--dangerously-bypass-approvals-and-sandbox", "--yolo"}),
    "gemini": frozenset({"--yolo", "-y"}),
    "qwen": frozenset({"--yolo", "-y"}),
    "cursor-agent": frozenset({"--force", "-f"}),
    "amp": frozenset({"--dangerously-allow-all"}),
    "copilot": frozenset({"--allow-all-tools", "--allow-all", "--yolo"}),
}
_UNGUARDED_VALUES: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "claude": (frozenset({"--permission-mode"}), frozenset({"bypassPermissions"})),
    "codex": (frozenset({"-s", "--sandbox", "-c", "--config"}), frozenset({"danger-full-access"})),
    "gemini": (frozenset({"--approval-mode"}), frozenset({"yolo"})),
    "qwen": (frozenset({"--approval-mode"}), frozenset({"yolo"})),
}


def _unguarded_option(name: str, args: tuple[Arg, ...]) -> Arg | None:
    """The word that starts the agent `name` without its guardrails, if any."""
    flags = _UNGUARDED_FLAGS.get(name, frozenset())
    options, values = _UNGUARDED_VALUES.get(name, (frozenset(), frozenset()))
    previous = ""
    for word in args:
        value = word.value or ""
        if value == "--":
            return None
        option, equals, attached = value.partition("=")
        if value in flags or (previous in options and _names_value(value, values)):
            return word
        if equals and option in options and _names_value(attached, values):
            return word
        previous = value
    return None


def _names_value(value: str, values: frozenset[str]) -> bool:
    """`danger-full-access`, or a Codex `-c` setting to it (`sandbox_mode="danger-full-access"`)."""
    return value in values or value.rpartition("=")[2].strip("\"'") in values


@rule(
    id="AG104",
    name="agent-started-without-guardrails",
    severity=Severity.HIGH,
    summary=(
        "Starts an AI coding agent with its permission checks, approvals or sandbox off: `claude "
        "--dangerously-skip-permissions`, `codex --dangerously-bypass-approvals-and-sandbox`, `gemini --yolo`, "
        "`cursor-agent --force`."
    ),
    rationale=(
        "The agent started would run whatever it decides, unasked and outside its sandbox: an agent that starts "
        "one escapes its own guardrails, and a prompt injected into the task drives the new one."
    ),
    safer_alternative="Start the agent with its default permissions, or ask the user to run it unattended themselves.",
    inspects=Inspects.COMMAND,
    commands=tuple(_UNGUARDED_FLAGS),
    must_match=(
        "claude --dangerously-skip-permissions",
        "claude -p 'fix the tests' --permission-mode bypassPermissions",
        "codex exec --sandbox danger-full-access 'x'",
        "codex --dangerously-bypass-approvals-and-sandbox 'x'",
        "gemini --approval-mode=yolo -p 'x'",
    ),
    must_not_match=(
        "claude -p 'summarize the README'",
        "claude --permission-mode plan",
        "codex --full-auto 'fix the tests'",
        "gemini -p 'explain --yolo'",
    ),
)
def agent_started_without_guardrails(subject: CommandSubject, _tables: Tables) -> Iterator[Hit]:
    name = subject.name or ""
    word = _unguarded_option(name, subject.args)
    if word is not None:
        yield Hit(word.span, f"`{name} {word.display()}` starts the agent with its guardrails off")


# The agents' own commands that add an MCP server to their settings (`claude mcp add NAME -- CMD...`).
_MCP_ADDERS = frozenset({"claude", "codex", "gemini", "qwen"})


@rule(
    id="AG106",
    name="agent-mcp-server-added",
    severity=Severity.MEDIUM,
    summary="Adds an MCP server to an AI coding agent with its own command (`claude mcp add`, `codex mcp add`, `gemini mcp add`).",
    rationale=(
        "The agent starts the server's command by itself in every later session and gives its tools to the "
        "model: a server added by the agent runs code no one reviewed (`npx -y PACKAGE` fetches it at each "
        "start). It warns, as writing the server into `.mcp.json` does (AG101)."
    ),
    safer_alternative="Let the user add the server, after reading what its command runs.",
    inspects=Inspects.COMMAND,
    commands=tuple(_MCP_ADDERS),
    must_match=(
        "claude mcp add evil -- npx -y evil-mcp",
        'claude mcp add-json x \'{"command":"sh"}\'',
        "codex mcp add docs -- npx -y docs-server",
        "gemini mcp add srv node server.js",
    ),
    must_not_match=("claude mcp list", "claude mcp get evil", "codex mcp list", "claude -p 'add an mcp server'"),
)
def agent_mcp_server_added(subject: CommandSubject, _tables: Tables) -> Iterator[Hit]:
    operands = [word for word in subject.args if not (word.value or "").startswith("-")]
    if len(operands) >= 2 and operands[0].value == "mcp" and (operands[1].value or "").startswith("add"):
        yield Hit(
            operands[1].span, f"`{subject.name} mcp {operands[1].value}` adds a server the agent starts by itself"
        )


_THIS_GUARD = "agent-shell-guard"
_PACKAGE_REMOVERS = frozenset({"pip", "pip3", "pipx", "uv"})


def _guard_removed(subject: CommandSubject) -> Arg | None:
    """`audit-cmd hook uninstall AGENT` (not `--dry-run`), or this guard's package uninstalled
    (`pip uninstall agent-shell-guard`, `pipx uninstall ...`, `uv pip uninstall ...`): the hook is gone, or
    fails to start, and most agents let a command run when its hook fails."""
    values = [word.value or "" for word in subject.args]
    if subject.name == "audit-cmd":
        if values[:2] == ["hook", "uninstall"] and "--dry-run" not in values:
            return subject.args[1]
        return None
    if "uninstall" not in values or subject.name not in _PACKAGE_REMOVERS:
        return None
    return next((word for word in subject.args if (word.value or "").lower() == _THIS_GUARD), None)


@rule(
    id="AG105",
    name="guard-hook-removed",
    severity=Severity.MEDIUM,
    summary=(
        "Removes this guard from the agent: `audit-cmd hook uninstall AGENT`, or its package uninstalled "
        "(`pip uninstall agent-shell-guard`)."
    ),
    rationale=(
        "The hook checks every command the agent runs; an agent that removes it runs the next ones unchecked, and "
        "most agents let a command run when its hook fails to start. It warns: a user may ask for it."
    ),
    safer_alternative="Let the user remove the hook; turn one rule off in the policy instead (`[rules]`).",
    inspects=Inspects.COMMAND,
    commands=("audit-cmd", *_PACKAGE_REMOVERS),
    must_match=(
        "audit-cmd hook uninstall claude-code",
        "audit-cmd hook uninstall gemini-cli --user",
        "pip uninstall -y agent-shell-guard",
        "pipx uninstall agent-shell-guard",
    ),
    must_not_match=(
        "audit-cmd hook uninstall claude-code --dry-run",
        "audit-cmd hook install claude-code",
        "pip uninstall -y requests",
    ),
)
def guard_hook_removed(subject: CommandSubject, _tables: Tables) -> Iterator[Hit]:
    word = _guard_removed(subject)
    if word is not None:
        yield Hit(word.span, f"`{subject.name} {word.display()}` removes the hook that checks the agent's commands")


AGENT_GUARDRAIL_RULES = (
    change_agent_settings,
    redirect_agent_settings,
    agent_guardrails_off_in_settings,
    redirect_guardrails_off,
    agent_started_without_guardrails,
    guard_hook_removed,
    agent_mcp_server_added,
)
