"""A regex classifier of the kind many command guards ship, as the speed reference.

It is the usual design: a list of compiled dangerous-pattern regexes, each
with a decision and a reason, searched one after the other in the raw
command string; the strictest match decides and every match is reported.
It knows nothing about quoting, nesting or what bash runs, so it is easy to
fool and prone to false alarms; it is here only so the benchmark can time
the engine against what such a classifier costs on the same commands, in
the same process, interleaved. Nothing in the engine uses it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

BaselineDecision = Literal["pass", "warn", "block"]


@dataclass(frozen=True, slots=True)
class Pattern:
    decision: BaselineDecision
    reason: str
    regex: re.Pattern[str]


def _block(reason: str, regex: str, flags: int = 0) -> Pattern:
    return Pattern("block", reason, re.compile(regex, flags))


def _warn(reason: str, regex: str, flags: int = 0) -> Pattern:
    return Pattern("warn", reason, re.compile(regex, flags))


PATTERNS: tuple[Pattern, ...] = (
    # destruction of files and disks
    _block("recursive forced delete of a root or home path", r"\brm\s+(-\w+\s+)*-\w*(rf|fr)\w*\s+(/|~|\$HOME|\*)"),
    _block("recursive forced delete (split options)", r"\brm\s+(-r|-R|--recursive)\s+(-f|--force)\s+(/|~|\$HOME)"),
    _block("delete with sudo", r"\bsudo\s+rm\b"),
    _block("file system creation", r"\bmkfs(\.\w+)?\b"),
    _block("raw write to a disk", r"\bdd\s+.*\bof=/dev/(sd|nvme|hd|xvd|vd|mmcblk)"),
    _block("redirect onto a disk device", r">\s*/dev/(sd|nvme|hd|xvd|vd)[a-z0-9]*\b"),
    _block("disk partitioning or wiping", r"\b(wipefs|fdisk|sfdisk|parted|shred)\b"),
    _block("fork bomb", r":\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:"),
    _block("world-writable root", r"\bchmod\s+(-R\s+)?0?777\s+/"),
    _block("recursive ownership change of root", r"\bchown\s+-R\s+\S+\s+/(\s|$)"),
    _block("move into /dev/null", r"\bmv\s+.*\s/dev/null\b"),
    _block("find deleting files", r"\bfind\s+.*(-delete\b|-exec\s+rm\b)"),
    _block("xargs into rm", r"\bxargs\s+(-\S+\s+)*rm\b"),
    _warn("file truncated to zero", r"\btruncate\s+-s\s*0\b"),
    # downloads run as code
    _block("download piped to a shell", r"\b(curl|wget)\b[^|]*\|\s*(sudo\s+)?(ba|z|k|da|fi)?sh\b"),
    _block("download piped to an interpreter", r"\b(curl|wget)\b[^|]*\|\s*(sudo\s+)?(python[0-9.]*|perl|ruby|node)\b"),
    _block("download run through a substitution", r"\b(ba)?sh\s+(-c\s+)?[\"']?\$\(\s*(curl|wget)\b"),
    _block("eval of a download", r"\beval\s+.*\$\(\s*(curl|wget)\b"),
    _block("decoded data piped to a shell", r"\bbase64\s+(-d|--decode)\b.*\|\s*(ba)?sh\b"),
    _block("process substitution of a download", r"\b(ba)?sh\s+<\(\s*(curl|wget)\b"),
    # remote access and exfiltration
    _block("reverse shell through /dev/tcp", r"/dev/(tcp|udp)/"),
    _block("interactive shell redirected to a socket", r"\b(ba)?sh\s+-i\s+[<>]&"),
    _block("netcat executing a program", r"\b(nc|ncat|netcat)\b.*\s-[a-z]*[ec]\s"),
    _block("socat shell", r"\bsocat\b.*\bexec:"),
    _warn("upload of a local file", r"\b(curl|wget)\b.*\s(-d|--data(-binary)?|-T|--upload-file|-F)\s+@"),
    _warn("copy of credentials off the machine", r"\b(scp|rsync)\b.*(\.ssh/|\.aws/|\.env\b|\.netrc)"),
    # secrets
    _block("reading password hashes", r"/etc/(shadow|gshadow)\b"),
    _warn("reading a private key", r"\.ssh/id_(rsa|dsa|ecdsa|ed25519)\b(?!\.pub)"),
    _warn("reading cloud credentials", r"\.(aws/credentials|docker/config\.json|kube/config)\b"),
    _warn("reading an environment file", r"\b(cat|less|more|head|tail)\s+.*\.env\b"),
    _warn("printing the environment", r"^\s*(env|printenv)\s*$"),
    # persistence and tampering
    _block("write to the system accounts", r">>?\s*/etc/(passwd|shadow|sudoers|group)\b"),
    _block("authorized keys changed", r">>?\s*\S*\.ssh/authorized_keys\b"),
    _warn("shell start-up file changed", r">>?\s*\S*\.(bashrc|zshrc|profile|bash_profile|zprofile)\b"),
    _block("crontab removed", r"\bcrontab\s+-r\b"),
    _warn("crontab replaced", r"\bcrontab\s+(-\s*$|\S+\.txt)"),
    _warn("linker preload", r"\bLD_PRELOAD=|\bexport\s+LD_PRELOAD\b"),
    _warn("history disabled", r"\b(unset\s+HISTFILE|history\s+-c|HISTSIZE=0)\b"),
    _block("immutable attribute", r"\bchattr\s+[+-]i\b"),
    _warn("git hooks path changed", r"\bgit\s+config\s+.*core\.hooksPath\b"),
    # system state
    _block("shutdown or reboot", r"\b(shutdown|reboot|halt|poweroff)\b"),
    _block("runlevel change", r"\binit\s+[06]\b"),
    _block("kill every process", r"\bkill\s+-(9|KILL)\s+-1\b"),
    _warn("forced kill by name", r"\b(pkill|killall)\s+-9\b"),
    _block("firewall flushed", r"\biptables\s+(-F|--flush)\b"),
    _block("SELinux disabled", r"\bsetenforce\s+0\b"),
    _warn("kernel parameter changed", r"\bsysctl\s+-w\b"),
    _warn("user accounts changed", r"\b(userdel|usermod|passwd|chpasswd)\b"),
    _warn("root shell", r"\bsudo\s+(su|-i|-s|bash|sh)\b"),
    _warn("package removal", r"\b(apt(-get)?|yum|dnf)\s+(remove|purge|autoremove)\b"),
    # version control and infrastructure
    _warn("forced push", r"\bgit\s+push\b.*\s(--force\b|-f\b|--force-with-lease\b)"),
    _warn("hard reset", r"\bgit\s+reset\s+--hard\b"),
    _warn("untracked files deleted", r"\bgit\s+clean\s+-\w*f"),
    _warn("branch deleted", r"\bgit\s+branch\s+-D\b"),
    _block("infrastructure destroyed", r"\bterraform\s+(destroy|apply\s+.*-auto-approve)\b"),
    _block("cluster objects deleted", r"\bkubectl\s+delete\s+(ns|namespace|--all|all)\b"),
    _warn("containers removed", r"\bdocker\s+(system\s+prune|rm\s+-f|rmi\s+-f|volume\s+prune)\b"),
    _block("bucket deleted", r"\baws\s+s3\s+(rm\s+.*--recursive|rb\b)"),
    _block("database dropped", r"\b(DROP\s+(TABLE|DATABASE|SCHEMA)|TRUNCATE\s+TABLE)\b", re.IGNORECASE),
    _warn("package published", r"\b(npm|yarn|pnpm)\s+publish\b|\btwine\s+upload\b"),
    _warn("plain-HTTP package index", r"\bpip\s+install\b.*--(extra-)?index-url\s+http:"),
    # interpreters running system calls
    _warn(
        "python one-liner with system calls",
        r"\bpython[0-9.]*\s+-c\s+.*(os\.system|subprocess|shutil\.rmtree|os\.remove)",
    ),
    _warn("perl one-liner with system calls", r"\bperl\s+-e\s+.*\b(system|exec|unlink)\b"),
    _warn("node one-liner with child processes", r"\bnode\s+-e\s+.*child_process"),
    _warn("background job detached", r"\bnohup\b.*&\s*$"),
)

_STRICTNESS: dict[BaselineDecision, int] = {"pass": 0, "warn": 1, "block": 2}


@dataclass(frozen=True, slots=True)
class BaselineVerdict:
    decision: BaselineDecision
    reasons: tuple[str, ...]


def classify(command: str) -> BaselineVerdict:
    """Search every pattern in the raw string; the strictest match decides."""
    decision: BaselineDecision = "pass"
    reasons: list[str] = []
    for pattern in PATTERNS:
        if pattern.regex.search(command) is not None:
            reasons.append(pattern.reason)
            if _STRICTNESS[pattern.decision] > _STRICTNESS[decision]:
                decision = pattern.decision
    return BaselineVerdict(decision, tuple(reasons))
