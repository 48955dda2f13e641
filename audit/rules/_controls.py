"""Security controls turned off by assignments: the shell's history variables (EV002) and the
variables that turn certificate checks off (EV003).

The programs that turn controls off (firewalls, SELinux and AppArmor, the audit system,
`history -c`, `git config http.sslVerify false`) are the system.controls pack's; an assignment
names no program, and the packs load by program name. Erasing the shell's history file is read
with the system's logs (`_system_logs.py`).
"""

from __future__ import annotations

from collections.abc import Iterator

from .._analysis import AssignmentSubject
from .._model import Severity
from .._tables import Tables
from ..programs.destinations import on_the_loopback
from ._rule import Hit, Inspects, rule

_HISTORY_SIZES = frozenset({"HISTSIZE", "HISTFILESIZE", "SAVEHIST"})


def _history_turned_off(name: str, value: str) -> bool:
    """HISTFILE empty or /dev/null saves nothing; a size of 0 keeps nothing (HISTSIZE in the
    session, HISTFILESIZE and zsh's SAVEHIST in the file); HISTIGNORE `*` leaves every command out."""
    if name == "HISTFILE":
        return value in ("", "/dev/null")
    if name in _HISTORY_SIZES:
        return value.isdigit() and int(value) == 0
    if name == "HISTIGNORE":
        return "*" in value.split(":")
    return False


@rule(
    id="EV002",
    name="shell-history-variable-off",
    severity=Severity.MEDIUM,
    summary=(
        "Sets the shell's history variables so that nothing is kept: `HISTFILE=/dev/null` or empty, "
        "`HISTSIZE=0`, `HISTFILESIZE=0`, zsh's `SAVEHIST=0`, `HISTIGNORE='*'`."
    ),
    rationale=(
        "The shell's history is how a person finds out later what was run in a session; turning it off "
        "is a step of hiding what comes next, and no build or task needs it. It warns: the history is "
        "a convenience, not an audit trail (the audit system's rules block)."
    ),
    safer_alternative=(
        "Leave the history on; to keep one command out of it, start it with a space where "
        "`HISTCONTROL=ignorespace` is set, or delete its line with `history -d OFFSET`."
    ),
    inspects=Inspects.ASSIGNMENT,
    must_match=(
        "HISTFILE=/dev/null",
        "export HISTFILESIZE=0",
        "HISTSIZE=0",
        "export HISTFILE=",
        "SAVEHIST=0",
        "HISTIGNORE='*'",
        "HISTFILE=/dev/null bash -i",
    ),
    must_not_match=(
        "HISTSIZE=10000",
        "export HISTFILE=~/.bash_history_project",
        "HISTIGNORE='ls:cd:pwd'",
        "echo $HISTFILE",
        "HISTCONTROL=ignoreboth",
    ),
)
def shell_history_variable_off(subject: AssignmentSubject, _tables: Tables) -> Iterator[Hit]:
    name, value = subject.name, subject.value
    if value is not None and value.value is not None and _history_turned_off(name, value.value):
        yield Hit(subject.span, f"`{name}={value.value}` keeps no shell history")


_FALSE = ("false", "0", "no", "off")
# The variables that turn a check off with some values (npm reads its `npm_config_*` in any case),
# those that do with any host list, and git's, which does by being set at all.
_OFF_VALUES: dict[str, tuple[str, ...]] = {
    "NODE_TLS_REJECT_UNAUTHORIZED": ("0",),
    "PYTHONHTTPSVERIFY": ("0",),
    "NPM_CONFIG_STRICT_SSL": _FALSE,
    "YARN_ENABLE_STRICT_SSL": _FALSE,
}
_TRUSTED_HOSTS = frozenset({"PIP_TRUSTED_HOST", "GOINSECURE"})
_SET_AT_ALL = "GIT_SSL_NO_VERIFY"
# Package indexes given as a URL: one over plain HTTP can be rewritten by anyone on the path.
_PACKAGE_INDEXES = frozenset(
    {"PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "NPM_CONFIG_REGISTRY", "YARN_NPM_REGISTRY_SERVER"}
)


def plain_http_over_network(url: str) -> bool:
    """An `http://` URL of another host: what it serves can be rewritten on the network path (a
    registry on the loopback, `http://localhost:4873`, never leaves the machine)."""
    return url[:7].lower() == "http://" and not on_the_loopback(url)


# Go's module settings: its checksum database turned off (`GOSUMDB=off`), or skipped for every
# module (`GONOSUMDB=*`), fetches over plain HTTP allowed (`GOFLAGS=-insecure`), and a module proxy
# list (`GOPROXY=http://x,direct`) with an entry over plain HTTP.
_GO_EVERY_MODULE = frozenset({"GONOSUMDB", "GONOSUMCHECK", "GOPRIVATE"})


def go_check_off(key: str, value: str) -> bool:
    """A Go setting (variable or `go env -w`) that stops Go from checking the modules it downloads."""
    if key == "GOSUMDB":
        return value.lower() == "off"
    if key in _GO_EVERY_MODULE:
        return "*" in value.split(",")
    return key == "GOFLAGS" and "-insecure" in value.split()


def go_proxy_over_plain_http(key: str, value: str) -> bool:
    """`GOPROXY` listing a proxy over plain HTTP on another machine (entries split at `,` and `|`)."""
    return key == "GOPROXY" and any(plain_http_over_network(entry) for entry in value.replace("|", ",").split(","))


def _transport_check_off(name: str, value: str) -> bool:
    key = name.upper() if name[:11].lower() == "npm_config_" else name
    if key in _PACKAGE_INDEXES:
        return plain_http_over_network(value)
    if go_check_off(key, value) or go_proxy_over_plain_http(key, value):
        return True
    off_values = _OFF_VALUES.get(key)
    if off_values is not None:
        return value.lower() in off_values
    return key == _SET_AT_ALL or (key in _TRUSTED_HOSTS and value != "")


@rule(
    id="EV003",
    name="certificate-check-variable-off",
    severity=Severity.MEDIUM,
    summary=(
        "Exports a variable that turns certificate checks off (`GIT_SSL_NO_VERIFY`, "
        "`NODE_TLS_REJECT_UNAUTHORIZED=0`, `PYTHONHTTPSVERIFY=0`, `npm_config_strict_ssl=false`, "
        "`PIP_TRUSTED_HOST`, `GOINSECURE`), Go's checksum database (`GOSUMDB=off`, `GONOSUMDB=*`, "
        "`GOFLAGS=-insecure`), or points a package manager at an index over plain HTTP (`GOPROXY=http://...`)."
    ),
    rationale=(
        "Without the check anyone on the network path can serve the code and packages the command "
        "downloads. It warns: a proxy that breaks certificates is a common reason, and the download "
        "itself is judged on its own."
    ),
    safer_alternative=(
        "Give the tool the proxy's or the private registry's CA certificate (`GIT_SSL_CAINFO`, "
        "`NODE_EXTRA_CA_CERTS`, `PIP_CERT`) and an `https://` index."
    ),
    inspects=Inspects.ASSIGNMENT,
    must_match=(
        "GIT_SSL_NO_VERIFY=1 git clone https://git.example.com/app.git",
        "export NODE_TLS_REJECT_UNAUTHORIZED=0",
        "env PYTHONHTTPSVERIFY=0 python3 fetch.py",
        "npm_config_strict_ssl=false npm install",
        "export PIP_TRUSTED_HOST=pypi.example.com",
        "PIP_INDEX_URL=http://pypi.example.com/simple pip install app",
        "GOSUMDB=off go get example.com/mod@v1.2.3",
        "export GOPROXY=https://proxy.golang.org,http://goproxy.example.net,direct",
    ),
    must_not_match=(
        "export GOPROXY=https://proxy.golang.org,direct",
        "export GONOSUMDB=github.com/acme/*",
        "export NODE_TLS_REJECT_UNAUTHORIZED=1",
        "export NODE_EXTRA_CA_CERTS=/etc/ssl/corp.pem",
        "PIP_INDEX_URL=https://pypi.example.com/simple pip install app",
        "NPM_CONFIG_REGISTRY=http://localhost:4873 npm publish",
        "GIT_SSL_NO_VERIFY=1",
        "echo $GIT_SSL_NO_VERIFY",
    ),
)
def certificate_check_variable_off(subject: AssignmentSubject, _tables: Tables) -> Iterator[Hit]:
    value = subject.value
    if (
        subject.exported
        and value is not None
        and value.value is not None
        and _transport_check_off(subject.name, value.value)
    ):
        yield Hit(subject.span, f"`{subject.name}={value.value}` turns off the check of who serves downloads")


CONTROL_RULES = (shell_history_variable_off, certificate_check_variable_off)
