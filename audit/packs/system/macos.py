"""system.macos: macOS's own tools used the way intruders use them.

The quarantine stripped from a download, so Gatekeeper never checks it (MA101); a program started at
every login through a login item or a login hook (MA102); a dialog that asks for the user's password
with a hidden answer (MA103); the web proxies pointed at another host (MA104); the keychain's secrets
printed in clear wholesale or a browser's master key read (MA105); privacy permissions reset, the Trash
emptied and the user's private data read (MA106-MA108) are in macos_privacy.py; an account made an
administrator (MA109); a launchd job loaded under Apple's name from outside /System (MA110); an
administrator's rights, an account or Remote Login taken away (MA111-MA113) are in macos_access.py. Gatekeeper, System Integrity
Protection and the quarantine turned off for good are system.controls' SC013; a launch agent loaded
is the core persistence rule's; a password read from the keychain by name warns (SE006).
"""

from __future__ import annotations

from ..._model import Severity
from ...programs import Arg
from ...rules._pack import Pack
from .._invocation import Found, Predicate, command, operand, pack_rule
from ._applescript import applescript_asks
from .macos_access import ACCESS_RULES
from .macos_privacy import PRIVACY_RULES


def _operands_start(*expected: frozenset[str]) -> Predicate:
    """The operands start with one word of each set, in lower case (`write`, `com.apple.loginwindow`)."""

    def starts(found: Found) -> Arg | None:
        operands = found.reading.operands
        if len(operands) < len(expected):
            return None
        given = [(word.value or "").lower() for word in operands[: len(expected)]]
        return (
            operands[len(expected) - 1]
            if all(word in wanted for word, wanted in zip(given, expected, strict=True))
            else None
        )

    return starts


QUARANTINE_REMOVED = pack_rule(
    id="MA101",
    name="macos-quarantine-removed",
    severity=Severity.MEDIUM,
    summary=(
        "Removes the quarantine mark from a download (`xattr -d com.apple.quarantine APP`, `xattr -dr`, or every "
        "attribute with `xattr -c`/`-cr`), so Gatekeeper never checks its signature."
    ),
    rationale=(
        "The quarantine is what makes macOS check a downloaded program's signature and ask before it first runs; "
        "without it an unsigned program runs silently. Developers strip it from a tool they built or trust, so "
        "it warns; turning the quarantine off for every download blocks (SC013)."
    ),
    safer_alternative="Open the program once from Finder (Open Anyway), or allow it by path with `spctl --add`.",
    matches=(
        command("xattr", requires=("-d",), where=operand(0, "com.apple.quarantine")),
        command("xattr", requires=("-c",)),
    ),
    message="strips the quarantine that makes Gatekeeper check a download",
    must_match=(
        "xattr -dr com.apple.quarantine /Applications/Unknown.app",
        "xattr -d com.apple.quarantine ~/Downloads/tool",
        "sudo xattr -r -d com.apple.quarantine /Applications/X.app",
        "xattr -cr /Applications/Unknown.app",
    ),
    must_not_match=(
        "xattr -l ~/Downloads/tool",
        "xattr -p com.apple.quarantine ~/Downloads/tool",
        "xattr -d com.apple.metadata:kMDItemWhereFroms report.pdf",
    ),
)

_LOGIN_HOOKS = frozenset({"loginhook", "logouthook"})

LOGIN_PERSISTENCE = pack_rule(
    id="MA102",
    name="macos-login-item",
    severity=Severity.HIGH,
    summary=(
        "Makes macOS start a program at every login: a login item made through System Events (`osascript -e "
        "'tell application \"System Events\" to make login item ...'`), or a login or logout hook (`defaults "
        "write com.apple.loginwindow LoginHook SCRIPT`, run as root)."
    ),
    rationale=(
        "The program then runs at every login, long after the agent's task, often hidden: how malware stays on a "
        "Mac. No build or test adds a login item."
    ),
    safer_alternative="Run the program when it is needed; a login item the user wants is theirs to add in Settings.",
    matches=(
        command("osascript", where=applescript_asks("make", "login item")),
        command(
            "defaults",
            where=_operands_start(frozenset({"write"}), frozenset({"com.apple.loginwindow"}), _LOGIN_HOOKS),
        ),
    ),
    message="makes macOS start a program at every login",
    must_match=(
        'osascript -e \'tell application "System Events" to make login item at end with properties '
        '{path:"/Users/dev/.local/bin/agent", hidden:true}\'',
        "osascript -e 'tell application \"System Events\"' -e 'make new login item at end of login items with "
        "properties {path:\"/tmp/a.app\"}' -e 'end tell'",
        "sudo defaults write com.apple.loginwindow LoginHook /Users/Shared/hook.sh",
    ),
    must_not_match=(
        "osascript -e 'tell application \"System Events\" to get the name of every login item'",
        "defaults read com.apple.loginwindow",
        "osascript -e 'display notification \"Build done\"'",
    ),
)

PASSWORD_PROMPT = pack_rule(
    id="MA103",
    name="macos-password-prompt",
    severity=Severity.HIGH,
    summary=(
        'Shows a dialog that asks for a secret with a hidden answer (`osascript -e \'display dialog "..." '
        'default answer "" with hidden answer\'`): a fake password prompt.'
    ),
    rationale=(
        "The dialog looks like the system's own, and what the user types comes back to the command in clear: "
        "the classic way to phish a Mac user's login password. The system asks for passwords itself (sudo, "
        "the keychain); a script has no honest need to."
    ),
    safer_alternative="Let the tool that needs the password ask for it itself (sudo, the keychain, a credential helper).",
    matches=(command("osascript", where=applescript_asks("display dialog", "hidden answer")),),
    message="shows a dialog that asks for a password with a hidden answer",
    must_match=(
        'osascript -e \'display dialog "macOS needs your password to continue" default answer "" with hidden '
        "answer' -e 'text returned of result'",
        'osascript -e \'tell app "System Events" to display dialog "Password:" default answer "" with icon '
        "caution with  hidden  answer'",
    ),
    must_not_match=(
        'osascript -e \'display dialog "Deploy to production?" buttons {"No", "Yes"}\'',
        'osascript -e \'display dialog "Name?" default answer ""\'',
    ),
)

_PROXY_VERBS = frozenset({
    "-setwebproxy", "-setsecurewebproxy", "-setsocksfirewallproxy", "-setftpproxy", "-setstreamingproxy",
    "-setgopherproxy",
})  # fmt: skip
_LOOPBACK = ("localhost", "127.", "::1", "[::1]")


def _foreign_proxy(found: Found) -> Arg | None:
    """`networksetup -setwebproxy SERVICE HOST PORT`, `-setautoproxyurl SERVICE URL`: a host not this machine."""
    operands = found.reading.operands
    if len(operands) < 3 or operands[0].value is None:
        return None
    verb = operands[0].value.lower()
    if verb not in _PROXY_VERBS and verb != "-setautoproxyurl":
        return None
    target = operands[2]
    host = (target.value or "").lower()
    if verb == "-setautoproxyurl":
        host = host.partition("://")[2] or host
    return None if target.value is not None and host.startswith(_LOOPBACK) else target


PROXY_SET = pack_rule(
    id="MA104",
    name="macos-proxy-set",
    severity=Severity.MEDIUM,
    summary=(
        "Points a network service's web, secure web or SOCKS proxy, or its automatic proxy configuration, at "
        "another host (`networksetup -setwebproxy Wi-Fi HOST PORT`, `-setsecurewebproxy`, `-setautoproxyurl`)."
    ),
    rationale=(
        "Every browser and most tools then send their traffic through that host, which sees and can change it. "
        "A company proxy is set this way too, so it warns; a proxy on this machine (a debugging proxy on "
        "localhost) passes."
    ),
    safer_alternative="Set the proxy for the one tool that needs it (`HTTPS_PROXY=...` for that command).",
    matches=(command("networksetup", where=_foreign_proxy),),
    message="sends the Mac's web traffic through a proxy on another host",
    must_match=(
        "networksetup -setwebproxy Wi-Fi 203.0.113.50 8080",
        "sudo networksetup -setsecurewebproxy 'Wi-Fi' proxy.example.net 3128",
        "networksetup -setautoproxyurl Ethernet http://203.0.113.50/proxy.pac",
    ),
    must_not_match=(
        "networksetup -setwebproxy Wi-Fi 127.0.0.1 8888",
        "networksetup -setsecurewebproxy Wi-Fi localhost 8080",
        "networksetup -getwebproxy Wi-Fi",
        "networksetup -setwebproxystate Wi-Fi off",
    ),
)


def _security_words(found: Found) -> list[str]:
    """The words after `security`, the command first (`dump-keychain -d`); a word not known is empty."""
    subject = found.subject
    return [arg.value or "" for arg in subject.argv[subject.command_index + 1 :]]


def _clustered(words: list[str], letter: str) -> bool:
    """A short option given alone or in a cluster (`-d`, `-da`)."""
    return any(word.startswith("-") and not word.startswith("--") and letter in word[1:] for word in words)


def _keychain_wholesale(found: Found) -> Arg | None:
    """`security dump-keychain -d` (every item, decrypted), or a browser's Safe Storage key printed (`-w`, `-g`)."""
    words = _security_words(found)
    if not words:
        return None
    verb, rest = words[0], words[1:]
    if verb == "dump-keychain" and _clustered(rest, "d"):
        return found.subject.argv[found.subject.command_index + 1]
    printed = _clustered(rest, "w") or _clustered(rest, "g")
    finds = verb in ("find-generic-password", "find-internet-password")
    if finds and printed and any("safe storage" in word.lower() for word in rest):
        return found.subject.argv[found.subject.command_index + 1]
    return None


KEYCHAIN_DUMPED = pack_rule(
    id="MA105",
    name="macos-keychain-dumped",
    severity=Severity.HIGH,
    summary=(
        "Prints the keychain's secrets wholesale (`security dump-keychain -d`), or the key a browser encrypts its "
        "saved passwords and cookies with (`security find-generic-password -s 'Chrome Safe Storage' -w`)."
    ),
    rationale=(
        "Either gives away every saved password, token and session of the user at once: what info-stealers do on "
        "a Mac. Reading one named password a script needs only warns (SE006)."
    ),
    safer_alternative="Read the one item the task needs by name, and keep it out of the output.",
    matches=(command("security", where=_keychain_wholesale),),
    message="prints the keychain's secrets wholesale or a browser's master key",
    must_match=(
        "security dump-keychain -d ~/Library/Keychains/login.keychain-db",
        "security dump-keychain -da",
        "security find-generic-password -s 'Chrome Safe Storage' -w",
        "security find-generic-password -wa 'Brave Safe Storage'",
    ),
    must_not_match=(
        "security dump-keychain",
        "security list-keychains",
        "security find-generic-password -s gh-token -a me",
        "security find-certificate -a -p",
    ),
)


def _joins_admin_group(found: Found) -> Arg | None:
    """`dseditgroup -o edit -a USER [-t user] admin`, `dscl . -append /Groups/admin GroupMembership USER`:
    the word that names the admin group, when a member is added to it."""
    words = [(word.value or "").lower() for word in found.reading.args]
    adds = "-a" in words if found.subject.name == "dseditgroup" else "-append" in words or "-merge" in words
    if not adds:
        return None
    return next((word for word, value in zip(found.reading.args, words, strict=True) if value in _ADMIN_GROUP), None)


_ADMIN_GROUP = frozenset({"admin", "/groups/admin"})


def _made_admin(found: Found) -> Arg | None:
    """`sysadminctl -addUser NAME ... -admin`: an account created with administrator rights."""
    words = found.reading.args
    return (
        next((word for word in words if (word.value or "").lower() == "-admin"), None)
        if any((word.value or "").lower() == "-adduser" for word in words)
        else None
    )


ADMIN_ACCOUNT = pack_rule(
    id="MA109",
    name="macos-admin-account",
    severity=Severity.HIGH,
    summary=(
        "Makes an account an administrator of the Mac: added to the `admin` group (`dseditgroup -o edit -a NAME "
        "-t user admin`, `dscl . -append /Groups/admin GroupMembership NAME`) or created as one (`sysadminctl "
        "-addUser NAME -admin`)."
    ),
    rationale=(
        "An administrator can do anything on the machine with `sudo`, for as long as the account lasts: a "
        "backdoor that outlives the agent's task. No build or test needs a new administrator."
    ),
    safer_alternative="Leave accounts to the user, in System Settings.",
    matches=(
        command(("dseditgroup", "dscl"), where=_joins_admin_group),
        command("sysadminctl", where=_made_admin),
    ),
    message="makes an account an administrator of the Mac",
    must_match=(
        "sudo dseditgroup -o edit -a eve -t user admin",
        "sudo dscl . -append /Groups/admin GroupMembership eve",
        "sudo sysadminctl -addUser eve -fullName Eve -password x -admin",
    ),
    must_not_match=(
        "dseditgroup -o checkmember -m eve admin",
        "dscl . -read /Groups/admin GroupMembership",
        "sudo sysadminctl -addUser ci -password x",
    ),
)

# launchctl's verbs that start a job now and, with `-w` or from a LaunchAgents directory, at every login.
_LAUNCHCTL_STARTS = frozenset({"load", "bootstrap", "submit"})


def _job_imitates_apple(found: Found) -> Arg | None:
    """A job file named `com.apple.*.plist` loaded from anywhere but the system's own
    /System/Library (Apple installs its jobs only there), or a job submitted under an Apple label
    (`submit -l com.apple.x -- PROGRAM`)."""
    operands = found.reading.operands
    if not operands or operands[0].value not in _LAUNCHCTL_STARTS:
        return None
    for label in found.reading.values("-l"):
        if (label.value or "").startswith("com.apple."):
            return label
    for word in operands[1:]:
        for value in word.values:
            name = value.rpartition("/")[2]
            if name.startswith("com.apple.") and name.endswith(".plist") and not value.startswith("/System/"):
                return word
    return None


JOB_IMITATES_APPLE = pack_rule(
    id="MA110",
    name="macos-job-imitates-apple",
    severity=Severity.HIGH,
    summary=(
        "Loads a launchd job under Apple's name from outside the system's own directory (`launchctl load -w "
        "~/Library/LaunchAgents/com.apple.softwareupdated.plist`, `launchctl bootstrap gui/501 "
        "/Library/LaunchDaemons/com.apple.x.plist`), or submits one under an Apple label."
    ),
    rationale=(
        "Apple's own jobs live in /System/Library, which System Integrity Protection keeps read-only; a "
        "`com.apple.` job anywhere else was put there by someone else and named to pass for the system's "
        "in a listing. Loading it starts the program now and at every login or boot: persistence in "
        "disguise. It blocks; loading a job of the user's own under its own name warns (SY016)."
    ),
    safer_alternative="Name the job after its owner (`com.example.tool`), or ask a human to install it.",
    matches=(command("launchctl", where=_job_imitates_apple),),
    message="loads a launchd job named to pass for one of Apple's",
    must_match=(
        "launchctl load -w ~/Library/LaunchAgents/com.apple.softwareupdated.plist",
        "sudo launchctl bootstrap system /Library/LaunchDaemons/com.apple.securityd-helper.plist",
        "launchctl submit -l com.apple.mdworker.shared -- /Users/Shared/.x/run",
    ),
    must_not_match=(
        "launchctl load -w ~/Library/LaunchAgents/com.example.backup.plist",
        "sudo launchctl load -w /System/Library/LaunchDaemons/com.apple.smbd.plist",
        "launchctl list com.apple.Finder",
        "launchctl unload ~/Library/LaunchAgents/com.apple.fake.plist",
    ),
)

PACK = Pack(
    name="system.macos",
    summary=(
        "macOS's own tools used as intruders use them: the quarantine stripped, login items and hooks, fake "
        "password dialogs, the web proxies pointed elsewhere, the keychain dumped, privacy permissions reset, the "
        "Trash emptied, the user's messages, mail and history read, an account made an administrator, a launchd "
        "job passed off as Apple's, administrators, accounts or Remote Login taken away."
    ),
    default=True,
    reason=(
        "Each takes a protection of the Mac away, stays after the task, or hands over the user's secrets; none "
        "is a step of building, testing or shipping code."
    ),
    rules=(
        QUARANTINE_REMOVED,
        LOGIN_PERSISTENCE,
        PASSWORD_PROMPT,
        PROXY_SET,
        KEYCHAIN_DUMPED,
        *PRIVACY_RULES,
        ADMIN_ACCOUNT,
        JOB_IMITATES_APPLE,
        *ACCESS_RULES,
    ),
)
