"""The authz contract: identity, requests, decisions and the provider protocol.

Everything another package needs from authz is named here; implementations
live in private modules next to it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Protocol, runtime_checkable


class AuthzError(Exception):
    """Base class of every error raised by the authz package."""


class AuthzConfigError(AuthzError, ValueError):
    """A provider configuration or policy file is invalid."""


@dataclass(frozen=True, slots=True)
class Principal:
    """Who is asking, as established by the server (never by the client)."""

    user_id: str | None
    role: str
    oauth_provider: str | None = None
    oauth_id: str | None = None
    channel_user_id: str | None = None
    is_internal: bool = False
    attributes: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True, slots=True)
class AuthzRequest:
    """One question: may `principal` perform `action` on `target` of `resource`."""

    principal: Principal
    resource: str
    action: str
    target: str


@dataclass(frozen=True, slots=True)
class AuthzReason:
    """A machine-readable code with a human-readable message."""

    code: str
    message: str


@dataclass(frozen=True, slots=True)
class AuthzDecision:
    """The answer, with the id of the rule that decided it."""

    allow: bool
    reasons: tuple[AuthzReason, ...] = ()
    rule_id: str | None = None
    metadata: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))


@runtime_checkable
class AuthorizationProvider(Protocol):
    """Decides requests; `filter_resources` keeps only the allowed items, in order."""

    def authorize(self, request: AuthzRequest) -> AuthzDecision: ...

    async def aauthorize(self, request: AuthzRequest) -> AuthzDecision: ...

    def filter_resources(
        self, principal: Principal, resource: str, items: Sequence[str]
    ) -> list[str]: ...
