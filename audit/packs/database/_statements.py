"""The rules over the statements a database client's command line carries.

Which texts a client runs (options, operands, standard input, files written
earlier in the same string) is worked out by the analysis
(`audit._analysis._client_statements`, from the data in `audit.databases.CLIENTS`),
and each text is read by `audit.databases` (a real SQL tokenizer per dialect,
redis-cli's line splitting, MongoDB's JavaScript grammar); what it reports
becomes the findings of two rules per database: the irreversible statements
block, the others warn.
"""

from __future__ import annotations

from collections.abc import Callable

from ..._analysis import CommandSubject, resolve_path
from ..._analysis._client_statements import classified, client_statements
from ..._model import Severity, Span
from ..._named_tuple import NamedTuple
from ..._tables import Tables
from ...databases import StatementFinding, StatementKind, client_invoked
from ...rules._paths import per_subject, reading
from ...rules._rule import Example, Hit, Inspects, Rule, rule

DEFAULT_REASON = "A dropped or emptied table cannot be restored by the agent, and the connection may be production."

# What a client may do that is no destruction the packs judge: reading a file the text names,
# building statements at run time, text the reader could not finish. (Nothing in them is known
# to be safe, but nothing is known to destroy either; reporting them would flag every `psql -f`.)
# A shell command run from the client is audited by the walk as a command of its own; the
# packs' risky-statement rules still say that the client runs one.
_NOT_JUDGED = frozenset({StatementKind.INCLUDE_FILE, StatementKind.DYNAMIC_SQL, StatementKind.UNREADABLE})
# Judged by a rule of their own (`superuser_rule`), not as a statement that destroys or risks data.
_OWN_RULE = frozenset({StatementKind.GRANT_SUPERUSER})


class Found(NamedTuple):
    """A destructive statement and where the command line gives it."""

    finding: StatementFinding
    span: Span


@per_subject
def destructive_statements(subject: CommandSubject) -> tuple[Found, ...]:
    """Every destructive statement the command runs (worked out once: two rules ask)."""
    read = reading(subject)
    client = client_invoked(subject.name or "", read.path)
    if client is None:
        return ()
    written = dict(subject.written)
    given = client_statements(client, read, subject.stdin, lambda value: written.get(resolve_path(subject.cwd, value)))
    return tuple(
        Found(finding, statements.span)
        for statements in given
        for finding in classified(client, statements.text)
        if finding.kind not in _NOT_JUDGED
    )


def _describe(finding: StatementFinding) -> str:
    kind = finding.kind.value.replace("-", " ")
    return f"runs `{finding.evidence}` ({kind})"


def _checking(judged: Callable[[StatementFinding], bool]) -> Callable[[CommandSubject, Tables], tuple[Hit, ...]]:
    """A rule's check: a hit for each statement the command runs that the rule judges."""

    def check(subject: CommandSubject, tables: Tables) -> tuple[Hit, ...]:
        return tuple(
            Hit(found.span, _describe(found.finding))
            for found in destructive_statements(subject)
            if judged(found.finding)
        )

    return check


def statement_rules(
    *,
    ids: tuple[str, str],
    label: str,
    database: str,
    programs: tuple[str, ...],
    destroying: tuple[str | Example, ...],
    not_destroying: tuple[str | Example, ...],
    risky: tuple[str | Example, ...],
    not_risky: tuple[str | Example, ...],
) -> tuple[Rule, Rule]:
    """A database's two statement rules: what cannot be undone blocks, the rest warns."""
    high, medium = ids
    programs_run = frozenset(programs)

    def checking(irreversible: bool) -> Callable[[CommandSubject, Tables], tuple[Hit, ...]]:
        return _checking(lambda finding: finding.irreversible is irreversible and finding.kind not in _OWN_RULE)

    destroys = rule(
        id=high,
        name=f"{label}-destroys-data",
        severity=Severity.HIGH,
        summary=f"A {database} statement that destroys data with no undo: DROP of a database, schema or table, TRUNCATE, DELETE or UPDATE of every row, dropping columns.",
        rationale="The database keeps no copy of what these statements remove; only a backup taken before brings it back, and an agent's connection may well be production.",
        safer_alternative="Run it on a disposable copy, take a backup first, or narrow it (`WHERE`, one named object) and run it in a transaction you can roll back.",
        inspects=Inspects.COMMAND,
        must_match=destroying,
        must_not_match=not_destroying,
        commands=programs_run,
    )(checking(True))
    risky_rule = rule(
        id=medium,
        name=f"{label}-risky-statement",
        severity=Severity.MEDIUM,
        summary=f"A {database} statement that removes something rebuilt from its definition (a view, an index, a function, a role), stops the server, changes an account's password, or runs a shell command from the client.",
        rationale="These can be undone by recreating what was dropped, restarting what stopped or setting the password back, but they break whatever depends on it meanwhile. A shell command run from the client is also audited as a command of its own (`psql -c '\\! rm -rf ~'` is judged as `rm -rf ~`).",
        safer_alternative="Check the target first (`\\d name`, `SHOW CREATE`), create a new account rather than change the password of one in use, and run shell commands directly rather than through the database client.",
        inspects=Inspects.COMMAND,
        must_match=risky,
        must_not_match=not_risky,
        commands=programs_run,
    )(checking(False))
    return destroys, risky_rule


def superuser_rule(
    *,
    id: str,
    label: str,
    database: str,
    programs: tuple[str, ...],
    granting: tuple[str | Example, ...],
    not_granting: tuple[str | Example, ...],
) -> Rule:
    """A database's rule on statements that give an account the run of the server."""
    return rule(
        id=id,
        name=f"{label}-grants-superuser",
        severity=Severity.HIGH,
        summary=f"A {database} statement that gives an account the run of the server: a superuser, or every privilege on every database.",
        rationale="Such an account reads and changes every database, and on most servers reads and writes files and runs programs as the server; made by an agent, it is a way back in that outlives the session.",
        safer_alternative="Grant the privileges the task needs on the database it needs (`GRANT SELECT ON app.* TO ...`), to an account limited to the hosts that use it.",
        inspects=Inspects.COMMAND,
        must_match=granting,
        must_not_match=not_granting,
        commands=frozenset(programs),
    )(_checking(lambda finding: finding.kind is StatementKind.GRANT_SUPERUSER))
