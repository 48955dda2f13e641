"""Threat packs (issue 13): the `[packs]` policy section, the pack declarations in the
registry, and the data matchers pack rules are declared with."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from audit import Decision, PolicyError, audit_command, default_policy, load_policy, policy_from_mapping
from audit._model import Severity
from audit.errors import RegistryError
from audit.packs import PACKS, command, pack_rule
from audit.packs._http import matches_any, url_path, url_patterns
from audit.rules import REGISTRY, Dispatch, Pack, Registry
from audit.rules._rule import Inspects, rule

GIT_RULES = frozenset(declared.id for declared in REGISTRY.pack_by_name["git"].rules)


def _packs(document: dict[str, object]) -> frozenset[str]:
    return policy_from_mapping({"packs": document}).packs


# -- the [packs] section ---------------------------------------------------------------------


def test_the_packs_on_by_default_are_those_declared_so() -> None:
    assert default_policy().packs == frozenset(pack.name for pack in PACKS if pack.default)


def test_a_pattern_enables_every_pack_it_matches() -> None:
    cloud = {pack.name for pack in PACKS if pack.name.startswith("cloud.")}
    assert len(cloud) >= 3
    assert cloud <= _packs({"enable": ["cloud.*"]})


def test_a_star_enables_every_pack() -> None:
    assert _packs({"enable": ["*"]}) == frozenset(pack.name for pack in PACKS)


def test_disable_wins_over_enable_and_over_the_default() -> None:
    packs = _packs({"enable": ["*"], "disable": ["git", "containers.*"]})
    assert "git" not in packs and not any(name.startswith("containers.") for name in packs)
    assert "kubernetes" in packs


def test_a_user_policy_adds_to_the_default_packs(tmp_path: Path) -> None:
    off_by_default = next((pack.name for pack in PACKS if not pack.default), None)
    if off_by_default is None:
        pytest.skip("every pack is on by default")
    path = tmp_path / "policy.toml"
    path.write_text(f'[packs]\nenable = ["{off_by_default}"]\n', encoding="utf-8")
    assert load_policy(path).packs == default_policy().packs | {off_by_default}


def test_a_disabled_pack_lets_its_commands_pass_and_runs_none_of_its_rules() -> None:
    policy = policy_from_mapping({"packs": {"disable": ["git"]}})
    assert audit_command("git reset --hard", policy=policy).decision is Decision.PASS
    assert audit_command("git reset --hard").decision is Decision.BLOCK
    dispatch = Dispatch(policy.rule_settings, policy.tables)
    listed = {entry[0].id for groups in dispatch.by_command.values() for _, entries in groups for entry in entries}
    assert not listed & GIT_RULES, "a disabled pack's rules must not be in the dispatch"


def test_a_rule_setting_names_the_rule_and_wins_over_its_pack() -> None:
    policy = policy_from_mapping({"packs": {"disable": ["git"]}, "rules": {"GT001": "medium"}})
    assert audit_command("git reset --hard", policy=policy).decision is Decision.WARN
    assert audit_command("git clean -fdx", policy=policy).decision is Decision.PASS


@pytest.mark.parametrize(
    ("section", "fragment"),
    [
        ({"enable": ["cloud.asw"]}, "packs.enable[0]: no pack is named 'cloud.asw'; did you mean cloud.aws"),
        ({"disable": ["kubernetes", "gti"]}, "packs.disable[1]: no pack is named 'gti'; did you mean git"),
        ({"enable": ["cloud"]}, "did you mean cloud.*"),
        ({"enable": ["nosuchfamily.*"]}, "no pack is named 'nosuchfamily.*'"),
        ({"enable": "git"}, "packs.enable: must be a list of strings"),
        ({"enable": [""]}, "packs.enable[0]: must be a non-empty string"),
        ({"only": ["git"]}, "packs.only: unknown key (expected one of: disable, enable)"),
    ],
)
def test_a_wrong_packs_section_fails_naming_the_key_and_the_closest_packs(
    section: dict[str, object], fragment: str
) -> None:
    with pytest.raises(PolicyError) as raised:
        policy_from_mapping({"packs": section}, "team.toml")
    assert fragment in str(raised.value)
    assert str(raised.value).startswith("team.toml: ")


def test_the_default_policy_documents_the_packs_section() -> None:
    text = (Path(__file__).resolve().parents[2] / "audit" / "default_policy.toml").read_text(encoding="utf-8")
    assert "[packs]" in text and "enable = []" in text and "disable = []" in text


# -- the declarations ------------------------------------------------------------------------------


def test_every_pack_rule_is_an_ordinary_rule_of_the_registry() -> None:
    for pack in PACKS:
        for declared in pack.rules:
            assert REGISTRY.get(declared.id) is declared
            assert declared.pack == pack.name


def test_each_pack_family_has_its_own_id_prefix() -> None:
    owners: dict[str, set[str]] = {}
    for declared in REGISTRY:
        family = declared.pack.split(".")[0] if declared.pack else "core"
        owners.setdefault(declared.id[:2], set()).add(family)
    assert all(len(families) == 1 for families in owners.values()), owners


def test_a_pack_rule_with_a_prefix_of_another_family_is_refused() -> None:
    borrowed = replace(REGISTRY.pack_by_name["git"].rules[0], id="GT999", name="intruder-rule", pack=None)
    intruder = Pack("intruders", "Intruder.", True, "Test.", (borrowed,))
    with pytest.raises(RegistryError, match="prefix GT belongs to git, not intruders"):
        Registry([], (), (*PACKS, intruder))


def test_every_pack_says_what_it_guards_and_why_it_is_on_or_off() -> None:
    for pack in PACKS:
        assert pack.summary.endswith((".", ")")) and pack.reason.endswith((".", ")")), pack.name


def test_a_misspelt_subcommand_or_option_fails_when_the_rule_is_declared() -> None:
    common = {
        "severity": Severity.HIGH,
        "summary": "s.",
        "rationale": "r.",
        "safer_alternative": "a.",
        "message": "m",
        "must_match": (),
        "must_not_match": (),
    }
    with pytest.raises(RegistryError, match="rule ZZ001: program git declares no subcommand path 'stash clean'"):
        pack_rule(id="ZZ001", name="zz-one", matches=(command("git", "stash clean"),), **common)  # type: ignore[arg-type]
    with pytest.raises(RegistryError, match="rule ZZ002: `git reset` declares no option '--hardd'"):
        pack_rule(id="ZZ002", name="zz-two", matches=(command("git", "reset", requires=("--hardd",)),), **common)  # type: ignore[arg-type]
    with pytest.raises(RegistryError, match="rule ZZ003: 'gitt' is not a declared program"):
        pack_rule(id="ZZ003", name="zz-three", matches=(command("gitt", "reset"),), **common)  # type: ignore[arg-type]


def test_a_pack_refuses_a_rule_of_another_pack() -> None:
    git_rule = REGISTRY.pack_by_name["git"].rules[0]
    with pytest.raises(RegistryError, match="already in pack git"):
        Pack("other", "Other.", True, "Test.", (git_rule,))


def test_a_pack_name_is_dotted_lower_case() -> None:
    declared = rule(
        id="ZZ010",
        name="zz-ten",
        severity=Severity.MEDIUM,
        summary="s.",
        rationale="r.",
        safer_alternative="a.",
        inspects=Inspects.COMMAND,
        must_match=(),
        must_not_match=(),
    )(lambda subject, tables: ())
    with pytest.raises(RegistryError, match="dotted lower-case"):
        Pack("Cloud.AWS", "S.", True, "R.", (declared,))


def test_importing_the_packs_first_finds_the_registry_complete() -> None:
    for module in ("audit.packs", "audit.packs.git", "audit.rules"):
        code = f"import {module}, audit.rules; assert len(audit.rules.REGISTRY.packs) == {len(PACKS)}"
        subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).resolve().parents[2])


# -- matchers ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command_line", "fires"),
    [
        ("kubectl delete ns dev --dry-run=none", True),
        ("kubectl delete ns dev --dry-run=false", True),
        ("kubectl delete ns dev --dry-run=server", False),
        ("kubectl delete ns dev --dry-run", False),
    ],
)
def test_a_safe_option_turned_off_by_its_value_does_not_make_the_command_safe(command_line: str, fires: bool) -> None:
    assert ("KU001" in audit_command(command_line).rule_ids) is fires


@pytest.mark.parametrize(
    ("command_line", "fires"),
    [
        ("docker rm -f $(docker ps -aq)", True),
        ("docker rm -f `docker ps -aq`", True),
        ('docker rm -f "$(docker ps -aq)"', True),
        ("docker ps -aq | xargs docker rm -f", True),
        ("docker rm -f $(docker ps -aq --filter status=exited)", False),
        ("docker rm -f $(docker ps -aq -f name=ci-)", False),
        ("docker ps -aq -f name=ci- | xargs docker rm -f", False),
        ("docker rm -f $(cat ids.txt)", False),
    ],
)
def test_an_everything_selector_is_an_unfiltered_listing_by_the_same_tool(command_line: str, fires: bool) -> None:
    assert ("CT105" in audit_command(command_line).rule_ids) is fires


@pytest.mark.parametrize(
    ("url", "relative_to", "path"),
    [
        ("https://API.GitHub.com/repos/o/r?per_page=1#x", None, "api.github.com/repos/o/r"),
        ("https://user:pw@host:8443/v1/x/", None, "host:8443/v1/x"),
        ("api.example.com/v1", None, "api.example.com/v1"),
        ("repos/o/r", "api.github.com", "api.github.com/repos/o/r"),
        ("/repos/o/r", "api.github.com", "api.github.com/repos/o/r"),
        ("https://ghe.corp/api/v3/repos/o/r", "api.github.com", "ghe.corp/api/v3/repos/o/r"),
    ],
)
def test_a_url_is_reduced_to_host_and_path(url: str, relative_to: str | None, path: str) -> None:
    assert url_path(url, relative_to) == path


@pytest.mark.parametrize(
    ("path", "pattern", "matches"),
    [
        ("api.github.com/repos/o/r", "api.github.com/repos/*/*", True),
        ("api.github.com/repos/o/r/issues/1", "api.github.com/repos/*/*", False),
        ("api.github.com/repos/o/r/issues/1", "api.github.com/**", True),
        ("api.github.com", "api.github.com/**", True),
        ("gitlab.example.com/api/v4/projects/42", "*/api/v4/projects/*", True),
        ("evil.com/api.github.com/repos/o/r", "api.github.com/**", False),
        ("es.internal:9200/logs-2024/_doc/1", "*:9200/**/_doc/*", True),
        ("es.internal:9200/_doc/1", "*:9200/**/_doc/*", True),
        ("es.internal:9200/logs/x/1", "*:9200/**/_doc/*", False),
        ("api.example.com/v1/users", "api.example.com/v?/users", True),
        ("api.example.com/v12/users", "api.example.com/v?/users", False),
        ("api.example.com/v1/users", "api.example.com/v[0-9]/users", True),
        ("api.example.com/vx/users", "api.example.com/v[!0-9]/users", True),
        ("api.example.com/v/x/users", "api.example.com/v[!0-9]x/users", False),
        ("api.example.com/a.b", "api.example.com/a?b", True),
        ("api.example.com/a.b", "api.example.com/a.b", True),
        ("api.example.com/axb", "api.example.com/a.b", False),
    ],
)
def test_url_patterns_match_segment_by_segment(path: str, pattern: str, matches: bool) -> None:
    assert matches_any(path, url_patterns((pattern,))) is matches


def test_url_patterns_match_when_any_pattern_does() -> None:
    either = url_patterns(("api.github.com/repos/*/*", "gitlab.com/api/**"))
    assert matches_any("gitlab.com/api/v4/projects/1", either)
    assert matches_any("api.github.com/repos/o/r", either)
    assert not matches_any("api.github.com/user", either)
    assert not matches_any("api.github.com/user", url_patterns(()))


@pytest.mark.parametrize(
    ("command_line", "rule_id"),
    [
        ("curl -X DELETE https://api.github.com/repos/o/r", "PL101"),
        ("curl --request=DELETE https://api.github.com/repos/o/r", "PL101"),
        ("curl -XDELETE --url https://api.github.com/repos/o/r", "PL101"),
        ("wget --method=DELETE https://api.github.com/repos/o/r", "PL101"),
        ("http DELETE https://api.github.com/repos/o/r", "PL101"),
        ("xh delete api.github.com/repos/o/r", "PL101"),
        ("gh api -X DELETE repos/o/r", "PL101"),
    ],
)
def test_every_http_client_spelling_of_a_delete_is_read(command_line: str, rule_id: str) -> None:
    assert rule_id in audit_command(command_line).rule_ids


@pytest.mark.parametrize(
    "command_line",
    [
        "curl https://api.github.com/repos/o/r",
        "curl -X GET https://api.github.com/repos/o/r",
        "http api.github.com/repos/o/r",
        "curl -X DELETE https://example.com/repos/o/r",
        "curl -X DELETE $URL",
    ],
)
def test_reads_other_hosts_and_run_time_urls_are_not_deletes_of_the_api(command_line: str) -> None:
    assert not {"PL101", "PL103"} & set(audit_command(command_line).rule_ids)


# Writers whose text is known without running them, and the ways a client is then told to read the file.
_STATEMENT_WRITERS = [
    "echo 'DROP TABLE t;' > {file}",
    "printf 'DROP TABLE t;\\n' > {file}",
    "printf 'DROP TABLE t;\\n' >> {file}",
    "cat > {file} <<'EOF'\nDROP TABLE t;\nEOF\n",
    "cat <<< 'DROP TABLE t;' > {file}",
]
_STATEMENT_READERS = ["psql -f {file}", "psql --file={file}", "psql shop < {file}"]


@pytest.mark.parametrize("writer", _STATEMENT_WRITERS)
@pytest.mark.parametrize("reader", _STATEMENT_READERS)
def test_a_statement_file_written_earlier_in_the_command_is_read_as_the_clients_statements(
    writer: str, reader: str
) -> None:
    command_line = writer.format(file="/tmp/x.sql").rstrip("\n") + " && " + reader.format(file="/tmp/x.sql")
    if writer.endswith("\n"):  # a heredoc's body ends its line: the reader goes on the next one
        command_line = writer.format(file="/tmp/x.sql") + reader.format(file="/tmp/x.sql")
    assert "DB101" in audit_command(command_line).rule_ids


@pytest.mark.parametrize(
    "command_line",
    [
        "echo 'DROP TABLE t;' > /tmp/x.sql && psql -f /tmp/y.sql",
        "psql -f /tmp/x.sql; echo 'DROP TABLE t;' > /tmp/x.sql",
        "echo 'DROP TABLE t;' > /tmp/x.sql; cat notes.txt > /tmp/x.sql; psql -f /tmp/x.sql",
        "echo 'DROP TABLE t;' > /tmp/x.sql; echo \"$QUERY\" > /tmp/x.sql; psql -f /tmp/x.sql",
        "echo 'SELECT 1;' > /tmp/x.sql && psql -f /tmp/x.sql",
        "echo 'DROP TABLE t;' > x.sql && cd /srv && psql -f x.sql",
    ],
)
def test_a_statement_file_is_not_judged_by_text_it_no_longer_holds_or_never_held(command_line: str) -> None:
    assert "DB101" not in audit_command(command_line).rule_ids
