"""Resolving a simple command: its words become argv (normalised as bash
builds them), wrappers are peeled off, and the command name is worked out
(a literal, a computed name, a risky substitution, a tainted variable).
Also what a command does to the walk's state: the assignments it makes, the
working directory `cd` leaves, the standard input its redirects give.
"""

from __future__ import annotations

from collections.abc import Callable

from .._model import Span
from .._named_tuple import NamedTuple
from .._syntax import ast
from .._tables import Tables
from ..programs import EXEC_ACTIONS, downloaded_files, find_scope
from ..programs.find import found_globs
from ..programs.sending import SENDERS
from ._bindings import DECLARATION_BUILTINS, array_literal_items, assigned_value, exports, split_assignment_word
from ._clean_paths import clean_path
from ._command_globs import expand_command_name, glob_candidates
from ._listings import ls_globs, ls_names, tracked_files
from ._located_names import located_program
from ._normalize import HOME, basename, normalize_word, normalize_words, uses_default
from ._static_output import filtered_output
from ._subjects import (
    OUTPUT_REDIRECTS,
    Arg,
    AssignmentSubject,
    Location,
    NameSource,
    RedirectSubject,
    Risk,
    Stdin,
    StdinKind,
)
from ._variables import Env
from ._wrappers import (
    Unwrapped,
    replaced_per_item,
    unwrap,
    xargs_commands,
    xargs_replace_string,
    xargs_unbounded,
)

_SHELL_VARIABLES = frozenset({"SHELL", "BASH"})
_ARITHMETIC_TESTS = frozenset({"-eq", "-ne", "-lt", "-le", "-gt", "-ge"})
VARIABLE_TEST = "-v"
"""`-v NAME[SUBSCRIPT]` evaluates the subscript as arithmetic, in `test`, `[` and `[[` alike."""


def resolve(words: tuple[ast.Word, ...], env: Env, tables: Tables) -> tuple[tuple[Arg, ...], int, Unwrapped | None]:
    """A simple command's argv after normalisation and unwrapping, the effective
    command's position in it (len(argv) when only wrappers run), and the wrappers."""
    argv = tuple(normalize_words(words, env)) if words else ()
    return peel(argv, tables)


def peel(argv: tuple[Arg, ...], tables: Tables) -> tuple[tuple[Arg, ...], int, Unwrapped | None]:
    """argv with its command name expanded and its wrappers peeled off, the effective command's position, and
    the wrappers."""
    argv = expand_command_name(argv, 0, tables)
    unwrapped = unwrap(argv, tables) if argv else None
    if unwrapped is None:
        return argv, 0, None
    return unwrapped.argv, unwrapped.command_index, unwrapped


class CommandName(NamedTuple):
    """The names a command may run under (None: computed at run time), and why."""

    names: tuple[str | None, ...]
    source: NameSource
    evidence: Span | None


TaintedSpan = Callable[[tuple[ast.WordPart, ...]], Span | None]
"""Where a name's parts use a tainted variable (asked only for computed names)."""


def command_name(name_arg: Arg | None, name_risks: frozenset[Risk], env: Env, tainted: TaintedSpan) -> CommandName:
    if name_arg is None:
        # Only wrappers (`su`, `sudo -s`): a command still runs; rules see the wrappers.
        return CommandName((None,), NameSource.STATIC, None)
    candidates = glob_candidates(name_arg)
    if candidates is not None:
        # `/bin/r*`, `./*.sh`: several programs, or files only the run finds.
        return CommandName(candidates, NameSource.DYNAMIC, name_arg.span)
    word = name_arg.word
    parts = word.parts if word is not None else ()
    if len(parts) == 1 and type(parts[0]) is ast.Literal:
        # The common case: a name written as plain text.
        return CommandName(tuple([basename(value) for value in name_arg.values]), NameSource.STATIC, None)
    if len(parts) == 1 and type(parts[0]) is ast.ParamExpansion:
        parameter = parts[0]
        # `$SHELL`, `${BASH:-sh}`: the user's shell, with or without a default.
        if parameter.name in _SHELL_VARIABLES and parameter.operator in ("", ":-", "-"):
            return CommandName(("sh",), NameSource.STATIC, None)
    if name_arg.values:
        names = tuple([basename(value) for value in name_arg.values])
        if _uses_a_default(parts, env):
            # `${CMD:-rm}`: judged as `rm`, and still a computed name (CMD may come from the environment).
            return CommandName(names, NameSource.DYNAMIC, name_arg.span)
        # `$(echo rm)`, `$(basename /usr/bin/ls)`: output known without running, a spelling of the name.
        return CommandName(names, NameSource.STATIC, None)
    if name_risks - {Risk.TAINT}:
        return CommandName((None,), NameSource.RISKY_SUBSTITUTION, _first_substitution_span(parts, name_arg.span))
    tainted_span = tainted(parts)
    if tainted_span is not None or Risk.TAINT in name_risks:
        return CommandName((None,), NameSource.TAINTED, tainted_span or name_arg.span)
    located = located_program(parts)
    if located is not None:
        # `"$JAVA_HOME/bin/java"`, `$(which python3)`: only the directory is computed, the program is named.
        return CommandName((located,), NameSource.STATIC, None)
    return CommandName((None,), NameSource.DYNAMIC, name_arg.span)


def _uses_a_default(parts: tuple[ast.WordPart, ...], env: Env) -> bool:
    return any(
        type(part) is ast.ParamExpansion and uses_default(part, env.candidates(part.name), env) for part in parts
    )


def _first_substitution_span(parts: tuple[ast.WordPart, ...], default: Span) -> Span:
    for part in parts:
        if type(part) in (ast.CommandSubstitution, ast.ProcessSubstitution):
            return part.span
    return default


def display(argv: tuple[Arg, ...]) -> tuple[str, ...]:
    """argv as shown to people: the value, or the source of a run-time word."""
    return tuple([arg.display() for arg in argv])


# -- what a command does to the walk --------------------------------------------------------


def changed_directory(cwd: str | None, name: str, args: tuple[Arg, ...]) -> str | None:
    """The working directory after `cd`/`pushd`/`popd` ARGS (None: unknown)."""
    operands = [arg for arg in args if not (arg.value or "").startswith("-") or arg.value == "-"]
    if name == "popd":
        return None
    if not operands:
        return HOME if name == "cd" else None
    target = operands[0].value
    if target is None or target == "-":
        return None
    if target.startswith(("/", HOME)):
        return clean_path(target)
    return clean_path(f"{cwd}/{target}") if cwd is not None else None


def written_by(name: str | None, args: tuple[Arg, ...], redirects: tuple[ast.Redirect, ...], env: Env) -> list[Arg]:
    """Where a download or decoder's output goes: its stdout redirect, or the files it saves."""
    targets = [target for target, _ in output_redirects(redirects, env)]
    targets.extend(downloaded_files(name, args))
    return targets


def output_redirects(redirects: tuple[ast.Redirect, ...], env: Env) -> list[tuple[Arg, bool]]:
    """The files a command's standard output goes to, each with whether it is appended to (`>>`)."""
    targets: list[tuple[Arg, bool]] = []
    for redirect in redirects:
        if redirect.target is not None and redirect.operator in OUTPUT_REDIRECTS and redirect.fd in (None, "1"):
            appends = redirect.operator.endswith(">>")
            targets.extend((target, appends) for target in normalize_word(redirect.target, env))
    return targets


def _literal_text(parts: tuple[ast.WordPart, ...]) -> str | None:
    """The text of a word or document without run-time parts, else None."""
    texts: list[str] = []
    for part in parts:
        if type(part) is not ast.Literal:
            return None
        texts.append(part.text)
    return "".join(texts)


def command_subjects(
    node: ast.SimpleCommand,
    argv: tuple[Arg, ...],
    index: int,
    unwrapped: Unwrapped | None,
    name: CommandName,
    env: Env,
    location: Location,
    cwd: str | None,
) -> tuple[list[AssignmentSubject], list[RedirectSubject]]:
    """What the rules see of a simple command besides the commands it runs:
    the names it assigns (`export`, `env NAME=v CMD`) and its redirects
    (`index`: the effective command's position in argv)."""
    assignments: list[AssignmentSubject] = []
    builtin = argv[0].value if argv else None
    if builtin in DECLARATION_BUILTINS:
        assignments.extend(declared_assignments(node, builtin, env, location))
    if unwrapped is not None and unwrapped.assignments:
        assignments.extend(wrapper_assignments(unwrapped, location))
    redirect_name = name.names[0] if name.names else None
    # From the effective command's name on; a command of wrappers alone (`sudo > f`) runs them.
    words = argv[index:] if index < len(argv) else argv
    redirects = [redirect_subject(redirect, env, redirect_name, location, cwd, words) for redirect in node.redirects]
    return assignments, redirects


def declared_assignments(
    node: ast.SimpleCommand, builtin: str, env: Env, location: Location
) -> list[AssignmentSubject]:
    """The names `export`, `declare`, `local`... assign (and export)."""
    exported = exports(builtin, node.words[1:])
    subjects: list[AssignmentSubject] = []
    for word in node.words[1:]:
        split = split_assignment_word(word)
        if split is not None:
            name, value_word = split
            # An array literal has no single value (its elements are bound in `_bindings`).
            fields = normalize_word(assigned_value(value_word), env) if array_literal_items(value_word) is None else []
            value = fields[0] if len(fields) == 1 else None
            subjects.append(AssignmentSubject(name, value, exported, builtin, word.span, location))
        elif exported and not word.source.startswith("-"):
            subjects.append(AssignmentSubject(word.source, None, True, builtin, word.span, location))
    return subjects


def wrapper_assignments(unwrapped: Unwrapped, location: Location) -> list[AssignmentSubject]:
    """`env NAME=value CMD`, `sudo NAME=value CMD`: exported to the command."""
    subjects: list[AssignmentSubject] = []
    for arg in unwrapped.assignments:
        if arg.value is None:
            name = arg.source.partition("=")[0]
            value_arg = Arg((), arg.source.partition("=")[2], arg.span, False, None)
        else:
            name, _, value = arg.value.partition("=")
            value_arg = Arg((value,), arg.source, arg.span, False, None)
        subjects.append(AssignmentSubject(name, value_arg, True, "env", arg.span, location))
    return subjects


def redirect_subject(
    redirect: ast.Redirect,
    env: Env,
    command_name: str | None,
    location: Location,
    cwd: str | None,
    command_words: tuple[Arg, ...] | None = None,
) -> RedirectSubject:
    """What the rules see of a redirect; `command_words`: the simple command it belongs to, from its name on."""
    target = None
    if redirect.target is not None:
        fields = normalize_word(redirect.target, env)
        target = fields[0] if len(fields) == 1 else Arg((), redirect.target.source, redirect.target.span)
    return RedirectSubject(
        redirect.operator, redirect.fd, target, redirect.span, command_name, location, cwd, command_words
    )


def stdin_of(redirect: ast.Redirect, risks: frozenset[Risk]) -> Stdin | None:
    """What a redirect makes standard input (None: it does not touch stdin)."""
    operator = redirect.operator
    if redirect.heredoc is not None:
        label = f"{operator}{redirect.heredoc.delimiter}"
        return Stdin(StdinKind.HEREDOC, redirect.heredoc.span, label, risks, redirect.heredoc.parts)
    if operator == "<<<" and redirect.target is not None:
        return Stdin(StdinKind.HERESTRING, redirect.target.span, "<<<", risks, redirect.target.parts)
    if operator in ("<", "<>") and redirect.target is not None:
        parts = redirect.target.parts
        if any(type(part) is ast.ProcessSubstitution for part in parts):
            writer = substitution_producer(parts)
            return Stdin(StdinKind.PROCESS_SUBSTITUTION, redirect.span, "< <(...)", risks, parts, writer=writer)
        return Stdin(StdinKind.FILE, redirect.span, "<", risks, file=_literal_text(parts), target=redirect.target)
    return None


def substitution_producer(parts: tuple[ast.WordPart, ...]) -> ast.Command | None:
    """The command whose output the word `<(COMMAND)` gives: what `cmd < <(COMMAND)` reads on standard
    input (as a pipe from it would), what the file `-f <(COMMAND)` holds (None when the substitution
    runs several statements or is not all of the word)."""
    if len(parts) != 1 or type(parts[0]) is not ast.ProcessSubstitution or parts[0].direction != "<":
        return None
    statements = parts[0].body.statements
    if len(statements) != 1 or statements[0].background:
        return None
    return statements[0].command


def commands_run(
    argv: tuple[Arg, ...], index: int, unwrapped: Unwrapped | None, stdin: Stdin | None, env: Env
) -> list[tuple[Arg, ...]]:
    """The argvs a command runs: itself, or for `xargs` with known input the
    commands xargs builds (`echo / | xargs rm -rf` runs `rm -rf /`)."""
    if not argv:
        return []
    if unwrapped is None or unwrapped.xargs_options is None or stdin is None:
        return [argv]
    data = known_input(stdin, env)
    if data is not None:
        return xargs_commands(argv, index, unwrapped.xargs_options, data, stdin.span) or [argv]
    writer = _piped_argv(stdin, env)
    if not writer:
        return [argv]
    replace = xargs_replace_string(unwrapped.xargs_options)
    if replace is not None:
        names = ls_names(writer) or _files_found_for_sender(writer, argv[index])
        return replaced_per_item(argv, index, replace, names, globs=True) if names else [argv]
    listed = _listed_by_ls(writer, stdin.span)
    if listed:
        return [argv + listed]
    found = _found_by_find(writer, stdin.span)
    if not found and tracked_files(writer):
        # `git ls-files | xargs rm -f`: every tracked file below the working directory, as find lists them.
        found = (Arg(("./*",), writer[0], stdin.span, True),)
    return [recursing_like_find(argv, index, stdin.span) + found] if found else [argv]


def _piped_argv(stdin: Stdin, env: Env) -> list[str] | None:
    """The literal argv of the simple command piped into this one, if that is what feeds it."""
    writer = stdin.writer
    if stdin.kind is not StdinKind.PIPE or not isinstance(writer, ast.SimpleCommand) or writer.redirects:
        return None
    return env.literal_argv(writer.words)


def _files_found_for_sender(writer: list[str], name: Arg) -> tuple[str, ...]:
    """`find ~ -name id_rsa | xargs -I{} curl -F f=@{} URL`: the paths find prints, as the globs that
    match them, handed to a network sender (what it sends is judged as those files)."""
    if basename(writer[0]) != "find" or basename(name.value or "") not in SENDERS:
        return ()
    return found_globs(find_scope(tuple(Arg((value,), value, name.span) for value in writer[1:])))


def _listed_by_ls(argv: list[str], span: Span) -> tuple[Arg, ...]:
    """`ls [-A] [DIR] | xargs CMD`: the names ls prints, read as the globs that match them
    (`ls | xargs rm -rf` is `rm -rf *`)."""
    return tuple(Arg((glob,), argv[0], span, True) for glob in ls_globs(argv))


def _found_by_find(argv: list[str], span: Span) -> tuple[Arg, ...]:
    """`find DIR ... | xargs CMD`: when no test narrows the search, the paths find prints are
    everything under each starting point, read as `DIR/*` (`find ~ -type f | xargs rm -f` is
    `rm -f ~/*` and more); nothing when the writer is anything else or narrows."""
    if basename(argv[0]) != "find":
        return ()
    words = tuple(Arg((value,), value, span) for value in argv[1:])
    scope = find_scope(words)
    if not scope.unfiltered or any(value in EXEC_ACTIONS or value == "-delete" for value in argv[1:]):
        return ()
    return tuple(
        Arg((f"{value.rstrip('/')}/*",), point.source, span, True)
        for point in scope.starting_points
        for value in point.values
    )


def recursing_like_find(argv: tuple[Arg, ...], index: int, span: Span) -> tuple[Arg, ...]:
    """`find DIR | xargs rm`, `find DIR -exec rm {} +`: find hands rm every file below DIR, so rm
    removes them all, as `rm -r` would (`find ~ -type f | xargs rm -f` is `find ~ -type f -delete`);
    the recursion find supplies is written as rm's own `-r`, after the program name."""
    name = argv[index].value if index < len(argv) else None
    if name is None or basename(name) != "rm":
        return argv
    return (*argv[: index + 1], Arg(("-r",), "-r", span), *argv[index + 1 :])


def piped_output(stdin: Stdin, env: Env) -> str | None:
    """What the command before writes into a pipe or `< <(...)`, when known: what echo/printf print
    (`Env.command_output`), and known text through the filter stages of a pipe (`echo TEXT | tr a-z
    n-za-m | sh`, `printf ... | rev | bash`)."""
    writer = stdin.writer
    if writer is None:
        return None
    printed = env.command_output(writer)
    upstream = stdin.upstream
    if printed is not None or upstream is None or type(writer) is not ast.SimpleCommand:
        return printed
    if writer.redirects or writer.assignments:
        return None
    argv = env.literal_argv(writer.words)
    before = piped_output(upstream, env) if argv is not None else None
    return None if argv is None or before is None else filtered_output(argv, before)


def known_input(stdin: Stdin | None, env: Env) -> str | None:
    """What a command reads on stdin when that is known without running
    anything: echo/printf piped in or read from `< <(...)`, a here-string or heredoc of literal text."""
    if stdin is None:
        return None
    if stdin.kind is StdinKind.PIPE or stdin.kind is StdinKind.PROCESS_SUBSTITUTION:
        return piped_output(stdin, env)
    if stdin.kind not in (StdinKind.HERESTRING, StdinKind.HEREDOC):
        return None
    text = env.literal_text(stdin.parts)
    return text + "\n" if text is not None and stdin.kind is StdinKind.HERESTRING else text


# -- loops and tests --------------------------------------------------------------------------


_INFINITE_NUMBERS = frozenset({"inf", "infinity"})


def endless(node: ast.WhileLoop, env: Env) -> bool:
    """A `while` loop whose condition never ends it (`while :`, `while [ 1 ]`, `until false`)."""
    statements = node.condition.statements
    if len(statements) != 1:
        return False
    command = statements[0].command
    if type(command) is ast.TestClause:
        operands = [arg.value for arg in normalize_words(command.words, env)]
        return not node.until and _constant_test(["test", *operands])
    if type(command) is not ast.SimpleCommand:
        return False
    argv = [arg.value for arg in normalize_words(command.words, env)]
    if node.until:
        return argv == ["false"]
    return argv in ([":"], ["true"]) or _constant_test(argv)


def endless_xargs(unwrapped: Unwrapped | None, stdin: Stdin | None, env: Env) -> bool:
    """`yes | xargs -P0 CMD`: xargs starts CMD without bound, as an endless loop in the background would."""
    if unwrapped is None or unwrapped.xargs_options is None or not xargs_unbounded(unwrapped.xargs_options):
        return False
    return _endless_input(stdin, env)


def _endless_input(stdin: Stdin | None, env: Env) -> bool:
    """Standard input that never ends: a pipe from `yes` or `seq ... inf`."""
    if stdin is None or stdin.kind is not StdinKind.PIPE or not isinstance(stdin.writer, ast.SimpleCommand):
        return False
    argv = [arg.value for arg in normalize_words(stdin.writer.words, env)]
    if argv[:1] == ["yes"]:
        return True
    return argv[:1] == ["seq"] and len(argv) > 1 and (argv[-1] or "").lower().lstrip("+") in _INFINITE_NUMBERS


def _constant_test(argv: list[str | None]) -> bool:
    """`[ 1 ]` or `test x`: a one-operand test of a non-empty literal is always true."""
    if argv[:1] == ["["] and argv[-1:] == ["]"]:
        operands = argv[1:-1]
    elif argv[:1] == ["test"]:
        operands = argv[1:]
    else:
        return False
    return len(operands) == 1 and bool(operands[0]) and not (operands[0] or "").startswith("-")


def constant_condition(condition: str) -> bool:
    """An arithmetic `for` condition that is empty or a non-zero number never ends the loop."""
    text = condition.strip()
    return not text or (text.isdigit() and int(text) != 0)


def arithmetic_operands(keyword: str, words: tuple[ast.Word, ...]) -> frozenset[int]:
    """The positions of a test's words (`[[`, or `[` and `test`) that bash may evaluate as arithmetic.

    In `[[`, both operands of `-eq`, `-ne`, `-lt`, `-le`, `-gt` and `-ge`, and
    nothing else (`[[ $x == 1 || 1 -eq 1 ]]` compares $x as a string). In both,
    the name after `-v`, whose subscript is evaluated. `[` and `test` read the
    operands of their integer comparisons as numbers and never evaluate them,
    but an unquoted expansion splits into words, which can be `-v NAME[...]`
    (the bash oracle, with x=`a[$(cmd)]`: `[ "$x" -eq 1 ]` runs nothing,
    `[[ $x -eq 1 ]]` runs cmd; with x=`-v a[$(cmd)]`, `[ $x -eq 1 ]` runs cmd).
    The words are the operands and operators in order (`&&`, `!`, `(` and the
    string operators of `[[` are not words), so an operator's operands are its
    neighbours.
    """
    positions: set[int] = set()
    if not keyword:
        return frozenset()  # words recovered from an error region: values, no test
    for index, word in enumerate(words):
        # `[[` knows its operators as written (a quoted `'-eq'` is a string); `[` sees them as argv.
        operator = word.source if keyword == "[[" else _literal_text(word.parts)
        if operator == VARIABLE_TEST:
            positions.add(index + 1)
        elif keyword == "[[":
            if operator in _ARITHMETIC_TESTS:
                positions.update((index - 1, index + 1))
        elif _split_into_words(word):
            positions.add(index)
    return frozenset(position for position in positions if 0 <= position < len(words))


def _split_into_words(word: ast.Word) -> bool:
    """Whether the word holds an unquoted parameter or command substitution, whose value bash splits."""
    return any(
        isinstance(part, (ast.ParamExpansion, ast.CommandSubstitution)) and not part.quoted for part in word.parts
    )
