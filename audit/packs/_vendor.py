"""A service's pack from one table row: its CLI's destructive commands and the
destructive HTTP calls to its API.

    vendor_pack(
        name="payments.stripe", id="PY101", vendor="Stripe",
        commands=(command("stripe", "customers delete"), ...),
        api=("api.stripe.com/v1/**",),
        must_match=(...), must_not_match=(...),
    )

One rule per service; the pack is off by default (a team turns on the services
it runs) unless the row says otherwise.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .._model import Severity
from ..rules._pack import Pack
from ..rules._rule import Example
from ._http import api_calls
from ._invocation import Invocation, pack_rule

_OFF_REASON = "A long-tail service: teams turn on the packs of the services they run."


def vendor_pack(
    *,
    name: str,
    id: str,
    vendor: str,
    what: str,
    commands: Iterable[Invocation] = (),
    api: Iterable[str] = (),
    methods: tuple[str, ...] = ("DELETE",),
    must_match: Iterable[str | Example],
    must_not_match: Iterable[str | Example],
    default: bool = False,
    reason: str = _OFF_REASON,
    severity: Severity = Severity.HIGH,
) -> Pack:
    """The pack `name` with one rule: `vendor`'s CLI `commands`, and `methods` calls to URLs
    matching the `api` patterns (see `_http`). `what` names what gets destroyed."""
    patterns = tuple(api)
    verbs = "/".join(methods)
    # A pack that is off needs a policy that turns it on for its examples to run.
    policy = None if default else {"packs": {"enable": [name]}}
    must_match = tuple(_with_policy(example, policy) for example in must_match)
    must_not_match = tuple(_with_policy(example, policy) for example in must_not_match)
    via_api = f", or `{verbs}` on its API" if patterns else ""
    declared = pack_rule(
        id=id,
        name=f"{name.rsplit('.', 1)[-1]}-destructive-call",
        severity=severity,
        summary=f"Deletes {what} at {vendor} through its CLI{via_api}.",
        rationale=f"{vendor} keeps no undo for what these calls remove; the data and configuration are gone for everyone using the account.",
        safer_alternative=f"Make the change in {vendor}'s dashboard or through infrastructure code that someone reviews.",
        matches=(*commands, *(api_calls(methods, *patterns) if patterns else ())),
        message=f"deletes {what} at {vendor}",
        must_match=must_match,
        must_not_match=must_not_match,
    )
    summary = f"{vendor}: {what}, through its CLI{' and its API' if patterns else ''}."
    return Pack(name=name, summary=summary, default=default, reason=reason, rules=(declared,))


def _with_policy(example: str | Example, policy: Mapping[str, Any] | None) -> str | Example:
    if policy is None or isinstance(example, Example):
        return example
    return Example(example, policy)
