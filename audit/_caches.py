"""Every cache that outlives one audit, and its size, in one place.

Memos keyed by what arbitrary input can vary (command names, argument values)
are `Memo`s with a size from here, so no input grows the process without
bound. The other long-lived caches hold one entry each and are listed here so
nothing is cached out of sight:

* the default policy and its parsed TOML (`functools.cache` in `_policy`);
* one tree-sitter parser per thread (`_syntax/_treesitter/_parser`);
* bashlex, imported on first use (`_syntax/_bashlex`);
* the last answer of each per-command question rules share (`rules/_paths.per_subject`).

Verdicts themselves are kept in a `VerdictCache` per policy, sized by the
policy's `[limits] verdict_cache`, for `audit_command_cached`.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Generic, TypeVar

Key = TypeVar("Key")
Value = TypeVar("Value")

POLICY_DISPATCHES = 16
"""Policies whose rule dispatch is kept (a host uses one or a few)."""

COMMAND_NAMES = 4096
"""Per policy: the rules, the table name and the interpreter of a command name."""

PATH_TABLES = 64
"""Path lists from policies (protected directories, secret files...), prepared for lookups."""

PATH_ANSWERS = 4096
"""Per path list: answers by argument value (`-la`, `src/` and `/tmp/x` repeat across commands)."""

DECLARED_GRAMMARS = 256
"""Wrapper and interpreter declarations (built-in, and those policies add) whose option grammar is kept."""

CODE_REPORTS = 512
"""What audit.languages found in a snippet of another language, by language and code
(a silent walk and the reporting walk analyse the same snippet)."""

STATEMENT_READINGS = 512
"""What audit.databases found in a text a database client runs, by text and client language
(the walk reads it for shell commands, the database packs for what destroys data)."""


class Memo(dict[Key, Value]):
    """A dict that forgets everything when it reaches its size: arbitrary input
    cannot grow it past the limit, and a busy process refills it at once.

    Reads are plain dict reads (`memo.get(key)`); threads auditing at the same
    time may only ever recompute an answer, never see a wrong one.
    """

    __slots__ = ("size",)

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def remember(self, key: Key, value: Value) -> Value:
        if len(self) >= self.size:
            self.clear()
        self[key] = value
        return value


class VerdictCache(Generic[Key, Value]):
    """The `size` most recently used entries; safe to share between threads.

    Unlike a `Memo`, a full cache drops only its least recently used entry:
    the commands an agent repeats stay while one-off commands pass through.
    """

    __slots__ = ("_entries", "_lock", "size")

    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: OrderedDict[Key, Value] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Key) -> Value | None:
        with self._lock:
            value = self._entries.get(key)
            if value is not None:
                self._entries.move_to_end(key)
            return value

    def remember(self, key: Key, value: Value) -> Value:
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)
        return value

    def __len__(self) -> int:
        return len(self._entries)
