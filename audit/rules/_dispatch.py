"""Running the rules: which rules see which subjects (built from the registry
for one set of rule settings), and the sink the analysis hands its subjects
to, which runs them and keeps their findings."""

from __future__ import annotations

from collections import defaultdict

from .._analysis import (
    AssignmentSubject,
    CodeFactSubject,
    CommandSubject,
    ExecContextSubject,
    FunctionSubject,
    Location,
    LoopSubject,
    NameSource,
    RedirectSubject,
    SecretFlowSubject,
    Sink,
)
from .._caches import COMMAND_NAMES, Memo
from .._model import Position, Severity, Span
from .._syntax import ParseTrouble
from .._tables import Tables
from .._verdict import Findings
from ..packs._index import PACK_INDEX, PACKS_BY_COMMAND, PackEntry, load_pack
from ._core import CORE
from ._engine_rules import NESTING_TOO_DEEP, PARSE_TROUBLE
from ._rule import Applies, Check, Inspects, Rule
from ._settings import RuleSettings

Entry = tuple[Rule, Severity, Check]
# Entries in registry order, in runs that share one `applies` test (None: no test).
Groups = tuple[tuple[Applies | None, tuple[Entry, ...]], ...]


def _grouped(entries: list[Entry]) -> Groups:
    groups: list[tuple[Applies | None, list[Entry]]] = []
    for entry in entries:
        applies = entry[0].applies
        if groups and groups[-1][0] is applies:
            groups[-1][1].append(entry)
        else:
            groups.append((applies, [entry]))
    return tuple((applies, tuple(run)) for applies, run in groups)


class Dispatch:
    """Which rules see which subjects, for one set of rule settings (built once per policy).

    The core rules are listed when it is built; a pack that is on is loaded, and its rules
    listed, the first time a command names one of its programs (`audit/packs/_index.py`),
    so that a process that audits `ls` never loads the packs.
    """

    def __init__(self, settings: RuleSettings, tables: Tables) -> None:
        self.settings = settings
        self.tables = tables
        self.severity: dict[str, Severity | None] = {}
        self._listed: dict[str, list[Entry]] = defaultdict(list)
        self.by_command: dict[str, Groups] = {}
        by_prefix: list[tuple[str, Entry]] = []
        any_command: list[Entry] = []
        by_kind: dict[Inspects, list[Entry]] = defaultdict(list)
        for declared in CORE:
            entry = self._entry(declared)
            if entry is None:
                continue
            if declared.inspects is Inspects.COMMAND and declared.commands is not None:
                for name in declared.commands(tables):
                    if name.endswith("*"):
                        by_prefix.append((name[:-1], entry))
                    else:
                        self._listed[name].append(entry)
            elif declared.inspects is Inspects.COMMAND:
                any_command.append(entry)
            else:
                by_kind[declared.inspects].append(entry)
        self.by_command = {name: _grouped(entries) for name, entries in self._listed.items()}
        self.by_prefix: list[tuple[str, Groups]] = [(prefix, _grouped([entry])) for prefix, entry in by_prefix]
        self.any_command: Groups = _grouped(any_command)
        self.by_kind: dict[Inspects, Groups] = {kind: _grouped(by_kind[kind]) for kind in Inspects}
        self._by_name: Memo[str, Groups] = Memo(COMMAND_NAMES)
        self._loaded: set[str] = set()
        self._unloaded: dict[str, PackEntry] = {
            entry.name: entry for entry in PACK_INDEX if entry.name in settings.packs
        }
        if settings.turns_on_pack_rules():
            self.load_every_pack()

    def _entry(self, declared: Rule) -> Entry | None:
        severity = self.settings.severity_of(declared)
        self.severity[declared.id] = severity
        if severity is None or declared.check is None:
            return None
        return (declared, severity, declared.check)

    def _load(self, entry: PackEntry) -> None:
        """List the rules of a pack not loaded yet (each listed for command names only; a test pins that)."""
        if self._unloaded.pop(entry.name, None) is None:
            return
        self._loaded.add(entry.name)
        touched: set[str] = set()
        for declared in load_pack(entry).rules:
            listed = self._entry(declared)
            if listed is None or declared.commands is None:
                continue
            for name in declared.commands(self.tables):
                self._listed[name].append(listed)
                touched.add(name)
        for name in touched:
            # registry order (by id), as if the pack had been listed with the core rules
            self.by_command[name] = _grouped(sorted(self._listed[name], key=lambda listed: listed[0].id))

    def load_every_pack(self) -> None:
        """List the rules of every pack now, those of packs that are off included (which
        pack holds a rule that a `[rules]` setting turns on is known only from its module)."""
        self._unloaded.update((entry.name, entry) for entry in PACK_INDEX if entry.name not in self._loaded)
        for entry in PACK_INDEX:
            self._load(entry)
        self._by_name = Memo(COMMAND_NAMES)

    def _load_packs_of(self, name: str) -> None:
        for entry in PACKS_BY_COMMAND.get(name, ()):
            if entry.name in self._unloaded:
                self._load(entry)

    def listed_for(self, name: str) -> Groups | None:
        """The rules listed for exactly this command name (its packs loaded first)."""
        if self._unloaded:
            self._load_packs_of(name)
        return self.by_command.get(name)

    def for_name(self, name: str) -> Groups:
        """The rules listed for a command name (or its table name), then those
        for its prefixes; remembered, as names repeat."""
        groups = self._by_name.get(name)
        if groups is None:
            table_name = self.tables.table_name(name)
            groups = self.listed_for(name) or self.listed_for(table_name) or ()
            for prefix, prefixed in self.by_prefix:
                if name.startswith(prefix):
                    groups += prefixed
            self._by_name.remember(name, groups)
        return groups


class RuleRunner(Sink):
    """The analysis sink: runs the rules each subject is for, into `findings`."""

    def __init__(self, findings: Findings, dispatch: Dispatch, max_depth: int) -> None:
        self.findings = findings
        self.dispatch = dispatch
        self.tables = dispatch.tables
        self.max_depth = max_depth

    def emit(self, declared: Rule, span: Span, message: str, location: Location) -> None:
        """A finding of an engine-emitted rule, unless the settings turned it off."""
        severity = self.dispatch.severity[declared.id]
        if severity is not None:
            self.findings.add(declared.id, declared.name, severity, message, span, location.position, location.path)

    def _run(self, groups: Groups, subject: object, location: Location) -> None:
        tables = self.tables
        add = self.findings.add
        command = subject if type(subject) is CommandSubject else None
        for applies, entries in groups:
            if applies is not None and not applies(subject):
                continue
            for declared, severity, check in entries:
                for hit in check(subject, tables):
                    span = hit.span if command is None else _from_command_name(command, hit.span)
                    add(declared.id, declared.name, severity, hit.message, span, location.position, location.path)

    # -- the Sink protocol ------------------------------------------------------------------

    def command(self, subject: CommandSubject) -> None:
        dispatch = self.dispatch
        location = subject.location
        name = subject.name
        if name is not None:
            self._run(dispatch.for_name(name), subject, location)
        if subject.wrappers:
            for wrapper in dict.fromkeys(subject.wrappers):
                groups = dispatch.listed_for(wrapper)
                if groups and wrapper != name:
                    self._run(groups, subject, location)
        if subject.name_source is not NameSource.STATIC:
            self._run(dispatch.by_kind[Inspects.COMPUTED_NAME], subject, location)
        self._run(dispatch.any_command, subject, location)

    def redirect(self, subject: RedirectSubject) -> None:
        self._run(self.dispatch.by_kind[Inspects.REDIRECT], subject, subject.location)

    def assignment(self, subject: AssignmentSubject) -> None:
        self._run(self.dispatch.by_kind[Inspects.ASSIGNMENT], subject, subject.location)

    def context(self, subject: ExecContextSubject) -> None:
        self._run(self.dispatch.by_kind[Inspects.CONTEXT], subject, subject.location)

    def code(self, subject: CodeFactSubject) -> None:
        self._run(self.dispatch.by_kind[Inspects.CODE], subject, subject.location)

    def function(self, subject: FunctionSubject) -> None:
        self._run(self.dispatch.by_kind[Inspects.FUNCTION], subject, subject.location)

    def loop(self, subject: LoopSubject) -> None:
        self._run(self.dispatch.by_kind[Inspects.LOOP], subject, subject.location)

    def flow(self, subject: SecretFlowSubject) -> None:
        self._run(self.dispatch.by_kind[Inspects.FLOW], subject, subject.location)

    def too_deep(self, span: Span, location: Location, label: str) -> None:
        limit = self.max_depth
        self.emit(NESTING_TOO_DEEP, span, f"`{label}` nests code deeper than {limit} levels; not audited", location)

    def parse_troubles(self, troubles: tuple[ParseTrouble, ...], location: Location) -> None:
        """One finding per parse: where the first trouble is, and how many there were."""
        if not troubles:
            return
        first = troubles[0]
        message = "; ".join(dict.fromkeys(f"{trouble.parser}: {trouble.message}" for trouble in troubles))
        self.emit(PARSE_TROUBLE, first.span, message, Location(Position.PARSE, location.path))


def _from_command_name(subject: CommandSubject, span: Span) -> Span:
    """A finding on an argument spans the command from its name to that
    argument, so its evidence reads `rm -rf /` rather than `/`."""
    if subject.command_index >= len(subject.argv):
        return span
    name = subject.argv[subject.command_index].span
    if subject.span.start <= name.start <= span.start and span.end <= subject.span.end:
        return Span(name.start, span.end)
    return span
