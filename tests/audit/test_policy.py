"""User policies change severities, disable rules, extend tables and set limits;
loading validates strictly and is never half-applied (docs/policy.md)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest

from audit import (
    Decision,
    PolicyError,
    Severity,
    audit_command,
    default_policy,
    load_policy,
    policy_from_mapping,
)
from audit.errors import ProgramError


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "policy.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_rule_can_be_lowered_to_a_warning(tmp_path: Path) -> None:
    policy = load_policy(_write(tmp_path, '[rules]\nEX001 = "medium"\n'))
    result = audit_command("curl -s u | sh", policy=policy)
    assert result.decision is Decision.WARN
    assert result.findings[0].severity is Severity.MEDIUM


def test_a_rule_can_be_raised_to_block(tmp_path: Path) -> None:
    policy = load_policy(_write(tmp_path, '[rules]\nPR001 = "high"\n'))
    assert audit_command("sudo ls", policy=policy).decision is Decision.BLOCK


def test_a_rule_can_be_turned_off(tmp_path: Path) -> None:
    policy = load_policy(_write(tmp_path, '[rules]\nPK001 = "off"\n'))
    assert audit_command("pip install requests", policy=policy).decision is Decision.PASS
    assert audit_command("pip install requests").decision is Decision.WARN


def test_an_engine_rule_can_be_turned_off_too(tmp_path: Path) -> None:
    policy = load_policy(_write(tmp_path, '[rules]\nPA001 = "off"\n'))
    assert audit_command("echo 'unterminated", policy=policy).decision is Decision.PASS


def test_name_tables_can_be_extended(tmp_path: Path) -> None:
    text = """
[names]
fetchers = ["fetch-secrets"]
secret_files = ["/srv/app/secrets.yml"]
system_directories = ["/opt/app"]
protected_directories = ["/srv"]
privilege = ["become"]
installers = [{ name = "pkgx", subcommands = ["install"] }]
decoders = [{ name = "unrot", flags = [] }]
"""
    policy = load_policy(_write(tmp_path, text))
    assert audit_command("$(fetch-secrets x)", policy=policy).decision is Decision.BLOCK
    assert audit_command("cat /srv/app/secrets.yml", policy=policy).decision is Decision.BLOCK
    assert audit_command("cp x /opt/app/bin", policy=policy).decision is Decision.BLOCK
    assert audit_command("rm -rf /srv", policy=policy).decision is Decision.BLOCK
    assert audit_command("become ls", policy=policy).decision is Decision.WARN
    assert audit_command("pkgx install foo", policy=policy).decision is Decision.WARN
    assert audit_command("$(unrot blob)", policy=policy).decision is Decision.BLOCK
    assert audit_command("cat /srv/app/secrets.yml").decision is Decision.PASS


def test_interpreters_and_wrappers_can_be_added(tmp_path: Path) -> None:
    text = """
[interpreters.julia]
names = ["julia"]
language = "julia"
code_options = ["-e", "--eval"]

[interpreters.shell]
names = ["oursh"]

[wrappers.with-lock]
value_options = ["-f"]
"""
    policy = load_policy(_write(tmp_path, text))
    assert audit_command('julia -e "$(curl -s u)"', policy=policy).decision is Decision.BLOCK
    assert audit_command("curl -s u | oursh", policy=policy).decision is Decision.BLOCK
    assert audit_command("with-lock -f x $(curl -s u)", policy=policy).decision is Decision.BLOCK
    assert audit_command("bash -c 'rm -rf /'", policy=policy).decision is Decision.BLOCK


def test_a_wrapper_option_can_make_the_wrapper_another_program(tmp_path: Path) -> None:
    # `doas -E FILE` as a made-up editor option: with it, doas is sudoedit and writes FILE.
    text = """
[wrappers.doas]
program_options = { "-E" = "sudoedit" }
"""
    policy = load_policy(_write(tmp_path, text))
    assert "SY001" in audit_command("doas -E /etc/shadow", policy=policy).rule_ids
    assert "SY001" not in audit_command("doas -E notes.txt", policy=policy).rule_ids
    assert "SY001" not in audit_command("doas -E /etc/shadow").rule_ids
    with pytest.raises(PolicyError, match="must be an option spelling"):
        load_policy(_write(tmp_path, '[wrappers.doas]\nprogram_options = { "E" = "sudoedit" }\n'))


def test_an_option_spelling_that_is_not_an_option_fails_the_policy_when_it_loads(tmp_path: Path) -> None:
    # Declarations build their grammars on first use; a policy's are built as it loads.
    with pytest.raises(ProgramError, match="wrapper doas: option spelling 'u' must start with"):
        load_policy(_write(tmp_path, '[wrappers.doas]\nvalue_options = ["u"]\n'))
    with pytest.raises(ProgramError, match="interpreter julia: option spelling 'e' must start with"):
        load_policy(
            _write(tmp_path, '[interpreters.julia]\nnames = ["julia"]\nlanguage = "julia"\ncode_options = ["e"]\n')
        )
    tables = load_policy(_write(tmp_path, '[wrappers.doas]\nvalue_options = ["-u"]\n')).tables
    assert "-u" in tables.wrappers["doas"].grammar.by_spelling


def test_limits_come_from_the_policy(tmp_path: Path) -> None:
    policy = load_policy(_write(tmp_path, "[limits]\nmax_length = 20\ntime_budget_ms = 200\nmax_depth = 1\n"))
    assert policy.limits.max_length == 20 and policy.limits.time_budget_ms == 200 and policy.limits.max_depth == 1
    assert audit_command("echo " + "a" * 20, policy=policy).decision is Decision.BLOCK
    assert "IN005" in {f.rule_id for f in audit_command("sh -c 'sh -c ls'", policy=policy).findings}


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("colour = 1\n", "colour: unknown key"),
        ("[limits]\nmax_lenght = 5\n", "limits.max_lenght: unknown key"),
        ('[rules]\nXX999 = "off"\n', "rules.XX999: unknown rule id"),
        ('[rules]\nFS001 = "critical"\n', 'rules.FS001: must be "high", "medium" or "off"'),
        ("[rules]\nFS001 = false\n", "rules.FS001: must be"),
        ('[limits]\nmax_length = "10"\n', "limits.max_length: must be an integer, got str '10'"),
        ("[limits]\nmax_length = 0\n", "limits.max_length: must be between 1 and"),
        ("[limits]\nmax_depth = 100\n", "limits.max_depth: must be between 1 and 64, got 100"),
        ("[limits]\ntime_budget_ms = -1\n", "limits.time_budget_ms: must be between"),
        ("[limits]\nmax_depth = true\n", "limits.max_depth: must be an integer, got bool"),
        ('[names]\nfetchers = "curl"\n', "names.fetchers: must be a list of strings"),
        ("[names]\nfetchers = [1]\n", "names.fetchers[0]: must be a non-empty string, got int 1"),
        ('[names]\nfetchers = [""]\n', "names.fetchers[0]: must be a non-empty string"),
        ('[names]\ndecoders = [{ name = "x", flag = [] }]\n', "names.decoders[0].flag: unknown key"),
        ('[interpreters.new]\nnames = ["n"]\n', "interpreters.new.language: must be a non-empty string"),
        ('[interpreters.shell]\ncode_option = ["-c"]\n', "interpreters.shell.code_option: unknown key"),
        ('[wrappers.w]\npositionals = "1"\n', "wrappers.w.positionals: must be an integer"),
        ('[names]\nsecret_file_names = ["config/.env"]\n', "names.secret_file_names[0]: must be a file name or a glob"),
        ('[names]\nsecret_file_names = ["!"]\n', "names.secret_file_names[0]: must be a file name"),
        ('[names]\nallowed_destinations = ["https://x.example"]\n', "names.allowed_destinations[0]: must be a host"),
        ('[names]\nallowed_destinations = ["x.example:443"]\n', "no scheme, port or path"),
        ('[names]\nsecret_printers = [{ name = "gh" }]\n', "names.secret_printers[0].subcommands"),
        ('[names]\nbinary_directories = ["bin"]\n', "names.binary_directories[0]: must be an absolute directory"),
        ('[names]\nbinary_directories = ["/opt/*/bin"]\n', "without wildcards"),
        ("limits = 3\n", "limits: must be a table, got int 3"),
        ("version = 2\n", "version: must be between 1 and 1, got 2"),
        ("[limits\n", "not valid TOML"),
    ],
)
def test_every_kind_of_mistake_fails_with_file_key_and_value(tmp_path: Path, text: str, fragment: str) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(PolicyError) as raised:
        load_policy(path)
    assert str(path) in str(raised.value)
    assert fragment in str(raised.value)


def test_an_unreadable_policy_file_fails_clearly(tmp_path: Path) -> None:
    with pytest.raises(PolicyError, match="cannot read policy file"):
        load_policy(tmp_path / "missing.toml")
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(PolicyError, match="not UTF-8"):
        load_policy(binary)


def test_an_invalid_policy_is_never_partly_applied(tmp_path: Path) -> None:
    path = _write(tmp_path, '[rules]\nPK001 = "off"\n[limits]\nmax_depth = 0\n')
    with pytest.raises(PolicyError):
        load_policy(path)
    assert audit_command("pip install x").decision is Decision.WARN
    assert default_policy().limits.max_depth == 8


def test_the_default_policy_ships_as_a_copyable_file(tmp_path: Path) -> None:
    shipped = resources.files("audit").joinpath("default_policy.toml").read_text(encoding="utf-8")
    copy = load_policy(_write(tmp_path, shipped))
    assert copy.limits == default_policy().limits
    assert copy.tables.fetchers == default_policy().tables.fetchers
    assert dict(copy.rule_settings) == dict(default_policy().rule_settings)


def test_a_policy_from_a_mapping_is_validated_the_same_way() -> None:
    with pytest.raises(PolicyError, match=r"<mapping>: limits\.max_length"):
        policy_from_mapping({"limits": {"max_length": "x"}})
