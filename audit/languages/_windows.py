"""Windows spellings the PowerShell and cmd analysers report in the engine's terms.

A path is reported as WSL mounts it (`C:\\Users\\me` is `/mnt/c/Users/me`), so the
engine's path tables judge `Remove-Item -Recurse C:\\Users\\me` as they judge
`rm -r /mnt/c/Users/me`; the top-level folders Windows keeps are spelt as WSL shows
them, whatever case the code used (Windows' paths ignore case). A program name is
reported without `.exe` and in lower case, as Windows finds it.

>>> windows_path(r"c:\\USERS\\me\\project")
'/mnt/c/Users/me/project'
>>> windows_path(r".\\dist")
'./dist'
>>> program_name("REG.EXE")
'reg'
"""

from __future__ import annotations

import re

_DRIVE = re.compile(r"[A-Za-z]:(?=/|$)")
# The folders Windows keeps at a drive's root, by their case-folded name.
_ROOT_FOLDERS = {
    name.casefold(): name
    for name in ("Users", "Windows", "Program Files", "Program Files (x86)", "ProgramData", "Documents and Settings")
}

HOME = "$HOME"
"""The user's profile (`$env:USERPROFILE`, `%USERPROFILE%`, `~`), as the engine spells the home."""

ENVIRONMENT_PATHS = {
    "userprofile": HOME,
    "home": HOME,
    "appdata": f"{HOME}\\AppData\\Roaming",
    "localappdata": f"{HOME}\\AppData\\Local",
    "systemroot": "C:\\Windows",
    "windir": "C:\\Windows",
    "systemdrive": "C:",
    "programfiles": "C:\\Program Files",
    "programfiles(x86)": "C:\\Program Files (x86)",
    "programdata": "C:\\ProgramData",
    "allusersprofile": "C:\\ProgramData",
    "public": "C:\\Users\\Public",
}
"""Environment variables (by case-folded name) that name a folder the engine's tables know."""


def windows_path(path: str) -> str:
    """`path` with forward slashes, a drive as WSL mounts it, and the system's own folders in their canonical case."""
    slashed = path.replace("\\", "/")
    drive = _DRIVE.match(slashed)
    if drive is None:
        return slashed
    rest = slashed[2:].strip("/")
    first, _, remainder = rest.partition("/")
    first = _ROOT_FOLDERS.get(first.casefold(), first)
    mounted = f"/mnt/{slashed[0].lower()}"
    return "/".join(part for part in (mounted, first, remainder) if part)


def program_name(name: str) -> str:
    """A command name as Windows resolves it: any case, `.exe` optional."""
    lowered = name.lower()
    return lowered.removesuffix(".exe")
