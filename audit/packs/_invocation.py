"""Pack rules as data: which invocations of which programs a rule catches.

A pack rule lists `Invocation`s: a program (by command name), its
subcommand path (`stash clear`), the options that make the operation
dangerous (`requires`, `any_of`), the options that make it safe (`unless`:
dry runs, `--force-with-lease`) and predicates over its operands (`where`:
a protected branch, `--all`, an `s3://` bucket, an everything-selector such
as `$(docker ps -aq)`). The command line is read against the program's
declaration in `audit/programs`, so global options, option spellings,
clusters, `--flag=value` and unique prefixes are already taken care of.

Every name in an invocation is checked against the declarations when the
rule is built: a misspelt subcommand or option fails at import, naming the
rule.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from typing import TypeVar

from .._analysis import CommandSubject
from .._caches import COMMAND_NAMES, Memo
from .._model import Severity, Span
from .._named_tuple import NamedTuple
from .._syntax import ast
from .._tables import Tables
from ..errors import ProgramError, RegistryError
from ..programs import KNOWN, Arg, Option, OptionUse, Program, Reading, Takes, asks_for_help
from ..rules._paths import keep_last, may_be_device, per_subject, reading
from ..rules._rule import Applies, Example, Hit, Inspects, Rule, rule
from ._listings import listing_stage, literal_commands, substituted_listings


class Found(NamedTuple):
    """What a predicate looks at: the command, its reading and the policy's tables."""

    subject: CommandSubject
    reading: Reading
    tables: Tables


Predicate = Callable[[Found], Arg | None]
"""A test over a command's reading; the word that makes it true, else None."""

Answer = TypeVar("Answer")


def per_found(question: Callable[[Found], Answer]) -> Callable[[Found], Answer]:
    """A question several rules ask about one command: the last answer is kept (`per_subject`)."""

    def asked(subject: CommandSubject, found: Found) -> Answer:
        return question(found)

    kept = keep_last(asked)

    def ask(found: Found) -> Answer:
        return kept(found.subject, found)

    return ask


@dataclass(frozen=True, slots=True)
class Invocation:
    """One way of running a dangerous operation."""

    commands: tuple[str, ...]
    """Command names (`git`; `docker`, `podman` for a shared subcommand)."""
    path: tuple[str, ...]
    """The subcommand path, canonical names (`stash`, `clear`)."""
    requires: tuple[str, ...] = ()
    """Options that must all be given (any spelling of each)."""
    any_of: tuple[str, ...] = ()
    """Options of which at least one must be given."""
    unless: tuple[str, ...] = ()
    """Options that make the command safe (a dry run); with one of them given, no match
    (unless its value turns it off: `--dry-run=none`)."""
    where: tuple[Predicate, ...] = ()
    """Predicates that must all hold."""
    # The options above by canonical name (`--force` for `-f`), filled in by `check_declared`:
    # a command's options are compared as sets of names.
    required_names: frozenset[str] = field(default=frozenset(), init=False, compare=False)
    any_names: frozenset[str] = field(default=frozenset(), init=False, compare=False)
    unless_names: frozenset[str] = field(default=frozenset(), init=False, compare=False)

    def options_allow(self, found: Found) -> bool:
        """The option tests: every required option, one of `any_of`, none of `unless` in effect."""
        given = option_names(found.subject)
        if not self.required_names <= given:
            return False
        if self.any_names and self.any_names.isdisjoint(given):
            return False
        if self.unless_names and not self.unless_names.isdisjoint(given):
            return not any(_in_effect(use) for use in found.reading.uses(*self.unless))
        return True

    def match(self, found: Found) -> list[Arg] | None:
        """The words the predicates point at (none without predicates), or None when the command
        is not this invocation. The caller has checked the command name and subcommand path."""
        if not self.options_allow(found):
            return None
        evidence: list[Arg] = []
        for predicate in self.where:
            word = predicate(found)
            if word is None:
                return None
            evidence.append(word)
        return evidence

    def check_declared(self) -> None:
        """Fail (ProgramError) unless every program, subcommand and option named is declared;
        then note the options' canonical names."""
        names: dict[str, set[str]] = {}
        for name in self.commands:
            program = KNOWN.get(name)
            if program is None:
                raise ProgramError(f"{name!r} is not a declared program (audit/programs)")
            options = _options_along(program, self.path)
            for spelling in (*self.requires, *self.any_of, *self.unless):
                if spelling not in options:
                    raise ProgramError(f"`{name} {' '.join(self.path)}` declares no option {spelling!r}")
                names.setdefault(spelling, set()).update(option.name for option in options[spelling])

        def canonical(spellings: tuple[str, ...]) -> frozenset[str]:
            return frozenset(name for spelling in spellings for name in names[spelling])

        object.__setattr__(self, "required_names", canonical(self.requires))
        object.__setattr__(self, "any_names", canonical(self.any_of))
        object.__setattr__(self, "unless_names", canonical(self.unless))


@per_subject
def option_names(subject: CommandSubject) -> frozenset[str]:
    """The canonical names of the options a command gives (`--force` for `-f`), less the flags
    it turns off with their value (`-destroy=false`, `--volumes=0`)."""
    names = _CANONICAL
    return frozenset(
        names.get(use.option) or _canonical(use.option) for use in reading(subject).options if not _turned_off(use)
    )


# Option.name looks through the spellings every time; options are few and long-lived.
_CANONICAL: Memo[Option, str] = Memo(COMMAND_NAMES)


def _canonical(option: Option) -> str:
    return _CANONICAL.remember(option, option.name)


def command(
    commands: str | Sequence[str],
    path: str = "",
    *,
    requires: Iterable[str] = (),
    any_of: Iterable[str] = (),
    unless: Iterable[str] = (),
    where: Predicate | Iterable[Predicate] = (),
) -> Invocation:
    """`command("git", "stash clear")`, `command(("docker", "podman"), "volume prune", unless=("--filter",))`."""
    names = (commands,) if isinstance(commands, str) else tuple(commands)
    predicates = (where,) if callable(where) else tuple(where)
    return Invocation(names, tuple(path.split()), tuple(requires), tuple(any_of), tuple(unless), predicates)


# `--dry-run=none`, `--dry-run=false`: the safe option given, and turned off (`f` is false to Go).
_OFF = frozenset({"none", "false", "f", "no", "off", "0"})


def _in_effect(use: OptionUse) -> bool:
    return use.value is None or use.value.value is None or use.value.value.lower() not in _OFF


def _turned_off(use: OptionUse) -> bool:
    """A flag given a value that turns it off (`--all=false`); a value that does not (`--all=true`,
    a word known only at run time) leaves it on."""
    return use.option.takes is Takes.NOTHING and use.value is not None and not _in_effect(use)


def _options_along(program: Program, path: tuple[str, ...]) -> dict[str, set[Option]]:
    """The options (by spelling) a command line with this subcommand path can use, the
    program's own included; ProgramError when the program declares no such path."""
    node = program.root
    options: dict[str, set[Option]] = {}
    for spelling, option in node.grammar.by_spelling.items():
        options.setdefault(spelling, set()).add(option)
    for word in path:
        child = node.children.get(word)
        if child is None or child.name != word:
            raise ProgramError(f"program {program.name} declares no subcommand path {' '.join(path)!r}")
        node = child
        for spelling, option in node.grammar.by_spelling.items():
            options.setdefault(spelling, set()).add(option)
    return options


# -- predicates ------------------------------------------------------------------------------


def operand(position: str | int, *patterns: str) -> Predicate:
    """The operand at a named position (`TYPE`) or index matches one of the glob patterns."""

    def at_position(found: Found) -> Arg | None:
        read = found.reading
        if isinstance(position, int):
            words = read.operands[position : position + 1] if position < len(read.operands) else ()
        else:
            words = read.operand(position)
        return next((word for word in words if _value_matches(word, patterns)), None)

    return at_position


def device_operand(position: str) -> Predicate:
    """The operand at a named position is a block device, or a word known only at run time
    that may name one (an image file in the workspace is not)."""

    def device(found: Found) -> Arg | None:
        return next((word for word in found.reading.operand(position) if may_be_device(word)), None)

    return device


def any_operand(*patterns: str) -> Predicate:
    """Some operand matches one of the glob patterns."""

    def some(found: Found) -> Arg | None:
        return next((word for word in found.reading.operands if _value_matches(word, patterns)), None)

    return some


def option_value(name: str, *patterns: str) -> Predicate:
    """Some use of the option (by its canonical name, `--pid`) has a value matching one of the
    glob patterns (case-insensitive)."""
    return option_values({name: patterns})


def option_values(patterns_by_option: Mapping[str, Iterable[str]]) -> Predicate:
    """Some use of one of the options (by canonical name) has a value matching one of its glob
    patterns (case-insensitive): `{"--pid": ("host",), "--ipc": ("host",)}`."""
    table = {name: tuple(pattern.lower() for pattern in patterns) for name, patterns in patterns_by_option.items()}
    names = frozenset(table)

    def valued(found: Found) -> Arg | None:
        given = option_names(found.subject)
        if names.isdisjoint(given):
            return None
        for name in names & given:
            for value in found.reading.values(name):
                if any(
                    fnmatchcase(candidate.lower(), pattern) for candidate in value.values for pattern in table[name]
                ):
                    return value
        return None

    return valued


def listed_by(*programs: str, selects_all: Callable[[list[str]], bool] | None = None) -> Predicate:
    """An everything-selector: an operand built at run time from a listing made by one of these
    programs (`docker rm $(docker ps -aq)`), or the operands xargs adds from one of them (`docker ps
    -aq | xargs docker rm`, `xargs docker rm < <(docker ps -aq)`). `selects_all` says whether a
    listing's literal words list everything (by default: no filter option narrows it)."""
    wanted = frozenset(programs)
    everything = selects_all or _unfiltered

    def selected(found: Found) -> Arg | None:
        for word in found.reading.operands:
            if any(
                _lists_everything(commands, wanted, everything)
                for commands in substituted_listings(word, found.subject)
            ):
                return word
        subject = found.subject
        stdin = subject.stdin
        if stdin is None or "xargs" not in subject.wrappers:
            return None
        listing = listing_stage(stdin)
        if listing is not None and _lists_everything(literal_commands((listing,)), wanted, everything):
            # With no word of its own (`... | xargs kill`), the command is what xargs completes.
            return found.reading.args[-1] if found.reading.args else Arg((), "", subject.span)
        return None

    return selected


def named_operand(*programs: str) -> Predicate:
    """An operand that names what it acts on (written out, or a filtered listing), as opposed to
    an everything-selector of these programs (`listed_by`)."""
    wanted = frozenset(programs)

    def named(found: Found) -> Arg | None:
        return next(
            (
                word
                for word in found.reading.operands
                if not any(
                    _lists_everything(commands, wanted, _unfiltered)
                    for commands in substituted_listings(word, found.subject)
                )
            ),
            None,
        )

    return named


def _value_matches(word: Arg, patterns: tuple[str, ...]) -> bool:
    return any(fnmatchcase(value, pattern) for value in word.values for pattern in patterns)


# A listing narrowed by one of these (`docker ps -q --filter label=app`) selects some, not everything.
_NARROWING = ("-f", "--filter", "-l", "--label", "--selector")
_NARROWING_VALUES = tuple(f"{option}=" for option in _NARROWING)


def substituted_commands(word: Arg) -> Iterator[list[list[str]]]:
    """Each command substitution of a word known only at run time (`$(docker ps -aq)`), as the
    literal words of its commands, through pipelines and lists."""
    if not word.is_dynamic or word.word is None:
        return
    for part in word.word.parts:
        if type(part) is ast.CommandSubstitution:
            yield list(literal_commands(part.body.statements))


def xargs_input_commands(subject: CommandSubject) -> list[list[str]] | None:
    """The commands whose output xargs turns into this command's operands, as literal words, the
    stage right before xargs last (`docker ps -aq | xargs docker rm`, `xargs docker rm < <(docker
    ps -aq)`, `dpkg --get-selections | cut -f1 | xargs apt-get purge`); None without xargs or a writer."""
    stdin = subject.stdin
    if stdin is None or stdin.writer is None or "xargs" not in subject.wrappers:
        return None
    stages: list[list[str]] = []
    while stdin is not None and stdin.writer is not None:
        stages[:0] = literal_commands((stdin.writer,))
        stdin = stdin.upstream
    return stages


def _lists_everything(
    commands: Iterable[list[str]], programs: frozenset[str], everything: Callable[[list[str]], bool]
) -> bool:
    """Whether one of the commands (as literal words) runs one of the programs and lists everything."""
    return any(words and words[0].rsplit("/", 1)[-1] in programs and everything(words) for words in commands)


def _unfiltered(words: list[str]) -> bool:
    """A listing no filter option narrows (`docker ps -aq`, not `docker ps -q --filter label=app`)."""
    return not any(word in _NARROWING or word.startswith(_NARROWING_VALUES) for word in words)


# -- the rule declaration ----------------------------------------------------------------------


def pack_rule(
    *,
    id: str,
    name: str,
    severity: Severity,
    summary: str,
    rationale: str,
    safer_alternative: str,
    matches: Sequence[Invocation],
    message: str,
    must_match: Iterable[str | Example],
    must_not_match: Iterable[str | Example],
) -> Rule:
    """A rule that fires on any of `matches`, with `message` as its finding."""
    by_path: dict[tuple[str, tuple[str, ...]], list[Invocation]] = {}
    for invocation in matches:
        try:
            invocation.check_declared()
        except ProgramError as error:
            raise RegistryError(f"rule {id}: {error}") from error
        for command_name in invocation.commands:
            by_path.setdefault((command_name, invocation.path), []).append(invocation)
    candidates = {key: tuple(invocations) for key, invocations in by_path.items()}
    names = frozenset(command_name for command_name, _ in candidates)

    def check(subject: CommandSubject, tables: Tables) -> tuple[Hit, ...]:
        read = reading(subject)
        invocations = candidates.get((subject.name or "", read.path))
        if invocations is None or only_asks_for_help(subject):
            return ()
        found = Found(subject, read, tables)
        for invocation in invocations:
            evidence = invocation.match(found)
            if evidence is not None:
                return (Hit(_evidence_span(subject, evidence), message),)
        return ()

    return rule(
        id=id,
        name=name,
        severity=severity,
        summary=summary,
        rationale=rationale,
        safer_alternative=safer_alternative,
        inspects=Inspects.COMMAND,
        must_match=must_match,
        must_not_match=must_not_match,
        commands=names,
        applies=_subcommand_test(candidates),
    )(check)


@per_subject
def only_asks_for_help(subject: CommandSubject) -> bool:
    """Whether the command only asks its program for help (`kubectl delete ns prod --help`): the
    program prints it and does nothing else. Only pack rules ask: a core rule judges what a
    command may do wherever the program stops (`rm -rf / --help` removes on BSD)."""
    return asks_for_help(reading(subject))


# -- which pack rules the engine runs on a command ----------------------------------------------------

# Per program, every spelling of every first subcommand some pack rule is about (`push`; `rm`
# and `remove`): a command with none of them among its words is not read at all.
_FIRST_WORDS: dict[str, set[str]] = {}
# Programs whose commands some pack rule judges without a subcommand (`rm`, `curl`), and a
# cheaper first test for some of them (an HTTP client's request method).
_ROOT_PROGRAMS: set[str] = set()
_GATES: dict[str, Callable[[CommandSubject], bool]] = {}
_TESTS: dict[frozenset[tuple[str, str]], Applies] = {}


@per_subject
def first_subcommand(subject: CommandSubject) -> str:
    """The command's first subcommand by canonical name (`push`); "" when it has none, or none
    that a pack rule is about (then it is not even read)."""
    name = subject.name or ""
    words = _FIRST_WORDS.get(name)
    if not words:
        return ""
    aliases = KNOWN[name].aliases
    args = subject.args if aliases is None else aliases(subject.args)
    if not any(value in words for arg in args for value in arg.values):
        return ""
    path = reading(subject).path
    return path[0] if path else ""


def _subcommand_test(candidates: Mapping[tuple[str, tuple[str, ...]], object]) -> Applies:
    """A rule's `applies` test: whether the command is one of its programs with one of its first
    subcommands. Rules about the same subcommands share one test, and the engine asks a shared
    test once for a run of rules (`git status` runs none of git's rules; `git push` only the
    four about pushes)."""
    wanted = frozenset((command_name, path[0] if path else "") for command_name, path in candidates)
    test = _TESTS.get(wanted)
    if test is not None:
        return test
    for command_name, first in wanted:
        if first:
            _FIRST_WORDS.setdefault(command_name, set()).update(_spellings_of(command_name, first))
        else:
            _ROOT_PROGRAMS.add(command_name)
    firsts: dict[str, frozenset[str]] = {}
    for command_name, first in wanted:
        firsts[command_name] = firsts.get(command_name, frozenset()) | {first}

    def applies(subject: CommandSubject) -> bool:
        name = subject.name or ""
        accepted = firsts.get(name)
        if accepted is None:
            return True  # reached through a wrapper's name: the check decides
        if "" in accepted:
            gate = _GATES.get(name)
            return gate is None or gate(subject) or (bool(accepted - {""}) and first_subcommand(subject) in accepted)
        return first_subcommand(subject) in accepted

    _TESTS[wanted] = applies
    return applies


def _spellings_of(name: str, subcommand: str) -> frozenset[str]:
    """Every spelling of a program's first-level subcommand (`rm` and `remove`)."""
    children = KNOWN[name].root.children
    return frozenset(spelling for spelling, child in children.items() if child.name == subcommand)


def gate_commands(names: Iterable[str], test: Callable[[CommandSubject], bool]) -> None:
    """Give these programs' commands a cheaper test than their rules' invocations before the
    rules run (an HTTP client's request method: most requests are GETs no rule is about)."""
    for name in names:
        _GATES[name] = test


def _evidence_span(subject: CommandSubject, evidence: list[Arg]) -> Span:
    """The command up to the last word a predicate pointed at (the engine starts the span at the
    command's name), or the whole command."""
    inside = [word.span for word in evidence if subject.span.start <= word.span.start <= subject.span.end]
    if not inside:
        return subject.span
    return max(inside, key=lambda span: span.end)
