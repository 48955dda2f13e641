"""system.macos, the user's privacy: every app's privacy permissions reset (MA106), the Trash emptied for good
(MA107), and the databases of the user's private life read: messages, mail, browsing history, contacts,
calendars, notes (MA108)."""

from __future__ import annotations

from collections.abc import Iterator

from ..._analysis import CommandSubject, read_arguments
from ..._model import Severity
from ..._tables import Tables
from ...programs import Arg
from ...rules._paths import path_under
from ...rules._rule import Hit, Inspects, rule
from .._invocation import Found, command, pack_rule
from ._applescript import applescript_asks


def _reset_for_every_app(found: Found) -> Arg | None:
    """`tccutil reset SERVICE` with no app's bundle id after it: the service's grants of every app."""
    operands = found.reading.operands
    if len(operands) == 2 and (operands[0].value or "").lower() == "reset":
        return operands[1]
    return None


PRIVACY_RESET = pack_rule(
    id="MA106",
    name="macos-privacy-permissions-reset",
    severity=Severity.MEDIUM,
    summary=(
        "Resets a privacy permission for every app (`tccutil reset All`, `tccutil reset Camera`): the grants "
        "the user gave to the camera, microphone, screen recording, full disk access and the rest."
    ),
    rationale=(
        "Every app loses what the user allowed it and asks again, or stops working in the middle of its job "
        "(backups, screen sharing, accessibility tools). Resetting one app's grant, with its bundle id, is "
        "how developers test their own app's prompt, and passes."
    ),
    safer_alternative="Reset the one app you are testing: `tccutil reset Camera com.example.app`.",
    matches=(command("tccutil", where=_reset_for_every_app),),
    message="resets a privacy permission of every app",
    must_match=("tccutil reset All", "sudo tccutil reset ScreenCapture", "tccutil reset Microphone"),
    must_not_match=("tccutil reset Camera com.example.app", "tccutil --help"),
)

TRASH_EMPTIED = pack_rule(
    id="MA107",
    name="macos-trash-emptied",
    severity=Severity.MEDIUM,
    summary="Empties the Trash through Finder (`osascript -e 'tell application \"Finder\" to empty trash'`).",
    rationale=(
        "Whatever the user deleted and meant to get back is gone for good: the Trash is the Mac's undo for "
        "deleted files. The user decides when to empty it."
    ),
    safer_alternative="Leave the Trash to the user; delete the files the task made by name.",
    matches=(command("osascript", where=applescript_asks("empty", "trash")),),
    message="empties the Trash",
    must_match=(
        "osascript -e 'tell application \"Finder\" to empty trash'",
        "osascript -e 'tell app \"Finder\"' -e 'empty the trash' -e 'end tell'",
    ),
    must_not_match=(
        "osascript -e 'tell application \"Finder\" to get count of items of trash'",
        'osascript -e \'tell application "Finder" to move file "a.txt" to trash\'',
    ),
)

# Where macOS and the browsers keep the user's private life: messages, mail, contacts, calendars, notes,
# reminders, browsing history, the screen-time record, and the privacy permissions' own database.
_PRIVATE_DATA = (
    "~/Library/Messages", "~/Library/Mail", "~/Library/Safari", "~/Library/Containers/com.apple.Safari",
    "~/Library/Application Support/AddressBook", "~/Library/Calendars", "~/Library/Reminders",
    "~/Library/Group Containers/group.com.apple.notes", "~/Library/Application Support/Knowledge",
    "~/Library/Application Support/com.apple.TCC", "~/Library/Application Support/Google/Chrome/*/History",
    "~/Library/Application Support/BraveSoftware/Brave-Browser/*/History",
    "~/Library/Application Support/Microsoft Edge/*/History",
    "~/Library/Application Support/Firefox/Profiles/*/places.sqlite",
)  # fmt: skip
# Programs that read, print or copy the files they are given.
_READERS = (
    "cat", "less", "more", "head", "tail", "strings", "xxd", "hexdump", "od", "base64", "sqlite3", "plutil", "cp",
    "ditto", "rsync", "scp", "tar", "zip",
)  # fmt: skip


@rule(
    id="MA108",
    name="macos-private-data-read",
    severity=Severity.MEDIUM,
    summary=(
        "Reads or copies the user's private data on a Mac: Messages (`~/Library/Messages/chat.db`), Mail, Safari's "
        "and the browsers' history, contacts, calendars, reminders, notes, the screen-time record, the privacy "
        "permissions' database."
    ),
    rationale=(
        "Nothing of a project is kept there: reading it hands the user's conversations, contacts and browsing to "
        "whatever the agent does next, the first step of an info-stealer. A reader may have a reason, so it "
        "warns, as reading a credential file does (SE004)."
    ),
    safer_alternative="Ask the user to export the one record the task needs.",
    inspects=Inspects.COMMAND,
    commands=_READERS,
    must_match=(
        "sqlite3 ~/Library/Messages/chat.db 'SELECT text FROM message;'",
        "cp ~/Library/Safari/History.db /tmp/h.db",
        "tar czf out.tgz ~/Library/Mail",
        "sqlite3 ~/Library/Application\\ Support/Google/Chrome/Default/History 'select url from urls'",
    ),
    must_not_match=(
        "sqlite3 db.sqlite3 .tables",
        "cat ~/Library/Preferences/com.example.app.plist",
        "ls ~/Library/Messages",
    ),
)
def read_private_data(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    for arg in read_arguments(subject.args):
        held = path_under(arg, _PRIVATE_DATA, subject.cwd)
        if held is not None:
            yield Hit(arg.span, f"`{subject.name}` reads the user's private data in {held}")
            return


PRIVACY_RULES = (PRIVACY_RESET, TRASH_EMPTIED, read_private_data)
