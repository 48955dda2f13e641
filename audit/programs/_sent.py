"""What a network sender sends: the words, files and standard input in its requests, and where they go
(`sending.sent_data` reads a command line into a `Sending`)."""

from __future__ import annotations

from enum import Enum

from .._named_tuple import NamedTuple
from ._arg import Arg
from .destinations import Destination


class Slot(str, Enum):
    """What a word a sender sends becomes."""

    DATA = "data"
    """A request body, a message, a packet's payload."""
    URL = "URL"
    HEADER = "header"
    CREDENTIAL = "credential"
    """The request's own authentication (an Authorization header, `curl -u`): how a token is used."""
    HOST_NAME = "host name"
    """A name looked up in the DNS: the name itself reaches the name's servers."""
    REMOTE_COMMAND = "remote command"


class SentWord(NamedTuple):
    """A word whose text is sent."""

    arg: Arg
    slot: Slot
    label: str
    """How the sink is named in a finding (`curl -H`, `dig NAME`)."""


class SentFile(NamedTuple):
    """A file whose contents are sent; `recursive`: a directory goes with everything in it."""

    arg: Arg
    label: str
    recursive: bool = False


class Sending(NamedTuple):
    """What one command of a network sender sends."""

    words: tuple[SentWord, ...] = ()
    files: tuple[SentFile, ...] = ()
    stdin: tuple[str, ...] = ()
    """The labels of what sends standard input (`nc`, `curl -d @-`); empty when it is not sent."""
    destinations: tuple[Destination, ...] = ()
    anyone: bool = False
    """It listens: whoever connects receives the data, so no destination can be allowed."""
    batch_uploads: bool = False
    """Standard input holds commands that upload files (`sftp host <<< 'put FILE'`)."""
