"""Windows' system tools as bash runs them (WSL, Git Bash, MSYS2) and the PowerShell cmdlets the
analyser reports as the programs they are (the system.windows pack's programs).

Their switches (`/create`, `/v`, `-DisableRealtimeMonitoring`) are case-insensitive and
not POSIX options: every word is an operand, and the pack reads the words in lower case.
A command named `REG.EXE` is `reg` (audit/_analysis/_normalize.basename).
"""

from __future__ import annotations

from ._grammar import Syntax
from ._program import Program

_WORDS = Syntax(permute=False, signs="+")
"""No word is an option: `/v` and `-Disable...` are read as operands."""


def _tool(*names: str) -> Program:
    return Program(names, syntax=_WORDS, operands=("ARG...",))


WINDOWS_PROGRAMS = (
    _tool("reg"),
    _tool("schtasks"),
    _tool("bcdedit"),
    _tool("reagentc"),
    _tool("wevtutil"),
    _tool("netsh"),
    _tool("cipher"),
    _tool("sc"),
    _tool("set-mppreference"),
    _tool("add-mppreference"),
    _tool("set-netfirewallprofile"),
    _tool("clear-eventlog"),
    _tool("remove-eventlog"),
    _tool("new-itemproperty"),
    _tool("set-itemproperty"),
    _tool("register-scheduledtask"),
    _tool("net", "net1"),
    _tool("rundll32"),
    _tool("procdump", "procdump64"),
    _tool("ntdsutil"),
    _tool("certutil"),
    _tool("bitsadmin"),
    _tool("add-localgroupmember"),
    _tool("add-adgroupmember"),
    _tool("new-localuser"),
    _tool("start-bitstransfer"),
    _tool("format", "format.com"),
    _tool("format-volume"),
    _tool("clear-disk"),
    _tool("remove-partition"),
    _tool("wsl"),
    _tool("wslconfig"),
    _tool("set-executionpolicy"),
    _tool("icacls"),
    _tool("taskkill"),
    _tool("stop-process"),
)
