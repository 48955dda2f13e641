"""Arrays, name references and indirection resolve to the values bash uses
(issue 19 item 3): declared array literals, keys, negative indices, slices,
`declare -n` and `${!name}`. The engine-level cases both ways are in
corpus/parsing/arrays.toml; these pin the lookups themselves."""

from __future__ import annotations

import pytest

from audit._analysis._bindings import BindingKind, collect_bindings
from audit._analysis._normalize import HOME
from audit._analysis._variables import Env
from audit._budget import Budget
from audit._syntax import ast, parse


def script_of(command: str) -> ast.Script:
    return parse(command, budget=Budget(5.0)).script


def env_of(command: str) -> Env:
    return Env(script_of(command), Budget(5.0))


@pytest.mark.parametrize(
    "builtin", ["declare -a", "typeset -a", "local -a", "readonly -a", "declare -ag", "declare -a -r"]
)
def test_a_declared_array_literal_binds_its_elements_not_one_glued_word(builtin: str) -> None:
    env = env_of(f"{builtin} c=(bash -c 'rm -rf /' \"$HOME\"/x y); :")
    assert env.elements("c") == ("bash", "-c", "rm -rf /", HOME + "/x", "y")


def test_a_declaration_without_parentheses_stays_a_plain_value() -> None:
    bindings = collect_bindings(script_of("declare c='(a b)' d=x"))
    assert [binding.kind for binding in bindings["c"] + bindings["d"]] == [BindingKind.VALUE, BindingKind.VALUE]


def test_an_associative_array_is_read_by_key_and_a_missing_key_is_empty() -> None:
    env = env_of("declare -A m=([run]='rm -rf /' [dir]=build); :")
    assert env.element("m", "run") == "rm -rf /"
    assert env.element("m", "nothing") == ""
    assert env.slice("m", 0, None) is None  # slicing a hash has no defined order


def test_negative_indices_and_slices_count_from_one_past_the_highest_index() -> None:
    env = env_of("c=([3]=rm [7]=ls); :")
    assert env.element("c", "-1") == "ls"
    assert env.element("c", "-5") == "rm"
    assert env.slice("c", -5, None) == ("rm", "ls")
    assert env.slice("c", 4, None) == ("ls",)
    assert env.slice("c", 0, 1) == ("rm",)


def test_an_arithmetic_index_or_a_run_time_element_stays_unknown() -> None:
    assert env_of("c=(rm ls); :").element("c", "i+1") is None
    assert env_of("c=(rm $(date)); :").elements("c") is None
    assert env_of("c=([i]=rm); :").elements("c") is None


def test_a_name_reference_stands_for_its_target_not_for_the_target_name() -> None:
    """Regression: `declare -n r=c` was read as r=c, so `$r -rf /` looked like a command named c."""
    assert env_of("declare -n r=c; c=rm; :").candidates("r") == ("rm",)
    assert env_of("declare -n r; r=c; c=rm; :").candidates("r") == ("rm",)
    assert env_of("declare -n r=c; c=(a b); :").elements("r") == ("a", "b")
    assert env_of("f() { local -n r=$1; }; :").candidates("r") is None


def test_indirection_reads_the_variable_the_value_names() -> None:
    assert env_of("n=c; c=rm; :").indirect("n") == ("rm",)
    assert env_of("n=HOME; :").indirect("n") == (HOME,)
    assert env_of("n='not a name'; :").indirect("n") is None
    assert env_of("n=$(date); :").indirect("n") is None
