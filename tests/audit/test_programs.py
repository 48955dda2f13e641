"""Program knowledge: the option lexer, the reader over declarations (subcommands,
global options, operand positions) and the declarations themselves."""

from __future__ import annotations

import pytest

from audit import errors
from audit._model import Span
from audit._policy import _interpreter, _wrapper
from audit._policy_reader import TableReader
from audit.programs import (
    GNU,
    GO_FLAGS,
    INTERPRETERS,
    KNOWN,
    POSIX,
    WRAPPERS,
    Arg,
    Grammar,
    InterpreterSpec,
    Program,
    Subcommand,
    Syntax,
    Takes,
    WordKind,
    WrapperSpec,
    attached,
    digits,
    extraction_directories,
    flag,
    installs_only_the_lock_file,
    lex,
    read,
    read_command,
    removed_files,
    removed_trees,
    sed_effects,
    valued,
    written_files,
)


def args(*values: str | None) -> tuple[Arg, ...]:
    """argv words; None stands for a word whose value is only known at run time."""
    return tuple(Arg(() if value is None else (value,), value or "$x", Span(0, 0)) for value in values)


RM_LIKE = Program(
    ("tool",),
    options=(
        flag("-r", "-R", "--recursive"),
        flag("-f", "--force"),
        valued("-o", "--output"),
        attached("-i", "--in-place"),
        digits("-l"),
        valued("-t", "--target-directory"),
        flag("--preserve-root"),
        flag("--no-preserve-root"),
    ),
    operands=("SOURCE...", "DEST"),
)


def spelled(words: tuple[str | None, ...], program: Program = RM_LIKE) -> list[tuple[str, str | None]]:
    """The options read, as (canonical name, value)."""
    reading = read(program, args(*words))
    return [(use.option.name, use.value.value if use.value else None) for use in reading.options]


# -- the lexer, one word at a time ----------------------------------------------------------

LEXED = [
    (("-rf",), [("--recursive", None), ("--force", None)]),
    (("-fo", "out"), [("--force", None), ("--output", "out")]),
    (("-foout",), [("--force", None), ("--output", "out")]),
    (("--output=out",), [("--output", "out")]),
    (("--output", "out"), [("--output", "out")]),
    (("-i.bak",), [("--in-place", ".bak")]),
    (("-i", "file"), [("--in-place", None)]),
    (("--in-place",), [("--in-place", None)]),
    (("-l0f",), [("-l", "0"), ("--force", None)]),
    (("-Zr",), [("-Z", None), ("--recursive", None)]),
    (("--unknown=x",), [("--unknown", "x")]),
]


@pytest.mark.parametrize(("words", "expected"), LEXED)
def test_a_word_is_read_into_the_options_it_spells(
    words: tuple[str, ...], expected: list[tuple[str, str | None]]
) -> None:
    assert spelled(words) == expected


def test_a_value_option_at_the_end_of_argv_has_no_value() -> None:
    assert spelled(("-o",)) == [("--output", None)]
    assert spelled(("-fo",)) == [("--force", None), ("--output", None)]


@pytest.mark.parametrize(
    ("word", "kind"),
    [("-", WordKind.OPERAND), ("--", WordKind.END_OF_OPTIONS), ("file", WordKind.OPERAND), (None, WordKind.OPERAND)],
)
def test_what_is_not_an_option(word: str | None, kind: WordKind) -> None:
    grammar = Grammar(RM_LIKE.options, GNU)
    assert lex(grammar, args(word), 0).kind is kind


def test_a_declared_single_dash_word_is_one_option_before_it_is_a_cluster() -> None:
    grammar = Grammar((valued("-Command"), flag("-c")), Syntax(signs="-"))
    lexed = lex(grammar, args("-Command", "code"), 0)
    assert [(use.spelling, use.value.value if use.value else None) for use in lexed.uses] == [("-Command", "code")]
    assert lexed.next_index == 2


def test_numbers_syntax_reads_a_dash_and_digits_as_one_option() -> None:
    grammar = Grammar((), Syntax(numbers=True))
    assert [use.spelling for use in lex(grammar, args("-10"), 0).uses] == ["-10"]
    assert [use.spelling for use in lex(Grammar((), GNU), args("-10"), 0).uses] == ["-1", "-0"]


def test_plus_signs_start_clusters_only_where_declared() -> None:
    shell_like = Grammar((valued("+o"),), Syntax(signs="-+"))
    assert [use.spelling for use in lex(shell_like, args("+o", "vi"), 0).uses] == ["+o"]
    assert lex(Grammar((), GNU), args("+x"), 0).kind is WordKind.OPERAND


# -- GNU unique prefixes ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("word", "name"),
    [
        ("--recu", "--recursive"),
        ("--forc", "--force"),
        ("--no-pres", "--no-preserve-root"),
        ("--out=x", "--output"),
        ("--recursive", "--recursive"),
    ],
)
def test_a_unique_prefix_of_a_long_option_names_it_in_gnu_syntax(word: str, name: str) -> None:
    assert spelled((word,))[0][0] == name


def test_an_ambiguous_prefix_names_no_option() -> None:
    tool = Program(
        ("tool",), options=(flag("--verbose"), flag("--version"), flag("--force"), attached("--force-with-lease"))
    )
    assert spelled(("--ver",), tool) == [("--ver", None)]
    assert spelled(("--forc",), tool) == [("--forc", None)]
    assert spelled(("--force",), tool) == [("--force", None)]
    assert spelled(("--verb",), tool) == [("--verbose", None)]


def test_prefixes_are_not_accepted_where_the_syntax_does_not_say_so() -> None:
    strict = Program(("tool",), syntax=Syntax(), options=RM_LIKE.options)
    assert spelled(("--recu",), strict) == [("--recu", None)]


# -- operands, `--` and permutation ---------------------------------------------------------


def test_gnu_options_may_follow_operands_and_dash_dash_ends_them() -> None:
    reading = read(RM_LIKE, args("a", "-r", "--", "-f", "b"))
    assert reading.has("-R") and not reading.has("--force")
    assert [arg.value for arg in reading.operands] == ["a", "-f", "b"]
    assert reading.end_of_options


def test_posix_options_end_at_the_first_operand() -> None:
    posix = Program(("tool",), syntax=POSIX, options=RM_LIKE.options)
    reading = read(posix, args("-f", "a", "-r"))
    assert reading.has("--force") and not reading.has("--recursive")
    assert [arg.value for arg in reading.operands] == ["a", "-r"]


def test_a_run_time_word_is_an_operand() -> None:
    reading = read(RM_LIKE, args("-r", None))
    assert len(reading.operands) == 1 and reading.operands[0].value is None


def test_values_and_operand_positions() -> None:
    reading = read(RM_LIKE, args("-t", "/dir", "a", "b", "c"))
    assert [arg.value for arg in reading.values("--target-directory")] == ["/dir"]
    assert [arg.value for arg in reading.operand("SOURCE")] == ["a", "b"]
    assert [arg.value for arg in reading.operand("DEST")] == ["c"]
    with pytest.raises(errors.ProgramError, match="no operand position"):
        reading.operand("TARGET")


# -- subcommands and global options ---------------------------------------------------------

SUBCOMMANDS = [
    ("git", ("-C", "repo", "-c", "core.x=y", "stash", "clear"), ("stash", "clear"), ["-C", "-c"], []),
    ("git", ("--git-dir=.git", "push", "--force", "origin", "main"), ("push",), ["--git-dir", "--force"], ["origin", "main"]),
    ("git", ("push", "--dry", "origin"), ("push",), ["--dry-run"], ["origin"]),
    ("kubectl", ("-n", "prod", "--context", "c", "delete", "namespace", "staging"), ("delete",), ["--namespace", "--context"], ["namespace", "staging"]),
    ("kubectl", ("delete", "ns", "staging", "-n", "prod"), ("delete",), ["--namespace"], ["ns", "staging"]),
    ("docker", ("-H", "tcp://h:2375", "run", "--rm", "-v", "/:/mnt", "ubuntu", "rm", "-rf", "/mnt"), ("run",), ["--host", "--rm", "--volume"], ["ubuntu", "rm", "-rf", "/mnt"]),
    ("aws", ("--profile", "p", "--region", "r", "s3", "rm", "s3://logs/", "--recursive"), ("s3", "rm"), ["--profile", "--region", "--recursive"], ["s3://logs/"]),
    ("aws", ("s3", "rm", "s3://logs/", "--recursive", "--profile", "p"), ("s3", "rm"), ["--recursive", "--profile"], ["s3://logs/"]),
    ("terraform", ("-chdir=infra", "apply", "-destroy", "-auto-approve"), ("apply",), ["--chdir", "--destroy", "--auto-approve"], []),
    ("terraform", ("-chdir", "infra", "plan", "-out=tf.plan"), ("plan",), ["--chdir", "--out"], []),
]  # fmt: skip


# -- disks and power (issue 19 items 6 and 11) ------------------------------------------------

DISKS = [
    ("wipefs", ("--no-a", "-a", "/dev/sda"), (), ["--no-act", "--all"], ["/dev/sda"]),
    ("mkfs.ext4", ("-L", "data", "/dev/vdb", "-F"), (), ["-L", "-F"], ["/dev/vdb"]),
    ("mkfs.ext4", ("-d", "rootfs/", "out.img", "512M"), (), ["-d"], ["out.img", "512M"]),
    ("mkfs", ("-t", "xfs", "/dev/sdb"), (), ["--type"], ["/dev/sdb"]),
    (
        "cryptsetup",
        ("-q", "luksFormat", "--type", "luks2", "/dev/sdb1"),
        ("luksFormat",),
        ["--batch-mode", "--type"],
        ["/dev/sdb1"],
    ),
    ("hdparm", ("--security-erase", "pass", "/dev/sda"), (), ["--security-erase"], ["/dev/sda"]),
    ("nvme", ("format", "/dev/nvme0n1", "-f"), ("format",), ["--force"], ["/dev/nvme0n1"]),
    ("shutdown", ("-c", "maintenance"), (), ["-c"], ["maintenance"]),
    ("systemctl", ("poweroff", "--when", "cancel"), (), ["--when"], ["poweroff"]),
]


@pytest.mark.parametrize(("name", "words", "path", "options", "operands"), [*SUBCOMMANDS, *DISKS])
def test_tools_are_read_through_their_global_options_and_subcommands(
    name: str, words: tuple[str, ...], path: tuple[str, ...], options: list[str], operands: list[str]
) -> None:
    reading = read_command(name, args(*words))
    assert reading.path == path
    assert [use.option.name for use in reading.options] == options
    assert [arg.value for arg in reading.operands] == operands


def test_a_word_after_the_first_operand_is_no_longer_a_subcommand() -> None:
    reading = read_command("git", args("push", "origin", "stash"))
    assert reading.path == ("push",)
    assert [arg.value for arg in reading.operands] == ["origin", "stash"]


def test_global_options_are_not_read_after_the_subcommand_unless_declared_so() -> None:
    reading = read_command("git", args("push", "-C", "x"))
    assert not reading.values("-C")
    assert [arg.value for arg in reading.operands] == ["x"]


def test_go_flag_syntax_reads_one_option_per_word() -> None:
    tool = Program(("tool",), syntax=GO_FLAGS, options=(flag("-auto-approve"), valued("-var")))
    reading = read(tool, args("-auto-approve", "-var", "a=b", "-xyz"))
    assert [use.spelling for use in reading.options] == ["-auto-approve", "-var", "-xyz"]


def test_an_undeclared_program_is_read_with_every_option_a_flag() -> None:
    reading = read_command("frobnicate", args("-o", "x", "--level=3", "y"))
    assert [arg.value for arg in reading.operands] == ["x", "y"]
    assert [arg.value for arg in reading.values("--level")] == ["3"]


# -- declarations are checked when they are made ---------------------------------------------


def test_a_spelling_declared_for_two_options_is_an_error() -> None:
    with pytest.raises(errors.ProgramError, match="declared twice"):
        Program(("tool",), options=(flag("-f"), valued("-f", "--file")))


def test_a_spelling_that_is_not_an_option_is_an_error() -> None:
    with pytest.raises(errors.ProgramError, match="must start with"):
        Program(("tool",), options=(flag("force"),))


def test_a_subcommand_declared_twice_is_an_error() -> None:
    with pytest.raises(errors.ProgramError, match="subcommand 'rm' declared twice"):
        Program(("tool",), subcommands=(Subcommand(("rm", "remove")), Subcommand(("rm",))))


def test_options_and_programs_are_told_apart_by_identity_and_an_option_prints_its_spellings() -> None:
    option, same_spellings = flag("-f", "--force"), flag("-f", "--force")
    assert option == option and option != same_spellings
    assert len({option, same_spellings}) == 2
    assert repr(option) == "Option(spellings=('-f', '--force'), takes=<Takes.NOTHING: 'nothing'>)"
    assert Program(("tool",)) != Program(("tool",))


def test_wrapper_and_interpreter_declarations_compare_hash_and_print_by_value() -> None:
    sudo = next(spec for spec in WRAPPERS if spec.name == "sudo")
    assert sudo == sudo._replace() and hash(sudo) == hash(sudo._replace())
    assert sudo != sudo._replace(positionals=1)
    assert repr(WrapperSpec("w", positionals=1)).startswith("WrapperSpec(name='w', value_options=frozenset(), ")
    python = InterpreterSpec("python", frozenset({"python"}), "python", code_options=frozenset({"-c"}))
    assert python == InterpreterSpec("python", frozenset({"python"}), "python", code_options=frozenset({"-c"}))
    assert python != python._replace(code_operand=True)


def test_a_declaration_s_grammar_is_built_when_first_read_and_shared_by_equal_declarations() -> None:
    spec = WrapperSpec("w", value_options=frozenset({"-u"}), no_command_options=frozenset({"-l"}))
    grammar = spec.grammar
    assert spec.grammar is grammar is spec._replace().grammar
    assert [(option.spellings, option.takes) for option in grammar.options] == [
        (("-u",), Takes.VALUE),
        (("-l",), Takes.NOTHING),
    ]
    with pytest.raises(errors.ProgramError, match="must start with"):
        _ = WrapperSpec("bad", value_options=frozenset({"u"})).grammar


def test_every_built_in_declaration_loads_and_names_are_unique() -> None:
    assert {"git", "kubectl", "docker", "podman", "aws", "terraform"} <= set(KNOWN)
    assert len({spec.name for spec in WRAPPERS}) == len(WRAPPERS)
    names = [name for spec in INTERPRETERS for name in spec.names]
    assert len(names) == len(set(names))


# -- attached values --------------------------------------------------------------------------


def _word_of(command: str, index: int) -> Arg:
    from audit._syntax import Budget, ast, parse

    simple = parse(command, budget=Budget(1.0)).script.statements[0].command
    assert isinstance(simple, ast.SimpleCommand)
    word = simple.words[index]
    value = "".join(part.text for part in word.parts if isinstance(part, ast.Literal))
    return Arg((value,), word.source, word.span, False, word)


def test_an_attached_value_keeps_the_part_of_the_word_after_the_option() -> None:
    value = _word_of("su -c'rm -rf /'", 1).suffix(2)
    assert value.value == "rm -rf /"
    assert value.word is not None and value.span == Span(5, 15) and value.source == "'rm -rf /'"


def test_an_attached_value_after_an_option_not_written_as_is_keeps_its_syntax() -> None:
    value = _word_of("su $'-c'rm", 1).suffix(2)
    assert value.value == "rm"
    assert value.word is not None and value.span == Span(8, 10) and value.source == "rm"


def test_a_value_after_a_quoted_prefix_keeps_its_process_substitution() -> None:
    """Regression (fuzz campaign): `curl -F 'f=@'<(env)` lost the substitution, so the upload was missed."""
    from audit._syntax import ast

    value = _word_of("curl 'f=@'<(env)", 1).suffix(3)
    assert value.word is not None
    assert [type(part) for part in value.word.parts] == [ast.ProcessSubstitution]


def _run_time_word(command: str, index: int) -> Arg:
    """The word at `index` as argv holds a word with an expansion: no value, its syntax kept."""
    word = _word_of(command, index)
    return Arg((), word.source, word.span, False, word.word)


@pytest.mark.parametrize(
    ("command", "option", "value_parts"),
    [
        ('tool --output="a $T b"', "--output", ["Literal", "ParamExpansion", "Literal"]),
        ('tool -o"a $T"', "--output", ["Literal", "ParamExpansion"]),
        ('tool -ro"$T"', "--output", ["ParamExpansion"]),
        ("tool -o<(echo x)", "--output", ["ProcessSubstitution"]),
    ],
)
def test_a_run_time_word_whose_literal_start_is_an_option_taking_the_rest_is_that_option(
    command: str, option: str, value_parts: list[str]
) -> None:
    """Regression (the second red-team round, M1): `psql --command="DROP TABLE $T"` was an operand, so its statements were not read."""
    reading = read(RM_LIKE, (_run_time_word(command, 1),))
    (value,) = reading.values(option)
    assert value.values == () and value.word is not None
    assert [type(part).__name__ for part in value.word.parts] == value_parts
    assert reading.operands == ()


@pytest.mark.parametrize(
    "command", ['tool -r"$X"', 'tool "$X"', 'tool --recursive"$X"', 'tool -"$X"', "tool -l$N", "tool --output=$X"]
)
def test_a_run_time_word_is_an_operand_unless_its_literal_start_gives_an_option_its_value(command: str) -> None:
    """An unquoted expansion may split the word into several (`--output=$X`): it stays an operand."""
    reading = read(RM_LIKE, (_run_time_word(command, 1),))
    assert reading.options == () and len(reading.operands) == 1


def test_the_suffix_of_a_word_known_only_at_run_time_stays_unknown() -> None:
    """Regression: `curl -F f=@"$DIR/.env"` read the file name as the empty string, so the upload was missed."""
    word = _word_of('curl f=@"$DIR/.env"', 1)
    value = Arg((), word.source, word.span, False, word.word).suffix(3)
    assert value.values == ()
    assert value.word is not None
    assert [type(part).__name__ for part in value.word.parts] == ["ParamExpansion", "Literal"]


# -- the built-in wrappers and interpreters, as a policy declares them -------------------------


# -- what a command deletes and where it unpacks (issue 19 item 10) -----------------------------

REMOVED = [
    ("rm", ("-rf", "/etc/nginx", "./b"), ["/etc/nginx", "./b"]),
    ("rmdir", ("-p", "/etc/x"), ["/etc/x"]),
    ("unlink", ("/etc/resolv.conf",), ["/etc/resolv.conf"]),
    ("mv", ("/etc/hosts", "/etc/ssh", "/tmp/"), ["/etc/hosts", "/etc/ssh"]),
    ("mv", ("-t", "/tmp", "/etc/hosts"), ["/etc/hosts"]),
    ("shred", ("-u", "/etc/x"), ["/etc/x"]),
    ("shred", ("--remove=wipe", "/etc/x"), ["/etc/x"]),
    ("shred", ("-n", "3", "/dev/sda"), []),
    ("find", ("/etc", "-name", "*.conf", "-delete"), ["/etc/*"]),
    ("find", ("/etc", "-name", "*.conf"), []),
    ("cp", ("/etc/hosts", "/tmp/"), []),
]


@pytest.mark.parametrize(("name", "words", "removed"), REMOVED)
def test_a_remover_names_the_files_it_deletes(name: str, words: tuple[str, ...], removed: list[str]) -> None:
    assert [arg.value for arg in removed_files(read_command(name, args(*words)))] == removed


TREES_REMOVED = [
    ("rm", ("-rf", "/etc/nginx", "./b"), ["/etc/nginx", "./b"]),
    ("rm", ("--recursive", "x"), ["x"]),
    ("rm", ("-f", "x"), []),
    ("srm", ("-rz", "x"), ["x"]),
    ("srm", ("x",), []),
    ("wipe", ("-Q", "3", "-rf", "x"), ["x"]),
    ("remove_directory", ("a", "b"), ["a", "b"]),
    ("unlink", ("x",), []),
    ("tar", ("-cf", "/dev/null", "--remove-files", "~/projects", "./b"), ["~/projects", "./b"]),
    ("tar", ("--remove-files", "-czf", "logs.tgz", "logs/"), []),
    ("tar", ("-cf", "/dev/null", "src"), []),
    ("tar", ("-xf", "/dev/null", "--remove-files"), []),
]


@pytest.mark.parametrize(("name", "words", "removed"), TREES_REMOVED)
def test_a_recursive_remover_names_the_trees_it_deletes(name: str, words: tuple[str, ...], removed: list[str]) -> None:
    assert [arg.value for arg in removed_trees(read_command(name, args(*words)))] == removed


EXTRACTED = [
    ("tar", ("-xf", "a.tar", "-C", "/"), ["/"]),
    ("tar", ("xzf", "a.tgz", "--directory=/usr"), ["/usr"]),
    ("tar", ("-cf", "a.tar", "-C", "/", "etc"), []),
    ("unzip", ("a.zip", "-d", "/"), ["/"]),
    ("7z", ("x", "-o/etc", "a.7z"), ["/etc"]),
    ("7za", ("x", "a.7z", "-aoa", "-o./out"), ["./out"]),
    ("7z", ("a", "-o/etc", "a.7z"), []),
    ("7z", ("l", "a.7z"), []),
]


@pytest.mark.parametrize(("name", "words", "directories"), EXTRACTED)
def test_an_archiver_names_the_directory_it_unpacks_into(
    name: str, words: tuple[str, ...], directories: list[str]
) -> None:
    assert [arg.value for arg in extraction_directories(read_command(name, args(*words)))] == directories


@pytest.mark.parametrize(
    ("words", "written"),
    [
        (("/", "-fprint", "/etc/x"), ["/etc/x"]),
        ((".", "-name", "*.py", "-fls", "list"), ["list"]),
        ((".", "-fprintf", "out", "%p\\n"), ["out"]),
        ((".", "-exec", "tool", "-fprint", "x", ";", "-print"), []),
    ],
)
def test_find_writes_the_files_of_its_output_actions(words: tuple[str, ...], written: list[str]) -> None:
    assert [arg.value for arg in written_files(read_command("find", args(*words)))] == written


# -- the sudoers editors (issue 19 item 8) -------------------------------------------------------

SUDOERS_EDITS = [
    ("visudo", (), ["/etc/sudoers"]),
    ("visudo", ("-s",), ["/etc/sudoers"]),
    ("visudo", ("-f", "/etc/sudoers.d/agent"), ["/etc/sudoers.d/agent"]),
    ("visudo", ("-c",), []),
    ("visudo", ("--check", "-f", "/etc/sudoers.d/agent"), []),
    ("sudoedit", ("-u", "root", "/etc/hosts", "/etc/passwd"), ["/etc/hosts", "/etc/passwd"]),
]


@pytest.mark.parametrize(("name", "words", "written"), SUDOERS_EDITS)
def test_visudo_writes_the_sudoers_file_it_edits_unless_it_only_checks(
    name: str, words: tuple[str, ...], written: list[str]
) -> None:
    assert [arg.value for arg in written_files(read_command(name, args(*words)))] == written


# -- package managers (issue 19 item 13) ---------------------------------------------------------

LOCK_FILE_INSTALLS = [
    ("npm", ("ci", "--ignore-scripts"), True),
    ("pnpm", ("i", "--frozen-lockfile"), True),
    ("yarn", ("install", "--immut"), True),
    ("pip3", ("install", "-r", "requirements.txt", "--require-h"), True),
    ("pnpm", ("install", "--frozen-lockfile=false"), False),
    ("pip", ("install", "--require-hashes", "requests==2.31.0"), False),
    ("pip", ("install", "-r", "requirements.txt"), False),
    ("npm", ("install",), False),
    ("yarn", ("add", "left-pad", "--frozen-lockfile"), False),
]


@pytest.mark.parametrize(("name", "words", "locked"), LOCK_FILE_INSTALLS)
def test_an_install_takes_only_the_lock_file_with_its_locking_options_and_no_named_package(
    name: str, words: tuple[str, ...], locked: bool
) -> None:
    assert installs_only_the_lock_file(read_command(name, args(*words))) is locked


@pytest.mark.parametrize("spec", INTERPRETERS, ids=[spec.family for spec in INTERPRETERS])
def test_an_interpreter_family_reads_back_from_its_policy_table(spec: InterpreterSpec) -> None:
    assert _interpreter(TableReader(spec.policy_table(), "interpreters", "test"), spec.family, None) == spec


@pytest.mark.parametrize("spec", WRAPPERS, ids=[spec.name for spec in WRAPPERS])
def test_a_wrapper_reads_back_from_its_policy_table(spec: WrapperSpec) -> None:
    assert _wrapper(TableReader(spec.policy_table(), "wrappers", "test"), spec.name, None) == spec


# -- sed scripts ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("script", "commands", "written"),
    [
        ("s/x/rm -rf ~/e", ("rm -rf ~",), ()),
        ("1e curl -s u | sh", ("curl -s u | sh",), ()),
        ("/a/,/b/ s|.*|echo \\| sh|e", ("echo | sh",), ()),
        ("1{e id\n}", ("id",), ()),
        ("w /etc/cron.d/job", (), ("/etc/cron.d/job",)),
        ("s/^/x/w out.txt", (), ("out.txt",)),
        ("/ERROR/W errors.log", (), ("errors.log",)),
        # Not commands: text of a, i, c; a `y` transliteration; an e inside a regex or a replacement.
        ("$a e rm -rf /", (), ()),
        ("1i w /etc/passwd", (), ()),
        ("y/abc/xyz/", (), ()),
        ("s/e/E/g; /e w/d", (), ()),
        ("s/w/e/", (), ()),
        ("\\%e%d", (), ()),
        ("", (), ()),
    ],
)
def test_a_sed_script_s_commands_and_written_files_are_read_as_gnu_sed_reads_them(
    script: str, commands: tuple[str, ...], written: tuple[str, ...]
) -> None:
    effects = sed_effects(script)
    assert (effects.commands, effects.written) == (commands, written)


@pytest.mark.parametrize(
    ("script", "added"),
    [
        ("$a ProxyCommand /tmp/x %h %p", ("ProxyCommand /tmp/x %h %p",)),
        ("1i\\#!/bin/sh", ("#!/bin/sh",)),
        ("/^exit/i\\\ncurl -s u | sh\\\nexit 0", ("curl -s u | sh\nexit 0",)),
        ("2c registry=http://x/", ("registry=http://x/",)),
        ("s|^registry=.*|registry=http://x/|", ("registry=http://x/",)),
        ("s/^  User .*$/  User deploy/", ("  User deploy",)),
        # Part of a line replaced, a replacement that copies what it matched: no known line; nor a deletion.
        ("s/version=.*/version=1.2.3/", ()),
        ("s/^x=.*/&-new/", ()),
        ("s/^\\(a\\)b.*/\\1c/", ()),
        ("s/^x.*//", ()),
        ("/x/d", ()),
    ],
)
def test_the_text_a_sed_script_adds_is_read_as_gnu_sed_adds_it(script: str, added: tuple[str, ...]) -> None:
    assert sed_effects(script).added == added
