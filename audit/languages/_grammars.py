"""tree-sitter grammars for the other languages, each loaded on first use.

A command with no such code never imports a grammar wheel. Parsers are kept
per thread (a tree-sitter parser is not safe to share between threads).
"""

from __future__ import annotations

import ctypes
import threading
from collections.abc import Callable
from typing import cast

from tree_sitter import Language, Parser, Tree

from .._budget import Budget


def _python() -> object:
    import tree_sitter_python

    return tree_sitter_python.language()


def _javascript() -> object:
    import tree_sitter_javascript

    return tree_sitter_javascript.language()


def _typescript() -> object:
    import tree_sitter_typescript

    return tree_sitter_typescript.language_typescript()


def _ruby() -> object:
    import tree_sitter_ruby

    return tree_sitter_ruby.language()


def _php_code() -> object:
    import tree_sitter_php

    return tree_sitter_php.language_php_only()


def _php_template() -> object:
    import tree_sitter_php

    return tree_sitter_php.language_php()


def _lua() -> object:
    import tree_sitter_lua

    return tree_sitter_lua.language()


def _powershell() -> object:
    import tree_sitter_powershell

    return tree_sitter_powershell.language()


_CAPSULE_NAME = b"tree_sitter.Language"


def _perl() -> object:
    import tree_sitter_perl

    # tree-sitter-perl hands out a bare pointer where the other wheels hand out
    # a capsule; py-tree-sitter deprecates the pointer form (and pytest runs
    # with warnings as errors), so it is wrapped the way the others are.
    # Typed as the wheel's stub says (int), checked as what a future release may return.
    pointer = cast(object, tree_sitter_perl.language())
    if not isinstance(pointer, int):
        return pointer  # a release that hands out a capsule like the others
    make_capsule = ctypes.pythonapi.PyCapsule_New
    make_capsule.restype = ctypes.py_object
    make_capsule.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
    return make_capsule(pointer, _CAPSULE_NAME, None)


GRAMMARS: dict[str, Callable[[], object]] = {
    "python": _python,
    "javascript": _javascript,
    "typescript": _typescript,
    "ruby": _ruby,
    "php": _php_code,
    "php-template": _php_template,
    "perl": _perl,
    "lua": _lua,
    "powershell": _powershell,
}

_LANGUAGES: dict[str, Language] = {}
_LOAD_LOCK = threading.Lock()
_LOCAL = threading.local()

# Below this size a parse cannot approach any sensible budget, so the plain
# bytes call (cheapest) is used; above it a read callable makes cancellation
# work (py-tree-sitter ignores progress_callback for a bytes source).
CANCELLABLE_FROM_BYTES = 2048


class ParseCancelled(Exception):
    """The parse was stopped because the analysis budget ran out."""


def language(grammar: str) -> Language:
    loaded = _LANGUAGES.get(grammar)
    if loaded is None:
        with _LOAD_LOCK:
            loaded = _LANGUAGES.get(grammar)
            if loaded is None:
                loaded = Language(GRAMMARS[grammar]())
                _LANGUAGES[grammar] = loaded
    return loaded


def _parser(grammar: str, budget: Budget | None) -> Parser:
    parsers: dict[str, Parser] | None = getattr(_LOCAL, "parsers", None)
    if parsers is None:
        parsers = {}
        _LOCAL.parsers = parsers
    parser = parsers.get(grammar)
    if parser is None:
        if budget is None:
            parser = Parser(language(grammar))
        else:
            # Loading a grammar once per process is not this analysis' cost.
            with budget.paused():
                parser = Parser(language(grammar))
        parsers[grammar] = parser
    return parser


def parse(grammar: str, data: bytes, budget: Budget | None) -> Tree:
    parser = _parser(grammar, budget)
    if budget is None or len(data) < CANCELLABLE_FROM_BYTES:
        return parser.parse(data)

    def read(byte_offset: int, _point: object) -> bytes:
        return data[byte_offset : byte_offset + 4096]

    def cancel(*_state: object) -> bool:
        return budget.remaining() <= 0

    try:
        return parser.parse(read, progress_callback=cancel)
    except ValueError as error:  # py-tree-sitter's way of reporting a cancelled parse
        # A cancelled parser resumes the old input on its next call unless reset.
        parser.reset()
        raise ParseCancelled from error
