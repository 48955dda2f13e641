"""RbacProvider.from_toml: the same configuration, read from a file."""

from __future__ import annotations

from pathlib import Path

import pytest

from authz import AuthzConfigError, AuthzRequest, RbacProvider, build_principal

POLICY_TOML = """
default_role = "user"
unmentioned_resources = "deny"

[roles.admin]
tools = "*"
sandbox = true

[roles.user]
tools = { allow = "*", deny = ["bash"] }
models = ["gpt-4o-mini"]
skills = []
sandbox = ["execute"]
"""


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "rbac.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _allows(provider: RbacProvider, role: str, resource: str, action: str, target: str) -> bool:
    principal = build_principal({"user_role": role})
    return provider.authorize(AuthzRequest(principal, resource, action, target)).allow


@pytest.mark.parametrize("as_text", [False, True])
def test_policy_file_loads_from_a_path_or_a_string(tmp_path: Path, as_text: bool) -> None:
    path = _write(tmp_path, POLICY_TOML)
    provider = RbacProvider.from_toml(str(path) if as_text else path)
    assert provider.source == str(path)
    assert provider.default_role == "user"
    assert _allows(provider, "user", "tools", "call", "ls")
    assert not _allows(provider, "user", "tools", "call", "bash")
    assert _allows(provider, "user", "sandbox", "execute", "*")
    assert _allows(provider, "admin", "sandbox", "execute", "*")
    assert not _allows(provider, "user", "skills", "load", "pdf")
    assert not _allows(provider, "admin", "models", "use", "gpt-4o-mini")


@pytest.mark.parametrize(
    ("text", "fragments"),
    [
        ('[roles.user]\ntool = "*"\n', ("roles.user.tool", "did you mean 'tools'")),
        ('[roles.user]\ntools = ["ls", ""]\n', ("roles.user.tools[1]", "''")),
        ("[roles.user]\ntools = 3\n", ("roles.user.tools", "got 3")),
        ('[roles.user]\nsandbox = ["run"]\n', ("roles.user.sandbox[0]", "'run'")),
        ('default_role = "admin"\n[roles.user]\n', ("default_role", "'admin'")),
    ],
)
def test_invalid_policy_file_error_names_file_key_and_value(
    tmp_path: Path, text: str, fragments: tuple[str, ...]
) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(AuthzConfigError) as raised:
        RbacProvider.from_toml(path)
    message = str(raised.value)
    assert message.startswith(f"{path}: ")
    for fragment in fragments:
        assert fragment in message


def test_malformed_toml_error_names_the_file(tmp_path: Path) -> None:
    path = _write(tmp_path, "[roles.user\ntools = *\n")
    with pytest.raises(AuthzConfigError, match="not valid TOML") as raised:
        RbacProvider.from_toml(path)
    assert str(path) in str(raised.value)


def test_missing_policy_file_raises_file_not_found(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        RbacProvider.from_toml(tmp_path / "absent.toml")
