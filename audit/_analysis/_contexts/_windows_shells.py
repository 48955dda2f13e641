"""Windows' shells run from bash (WSL, Git Bash, MSYS2): where `powershell`/`pwsh` and `cmd`
find the code they run.

Their parameters are not POSIX options: PowerShell's are case-insensitive, take any
unique prefix (`-NoP`, `-EncodedC`) and start with `-` or `/`; `-Command` takes every
word after it as the code, and `-EncodedCommand` takes code encoded as PowerShell
encodes it (base64 of UTF-16LE), decoded here and audited like code written out. cmd's
`/c` and `/k` take the rest of the line. The code is judged by its language's analyser.
"""

from __future__ import annotations

import base64
import binascii

from ..._syntax import Origin
from ...programs import InterpreterSpec
from .._risks import NO_RISKS
from .._subjects import Arg, CodeFactKind, CodeFactSubject, ContextKind, Risk
from ._call import Call, ContextWalk
from ._code import audit_code, code_string, script_operand, stdin_code

# PowerShell's parameters, in the order it tries a prefix against them (`-e` is -EncodedCommand).
_COMMAND = "command"
_ENCODED = "encodedcommand"
_FILE = "file"
_VALUED = (
    "executionpolicy", "windowstyle", "workingdirectory", "inputformat", "outputformat", "configurationname",
    "configurationfile", "custompipename", "settingsfile", "version", "psconsolefile", "encodedarguments",
)  # fmt: skip
_SWITCHES = (
    "noprofile", "noninteractive", "nologo", "noexit", "sta", "mta", "login", "interactive", "noprofileloadtime",
    "sshservermode", "help",
)  # fmt: skip
_PARAMETERS = (_COMMAND, "commandwithargs", _ENCODED, _FILE, *_VALUED, *_SWITCHES)
_SHORT = {"c": _COMMAND, "cwa": "commandwithargs", "e": _ENCODED, "ec": _ENCODED, "f": _FILE, "ep": "executionpolicy",
          "ex": "executionpolicy", "w": "windowstyle", "wd": "workingdirectory", "of": "outputformat",
          "if": "inputformat", "l": "login", "i": "interactive", "?": "help", "h": "help"}  # fmt: skip
_CODE_PARAMETERS = frozenset({_COMMAND, "commandwithargs"})
# cmd's switches that run the rest of the line (`/c` and exit, `/k` and stay, `/r` as /c).
_CMD_RUNS = frozenset({"/c", "/k", "/r"})


def _powershell_parameter(word: str) -> str | None:
    """The parameter `-Name`, `--name` or `/Name` names (full name in lower case), None for no parameter."""
    if not word.startswith(("-", "/")) or len(word) < 2:
        return None
    name = word.lstrip("-/").lower()
    if name in _SHORT:
        return _SHORT[name]
    return next((full for full in _PARAMETERS if full.startswith(name)), name)


def powershell_code(call: Call, spec: InterpreterSpec, walk: ContextWalk) -> frozenset[Risk]:
    """`powershell -NoP -Command CODE...`, `pwsh -EncodedCommand BLOB`, `pwsh -File x.ps1`, `... | pwsh -`."""
    args = call.args
    index = 0
    while index < len(args):
        word = args[index].value
        if word is None:
            return NO_RISKS  # a parameter only known at run time: what follows cannot be read
        parameter = _powershell_parameter(word)
        rest = args[index + 1 :]
        if parameter in _CODE_PARAMETERS or (parameter is None and not _is_script(call.name, word)):
            code = rest if parameter is not None else args[index:]
            if not code or (len(code) == 1 and code[0].value == "-"):
                return stdin_code(walk, spec, call.name, call.stdin, call.span, call.frame)
            label = f"{call.name} {word if parameter is not None else '-Command'}"
            return code_string(walk, ContextKind.CODE_STRING, label, code, "powershell", call.frame)
        if parameter == _ENCODED:
            return _encoded(call, walk, f"{call.name} {word}", rest[0]) if rest else NO_RISKS
        if parameter == _FILE or parameter is None:
            script = rest[0] if parameter is not None and rest else args[index]
            return script_operand(walk, call.name, script, call.span, call.frame, call.stdin, spec)
        index += 2 if parameter in _VALUED else 1
    return stdin_code(walk, spec, call.name, call.stdin, call.span, call.frame)


def _is_script(name: str, word: str) -> bool:
    """A first operand is a script for pwsh (its default is -File) and for a `.ps1`; Windows PowerShell's default is -Command."""
    return name != "powershell" or word.lower().endswith(".ps1")


def decode_encoded_command(blob: str) -> str | None:
    """PowerShell's -EncodedCommand: base64 of the code's UTF-16LE bytes; None when it is not that."""
    try:
        return base64.b64decode(blob + "=" * (-len(blob) % 4), validate=True).decode("utf-16-le")
    except (binascii.Error, UnicodeDecodeError):
        return None


def _encoded(call: Call, walk: ContextWalk, label: str, blob: Arg) -> frozenset[Risk]:
    if blob.value is None:
        # `-EncodedCommand "$(curl u)"`: code only known at run time, judged by its run-time parts.
        return code_string(walk, ContextKind.CODE_STRING, label, (blob,), "powershell", call.frame)
    code = decode_encoded_command(blob.value)
    if code is None:
        if walk.reporting:
            reason = "runs encoded code that does not decode (base64 of UTF-16LE text), so what it does is not known"
            location = call.frame.location
            walk.emit_code(CodeFactSubject(CodeFactKind.UNRESOLVED, label, "powershell", blob.span, location, reason))
        return NO_RISKS
    return audit_code(walk, label, code, Origin.derived_from(blob.span), "powershell", blob.span, call.frame)


def cmd_code(call: Call, walk: ContextWalk) -> frozenset[Risk]:
    """`cmd /c LINE...`, `cmd.exe /k LINE...`: the rest of the words, joined, are the line cmd runs."""
    for index, arg in enumerate(call.args):
        if arg.value is not None and arg.value.lower() in _CMD_RUNS:
            rest = call.args[index + 1 :]
            if not rest:
                return NO_RISKS
            label = f"{call.name} {arg.value}"
            return code_string(walk, ContextKind.CODE_STRING, label, rest, "cmd", call.frame)
    return NO_RISKS


# Registry keys whose values Windows runs as command lines at logon (`reg add KEY /d CMD`).
_AUTORUN_KEYS = ("\\currentversion\\run", "\\currentversion\\policies\\explorer\\run", "\\currentversion\\winlogon")


def scheduled_code(call: Call, walk: ContextWalk) -> frozenset[Risk]:
    """What Windows is told to run later, audited as a command line: `schtasks /create ... /tr CMD`, and
    `reg add KEY /d CMD` for an autorun key (the system.windows pack judges the persistence itself)."""
    words = [arg.value.lower() if arg.value is not None else "" for arg in call.args]
    if call.name == "schtasks":
        switch = "/tr"
    elif "add" in words and any(fragment in word for word in words for fragment in _AUTORUN_KEYS):
        switch = "/d"
    else:
        return NO_RISKS
    if switch not in words[:-1]:
        return NO_RISKS
    line = call.args[words.index(switch) + 1]
    label = f"{call.name} {call.args[words.index(switch)].value}"
    return code_string(walk, ContextKind.RUNNER, label, (line,), "cmd", call.frame)
