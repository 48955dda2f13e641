"""Build argv words the way bash does: quote removal (already done by the
parser), tilde and `$HOME`, known variables, field splitting of unquoted
known values, brace expansion, and lexical path clean-up."""

from __future__ import annotations

import itertools
import re
import shlex
from collections.abc import Iterable
from typing import Protocol

from .._syntax import ast
from ._braces import CHARACTERS_PER_STEP, expand_braces
from ._fields import Fields, split_fields, splits
from ._listings import working_directory_listing
from ._parameter_operators import KNOWN_PREFIXES, operated, prefix_sliced
from ._subjects import Arg

HOME = "~"
"""The home directory in normalised values: `~`, `$HOME` and `${HOME}` all become it."""

# A word may stand for several values (a variable with several literal
# assignments); past this many the word is dynamic. The words a brace
# expansion makes are fields of their own, bounded by the budget instead.
MAX_CANDIDATES = 16

_GLOB_CHARS = frozenset("*?[")
_USER_NAME = re.compile(r"^[a-z_][a-z0-9_-]*\$?$")


class Bindings(Protocol):
    """What normalisation needs to know about variables and substitutions."""

    def candidates(self, name: str) -> tuple[str, ...] | None:
        """Possible literal values of `name`, or None when unknown."""
        ...

    def elements(self, name: str) -> tuple[str, ...] | None:
        """The literal elements of array `name` ("@": the positional parameters), or None."""
        ...

    def element(self, name: str, key: str) -> str | None:
        """`${name[KEY]}` with KEY as written, or None when unknown."""
        ...

    def slice(self, name: str, offset: int, length: int | None) -> tuple[str, ...] | None:
        """`${name[@]:OFFSET:LENGTH}`: the elements it selects, or None when unknown."""
        ...

    def indirect(self, name: str) -> tuple[str, ...] | None:
        """`${!name}`: the possible values of the variable `name`'s value names, or None."""
        ...

    def defines(self, name: str) -> bool:
        """Whether the command string assigns `name` anywhere."""
        ...

    def globbed(self, name: str) -> bool:
        """Whether `name` takes the files a glob matches (`for f in ~/.ssh/id_*`): its values are patterns."""
        ...

    def substitution_output(self, body: ast.Script) -> str | None:
        """The output of a substitution known without running it (`$(echo rm)`)."""
        ...

    def field_separators(self) -> str | None:
        """The characters unquoted expansions split on (IFS); None when unknown."""
        ...

    def charge(self, steps: int) -> None:
        """Spend steps of the audit's budget on what an expansion makes (BudgetExceeded when spent)."""
        ...


def basename(value: str) -> str:
    """A command's name as rules know it; a Windows program (`REG.EXE`, `/mnt/c/.../cmd.exe`, from WSL or
    Git Bash) by its name in lower case without `.exe`, as Windows finds it in any case."""
    name = value.rstrip("/").rsplit("/", 1)[-1] if "/" in value else value
    return name[:-4].lower() if name[-4:].lower() == ".exe" else name


def normalize_words(words: Iterable[ast.Word], bindings: Bindings) -> list[Arg]:
    args: list[Arg] = []
    for word in words:
        args.extend(normalize_word(word, bindings))
    return args


def normalize_word(word: ast.Word, bindings: Bindings, max_values: int | None = None) -> list[Arg]:
    """The argv fields one word becomes (usually exactly one).

    A caller that keeps no more than `max_values` distinct values says so: a
    brace expansion stops at the first value past them and the word is
    dynamic (`for i in {1..100000}` binds `i` to more values than a variable
    is ever resolved to).
    """
    parts = word.parts
    if len(parts) == 1 and type(parts[0]) is ast.Literal:
        literal = parts[0]
        text = literal.text
        if literal.quoted:
            return [Arg((_literal_tilde(text),), word.source, word.span, False, word)]
        if text[:1] != "~" and "{" not in text and _GLOB_CHARS.isdisjoint(text):
            return [Arg((text,), word.source, word.span, False, word)]
    return _normalize_general(word, bindings, max_values)


def is_glob_word(word: ast.Word) -> bool:
    """A word bash expands as a pathname pattern: an unquoted literal part holds a glob character."""
    return any(
        type(part) is ast.Literal and not part.quoted and not _GLOB_CHARS.isdisjoint(part.text) for part in word.parts
    )


def _normalize_general(word: ast.Word, bindings: Bindings, max_values: int | None) -> list[Arg]:
    # Quoted glob characters are escaped only in a word that is a pattern
    # (`"[a]"*`); elsewhere they are the argument's plain text.
    pattern = is_glob_word(word)
    joined = _joined_fields(word, bindings, pattern)
    if joined is None:
        return [_dynamic(word, bindings)]
    fields, braces, expanded_glob = joined
    # bash expands a glob that an unquoted expansion produced too (`x='/etc/*'; rm -rf $x`),
    # and a loop variable over a glob holds the files it matched, quoted or not (`for f in
    # ~/.ssh/id_*; do cat "$f"`). Quoted glob characters elsewhere in such a word were not
    # escaped above: the pattern is then wider than bash's, which can only find more.
    args = _field_args(word, fields, braces, pattern or expanded_glob, bindings, max_values)
    return [_dynamic(word, bindings)] if args is None else args


def _joined_fields(word: ast.Word, bindings: Bindings, pattern: bool) -> tuple[list[list[str]], bool, bool] | None:
    """The fields a word's parts make, each a list of its possible values, whether an unquoted
    literal holds a brace, and whether an unquoted expansion's value holds a glob character;
    None when a part is known only at run time."""
    fields = Fields()
    braces = expanded_glob = False
    for index, part in enumerate(word.parts):
        if type(part) is ast.Literal:
            text = part.text
            if index == 0 and text[:1] == "~":
                text = _tilde_prefix(text, part.quoted, word.parts[1:])
            elif index > 0 and fields.starts_field():
                # A field that starts after an expansion is past the word's tilde prefix.
                text = _literal_tilde(text)
            if not part.quoted:
                if "{" in text:
                    braces = True
            elif pattern:
                text = _escape_glob(text)
            _charge_joins(bindings, fields.current, (text,))
            fields.join((text,))
            continue
        if type(part) is ast.ParamExpansion and _list_selector(part) is not None:
            pieces = _list_fields(part, bindings)
            if pieces is None:
                return None
            bindings.charge(len(pieces))
            _charge_joins(bindings, fields.current, pieces[:1])
            fields.add_pieces(pieces)
            continue
        values = _known_values(part, bindings)
        if values is None:
            return None
        separators = bindings.field_separators()
        unquoted = not _quoted(part)
        if not expanded_glob:
            expanded_glob = (unquoted and any(not _GLOB_CHARS.isdisjoint(value) for value in values)) or (
                type(part) is ast.ParamExpansion and bindings.globbed(part.name)
            )
        if unquoted and any(splits(value, separators) for value in values):
            if len(values) != 1 or separators is None:
                return None
            _charge_joins(bindings, fields.current, values)
            bindings.charge(len(fields.split(values[0], separators)))
            continue
        if len(fields.current) * len(values) > MAX_CANDIDATES:
            return None
        _charge_joins(bindings, fields.current, values)
        fields.join(values)
    return fields.done(), braces, expanded_glob


def _field_args(
    word: ast.Word,
    fields: list[list[str]],
    braces: bool,
    pattern: bool,
    bindings: Bindings,
    max_values: int | None,
) -> list[Arg] | None:
    """An argument per field, with its brace expansions expanded; None past their limits."""
    args: list[Arg] = []
    for candidates in fields:
        if braces and len(candidates) == 1:
            # Each word of the expansion is a field; the budget bounds how many.
            expanded = _brace_fields(candidates[0], bindings, max_values)
            if expanded is None:
                return None
            if len(expanded) > 1:
                args.extend(Arg((value,), word.source, word.span, pattern, word) for value in expanded)
                continue
            candidates = expanded
        elif braces:
            # Several possible values: the word is dynamic past MAX_CANDIDATES, so no more are made.
            each = (expand_braces(value, bindings.charge) for value in candidates)
            candidates = list(itertools.islice(itertools.chain.from_iterable(each), MAX_CANDIDATES + 1))
            if len(candidates) > MAX_CANDIDATES:
                return None
        args.append(Arg(tuple(dict.fromkeys(candidates)), word.source, word.span, pattern, word))
    return args


def _brace_fields(value: str, bindings: Bindings, max_values: int | None) -> list[str] | None:
    """The words of a brace expansion; None past `max_values` distinct ones."""
    words = expand_braces(value, bindings.charge)
    if max_values is None:
        return list(words)
    expanded: list[str] = []
    distinct: set[str] = set()
    for each in words:
        expanded.append(each)
        distinct.add(each)
        if len(distinct) > max_values:
            return None
    return expanded


def _charge_joins(bindings: Bindings, current: list[str], values: Iterable[str]) -> None:
    """Charge the budget for joining each value onto each candidate, before the strings are built
    (a chain of variables can double a value's length at every step)."""
    lengths = [len(value) for value in values]
    characters = sum(len(prefix) * len(lengths) + sum(lengths) for prefix in current)
    if characters >= CHARACTERS_PER_STEP:
        bindings.charge(characters // CHARACTERS_PER_STEP)


def _known_values(part: ast.WordPart, bindings: Bindings) -> tuple[str, ...] | None:
    """The values of a parameter or a substitution with static output (None: run time)."""
    if type(part) is ast.ParamExpansion:
        return parameter_values(part, bindings)
    if type(part) is ast.CommandSubstitution:
        output = bindings.substitution_output(part.body)
        if output is None and not part.quoted:
            output = _listing(part.body)
        return None if output is None else (output,)
    return None


def _listing(body: ast.Script) -> str | None:
    """`$(ls -A)` unquoted: the working directory's entries, as globs that match them (`* .[!.]*`)."""
    statements = body.statements
    if len(statements) != 1 or type(statements[0].command) is not ast.SimpleCommand:
        return None
    command = statements[0].command
    if command.assignments or command.redirects or statements[0].background:
        return None
    words: list[str] = []
    for word in command.words:
        if len(word.parts) != 1 or type(word.parts[0]) is not ast.Literal:
            return None
        words.append(word.parts[0].text)
    return working_directory_listing(words) if words else None


def _quoted(part: ast.WordPart) -> bool:
    """Whether a parameter or command substitution sits in double quotes (then it is not split)."""
    return isinstance(part, ast.ParamExpansion | ast.CommandSubstitution) and part.quoted


def has_list_expansion(word: ast.Word) -> bool:
    """Whether a word holds "$@", "${a[@]}", "${a[*]}"...: a word that may become several fields."""
    return any(type(part) is ast.ParamExpansion and _list_selector(part) is not None for part in word.parts)


def _list_selector(part: ast.ParamExpansion) -> str | None:
    """`@` or `*` for "$@", "$*", "${a[@]}", "${a[*]}"; None for any other parameter."""
    if part.subscript is None:
        return part.name if part.name in ("@", "*") else None
    index = part.subscript.source
    return index if index in ("@", "*") else None


def _list_fields(part: ast.ParamExpansion, bindings: Bindings) -> list[str] | None:
    """The fields a list expansion becomes: "$@" one per element, "$*" joined
    by the first IFS character, unquoted either one split by IFS."""
    elements = _selected_elements(part, bindings)
    if elements is None:
        return None
    if part.quoted and _list_selector(part) == "@":
        return list(elements)
    separators = bindings.field_separators()
    if separators is None:
        return None
    if part.quoted:
        return [separators[:1].join(elements)]
    if not separators:
        return list(elements)
    return [piece for element in elements for piece in split_fields(element, separators)]


def _selected_elements(part: ast.ParamExpansion, bindings: Bindings) -> tuple[str, ...] | None:
    """The elements `${a[@]}` or a slice of it (`${a[@]:1}`, `${a[*]: -2:1}`) stands for; None when unknown."""
    if part.operator in ("", ":-", "-"):
        elements = bindings.elements(part.name)
        # `${a[@]:-word}` is the default only when the array is empty.
        return elements if not part.operator or elements else None
    if part.operator not in (":", "::") or part.subscript is None:
        return None
    bounds = [word.source.strip() for word in part.argument]
    if not bounds or len(bounds) > 2 or not all(bound.lstrip("-").isdigit() for bound in bounds):
        return None  # arithmetic bounds are known only at run time
    length = int(bounds[1]) if len(bounds) == 2 else None
    return bindings.slice(part.name, int(bounds[0]), length)


def _dynamic(word: ast.Word, bindings: Bindings) -> Arg:
    return Arg((), word.source, word.span, False, _with_known_parameters(word, bindings))


def _with_known_parameters(word: ast.Word, bindings: Bindings) -> ast.Word:
    """A word known only at run time, its parameters with one known value written as the text they
    hold: readers of the word's parts then see what a known variable puts beside an unknown part
    (`Q='DROP TABLE t'; psql -c "$Q; -- by $USER"` runs a DROP TABLE). An unquoted value that bash
    would split or glob stays an expansion."""
    parts = word.parts
    if len(parts) < 2:
        return word  # a lone expansion: nothing known stands beside it
    known: list[ast.WordPart] = []
    replaced = False
    for part in parts:
        if type(part) is ast.ParamExpansion and _list_selector(part) is None:
            values = parameter_values(part, bindings)
            # A value in the home (`~`, `~/x`) stays an expansion: as literal text it would name a file called `~`.
            if (
                values is not None
                and len(values) == 1
                and not values[0].startswith(HOME)
                and (part.quoted or _stays_one_word(values[0]))
            ):
                known.append(ast.Literal(values[0], True, part.span))
                replaced = True
                continue
        known.append(part)
    return ast.Word(tuple(known), word.span, word.source) if replaced else word


def _stays_one_word(value: str) -> bool:
    """An unquoted value bash neither splits (default IFS) nor globs."""
    return bool(value) and not any(char.isspace() for char in value) and _GLOB_CHARS.isdisjoint(value)


def _tilde_prefix(text: str, quoted: bool, rest: tuple[ast.WordPart, ...]) -> str:
    """A word starting with `~`: the home, another user's home, or a literal `~`.

    Bash expands the tilde prefix (up to the first unquoted `/`) only when no
    character of it is quoted: `~"/"` and `"~"` are a directory named `~`.
    """
    if quoted:
        return _literal_tilde(text)
    prefix, slash, _ = text.partition("/")
    if not slash and rest:
        return _literal_tilde(text)
    if prefix == "~":
        return HOME + text[1:]
    user = prefix[1:]
    if _USER_NAME.match(user):
        home = "/root" if user == "root" else f"/home/{user}"
        return home + text[len(prefix) :]
    return _literal_tilde(text)


def _literal_tilde(text: str) -> str:
    """A literal leading `~` names a file in the working directory, not the home."""
    return "./" + text if text[:1] == HOME else text


def as_held(value: str) -> str:
    """The string bash holds for a value kept as `./~...` (a literal `~...`, see `_literal_tilde`).

    Code built from values (`eval "rm -rf $x"`, `sh -c`, `ssh HOST "$x"`) is read again by a
    shell, which expands that `~` as the home. A value written as `./~` itself reads as `~`
    here too: the code then names the home, a finding rather than a miss.
    """
    return value[2:] if value.startswith("./~") else value


def quoted_for_shell(value: str) -> str:
    """A normalised value quoted back into one shell word, for code a program builds from its
    arguments (parallel's command lines, a terminal's `-e`). A leading `~` stays unquoted: in a
    normalised value it is the home, and a quoted one would name a directory called `~`."""
    if value == HOME or value.startswith(HOME + "/"):
        rest = value[len(HOME) + 1 :]
        return value[: len(HOME) + 1] + (shlex.quote(rest) if rest else "")
    return shlex.quote(value)


def _escape_glob(text: str) -> str:
    return "".join(f"[{char}]" if char in _GLOB_CHARS else char for char in text)


def parameter_values(part: ast.ParamExpansion, bindings: Bindings) -> tuple[str, ...] | None:
    """The possible values of one parameter expansion as a single string, or None.

    A list expansion ("$@", "${a[@]}") is its elements joined by blanks, which
    is what code built from it (`eval "$@"`) sees.
    """
    if part.operator in (":?", "?"):
        # `${x:?message}` is x, or the shell stops with the message before the command runs.
        part = part._replace(operator="", argument=())
    if _list_selector(part) is not None:
        elements = _selected_elements(part, bindings)
        return None if elements is None else (" ".join(elements),)
    if part.operator == "!" and part.subscript is None:
        return bindings.indirect(part.name)
    # `${x[0]}` is `$x`, array or not.
    subscript = part.subscript
    whole = subscript is None or subscript.source == "0"
    # `${x:-default}` is x itself when x is known; string operators compute from its values.
    if part.operator and part.operator not in (":-", "-"):
        values = bindings.candidates(part.name) if whole else None
        if values is None and whole and part.name in KNOWN_PREFIXES:
            return prefix_sliced(part, KNOWN_PREFIXES[part.name])
        return None if values is None else operated(part, values)
    if subscript is None or whole:
        values = bindings.candidates(part.name)
        if uses_default(part, values, bindings):
            return _default_value(part, bindings)
        return values
    if part.operator:
        return None
    key = _literal_key(subscript)
    element = None if key is None else bindings.element(part.name, key)
    return None if element is None else (element,)


def _literal_key(subscript: ast.Word) -> str | None:
    """A subscript's text after quote removal, when it holds no expansion (`${m["a b"]}` is key `a b`)."""
    texts: list[str] = []
    for part in subscript.parts:
        if type(part) is not ast.Literal:
            return None
        texts.append(part.text)
    return "".join(texts)


def uses_default(part: ast.ParamExpansion, values: tuple[str, ...] | None, bindings: Bindings) -> bool:
    """Whether `${x:-default}` is judged by its default: x is empty, or the command
    never assigns it (so it comes from the environment, where it may well be unset)."""
    if part.operator not in (":-", "-") or not part.argument:
        return False
    return values == ("",) or (values is None and not bindings.defines(part.name))


def _default_value(part: ast.ParamExpansion, bindings: Bindings) -> tuple[str, ...] | None:
    values = [word.value for word in normalize_words(part.argument, bindings)]
    known = [value for value in values if value is not None]
    return (" ".join(known),) if len(known) == len(values) else None


def is_unresolved(part: ast.WordPart, bindings: Bindings) -> bool:
    """Whether a word part's value is only known at run time."""
    if type(part) is ast.Literal:
        return False
    if type(part) is ast.ParamExpansion:
        return parameter_values(part, bindings) is None or bool(part.operator)
    if type(part) is ast.CommandSubstitution:
        return bindings.substitution_output(part.body) is None
    return True


def part_source(part: ast.WordPart) -> str:
    """A run-time part as people read it: `$x`, `${x:-y}`, `$(...)`, `<(...)`, `$((...))`."""
    if type(part) is ast.ParamExpansion:
        return f"${{{part.name}{part.operator}}}" if part.operator else f"${part.name}"
    if type(part) is ast.CommandSubstitution:
        return "`...`" if part.backquoted else "$(...)"
    if type(part) is ast.ProcessSubstitution:
        return f"{part.direction}(...)"
    return "$((...))"
