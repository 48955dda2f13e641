"""What programs do with the data they are given: which read the files they
name, which use a credential rather than copy it, which print the
environment, and whether what they print keeps what they read.

The secret-file rules (SE001-SE004) ask which arguments a command reads; the
analysis asks what a command's output carries on its way to a network sender
(`_analysis/_secrets.py`).
"""

from __future__ import annotations

import re

from ._arg import Arg
from ._program import Reading

PATH_ONLY = frozenset(
    {
        "echo", "printf", "ls", "stat", "test", "[", "realpath", "readlink", "basename", "dirname",
        "namei", "du", "find", "touch", "mkdir", "which", "type", "command", "chmod", "chown", "chgrp",
        "getfacl", "lsattr", "file", "wc", "rm", "rmdir", "unlink", "ln", "chattr", "cd", "pushd",
    }
)  # fmt: skip
"""Commands that take a path without reading the file's contents."""

CREDENTIAL_USERS = frozenset(
    {"ssh", "ssh-add", "ssh-keygen", "ssh-copy-id", "sftp", "git", "kubectl", "helm", "docker", "aws", "gcloud", "az",
     "gpg"}
)  # fmt: skip
"""Tools that use a credential file for its purpose (`ssh -i KEY`, kubectl with its
kubeconfig) rather than copying it anywhere."""

KEEP_CREDENTIALS = CREDENTIAL_USERS - {"gpg"}
"""Credential users whose output never holds the files they read (gpg's does: it
encrypts, signs or exports them)."""

ARCHIVERS = frozenset(
    {"tar", "bsdtar", "gtar", "zip", "7z", "7za", "7zr", "rar", "pax", "jar", "gpgtar", "rsync", "scp", "cp"}
)
"""Commands that read a directory they are given with everything in it (`tar c ~/.ssh`)."""

# Searchers that go through a directory they are given by default, and grep's options that make it.
_RECURSIVE_SEARCHERS = frozenset({"rg", "ag", "ack", "ugrep"})
_RECURSIVE_OPTIONS = ("-r", "-R", "--recursive", "--dereference-recursive")

EXTRACTORS = frozenset(
    {"grep", "egrep", "fgrep", "rg", "cut", "jq", "yq", "awk", "gawk", "mawk", "sed", "head", "tail"}
)
"""Filters that pick a part of what they read (one line, one field, one value)."""

_SUMMARISERS = frozenset(
    {
        "wc", "md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "b2sum", "shasum", "cksum",
        "sum", "true", "false", ":", "sleep", "test", "[", "cmp",
    }
)  # fmt: skip
# grep's options that print counts, names or nothing instead of the lines.
_GREP_SUMMARIES = ("-c", "--count", "-q", "--quiet", "--silent", "-l", "--files-with-matches", "-L")
_GREPS = frozenset({"grep", "egrep", "fgrep", "rg"})


def keeps_input(name: str, reading: Reading) -> bool:
    """Whether what the command prints may hold what it reads (not `wc -l`, `sha256sum`, `grep -c`)."""
    if name in _SUMMARISERS:
        return False
    return not (name in _GREPS and reading.has(*_GREP_SUMMARIES))


def reads_directories(name: str, reading: Reading) -> bool:
    """Whether the command reads a directory it is given with everything in it: an archiver (`tar c
    ~/.ssh`), a recursive grep (`grep -r KEY ~`), a searcher that recurses by default (`rg KEY ~`)."""
    return (
        name in ARCHIVERS
        or name in _RECURSIVE_SEARCHERS
        or (name in _GREPS and name != "rg" and reading.has(*_RECURSIVE_OPTIONS))
    )


# Paths that name the working directory whole, or everything in it.
WORKING_DIRECTORY = frozenset({".", "./", "*", "./*"})


def prints_repository(name: str, reading: Reading) -> str | None:
    """What of the repository git prints on standard output: `git bundle create - ...` (its
    history), `git archive TREE` without `-o` (a tree); None for anything else."""
    if name != "git":
        return None
    words = [arg.value for arg in reading.operands[:3]]
    if words[:2] == ["bundle", "create"] and words[2:] == ["-"]:
        return "git bundle create -"
    if words[:1] == ["archive"] and not reading.has("-o", "--output", "--remote", "--list", "-l"):
        return "git archive"
    return None


_JQ_LIKE = frozenset({"jq", "gojq", "jaq"})


def prints_environment(name: str, reading: Reading) -> bool:
    """`env`, `printenv`, `set`, `export -p`, `declare -x`, `ps e`, `jq -n env`: the variables and their values."""
    if name in ("env", "printenv"):
        return not reading.operands
    if name == "set":
        return not reading.args
    if name == "export":
        return not reading.operands and all(use.spelling == "-p" for use in reading.options)
    if name in ("declare", "typeset"):
        return not reading.operands and not reading.has("-f", "-F")
    if name in _JQ_LIKE:
        # `jq -n env`, `jq -n '$ENV'`: the program is the whole environment as an object.
        program = reading.operands[0].value if reading.operands else None
        return program is not None and program.strip() in ("env", "$ENV")
    if name == "ps":
        # BSD-style options (`ps eww`, `ps auxe`) with `e` show each process's environment.
        first = reading.args[0].value if reading.args else None
        return first is not None and not first.startswith("-") and "e" in first
    if name in CONTAINER_ENGINES and reading.path[-1:] == ("inspect",):
        # A container's configuration holds its `Env`; a template that picks something else does not print it.
        return all(_TEMPLATE_SHOWS_ENVIRONMENT.search(template.value or "") for template in reading.values("--format"))
    return False


CONTAINER_ENGINES = frozenset({"docker", "podman", "nerdctl"})
# `{{json .Config.Env}}`, `{{range .Config.Env}}`, `{{json .}}`, `{{json .Config}}`: templates that print the variables.
_TEMPLATE_SHOWS_ENVIRONMENT = re.compile(r"\.Env\b|\{\{\s*json\s+\.(?:Config)?\s*\}\}")
# The subcommands that run a command inside a container, a compose service or a pod, by program.
_INSIDE: dict[str, frozenset[tuple[str, ...]]] = {
    **dict.fromkeys(CONTAINER_ENGINES, frozenset({("exec",), ("container", "exec"), ("compose", "exec")})),
    "kubectl": frozenset({("exec",)}),
    "oc": frozenset({("exec",)}),
}


def command_inside(name: str, reading: Reading) -> tuple[Arg, ...]:
    """The command `docker exec CONTAINER CMD...` or `kubectl exec POD -- CMD...` runs inside, whose
    output the local command prints (`docker exec web env` prints the container's environment)."""
    if reading.path not in _INSIDE.get(name, frozenset()):
        return ()
    inside = reading.operands[1:]
    return inside[1:] if inside[:1] and inside[0].value == "--" else inside


# Clipboard readers: what was copied last, often a password or a token.
_CLIPBOARD_PASTERS = frozenset({"pbpaste", "wl-paste", "termux-clipboard-get"})
# history's options that clear, write or change the list instead of printing it.
_HISTORY_EDITS = ("-c", "-d", "-a", "-n", "-r", "-w", "-s")


def prints_typed(name: str, reading: Reading) -> str | None:
    """What a user typed or copied that the command prints: the clipboard (`pbpaste`, `xclip -o`,
    `xsel -o`) or the shell history (`history`, `fc -l`); None for other commands."""
    if name in _CLIPBOARD_PASTERS:
        return "the clipboard"
    # xclip's options are whole words (`-selection`), never clusters of letters.
    if name == "xclip" and any(arg.value in ("-o", "-out") for arg in reading.args):
        return "the clipboard"
    if name == "xsel" and reading.has("-o", "--output"):
        return "the clipboard"
    if name == "history" and not reading.has(*_HISTORY_EDITS):
        return "the shell history"
    if name == "fc" and reading.has("-l"):
        return "the shell history"
    return None
