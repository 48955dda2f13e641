"""The packs and the program families are loaded when a command names one of their programs.

The static indexes the engine loads them by (`audit/packs/_index.py`,
`audit/programs/_index.py`) are rebuilt here from the real modules, so they
cannot go stale; a dispatch that loads packs lazily lists the same rules as
one with every pack loaded; and a fresh interpreter that audits a plain
command imports none of them.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import audit.packs
from audit import default_policy, policy_from_mapping
from audit._analysis._contexts._database_clients import DATABASE_CLIENT_NAMES
from audit.databases import CLIENTS, Reads
from audit.errors import PolicyError
from audit.packs._index import PACK_INDEX, PACK_NAMES, PACKS_BY_COMMAND
from audit.programs import KNOWN, WRITERS
from audit.programs._index import LAZY_FAMILIES
from audit.programs._known import REMOVERS, TREE_REMOVERS
from audit.rules import REGISTRY, Dispatch, Inspects, Pack
from audit.rules._core import CORE, find_rule

REPOSITORY = Path(__file__).resolve().parents[2]


def declared_packs() -> dict[str, tuple[str, Pack]]:
    """Every pack declared by a module of `audit/packs`, with that module (relative to the package)."""
    found: dict[str, tuple[str, Pack]] = {}
    for info in pkgutil.walk_packages(audit.packs.__path__, "audit.packs."):
        namespace = vars(importlib.import_module(info.name))
        packs = (namespace["PACK"],) if "PACK" in namespace else namespace.get("VENDOR_PACKS", ())
        for pack in packs:
            found[pack.name] = (info.name.removeprefix("audit.packs"), pack)
    return found


# -- the pack index ------------------------------------------------------------------------------------


def test_the_pack_index_lists_every_declared_pack_where_it_is_declared_and_whether_it_is_on() -> None:
    declared = declared_packs()
    assert set(PACK_NAMES) == set(declared) == {pack.name for pack in REGISTRY.packs}
    for entry in PACK_INDEX:
        module, pack = declared[entry.name]
        assert (entry.module, entry.default) == (module, pack.default), entry.name


def test_the_pack_index_lists_every_command_name_a_pack_rule_is_listed_for() -> None:
    tables = default_policy().tables
    for entry in PACK_INDEX:
        pack = REGISTRY.pack_by_name[entry.name]
        names = {name for declared in pack.rules if declared.commands is not None for name in declared.commands(tables)}
        assert entry.commands == names, entry.name


def test_every_pack_rule_is_listed_by_command_name_so_that_its_pack_can_load_on_that_name() -> None:
    tables = default_policy().tables
    for pack in REGISTRY.packs:
        for declared in pack.rules:
            assert declared.inspects is Inspects.COMMAND, declared.id
            assert declared.commands is not None, declared.id
            assert not any(name.endswith("*") for name in declared.commands(tables)), declared.id


def test_the_core_catalogue_is_every_rule_of_no_pack() -> None:
    assert CORE.rules == tuple(declared for declared in REGISTRY if declared.pack is None)


@pytest.mark.parametrize(
    "document",
    [{}, {"packs": {"enable": ["*"]}}, {"packs": {"disable": ["git", "database.*"]}}, {"rules": {"GT001": "medium"}}],
    ids=["default", "every pack on", "some packs off", "a rule setting"],
)
def test_a_dispatch_that_loads_packs_by_name_lists_what_one_with_every_pack_loaded_does(
    document: dict[str, object],
) -> None:
    policy = policy_from_mapping(document)
    eager = Dispatch(policy.rule_settings, policy.tables)
    eager.load_every_pack()
    lazy = Dispatch(policy.rule_settings, policy.tables)
    names = sorted({*PACKS_BY_COMMAND, *KNOWN, "ls", "python3.12"})
    assert [lazy.for_name(name) for name in names] == [eager.for_name(name) for name in names]
    assert {name: lazy.listed_for(name) for name in names} == {name: eager.listed_for(name) for name in names}


def test_the_rule_settings_read_whole_turn_off_every_rule_of_a_pack_that_is_off() -> None:
    policy = policy_from_mapping({"packs": {"disable": ["git"]}, "rules": {"GT001": "medium", "SY001": "off"}})
    off_by_pack = {declared.id: None for declared in REGISTRY if declared.pack and declared.pack not in policy.packs}
    assert dict(policy.rule_settings) == {**off_by_pack, "GT001": policy.rule_settings["GT001"], "SY001": None}
    assert policy.rule_settings.get("GT002") is None
    assert policy.rule_settings.get("CP101", "unset") == "unset"


def test_a_rule_is_found_by_id_in_the_core_and_in_any_pack() -> None:
    for declared in REGISTRY:
        assert find_rule(declared.id) == declared
    assert find_rule("ZZ999") is None


# -- the program index ---------------------------------------------------------------------------------


def test_the_program_index_lists_every_program_of_each_lazy_family_in_declaration_order() -> None:
    for family in LAZY_FAMILIES:
        module = importlib.import_module(family.module, "audit.programs")
        programs = getattr(module, family.attribute)
        assert family.names == tuple(name for program in programs for name in program.names), family.module
        assert all(KNOWN[name] is program for program in programs for name in program.names)


def test_the_walk_lists_every_program_that_starts_a_sql_client_or_one_with_a_shell_command_option() -> None:
    # Listed by hand so that the walk imports no client table until a client command needs it.
    starting = {
        invocation[0]
        for client in CLIENTS
        if client.reads is Reads.SQL or client.shell_options
        for invocation in client.invocations
    }
    assert starting == DATABASE_CLIENT_NAMES


def test_every_program_that_writes_or_removes_files_is_a_core_program_listed_as_such() -> None:
    assert tuple(name for name in KNOWN if KNOWN[name].writes is not None) == WRITERS
    assert tuple(name for name in KNOWN if KNOWN[name].removes is not None) == REMOVERS
    assert tuple(name for name in KNOWN if KNOWN[name].removes_trees is not None) == TREE_REMOVERS


def test_a_program_nobody_declared_is_not_known() -> None:
    assert KNOWN.get("no-such-program") is None
    assert "no-such-program" not in KNOWN
    with pytest.raises(KeyError):
        KNOWN["no-such-program"]


# -- policy validation reads the index -------------------------------------------------------------------


def test_an_unknown_pack_name_is_still_refused_with_a_suggestion() -> None:
    with pytest.raises(PolicyError, match=r"no pack is named 'databse\.\*'; did you mean database\.\*"):
        policy_from_mapping({"packs": {"enable": ["databse.*"]}})


def test_an_unknown_rule_id_is_still_refused_and_a_pack_rule_id_accepted() -> None:
    with pytest.raises(PolicyError, match="ZZ999: unknown rule id"):
        policy_from_mapping({"rules": {"ZZ999": "off"}})
    assert policy_from_mapping({"rules": {"GT001": "off"}}).rule_settings["GT001"] is None


# -- what a fresh interpreter loads ----------------------------------------------------------------------

# Audits the commands given in a fresh interpreter under a policy, then prints which of the
# modules made lazy (packs, the full registry, the lazy program families) it imported.
PROBE = """\
import json, sys
from audit import audit_command, policy_from_mapping
families, document, *commands = sys.argv[1:]
policy = policy_from_mapping(json.loads(document))
for command in commands:
    audit_command(command, policy=policy)
lazy = {"audit.rules._registry", *json.loads(families)}
print(json.dumps(sorted(name for name in sys.modules if name.startswith("audit.packs.") or name in lazy)))
"""


def loaded_lazy_modules(document: dict[str, object], *commands: str) -> set[str]:
    families = json.dumps([f"audit.programs{family.module}" for family in LAZY_FAMILIES])
    process = subprocess.run(
        [sys.executable, "-c", PROBE, families, json.dumps(document), *commands],
        capture_output=True,
        cwd=REPOSITORY,
        timeout=60,
        check=True,
    )
    return set(json.loads(process.stdout))


INDEXES = {"audit.packs._index", "audit.programs._index"}


@pytest.mark.parametrize(
    "command", ["ls", "ls -la src | grep -v test > out.txt", "sort /etc/hosts | uniq", "echo $HOME && cd /tmp"]
)
def test_auditing_a_command_of_no_pack_loads_no_pack_and_no_lazy_program_family(command: str) -> None:
    assert loaded_lazy_modules({}, command) <= INDEXES


def test_auditing_a_git_command_loads_the_packs_listed_for_git_and_the_git_family_only() -> None:
    loaded = loaded_lazy_modules({}, "git status", "git reset --hard")
    git_pack = {
        "audit.packs.git",
        "audit.packs.git_clean",
        "audit.packs.git_credentials",
        "audit.packs.git_hooks",
        "audit.packs.git_objects",
        "audit.packs.git_tags",
        "audit.packs.git_transport",
    }
    # system.trust reads git's settings (`git config http.sslVerify false`); not system.controls.
    trust_pack = {"audit.packs.system", "audit.packs.system.trust"}
    # _listings is _invocation's own reader of pipelines, split off for size.
    invocation = {"audit.packs._invocation", "audit.packs._listings"}
    assert loaded - INDEXES == {*invocation, *git_pack, *trust_pack, "audit.programs.vcs"}


def test_a_pack_that_is_off_is_not_loaded_by_its_commands() -> None:
    assert "audit.packs.git" not in loaded_lazy_modules({"packs": {"disable": ["git"]}}, "git reset --hard")


def test_validating_pack_patterns_loads_no_pack() -> None:
    assert loaded_lazy_modules({"packs": {"enable": ["database.*"], "disable": ["git"]}}) <= INDEXES


# -- what only some inputs need -------------------------------------------------------------------------

# Audits the commands given in a fresh interpreter and prints which modules it imported.
MODULES_PROBE = """\
import json, sys
from audit import audit_command
for command in sys.argv[1:]:
    audit_command(command)
print(json.dumps(sorted(sys.modules)))
"""
SECOND_READINGS = {"audit._syntax._bashlex", "audit._syntax._fallback", "bashlex"}
"""What reads a text tree-sitter reports errors in: needed by few inputs, so loaded on first use."""
DEBUGGING_AND_ERRORS = {"audit._syntax._dump", "difflib"}
"""The tree dump (tests, debugging) and the suggestions of a policy error."""


TREE_SITTER = {"tree_sitter", "tree_sitter_bash", "audit._syntax._treesitter"}
"""The primary parser, which a text of plain words does not need (the fast path)."""


def modules_loaded_auditing(*commands: str) -> set[str]:
    process = subprocess.run(
        [sys.executable, "-c", MODULES_PROBE, *commands], capture_output=True, cwd=REPOSITORY, timeout=60, check=True
    )
    return set(json.loads(process.stdout))


LOADED_WHEN_FIRST_NEEDED = {"audit.rules._pack"}
"""The Pack class (a pack's module declares one)."""
POLICY_FILE_READER = "tomllib"
"""The TOML reader: the default policy is read from its snapshot (`audit/_policy_snapshot.py`)."""


def test_importing_audit_command_loads_neither_the_toml_reader_nor_the_pack_class() -> None:
    assert not modules_loaded_auditing() & {POLICY_FILE_READER, *LOADED_WHEN_FIRST_NEEDED}


def test_the_default_policy_needs_no_toml_reader_and_a_git_command_loads_its_pack() -> None:
    assert POLICY_FILE_READER not in modules_loaded_auditing("ls", "git status")
    assert modules_loaded_auditing("git status") >= LOADED_WHEN_FIRST_NEEDED


def test_auditing_commands_tree_sitter_reads_cleanly_loads_no_second_reading_nor_debugging_code() -> None:
    loaded = modules_loaded_auditing("ls", "git status", "ls -la src | grep -v test > out.txt", "cat <<EOF\nhi\nEOF")
    assert not loaded & (SECOND_READINGS | DEBUGGING_AND_ERRORS)


@pytest.mark.parametrize("command", ["echo 'unterminated", "ls |& ) ("])
def test_auditing_a_command_tree_sitter_rejects_loads_the_second_readings(command: str) -> None:
    assert modules_loaded_auditing(command) >= SECOND_READINGS


def test_auditing_plain_words_loads_no_parser() -> None:
    assert not modules_loaded_auditing("ls", "git status", "kubectl get pods -n staging -o wide") & TREE_SITTER


@pytest.mark.parametrize("command", ["ls | sh", "echo $HOME", "cat <<EOF\nhi\nEOF"])
def test_auditing_a_command_that_is_not_plain_words_loads_tree_sitter(command: str) -> None:
    assert modules_loaded_auditing(command) >= TREE_SITTER


# Parses, in a fresh interpreter that loaded the modules named after argv[2] beforehand, a text
# that needs the parser named in argv[2] first, and prints the CPU time the parse took and what
# the audit's budget counted of it.
FIRST_PARSE_PROBE = """\
import importlib, json, sys, time
from audit._budget import Budget
from audit._syntax import parse
for name in sys.argv[3:]:
    importlib.import_module(name)
budget = Budget(60.0, 10**9)
started = time.thread_time()
parse(sys.argv[1], budget=budget)
print(json.dumps({"took": time.thread_time() - started, "counted": budget.spent(), "loaded": sys.argv[2] in sys.modules}))
"""


@pytest.mark.parametrize(
    ("command", "parser", "loaded_before"),
    [
        ("ls | wc -l", "tree_sitter_bash", ()),
        # tree-sitter and the bashlex library loaded: what is left is loading the second readings.
        ("echo 'unterminated", "audit._syntax._fallback", ("audit._syntax._treesitter", "bashlex")),
    ],
)
def test_loading_a_parser_is_not_counted_against_the_audit_that_first_needs_it(
    command: str, parser: str, loaded_before: tuple[str, ...]
) -> None:
    # The import is the process's one-time work: were it counted, the first command of a
    # process to need a parser could meet the CPU-time backstop where the same command later
    # would not. The parse itself is a small part of what the call took.
    process = subprocess.run(
        [sys.executable, "-c", FIRST_PARSE_PROBE, command, parser, *loaded_before],
        capture_output=True,
        cwd=REPOSITORY,
        timeout=60,
        check=True,
    )
    first = json.loads(process.stdout)
    assert first["loaded"]
    assert first["counted"] < first["took"] / 2
