"""macOS's own tools the system.macos pack reads: `xattr` (a file's extended attributes, among them the
quarantine Gatekeeper checks), `networksetup` (the network services' settings, among them the web
proxies), `tccutil` (the privacy permissions), the directory tools (`dscl`, `dseditgroup`,
`sysadminctl`: accounts and groups), `launchctl` (launchd's jobs) and `osascript` read as a program (its `-e` lines are
AppleScript: the pack looks at what they ask of the system; the shell commands they run are audited by audit/languages/_shell_calls.py).
"""

from __future__ import annotations

from ._grammar import Syntax, flag, valued
from ._program import Program
from .interpreters import interpreter_program

# xattr's switches are all flags (`-dr NAME FILE`): the attribute's name is the first operand.
XATTR = Program(
    ("xattr",),
    options=(
        flag("-d"), flag("-c"), flag("-r"), flag("-p"), flag("-w"), flag("-l"), flag("-s"), flag("-v"), flag("-x"),
        flag("-h"),
    ),
    operands=("ARGUMENT...",),
)  # fmt: skip

# networksetup's verbs are single-dash words (`-setwebproxy SERVICE HOST PORT`): every word is an operand.
NETWORKSETUP = Program(("networksetup",), syntax=Syntax(permute=False, signs="+"), operands=("ARG...",))

OSASCRIPT = interpreter_program("applescript", ("osascript",))

# tccutil's verb and service are operands (`reset All [BUNDLE_ID]`).
TCCUTIL = Program(("tccutil",), options=(flag("-h", "--help"),), operands=("ARG...",))

# The directory tools' verbs are single-dash words (`dscl . -append PATH KEY VALUE`, `sysadminctl -addUser
# NAME -admin`, `dseditgroup -o edit -a NAME admin`), and so are systemsetup's (`-setremotelogin off`):
# every word is an operand.
DIRECTORY_TOOLS = Program(
    ("dscl", "dseditgroup", "sysadminctl", "systemsetup"), syntax=Syntax(permute=False, signs="+"), operands=("ARG...",)
)

# launchctl's verb comes first and its options after it (`load -w PATH`, `bootstrap gui/501 PATH`,
# `submit -l LABEL -- PROGRAM`).
LAUNCHCTL = Program(
    ("launchctl",),
    options=(
        flag("-w"), flag("-F"), valued("-S"), valued("-D"), valued("-l"), valued("-p"), valued("-o"), valued("-e"),
        flag("-h", "--help"),
    ),
    operands=("SUBCOMMAND", "ARG..."),
)  # fmt: skip

MACOS_PROGRAMS: tuple[Program, ...] = (XATTR, NETWORKSETUP, OSASCRIPT, TCCUTIL, DIRECTORY_TOOLS, LAUNCHCTL)
