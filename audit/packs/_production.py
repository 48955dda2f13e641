"""Whether a command acts on production: the target it names with its own options (`-n prod`, `--project
acme-prod`), or, without one, the target its environment (`KUBECONFIG`, `AWS_PROFILE`) or an earlier command
of the string (`kubectl config use-context prod`, `gcloud config set project acme-prod`) chose for it. The
packs that warn on changes in production (KU018, CL127-CL129) ask `in_production`."""

from __future__ import annotations

from .._named_tuple import NamedTuple
from ..programs import Arg
from ..rules._paths import names_production
from ._invocation import Found, Predicate, option_names


class Target(NamedTuple):
    """One way a tool is told where to act, and what overrides what: an option among `options` given on
    the command decides; else the first of `variables` the program gets; else the last value an earlier
    command chose for `selection` (`audit.programs.selections`)."""

    options: frozenset[str]
    """Canonical option names; each one given says where the command acts, for this target."""
    variables: tuple[str, ...] = ()
    selection: str | None = None


def in_production(*targets: Target) -> Predicate:
    """The word that names production among the command's own target options; or the command itself, when
    a target it leaves to its environment or to an earlier selection names production."""
    every_option: frozenset[str] = frozenset[str]().union(*(target.options for target in targets))

    def production(found: Found) -> Arg | None:
        subject = found.subject
        given = every_option & option_names(subject)
        for name in given:
            for value in found.reading.values(name):
                if any(names_production(text) for text in value.values):
                    return value
        for target in targets:
            if not given.isdisjoint(target.options):
                continue
            chosen = subject.setting(*target.variables) if target.variables else None
            if chosen is None and target.selection is not None:
                chosen = dict(subject.selected).get(target.selection)
            if chosen is not None and names_production(chosen):
                return Arg((), "", subject.span)
        return None

    return production
