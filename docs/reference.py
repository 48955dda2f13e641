"""The documentation the code writes: rule pages, the policy reference, the contributing and architecture pages.

The rule pages come from the rule registry, the policy reference from the
default policy file, the contributing page from CONTRIBUTING.md. MkDocs
builds them on every run (`docs/hooks.py`), so the site cannot drift from the
code. Everything here iterates what it documents (the registry, the TOML
document): a new rule, pack or policy key appears without a change here.
"""

from __future__ import annotations

import posixpath
import re
import tomllib
import unicodedata
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import cast

import tomlkit
from tomlkit.exceptions import ParseError
from tomlkit.items import AoT, Array, Comment, InlineTable, Item, Key, Table, Whitespace

from audit.programs import INTERPRETERS, WRAPPERS
from audit.rules import REGISTRY, Example, Registry, RetiredRule, Rule

REPOSITORY = Path(__file__).resolve().parents[1]
DEFAULT_POLICY = REPOSITORY / "audit" / "default_policy.toml"
CONTRIBUTING = REPOSITORY / "CONTRIBUTING.md"
ARCHITECTURE = REPOSITORY / "ARCHITECTURE.md"

RULES_FOLDER = PurePosixPath("rules")
POLICY_PAGE = PurePosixPath("policy.md")
CONTRIBUTING_PAGE = PurePosixPath("contributing.md")
ARCHITECTURE_PAGE = PurePosixPath("architecture.md")
# Documents at the top of the repository (where contributors look first) that the site also shows.
REPOSITORY_DOCUMENTS = {CONTRIBUTING: CONTRIBUTING_PAGE, ARCHITECTURE: ARCHITECTURE_PAGE}

# A hand-written page asks for generated content with one of these lines.
RULE_TABLE_MARKER = "<!-- generated: rule-table -->"
PACKS_TABLE_MARKER = "<!-- generated: packs-table -->"
DEFAULT_POLICY_MARKER = "<!-- generated: default-policy -->"
PACKS_PAGE = PurePosixPath("packs.md")
MARKER = re.compile(r"^<!-- generated: [a-z-]+ -->$", re.MULTILINE)

# Examples longer than this are shortened: the limit rules' examples are
# 10,000 characters of filler, which say nothing more in full.
LONGEST_SHOWN_EXAMPLE = 200
_SHORTENED_TO = 60

_RULE_ID = re.compile(r"\b[A-Z]{2}[0-9]{3}\b")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.DOTALL)
# Outside code spans these would start emphasis, links, HTML or table cells.
_MARKDOWN_ESCAPES = {"\\": "\\\\", "*": "\\*", "_": "\\_", "[": "\\[", "]": "\\]", "|": "\\|", "<": "&lt;", ">": "&gt;"}
_INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp"})


class GenerationError(ValueError):
    """A page asks for generated content that does not exist, or its source cannot be documented."""


@dataclass(frozen=True, slots=True)
class GeneratedPage:
    """A page that exists only in the built site."""

    path: PurePosixPath
    """Where the page sits, relative to docs/."""
    markdown: str
    in_nav: bool
    """Whether the nav lists it; the per-rule pages are reached from the rule table."""


def generated_pages(registry: Registry = REGISTRY) -> Iterator[GeneratedPage]:
    """Every whole page the build adds to the hand-written ones."""
    for declared in registry:
        yield GeneratedPage(rule_page_path(declared.id), rule_page(declared, registry), in_nav=False)
    for retired in registry.retired:
        yield GeneratedPage(rule_page_path(retired.id), retired_rule_page(retired, registry), in_nav=False)
    for document, page in REPOSITORY_DOCUMENTS.items():
        yield GeneratedPage(page, repository_document_page(document.read_text(encoding="utf-8")), in_nav=True)


def expand_markers(markdown: str, page: PurePosixPath, registry: Registry = REGISTRY) -> str:
    """A hand-written page with each generated-content marker replaced by its content."""

    def content(marker: re.Match[str]) -> str:
        if marker.group() == RULE_TABLE_MARKER:
            return rule_table(page, registry)
        if marker.group() == PACKS_TABLE_MARKER:
            return packs_table(page, registry)
        if marker.group() == DEFAULT_POLICY_MARKER:
            return policy_reference(policy_text(), page, registry)
        raise GenerationError(f"docs/{page}: unknown marker {marker.group()!r}")

    return MARKER.sub(content, markdown)


# -- rules -----------------------------------------------------------------------------------------


def rule_page_path(rule_id: str) -> PurePosixPath:
    return RULES_FOLDER / f"{rule_id}.md"


def rule_table(page: PurePosixPath, registry: Registry = REGISTRY) -> str:
    """The catalogue as one table: each id links to its page."""
    lines = ["| id | name | severity | what it catches |", "|---|---|---|---|"]
    for declared in registry:
        severity = f"{declared.severity.value} ({declared.severity.decision.value})"
        summary = _prose(declared.summary, page, registry)
        lines.append(f"| {_rule_link(declared.id, page)} | `{declared.name}` | {severity} | {summary} |")
    for retired in registry.retired:
        reason = _prose(retired.reason, page, registry)
        lines.append(f"| {_rule_link(retired.id, page)} | `{retired.name}` | retired | {reason} |")
    return "\n".join(lines) + "\n"


def packs_table(page: PurePosixPath, registry: Registry = REGISTRY) -> str:
    """The threat packs as one table: name, default state and why, what each guards, its rules."""
    lines = ["| pack | by default | what it guards | rules |", "|---|---|---|---|"]
    for pack in registry.packs:
        state = "**on**" if pack.default else "off"
        rules = ", ".join(_rule_link(declared.id, page) for declared in pack.rules)
        guards = f"{_prose(pack.summary, page, registry)} {_prose(pack.reason, page, registry)}"
        lines.append(f"| `{pack.name}` | {state} | {guards} | {rules} |")
    return "\n".join(lines) + "\n"


def rule_page(declared: Rule, registry: Registry = REGISTRY) -> str:
    """One rule in full, as `audit-cmd explain ID` shows it, and how to change it."""
    page = rule_page_path(declared.id)
    severity = declared.severity
    parts = [
        f"# {declared.id} {declared.name}",
        "| severity | decision | inspects |\n|---|---|---|\n"
        f"| {severity.value} | {severity.decision.value} | {declared.inspects.value} |",
        _prose(declared.summary, page, registry),
        "## Why it matters",
        _prose(declared.rationale, page, registry),
        "## Safer alternative",
        _prose(declared.safer_alternative, page, registry),
        "## Triggers on",
        *(_example(example) for example in declared.examples),
        "## Does not trigger on",
        *(_example(example) for example in declared.counter_examples),
        "## Changing it",
        _changing(declared, page, registry),
    ]
    return "\n\n".join(parts) + "\n"


def _changing(declared: Rule, page: PurePosixPath, registry: Registry) -> str:
    policy = _relative(POLICY_PAGE, page)
    text = (
        f'A policy can change its severity or turn it off (`{declared.id} = "off"` in `[rules]`, see '
        f"[Policy]({policy})). "
    )
    if declared.pack is None:
        cases = f"corpus/rules/{declared.id}.toml"
    else:
        pack = registry.pack_by_name[declared.pack]
        state = "on" if pack.default else "off"
        cases = f"corpus/packs/{pack.name}.toml"
        text += (
            f"It belongs to the [`{pack.name}` pack]({_relative(PACKS_PAGE, page)}), {state} by default, which "
            f'a policy turns on or off as a whole (`[packs]`, `disable = ["{pack.name}"]`). '
        )
    return (
        text + f"Its labelled cases are in `{cases}`; `audit-cmd explain {declared.id}` shows this page in a terminal."
    )


def retired_rule_page(retired: RetiredRule, registry: Registry = REGISTRY) -> str:
    reason = _prose(retired.reason, rule_page_path(retired.id), registry)
    return f"# {retired.id} {retired.name}\n\nRetired: {reason}\n\nIts id is never given to another rule.\n"


def _rule_link(rule_id: str, page: PurePosixPath) -> str:
    return f"[{rule_id}]({_relative(rule_page_path(rule_id), page)})"


def _example(example: Example) -> str:
    block = _code_block(_shown(example.command), "sh")
    if len(example.command) > LONGEST_SHOWN_EXAMPLE:
        block += f"\n\n({len(example.command):,} characters, shortened here)"
    if example.policy is not None:
        block += "\n\nwith the policy\n\n" + _code_block(tomlkit.dumps(_plain(example.policy)).strip(), "toml")
    return block


def _plain(document: Mapping[str, object]) -> dict[str, object]:
    """A policy document (read-only mappings inside) as plain dicts for the TOML writer."""
    return {
        key: _plain(cast("Mapping[str, object]", value)) if isinstance(value, Mapping) else value
        for key, value in document.items()
    }


def _shown(command: str) -> str:
    """The command as a reader can see it: control and invisible characters as escapes.

    A command of only whitespace is shown as a Python string literal, since
    it would otherwise be an empty-looking block.
    """
    if not command.strip():
        return repr(command)
    if len(command) > LONGEST_SHOWN_EXAMPLE:
        command = command[:_SHORTENED_TO] + " …"
    return "".join(_visible(character) for character in command)


def _visible(character: str) -> str:
    if character in "\n\t" or unicodedata.category(character) not in _INVISIBLE_CATEGORIES:
        return character
    code = ord(character)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _code_block(text: str, language: str) -> str:
    """A fenced block whose fence is longer than any run of backticks inside it."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{language}\n{text}\n{fence}"


# -- the default policy ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _CommentLine:
    text: str


@dataclass(frozen=True, slots=True)
class _Blank:
    pass


@dataclass(frozen=True, slots=True)
class _Header:
    path: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class _Setting:
    key: str
    item: Item


_Event = _CommentLine | _Blank | _Header | _Setting


def policy_reference(text: str, page: PurePosixPath, registry: Registry = REGISTRY) -> str:
    """Every table and key of a policy file, with its value and the file's own comments, in file order."""
    try:
        document = tomlkit.parse(text)
    except ParseError as error:
        raise GenerationError(f"the policy to document is not valid TOML: {error}") from error
    writer = _PolicyWriter(page, registry)
    for event in _events(document.body, ()):
        writer.add(event)
    return writer.finish()


def policy_text() -> str:
    """The default policy, then the built-in interpreters and wrappers it extends
    (audit/programs/), written as a policy would declare them."""
    return DEFAULT_POLICY.read_text(encoding="utf-8") + "\n" + built_in_programs()


def built_in_programs() -> str:
    """The interpreter families and wrappers every policy knows, as `[interpreters.*]` and `[wrappers.*]` tables."""
    document = tomlkit.document()
    document.add(tomlkit.comment("The interpreter families every policy knows (audit/programs/interpreters.py)."))
    interpreters = tomlkit.table(is_super_table=True)
    for spec in INTERPRETERS:
        interpreters.add(spec.family, spec.policy_table())
    document.add("interpreters", interpreters)
    document.add(tomlkit.nl())
    document.add(tomlkit.comment("The wrappers every policy knows (audit/programs/wrappers.py)."))
    wrappers = tomlkit.table(is_super_table=True)
    for wrapper in WRAPPERS:
        wrappers.add(wrapper.name, _inline_tables(wrapper.policy_table()))
    document.add("wrappers", wrappers)
    return tomlkit.dumps(document)


def _inline_tables(table: dict[str, object]) -> dict[str, object]:
    """A program's settings with its tables of settings inline (`option_places = { ... }`), one row each."""
    inlined: dict[str, object] = {}
    for key, value in table.items():
        if isinstance(value, dict):
            inline = tomlkit.inline_table()
            inline.update(cast("dict[str, object]", value))
            inlined[key] = inline
        else:
            inlined[key] = value
    return inlined


def _events(body: list[tuple[Key | None, Item]], path: tuple[str, ...]) -> Iterator[_Event]:
    """The document flattened in file order: comment lines, blank lines, table headers and settings."""
    for key, item in body:
        if isinstance(item, Comment):
            yield _CommentLine(_comment_text(item.as_string()))
        elif isinstance(item, Whitespace):
            if "\n" in item.as_string():
                yield _Blank()
        elif key is None:
            raise GenerationError(f"{'.'.join(path) or 'top level'}: an unnamed {type(item).__name__}")
        elif isinstance(item, AoT):
            raise GenerationError(f"{'.'.join((*path, key.key))}: arrays of tables are not documented yet")
        elif isinstance(item, Table):
            child = (*path, key.key)
            if not item.is_super_table():
                yield _Header(child)
            if item.trivia.comment:
                yield _CommentLine(_comment_text(item.trivia.comment))
            yield from _events(item.value.body, child)
        else:
            yield _Setting(key.key, item)


def _comment_text(comment: str) -> str:
    return comment.strip().removeprefix("#").removeprefix(" ").rstrip()


class _PolicyWriter:
    """Turns the flattened policy into Markdown blocks.

    Scalars of one table gather in a key | default | meaning table; lists get
    a heading and a TOML block each; the tables of one family (`[wrappers.*]`)
    are the rows of one table. A comment block just above a setting explains
    it; one that stands alone, or above a table header, is prose where it
    stands.
    """

    def __init__(self, page: PurePosixPath, registry: Registry) -> None:
        self.page = page
        self.registry = registry
        self.blocks: list[str] = []
        self.comments: list[str] = []
        self.rows: list[str] = []
        self.row_header = ""
        self.family: tuple[str, ...] = ()
        self.member: list[str] | None = None

    def add(self, event: _Event) -> None:
        match event:
            case _CommentLine(text):
                self.comments.append(text)
            case _Blank():
                # Inside a family member a comment block may still be about the next member's header.
                if self.member is None:
                    self._flush_comments()
            case _Header(path):
                self._header(path)
            case _Setting(key, item):
                self._setting(key, item)

    def finish(self) -> str:
        self._end_member()
        self._flush_comments()
        self._end_rows()
        return "\n\n".join(self.blocks) + "\n"

    def _header(self, path: tuple[str, ...]) -> None:
        self._end_member()
        family = path[:-1]
        if not family or family != self.family:
            self._end_rows()
            self.family = family
            name = ".".join((*family, "NAME")) if family else path[0]
            self.blocks.append(f"## `[{name}]`")
        self._flush_comments()
        if family:
            self.member = [f"`{path[-1]}`"]

    def _setting(self, key: str, item: Item) -> None:
        inline_comment = [_comment_text(item.trivia.comment)] if item.trivia.comment else []
        note = self._prose(" ".join([*self.comments, *inline_comment]))
        self.comments = []
        if self.member is not None:
            self.member.append(f"`{key} = {_one_line(item)}`" + (f" ({note})" if note else ""))
        elif isinstance(item, Array | InlineTable):
            self._end_rows()
            self.blocks.append(f"### `{key}`")
            if note:
                self.blocks.append(note)
            self.blocks.append(_code_block(f"{key} = {item.as_string().strip()}", "toml"))
        else:
            self._row("| key | default | meaning |\n|---|---|---|", f"| `{key}` | `{_one_line(item)}` | {note} |")

    def _end_member(self) -> None:
        if self.member is None:
            return
        name, *settings = self.member
        self.member = None
        self._row("| name | settings |\n|---|---|", f"| {name} | {'<br>'.join(settings) or 'none'} |")

    def _row(self, header: str, row: str) -> None:
        if self.row_header != header:
            self._end_rows()
            self.row_header = header
        self.rows.append(row)

    def _end_rows(self) -> None:
        if self.rows:
            self.blocks.append("\n".join([self.row_header, *self.rows]))
        self.rows = []
        self.row_header = ""

    def _flush_comments(self) -> None:
        if not self.comments:
            return
        self._end_rows()
        self.blocks.extend(self._comment_blocks(self.comments))
        self.comments = []

    def _comment_blocks(self, lines: list[str]) -> Iterator[str]:
        """Comment lines as paragraphs; commented-out settings (`# PK001 = "off"`) as a TOML block."""
        paragraph: list[str] = []
        settings: list[str] = []
        for line in [*lines, ""]:
            kind = "setting" if _is_setting(line) else "prose" if line else "blank"
            if kind != "prose" and paragraph:
                yield self._prose(" ".join(paragraph))
                paragraph = []
            if kind != "setting" and settings:
                yield _code_block("\n".join(settings), "toml")
                settings = []
            if kind == "prose":
                paragraph.append(line)
            elif kind == "setting":
                settings.append(line)

    def _prose(self, text: str) -> str:
        return _prose(text, self.page, self.registry)


def _is_setting(line: str) -> bool:
    if " = " not in line:
        return False
    try:
        tomllib.loads(line)
    except tomllib.TOMLDecodeError:
        return False
    return True


def _one_line(item: Item) -> str:
    """A value on one line, as the file writes it."""
    return " ".join(item.as_string().split())


# -- documents at the top of the repository --------------------------------------------------------


def repository_document_page(text: str) -> str:
    """CONTRIBUTING.md or ARCHITECTURE.md as a site page: its links into docs/ and to each other become
    links between pages."""
    text = text.replace("](docs/", "](")
    for document, page in REPOSITORY_DOCUMENTS.items():
        text = text.replace(f"]({document.name}", f"]({page}")
    return text


# -- Markdown helpers ------------------------------------------------------------------------------


def _prose(text: str, page: PurePosixPath, registry: Registry) -> str:
    """Plain text with `code` spans as Markdown: special characters escaped, rule ids linked."""
    parts: list[str] = []
    position = 0
    for span in _CODE_SPAN.finditer(text):
        parts.append(_plain_text(text[position : span.start()], page, registry))
        parts.append(span.group())
        position = span.end()
    parts.append(_plain_text(text[position:], page, registry))
    return "".join(parts)


def _plain_text(text: str, page: PurePosixPath, registry: Registry) -> str:
    escaped = "".join(_MARKDOWN_ESCAPES.get(character, character) for character in text)
    known = {declared.id for declared in registry} | {retired.id for retired in registry.retired}

    def link(rule_id: re.Match[str]) -> str:
        return _rule_link(rule_id.group(), page) if rule_id.group() in known else rule_id.group()

    return _RULE_ID.sub(link, escaped)


def _relative(target: PurePosixPath, page: PurePosixPath) -> str:
    """The link from `page` to `target`, both relative to docs/."""
    return posixpath.relpath(target.as_posix(), page.parent.as_posix())
