"""The commands of a pipeline as literal words, and the stage of a pipe or of a command substitution
that makes the listing a command reads (past the stages that only drop a few lines or reformat them)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from .._analysis import Arg, CommandSubject, Stdin
from .._syntax import ast


def literal_commands(nodes: Iterable[object]) -> Iterator[list[str]]:
    """The literal text of the words of each simple command, through statements, pipelines and lists."""
    pending: list[object] = list(nodes)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.SimpleCommand):
            yield ["".join(part.text for part in word.parts if type(part) is ast.Literal) for word in node.words]
        elif isinstance(node, ast.Pipeline | ast.AndOrList):
            pending.extend(node.commands)
        elif isinstance(node, ast.Redirected | ast.Statement):
            pending.append(node.command)


def listing_commands(nodes: Iterable[object]) -> Iterator[list[str]]:
    """The commands whose output a substitution's listing is, as literal words: of a pipeline, the last stage
    but those that keep every line (`$(git branch -r | sed 's#origin/##')`: git branch); of anything else,
    every command (`$(git tag; git branch)`)."""
    for node in nodes:
        while isinstance(node, ast.Statement | ast.Redirected):
            node = node.command
        if not isinstance(node, ast.Pipeline):
            yield from literal_commands((node,))
            continue
        for stage in reversed(node.commands):
            words = next(literal_commands((stage,)), None)
            if words is None or not _keeps_every_line(words):
                if words is not None:
                    yield words
                break


def substituted_listings(word: Arg, subject: CommandSubject) -> Iterator[list[list[str]]]:
    """Each command substitution of a word known only at run time, or of the listing a loop variable
    takes its items from (`for b in $(git tag); do ... "$b"`), as the commands whose lines it lists
    (`listing_commands`: past the pipe stages that keep every line)."""
    if not word.is_dynamic or word.word is None:
        return
    syntax = next((listing for span, listing in subject.loop_listings if span == word.span), word.word)
    for part in syntax.parts:
        if type(part) is ast.CommandSubstitution:
            yield list(listing_commands(part.body.statements))


# Pipe stages that keep every listed line but a few, and pass each on in its place: a listing
# read through them still lists everything (`ps aux | grep -v grep | awk '{print $2}'`).
_REFORMATTERS = frozenset({"cut", "tr", "sort", "uniq", "column"})
_AWK = frozenset({"awk", "gawk", "mawk", "nawk"})
# An awk program with no pattern, or one that only skips the header line.
_AWK_EVERY_LINE = re.compile(r"\s*(NR\s*(>|!=)\s*1\s*|NR\s*>=\s*2\s*)?\{")


def listing_stage(stdin: Stdin) -> ast.Command | None:
    """The pipe stage whose listing reaches this command, past the stages that only drop a few lines
    or reformat them (`grep -v PATTERN`, `awk '{print $2}'`, `cut`, `sort`, `tail -n +2`)."""
    current: Stdin | None = stdin
    while current is not None and current.writer is not None:
        words = next(literal_commands((current.writer,)), None)
        if words is None or not _keeps_every_line(words):
            return current.writer
        current = current.upstream
    return None


def _keeps_every_line(words: list[str]) -> bool:
    name = words[0].rsplit("/", 1)[-1] if words else ""
    options = [word for word in words[1:] if word.startswith("-")]
    if name in ("grep", "egrep", "fgrep"):
        return any(option == "--invert-match" or (option[1:2] != "-" and "v" in option) for option in options)
    if name in _AWK:
        program = next((word for word in words[1:] if not word.startswith("-")), "")
        return _AWK_EVERY_LINE.match(program) is not None
    if name == "tail":
        return any(word.startswith(("+", "-n+")) for word in words[1:])
    if name == "sed":
        return words[1:] in (["1d"], ["-e", "1d"]) or _sed_passes_lines_on(words[1:])
    return name in _REFORMATTERS


# One `s` command (any delimiter, flags that print nothing more and drop nothing: `g`, `I`, a count), or
# the lines of one pattern dropped as `grep -v` drops them (`/HEAD/d`).
_SED_SUBSTITUTION = re.compile(r"\s*(s([^\w\s\\])(?:\\.|(?!\2).)*\2(?:\\.|(?!\2).)*\2[gGiI0-9]*|/(?:\\.|[^/])*/d)\s*")
_SED_EXTENDED = frozenset({"-E", "-r", "--regexp-extended"})


def _sed_passes_lines_on(arguments: list[str]) -> bool:
    """`sed 's#origin/##'`, `sed -E -e '/HEAD/d' -e 's/x/y/g'`: every script a substitution that rewrites a
    line in its place or drops one pattern's lines (no `-n`, no `p`), so every other line still comes out."""
    scripts: list[str] = []
    expecting_script = False
    for word in arguments:
        if expecting_script:
            scripts.append(word)
            expecting_script = False
        elif word in ("-e", "--expression"):
            expecting_script = True
        elif word.startswith("-") and word not in _SED_EXTENDED:
            return False
        elif not word.startswith("-"):
            if scripts:
                return False  # a file operand: sed reads it, not the pipe
            scripts.append(word)
    return bool(scripts) and not expecting_script and all(_SED_SUBSTITUTION.fullmatch(script) for script in scripts)
