"""Policies: limits, rule settings and the name tables, loaded from TOML.

The default policy is `default_policy.toml` inside the package, read with the
same loader as a user policy, on top of the built-in programs (the wrappers
and interpreters of `audit/programs/`). A user policy is validated completely
before anything is applied, and then merged onto the default: limits and rule
settings replace, name lists and interpreter/wrapper entries extend.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fnmatch import fnmatchcase
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any, TypeVar

from ._budget import DEFAULT_MAX_STEPS
from ._model import Severity
from ._named_tuple import NamedTuple
from ._policy_reader import TableReader, describe
from ._policy_snapshot import TOML_NAME, snapshot_document
from ._tables import Tables
from .errors import PolicyError
from .packs._index import PACK_INDEX, PACK_NAMES, PACKS_BY_COMMAND
from .programs import INTERPRETERS, KNOWN_NAMES, STANDARD_PROGRAMS, WRAPPERS, InterpreterSpec, WrapperSpec
from .programs import interpreters as interpreter_keys
from .programs import wrappers as wrapper_keys
from .rules._core import CORE
from .rules._settings import RuleSettings

_Spec = TypeVar("_Spec", InterpreterSpec, WrapperSpec)

_RULE_SETTING_VALUES = {"high": Severity.HIGH, "medium": Severity.MEDIUM, "off": None}


@dataclass(frozen=True, slots=True)
class Limits:
    """What one audit may take: input length, work steps (the budget verdicts
    depend on), a CPU-time backstop, and the depth of nested code; and how
    many verdicts `audit_command_cached` keeps."""

    max_length: int = 10_000
    max_steps: int = DEFAULT_MAX_STEPS
    time_budget_ms: float = 50.0
    max_depth: int = 8
    verdict_cache: int = 1024


@dataclass(frozen=True, slots=True)
class Policy:
    """Everything that parameterises a verdict besides the command itself."""

    limits: Limits
    tables: Tables
    rule_settings: RuleSettings
    """The rules whose severity differs from their declaration: off for every rule of a pack
    that is off, and each `[rules]` setting (which names the rule itself, and so wins)."""
    source: str
    packs: frozenset[str]
    """The names of the threat packs that are on."""

    def severity_of(self, rule_id: str, default: Severity) -> Severity | None:
        """The effective severity of a rule; None when the policy turns it off."""
        return self.rule_settings.get(rule_id, default)


# -- loading -------------------------------------------------------------------


_NAME_LISTS = (
    "fetchers", "privilege", "secret_files", "process_environment_files", "credential_files", "token_files",
    "system_directories", "shell_startup_files", "authorized_keys_files", "autorun_scripts", "autorun_crontabs",
    "autorun_units", "autorun_opaque", "protected_directories", "data_directories", "linker_variables",
    "secret_file_names", "secret_variables", "allowed_destinations", "repository_hosts", "credential_stores",
    "disposable_home_directories", "home_data_directories", "service_data_directories", "protected_branches",
    "binary_directories", "interpreter_startup_files", "program_directories", "library_directories",
    "disposable_databases", "essential_packages", "agent_settings_files",
)  # fmt: skip
# `[names]` tables of commands with the words that select what they do (`pip install`, `gh auth token`).
_SUBCOMMAND_TABLES = ("installers", "secret_printers")


class _Draft(NamedTuple):
    """A policy being assembled, one document at a time; becomes a Policy only when complete."""

    limits: Limits
    rule_settings: dict[str, Severity | None]
    names: dict[str, list[str]]
    decoders: dict[str, set[str]]
    subcommands: dict[str, dict[str, list[tuple[str, ...]]]]
    """By table name (`_SUBCOMMAND_TABLES`): the commands and their subcommands."""
    interpreters: dict[str, InterpreterSpec]
    wrappers: dict[str, WrapperSpec]
    packs_enabled: list[str]
    packs_disabled: list[str]

    def freeze(self, source: str) -> Policy:
        names = self.names
        tables = Tables(
            fetchers=frozenset(names["fetchers"]),
            decoders=MappingProxyType({k: frozenset(v) for k, v in self.decoders.items()}),
            privilege=frozenset(names["privilege"]),
            installers=_frozen_subcommands(self.subcommands["installers"]),
            secret_files=tuple(dict.fromkeys(names["secret_files"])),
            process_environment_files=tuple(dict.fromkeys(names["process_environment_files"])),
            # A token file is a credential file too: it is read (SE004) and sent (SE005) as one.
            credential_files=tuple(dict.fromkeys(names["credential_files"] + names["token_files"])),
            token_files=tuple(dict.fromkeys(names["token_files"])),
            system_directories=tuple(dict.fromkeys(names["system_directories"])),
            shell_startup_files=tuple(dict.fromkeys(names["shell_startup_files"])),
            authorized_keys_files=tuple(dict.fromkeys(names["authorized_keys_files"])),
            agent_settings_files=tuple(dict.fromkeys(names["agent_settings_files"])),
            autorun_scripts=tuple(dict.fromkeys(names["autorun_scripts"])),
            autorun_crontabs=tuple(dict.fromkeys(names["autorun_crontabs"])),
            autorun_units=tuple(dict.fromkeys(names["autorun_units"])),
            autorun_opaque=tuple(dict.fromkeys(names["autorun_opaque"])),
            protected_directories=tuple(dict.fromkeys(names["protected_directories"])),
            data_directories=tuple(dict.fromkeys(names["data_directories"])),
            linker_variables=frozenset(names["linker_variables"]),
            secret_file_names=tuple(names["secret_file_names"]),
            secret_variables=tuple(names["secret_variables"]),
            secret_printers=_frozen_subcommands(self.subcommands["secret_printers"]),
            allowed_destinations=tuple(dict.fromkeys(names["allowed_destinations"])),
            repository_hosts=tuple(dict.fromkeys(names["repository_hosts"])),
            credential_stores=tuple(dict.fromkeys(names["credential_stores"])),
            disposable_home_directories=tuple(dict.fromkeys(names["disposable_home_directories"])),
            disposable_databases=tuple(dict.fromkeys(names["disposable_databases"])),
            home_data_directories=tuple(dict.fromkeys(names["home_data_directories"])),
            service_data_directories=tuple(dict.fromkeys(names["service_data_directories"])),
            protected_branches=tuple(dict.fromkeys(names["protected_branches"])),
            essential_packages=tuple(dict.fromkeys(names["essential_packages"])),
            binary_directories=tuple(dict.fromkeys(names["binary_directories"])),
            interpreter_startup_files=tuple(dict.fromkeys(names["interpreter_startup_files"])),
            program_directories=tuple(dict.fromkeys(names["program_directories"])),
            library_directories=tuple(dict.fromkeys(names["library_directories"])),
            interpreter_families=MappingProxyType(dict(self.interpreters)),
            wrappers=MappingProxyType(dict(self.wrappers)),
            known_programs=_program_names,
        )
        packs = _enabled_packs(self.packs_enabled, self.packs_disabled)
        return Policy(self.limits, tables, RuleSettings(self.rule_settings, packs), source, packs)


def _program_names(tables: Tables) -> frozenset[str]:
    """Every program the engine knows by name: declared programs, everyday utilities, wrappers, interpreters, the
    name tables, and the commands rules and packs are for (from the static indexes: nothing is loaded for this).
    A glob in command position is matched against these."""
    names: set[str] = set(KNOWN_NAMES) | STANDARD_PROGRAMS | set(PACKS_BY_COMMAND)
    names.update(tables.wrappers, tables.interpreters_by_name, tables.fetchers, tables.decoders, tables.privilege)
    names.update(tables.installers, tables.secret_printers)
    for declared in CORE:
        if declared.commands is not None:
            names.update(declared.commands(tables))
    return frozenset(names)


def _enabled_packs(enabled: list[str], disabled: list[str]) -> frozenset[str]:
    """The packs on by default or enabled by a pattern, less those a pattern disables (disable wins)."""
    return frozenset(
        pack.name
        for pack in PACK_INDEX
        if (pack.default or _matches_any(pack.name, enabled)) and not _matches_any(pack.name, disabled)
    )


def _matches_any(name: str, patterns: list[str]) -> bool:
    return any(fnmatchcase(name, pattern) for pattern in patterns)


def _frozen_subcommands(table: dict[str, list[tuple[str, ...]]]) -> Mapping[str, tuple[tuple[str, ...], ...]]:
    return MappingProxyType({name: tuple(dict.fromkeys(words)) for name, words in table.items()})


def _built_in_draft() -> _Draft:
    """The built-in programs (audit/programs/), before any policy document."""
    interpreters = {spec.family: spec for spec in INTERPRETERS}
    wrappers = {spec.name: spec for spec in WRAPPERS}
    subcommands: dict[str, dict[str, list[tuple[str, ...]]]] = {key: {} for key in _SUBCOMMAND_TABLES}
    return _Draft(Limits(), {}, {name: [] for name in _NAME_LISTS}, {}, subcommands, interpreters, wrappers, [], [])


def _apply(draft: _Draft, document: Mapping[str, Any], origin: str, is_rule: Callable[[str], bool]) -> _Draft:
    """Validate `document` completely and return `draft` with it merged in (`draft` itself
    is never changed: the draft of a document that fails validation does not exist)."""
    root = TableReader(document, "", origin)
    root.only({"version", "limits", "rules", "names", "packs", "interpreters", "wrappers"})
    root.integer("version", 1, 1, 1)
    limits = _limits(root.sub("limits"), draft.limits)
    rule_settings = _rule_settings(root.sub("rules"), draft.rule_settings, is_rule)
    names, decoders, subcommands = _names(root.sub("names"), draft)
    packs_reader = root.sub("packs")
    packs_reader.only({"enable", "disable"})
    packs_enabled = draft.packs_enabled + _pack_patterns(packs_reader, "enable")
    packs_disabled = draft.packs_disabled + _pack_patterns(packs_reader, "disable")
    interpreters = dict(draft.interpreters)
    families = root.sub("interpreters")
    for family in families.table:
        reader = families.sub(family)
        reader.only(interpreter_keys.POLICY_KEYS)
        interpreters[family] = _interpreter(reader, family, interpreters.get(family))
    wrappers = dict(draft.wrappers)
    wrapper_tables = root.sub("wrappers")
    for name in wrapper_tables.table:
        reader = wrapper_tables.sub(name)
        reader.only(wrapper_keys.POLICY_KEYS)
        wrappers[name] = _wrapper(reader, name, wrappers.get(name))

    return _Draft(
        limits, rule_settings, names, decoders, subcommands, interpreters, wrappers, packs_enabled, packs_disabled
    )


def _pack_patterns(reader: TableReader, key: str) -> list[str]:
    """Pack names or fnmatch patterns over them (`database.*`, `*`); each must name at least one pack."""
    names = list(PACK_NAMES)
    patterns = list(reader.strings(key))
    for index, pattern in enumerate(patterns):
        if any(fnmatchcase(name, pattern) for name in names):
            continue
        import difflib  # only a bad pattern needs suggestions

        families = sorted({f"{name.split('.', 1)[0]}.*" for name in names if "." in name})
        close = difflib.get_close_matches(pattern, names + families, n=3, cutoff=0.5)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise reader.fail(f"{key}[{index}]", f"no pack is named {pattern!r}{hint} (`audit-cmd rules` lists the packs)")
    return patterns


def _limits(reader: TableReader, previous: Limits) -> Limits:
    reader.only({"max_length", "max_steps", "time_budget_ms", "max_depth", "verdict_cache"})
    return Limits(
        max_length=reader.integer("max_length", previous.max_length, 1, 10_000_000),
        max_steps=reader.integer("max_steps", previous.max_steps, 1, 100_000_000),
        time_budget_ms=reader.number("time_budget_ms", previous.time_budget_ms, 1, 60_000),
        max_depth=reader.integer("max_depth", previous.max_depth, 1, 64),
        verdict_cache=reader.integer("verdict_cache", previous.verdict_cache, 0, 1_000_000),
    )


def _rule_settings(
    reader: TableReader, previous: dict[str, Severity | None], is_rule: Callable[[str], bool]
) -> dict[str, Severity | None]:
    settings = dict(previous)
    for rule_id, setting in reader.table.items():
        if not is_rule(rule_id):
            raise reader.fail(rule_id, "unknown rule id (see `audit-cmd rules`)")
        if setting not in _RULE_SETTING_VALUES:
            raise reader.fail(rule_id, f'must be "high", "medium" or "off", got {describe(setting)}')
        settings[rule_id] = _RULE_SETTING_VALUES[setting]
    return settings


def _names(
    reader: TableReader, draft: _Draft
) -> tuple[dict[str, list[str]], dict[str, set[str]], dict[str, dict[str, list[tuple[str, ...]]]]]:
    """The `[names]` lists, decoders, installers and secret printers, added to the draft's."""
    reader.only(set(_NAME_LISTS) | {"decoders", *_SUBCOMMAND_TABLES})
    names = {key: draft.names[key] + list(reader.strings(key)) for key in _NAME_LISTS}
    _check_forms(reader)
    decoders = {key: set(value) for key, value in draft.decoders.items()}
    for record in reader.records("decoders"):
        record.only({"name", "flags"})
        decoders.setdefault(record.text("name"), set()).update(record.strings("flags"))
    subcommands: dict[str, dict[str, list[tuple[str, ...]]]] = {}
    for key in _SUBCOMMAND_TABLES:
        table = {name: list(words) for name, words in draft.subcommands[key].items()}
        for record in reader.records(key):
            record.only({"name", "subcommands"})
            entries = record.strings("subcommands")
            if not entries:
                # An entry without subcommands would select nothing: say so rather than ignore it.
                raise record.fail("subcommands", "must list at least one subcommand (its first words, or an option)")
            table.setdefault(record.text("name"), []).extend(tuple(entry.split()) for entry in entries)
        subcommands[key] = table
    return names, decoders, subcommands


# A list of hosts: one colon is a port (`host:8080`); an IPv6 address has several.
_HOST_FORM: tuple[Callable[[str], bool], str] = (
    lambda host: any(character in host for character in "/@ \t") or host.count(":") == 1,
    "a host name or a glob over one (no scheme, port or path)",
)
# The `[names]` lists whose entries have a form: the test of a bad entry, and the form expected.
_ENTRY_FORMS: Mapping[str, tuple[Callable[[str], bool], str]] = {
    "secret_file_names": (lambda name: "/" in name or name in ("!", ""), "a file name or a glob over one (no `/`)"),
    "allowed_destinations": _HOST_FORM,
    "repository_hosts": _HOST_FORM,
    "binary_directories": (
        lambda path: not path.startswith("/") or path.endswith("/") or any(char in path for char in "*?["),
        "an absolute directory path without wildcards or a trailing slash",
    ),
}


def _check_forms(reader: TableReader) -> None:
    """Each entry the document adds to a list of `_ENTRY_FORMS` has the list's form."""
    for key, (bad, form) in _ENTRY_FORMS.items():
        for index, entry in enumerate(reader.strings(key)):
            if bad(entry):
                raise reader.fail(f"{key}[{index}]", f"must be {form}, got {entry!r}")


def _options(reader: TableReader, key: str, previous: frozenset[str]) -> frozenset[str]:
    return previous | frozenset(reader.strings(key))


def _interpreter(reader: TableReader, family: str, previous: InterpreterSpec | None) -> InterpreterSpec:
    if previous is None:
        previous = InterpreterSpec(family=family, names=frozenset(), language=reader.text("language"))
        if not reader.table.get("names"):
            raise reader.fail("names", "a new interpreter family needs at least one name")
    language = reader.text("language", previous.language) if "language" in reader.table else previous.language
    listed = (*interpreter_keys.OPTION_KEYS, *interpreter_keys.SUBCOMMAND_KEYS)
    options = {key: _options(reader, key, getattr(previous, key)) for key in listed}
    spec = previous._replace(
        names=_options(reader, "names", previous.names),
        language=language,
        versioned=reader.boolean("versioned", previous.versioned),
        code_operand=reader.boolean("code_operand", previous.code_operand),
        reads_stdin_code=reader.boolean("reads_stdin_code", previous.reads_stdin_code),
        compiles=reader.boolean("compiles", previous.compiles),
        **options,
    )
    return _checked(spec)


def _wrapper(reader: TableReader, name: str, previous: WrapperSpec | None) -> WrapperSpec:
    previous = previous or WrapperSpec(name=name)
    options = {key: _options(reader, key, getattr(previous, key)) for key in wrapper_keys.LIST_KEYS}
    flags = {key: reader.boolean(key, getattr(previous, key)) for key in wrapper_keys.FLAG_KEYS}
    place = reader.text("place", previous.place) if "place" in reader.table else previous.place
    spec = previous._replace(
        positionals=reader.integer("positionals", previous.positionals, 0, 8),
        place=place,
        option_places=_option_texts(reader.sub("option_places"), previous.option_places),
        program_options=_option_texts(reader.sub("program_options"), previous.program_options),
        **options,
        **flags,
    )
    return _checked(spec)


def _checked(spec: _Spec) -> _Spec:
    """`spec` with its grammar built (it is built on first use): a spelling that is not an option
    fails the policy's loading (ProgramError), not the first command that meets it."""
    _ = spec.grammar
    return spec


def _option_texts(reader: TableReader, previous: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    """A table from option spellings to text, added to the wrapper's own:
    `option_places = { "--host" = "on the host via ..." }`, `program_options = { "-e" = "sudoedit" }`."""
    texts = dict(previous)
    for option in reader.table:
        if not option.startswith("-"):
            raise reader.fail(option, "must be an option spelling (starting with -)")
        texts[option] = reader.text(option)
    return tuple(texts.items())


def _is_rule_id(rule_id: str) -> bool:
    """Whether a rule has this id; a core rule's id needs no pack loaded."""
    if rule_id in CORE.by_id:
        return True
    from .rules import REGISTRY  # every pack, loaded only for a setting that names a pack's rule

    return rule_id in REGISTRY.by_id


def _parse_toml(text: str, origin: str) -> Mapping[str, Any]:
    import tomllib  # with the datetime and regular expressions it loads, only when a policy is read

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise PolicyError(f"{origin}: not valid TOML: {error}") from error


@functools.cache
def _default_draft_document() -> Mapping[str, Any]:
    text = resources.files(__package__ or "audit").joinpath(TOML_NAME).read_text(encoding="utf-8")
    snapshot = snapshot_document(text)
    return snapshot if snapshot is not None else _parse_toml(text, TOML_NAME)


def _build(user_document: Mapping[str, Any] | None, origin: str) -> Policy:
    draft = _apply(_built_in_draft(), _default_draft_document(), "default_policy.toml", _is_rule_id)
    if user_document is not None:
        draft = _apply(draft, user_document, origin, _is_rule_id)
    return draft.freeze(origin)


@functools.cache
def default_policy() -> Policy:
    """The policy used when none is given (the packaged default_policy.toml)."""
    return _build(None, "<default>")


def load_policy(path: str | Path) -> Policy:
    """Read and validate a user policy file; raise PolicyError naming what is wrong."""
    origin = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise PolicyError(f"{origin}: cannot read policy file: {error.strerror or error}") from error
    except UnicodeDecodeError as error:
        raise PolicyError(f"{origin}: policy file is not UTF-8 text") from error
    return _build(_parse_toml(text, origin), origin)


def policy_from_mapping(document: Mapping[str, Any], origin: str = "<mapping>") -> Policy:
    """A policy from an already-parsed TOML document (same validation)."""
    return _build(document, origin)
