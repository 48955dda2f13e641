"""A quote-aware pre-pass that repairs what tree-sitter-bash gets wrong.

It walks the source once, the way bash's reader does, and produces the text
the parsers see:

* backslash-newline continuations are removed (except inside single quotes,
  ANSI-C strings, comments and quoted-delimiter heredoc bodies), because
  tree-sitter splits `r\\<newline>m` into two words where bash reads `rm`;
* every heredoc is cut out: the `<<`/`<<-` operator becomes `<` plus blanks
  (so the delimiter reads as an ordinary redirect target) and the body lines
  become blanks. tree-sitter mis-nests or rejects several valid heredoc shapes
  (`cat <<'EOF'; echo done`, `cat <<A <<B`, a bare `<< EOF > f`); with the
  bodies gone those lines are ordinary commands. The bodies are kept here,
  with offsets, for the adapters to re-attach;
* the `<>` operator, which tree-sitter rejects, becomes `> ` and is recorded;
* a blank is inserted before a backslash that starts a line, which
  tree-sitter would otherwise read as continuing the previous command;
* `$(< file)`, which tree-sitter rejects, gets a `;` before its closing
  parenthesis (a redirect-only command either way).

Lengths are preserved except for removed continuations and inserted blanks and `;`,
so a per-character map back to the original offsets is enough to report spans.
"""

from __future__ import annotations

import re

from .._named_tuple import NamedTuple

_WORD_BREAK = frozenset(" \t\n;&|()<>")
# The body of `$(< file)`: one input redirect and nothing else (not `<<`, `<(`, `<>` or `<&`).
_FILE_READ = re.compile(r"[ \t\n]*<(?![<(>&])[^;&|<>()\n]*\Z")
_FILE_READ_SUBSTITUTION = re.compile(r"\$\([ \t\n]*<")
_COMMAND_START_BEFORE = frozenset(";&|(\n")

# Runs of characters that a context copies as they are, taken in one step
# rather than one character at a time. Each excludes every character its
# context acts on (a backslash always: it may start a continuation); `c` and
# `e` may start `case`/`esac`, `#` a comment.
_PLAIN_CODE = re.compile(r"[^\\'\"`$#<\n()ce]+")
_PLAIN_ARITHMETIC = re.compile(r"[^\\()$`'\"]+")
_PLAIN_ANSI_C = re.compile(r"[^\\']+")
_PLAIN_UNTIL: dict[tuple[str, bool, bool], re.Pattern[str]] = {}


def _plain_until(closer: str, quotes: bool, nested: bool) -> re.Pattern[str]:
    key = (closer, quotes, nested)
    pattern = _PLAIN_UNTIL.get(key)
    if pattern is None:
        special = "\\" + closer + ("`$" if nested else "") + ("'\"" if quotes else "")
        pattern = _PLAIN_UNTIL[key] = re.compile(f"[^{re.escape(special)}]+")
    return pattern


class HeredocBody(NamedTuple):
    """One heredoc, found by the pre-pass.

    `text` is the body with continuations already removed where bash removes
    them; `offsets[i]` is the original offset of `text[i]`, with one extra
    entry for the end.
    """

    operator: str
    delimiter: str
    quoted: bool
    text: str
    offsets: tuple[int, ...]


class Prepared(NamedTuple):
    """The text for the parsers and how to map it back.

    `offsets[i]` is the offset in `source` (the pre-pass input) of `text[i]`
    (one extra entry for the end); `heredocs` is keyed by the offset of the masked operator in `text`;
    `read_write` holds the offsets in `text` of `<>` operators shown as `> `.
    A heredoc body that runs to the end of input is accepted, as bash does
    (with a warning).
    """

    text: str
    offsets: tuple[int, ...]
    source: str
    heredocs: dict[int, HeredocBody]
    read_write: frozenset[int]


def needs_prepass(source: str) -> bool:
    """Cheap test: only these constructs need repairing before parsing."""
    return (
        "<<" in source
        or "\\\n" in source
        or "<>" in source
        or "\n\\" in source
        or ("$(" in source and _FILE_READ_SUBSTITUTION.search(source) is not None)
    )


def prepare(source: str) -> Prepared:
    scanner = _Scanner(source)
    scanner.scan_code(closer=None)
    scanner.flush_pending_heredocs()
    scanner.offsets.append(len(source))
    return Prepared(
        text="".join(scanner.out),
        offsets=tuple(scanner.offsets),
        source=source,
        heredocs=scanner.heredocs,
        read_write=frozenset(scanner.read_write),
    )


def find_substitution_end(text: str, start: int, opener: str) -> int:
    """Index just past the construct that starts at `start`.

    `opener` is one of `$(`, `$((`, `${`, `` ` ``, `"`; an unterminated
    construct ends at the end of `text` (bash would reject it; we still audit it).
    """
    scanner = _Scanner(text)
    scanner.i = start + len(opener)
    if opener == '"':
        scanner.scan_double_quoted()
    elif opener == "$(":
        scanner.scan_code(closer=")")
    elif opener == "$((":
        scanner.scan_arithmetic()
    elif opener == "${":
        scanner.scan_parameter()
    else:
        scanner.scan_backquote()
    return scanner.i


class _PendingHeredoc(NamedTuple):
    mask_offset: int
    operator: str
    delimiter: str
    quoted: bool


class _Scanner:
    """One left-to-right pass; each `scan_*` method consumes one context."""

    def __init__(self, source: str) -> None:
        self.src = source
        self.n = len(source)
        self.i = 0
        # The text for the parsers, in pieces (never empty), and per character its offset in `src`.
        self.out: list[str] = []
        self.offsets: list[int] = []
        self.pending: list[_PendingHeredoc] = []
        self.heredocs: dict[int, HeredocBody] = {}
        self.read_write: list[int] = []

    # -- output helpers -------------------------------------------------

    def _copy(self, count: int = 1) -> None:
        start = self.i
        end = min(start + count, self.n)
        if end > start:
            self.out.append(self.src[start:end])
            self.offsets.extend(range(start, end))
        self.i = end

    def _copy_plain(self, plain: re.Pattern[str]) -> None:
        """Copy the run of characters `plain` matches here, or the one character here."""
        match = plain.match(self.src, self.i)
        self._copy(match.end() - self.i if match is not None else 1)

    def _mask(self, text_for_parsers: str) -> None:
        """Emit `text_for_parsers` in place of as many source characters."""
        if text_for_parsers:
            self.out.append(text_for_parsers)
            self.offsets.extend(range(self.i, self.i + len(text_for_parsers)))
        self.i += len(text_for_parsers)

    def _skip_continuations(self) -> None:
        while self.src.startswith("\\\n", self.i):
            self.i += 2

    def _previous_significant(self) -> str:
        for piece in reversed(self.out):
            significant = piece.rstrip(" \t")
            if significant:
                return significant[-1]
        return "\n"

    # -- contexts ---------------------------------------------------------

    def scan_code(self, closer: str | None) -> None:
        """Shell code until `closer` (`)` for `$(`), or the end of input."""
        depth = 0
        case_depth = 0
        src = self.src
        while True:
            self._skip_continuations()
            if self.i >= self.n:
                return
            char = src[self.i]
            if char == "\\":
                if self.out and self.out[-1][-1] == "\n":
                    # tree-sitter reads `\\rm` at the start of a line as more
                    # words of the previous line's command; bash starts a new
                    # command there. A blank in front (mapped to the backslash)
                    # makes tree-sitter see the line break.
                    self.out.append(" ")
                    self.offsets.append(self.i)
                self._copy(2)
            elif char == "'":
                self._copy_single_quoted()
            elif char == '"':
                self._copy()
                self.scan_double_quoted()
            elif char == "`":
                self._copy()
                self.scan_backquote()
            elif char == "$":
                self._scan_dollar()
            elif char == "#" and self._at_word_start():
                self._copy_comment()
            elif char == "<":
                self._scan_less_than()
            elif char == "\n":
                self._copy()
                self.flush_pending_heredocs()
            elif char == "(":
                if src.startswith("((", self.i) and self._previous_significant() in _COMMAND_START_BEFORE:
                    self._copy(2)
                    self.scan_arithmetic()
                else:
                    depth += 1
                    self._copy()
            elif char == ")":
                if closer == ")" and depth == 0 and case_depth == 0:
                    self._copy()
                    return
                # With depth 0 inside `case`, this closes a pattern: no effect.
                depth = max(depth - 1, 0)
                self._copy()
            elif char in "ce" and self._at_word_start():
                case_depth += self._case_keyword_delta()
                self._copy()
            else:
                self._copy_plain(_PLAIN_CODE)

    def _case_keyword_delta(self) -> int:
        for keyword, delta in (("case", 1), ("esac", -1)):
            end = self.i + len(keyword)
            if self.src.startswith(keyword, self.i) and (end >= self.n or self.src[end] in _WORD_BREAK):
                return delta
        return 0

    def _at_word_start(self) -> bool:
        return not self.out or self.out[-1][-1] in _WORD_BREAK

    def _copy_single_quoted(self) -> None:
        end = self.src.find("'", self.i + 1)
        self._copy((self.n if end < 0 else end + 1) - self.i)

    def _copy_ansi_c(self) -> None:
        """`$'...'`: backslash escapes a quote; no continuations inside."""
        self._copy(2)
        while self.i < self.n:
            char = self.src[self.i]
            if char == "\\":
                self._copy(2)
            elif char == "'":
                self._copy()
                return
            else:
                self._copy_plain(_PLAIN_ANSI_C)

    def _copy_comment(self) -> None:
        # bash ends a comment at the newline even after a backslash.
        end = self.src.find("\n", self.i)
        self._copy((self.n if end < 0 else end) - self.i)

    def scan_double_quoted(self) -> None:
        """After an opening `"`, up to and including the closing one."""
        self._scan_until('"', quotes=False, nested=True)

    def scan_backquote(self) -> None:
        """After an opening backquote, up to and including the closing one."""
        self._scan_until("`", quotes=False, nested=False)

    def scan_parameter(self) -> None:
        """After `${`, up to and including the matching `}`."""
        self._scan_until("}", quotes=True, nested=True)

    def _scan_until(self, closer: str, *, quotes: bool, nested: bool) -> None:
        """Up to and including `closer`; a backslash always escapes.

        `nested`: `$...` and backquoted constructs inside are scanned whole;
        `quotes`: so are quoted strings (inside `${...}` but not `"..."`).
        """
        plain = _plain_until(closer, quotes, nested)
        while True:
            self._skip_continuations()
            if self.i >= self.n:
                return
            char = self.src[self.i]
            if char == "\\":
                self._copy(2)
            elif char == closer:
                self._copy()
                return
            elif nested and char == "`":
                self._copy()
                self.scan_backquote()
            elif nested and char == "$":
                self._scan_dollar()
            elif quotes and char == "'":
                self._copy_single_quoted()
            elif quotes and char == '"':
                self._copy()
                self.scan_double_quoted()
            else:
                self._copy_plain(plain)

    def scan_arithmetic(self) -> None:
        """After `$((` or `((`, up to and including the matching `))`.

        `<<` here is a shift, never a heredoc.
        """
        depth = 0
        while True:
            self._skip_continuations()
            if self.i >= self.n:
                return
            char = self.src[self.i]
            if char == "(":
                depth += 1
                self._copy()
            elif char == ")":
                if depth == 0 and self.src.startswith("))", self.i):
                    self._copy(2)
                    return
                depth = max(depth - 1, 0)
                self._copy()
            elif char == "$":
                self._scan_dollar()
            elif char == "`":
                self._copy()
                self.scan_backquote()
            elif char == "'":
                self._copy_single_quoted()
            elif char == '"':
                self._copy()
                self.scan_double_quoted()
            else:
                self._copy_plain(_PLAIN_ARITHMETIC)

    def _end_file_read(self, body_start: int) -> None:
        """`$(< file)` (bash's file read) as `$(< file;)`: tree-sitter rejects a
        substitution that holds nothing but a redirect, and a `;` mapped to the
        closing parenthesis ends the redirect the same way for every reader."""
        out = self.out
        if not out or out[-1] != ")" or len(out) <= body_start:
            return
        if _FILE_READ.match("".join(out[body_start:-1])):
            out.insert(len(out) - 1, ";")
            self.offsets.insert(len(self.offsets) - 1, self.offsets[-1])

    def _scan_dollar(self) -> None:
        src, i = self.src, self.i
        if src.startswith("$((", i):
            self._copy(3)
            self.scan_arithmetic()
        elif src.startswith("$(", i):
            self._copy(2)
            body_start = len(self.out)
            self.scan_code(closer=")")
            self._end_file_read(body_start)
        elif src.startswith("${", i):
            self._copy(2)
            self.scan_parameter()
        elif src.startswith("$'", i):
            self._copy_ansi_c()
        elif src.startswith('$"', i):
            self._copy(2)
            self.scan_double_quoted()
        else:
            self._copy()

    def _scan_less_than(self) -> None:
        src, i = self.src, self.i
        if src.startswith("<<<", i):
            self._copy(3)
        elif src.startswith("<<", i):
            self._read_heredoc_operator()
        elif src.startswith("<>", i):
            self.read_write.append(len(self.offsets))
            self._mask("> ")
        else:
            self._copy()

    def _read_heredoc_operator(self) -> None:
        operator = "<<-" if self.src.startswith("<<-", self.i) else "<<"
        mask_offset = len(self.offsets)
        self._mask("<" + " " * (len(operator) - 1))
        while True:
            self._skip_continuations()
            if self.i < self.n and self.src[self.i] in " \t":
                self._copy()
            else:
                break
        delimiter, quoted = self._copy_delimiter_word()
        self.pending.append(_PendingHeredoc(mask_offset, operator, delimiter, quoted))

    def _copy_delimiter_word(self) -> tuple[str, bool]:
        """Copy the delimiter word; return its quote-removed value."""
        value: list[str] = []
        quoted = False
        src = self.src
        while True:
            self._skip_continuations()
            if self.i >= self.n or src[self.i] in _WORD_BREAK:
                return "".join(value), quoted
            char = src[self.i]
            if char in "'\"":
                quoted = True
                end = src.find(char, self.i + 1)
                end = self.n if end < 0 else end
                value.append(src[self.i + 1 : end])
                self._copy(end + 1 - self.i)
            elif char == "\\":
                quoted = True
                value.append(src[self.i + 1 : self.i + 2])
                self._copy(2)
            elif char == "$" and src.startswith(("$'", '$"'), self.i):
                quoted = True
                self._copy()
            else:
                value.append(char)
                self._copy()

    def flush_pending_heredocs(self) -> None:
        """Read the bodies of the heredocs opened on the line just ended."""
        pending, self.pending = self.pending, []
        for heredoc in pending:
            self._read_heredoc_body(heredoc)

    def _read_heredoc_body(self, heredoc: _PendingHeredoc) -> None:
        body: list[str] = []
        body_offsets: list[int] = []
        src = self.src
        while True:
            if self.i >= self.n:
                break
            line_end = src.find("\n", self.i)
            line_end = self.n if line_end < 0 else line_end
            line = src[self.i : line_end]
            candidate = line.lstrip("\t") if heredoc.operator == "<<-" else line
            if candidate == heredoc.delimiter:
                self._mask(" " * len(line))
                if self.i < self.n:
                    self._copy()
                break
            self._take_body_line(heredoc.quoted, line_end, body, body_offsets)
        body_offsets.append(body_offsets[-1] + 1 if body_offsets else self.i)
        self.heredocs[heredoc.mask_offset] = HeredocBody(
            operator=heredoc.operator,
            delimiter=heredoc.delimiter,
            quoted=heredoc.quoted,
            text="".join(body),
            offsets=tuple(body_offsets),
        )

    def _take_body_line(self, quoted: bool, line_end: int, body: list[str], body_offsets: list[int]) -> None:
        """Move one body line (and its newline) out of the parsers' view."""
        src = self.src
        stop = min(line_end + 1, self.n)
        while self.i < stop:
            continuation = -1 if quoted else src.find("\\\n", self.i, stop)
            if continuation == self.i:
                # An unquoted body joins continued lines, as bash does.
                self._mask("  ")
                line_end = src.find("\n", self.i)
                stop = min((self.n if line_end < 0 else line_end) + 1, self.n)
                continue
            end = stop if continuation < 0 else continuation
            piece = src[self.i : end]
            body.append(piece)
            body_offsets.extend(range(self.i, end))
            if piece[-1] == "\n":
                self._mask(" " * (len(piece) - 1))
                self._copy()
            else:
                self._mask(" " * len(piece))
