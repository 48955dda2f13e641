"""Hypothesis strategies that write realistic bash.

Scripts are assembled from `Fragment`s so that heredocs stay valid: a
fragment whose text ends with a heredoc body must be followed by a newline
before any further token, so the combinators below switch from `; ` to a
newline (and from `&&`/`|` to a plain sequence) after one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from hypothesis import strategies as st

# -- fragments and combinators -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Fragment:
    """A piece of bash; `ends_with_heredoc` when its last line is a heredoc delimiter."""

    text: str
    ends_with_heredoc: bool = False

    def then(self, separator: str = "; ") -> str:
        """The text followed by `separator`, or by a newline after a heredoc body."""
        return self.text + ("\n" if self.ends_with_heredoc else separator)


def sequence(first: Fragment, second: Fragment) -> Fragment:
    return Fragment(first.then() + second.text, second.ends_with_heredoc)


def joined(first: Fragment, operator: str, second: Fragment) -> Fragment:
    """`a && b`, `a || b`, `a | b`, `a |& b`, `a & b`: the operator must stay on a's line."""
    if first.ends_with_heredoc:
        first = group(first)
    return Fragment(f"{first.text} {operator} {second.text}", second.ends_with_heredoc)


def subshell(body: Fragment) -> Fragment:
    return Fragment(f"( {body.then(' ')})")


def group(body: Fragment) -> Fragment:
    return Fragment(f"{{ {body.then()}}}")


def if_clause(condition: Fragment, body: Fragment, else_body: Fragment | None = None) -> Fragment:
    text = f"if {condition.then()}then {body.then()}"
    if else_body is not None:
        text += f"else {else_body.then()}"
    return Fragment(text + "fi")


def while_loop(condition: Fragment, body: Fragment, keyword: str = "while") -> Fragment:
    return Fragment(f"{keyword} {condition.then()}do {body.then()}done")


def for_loop(variable: str, words: str, body: Fragment) -> Fragment:
    return Fragment(f"for {variable} in {words}; do {body.then()}done")


def arithmetic_for(body: Fragment) -> Fragment:
    return Fragment(f"for ((i = 0; i < 2; i++)); do {body.then()}done")


def case_clause(subject: str, pattern: str, body: Fragment) -> Fragment:
    return Fragment(f"case {subject} in {pattern}) {body.then(' ')};; esac")


def function_then_call(name: str, body: Fragment) -> Fragment:
    return Fragment(f"{name}() {{ {body.then()}}}; {name}")


def command_substitution(body: Fragment, *, backquoted: bool = False) -> str:
    if backquoted and "`" not in body.text and not body.ends_with_heredoc and "\\" not in body.text:
        return f"`{body.text}`"
    # `$((` would open an arithmetic expansion: a subshell body needs a space.
    opening = "$( " if body.text.startswith("(") else "$("
    return f"{opening}{body.then('')})"


def process_substitution(body: Fragment, direction: str = "<") -> str:
    return f"{direction}({body.then('')})"


def single_quoted(text: str) -> str:
    """`text` as one single-quoted bash word (a quote inside becomes '\\'')."""
    return "'" + text.replace("'", "'\\''") + "'"


def double_quoted(text: str) -> str:
    """`text` as one double-quoted bash word with $, `, \\ and " escaped."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("$", "\\$").replace("`", "\\`")
    return f'"{escaped}"'


# -- words -----------------------------------------------------------------------------

BARE_WORDS = (
    "file.txt", "src/", "-la", "--verbose", "-n", "5", "a=b", "*.py", "~/notes", "/tmp/out",
    "{a,b}", "x", "HEAD~1", ".", "..", "--", "-", "build/", "--output=dist", "README.md", "[ab]*",
)  # fmt: skip
PARAMETERS = (
    "$x", "${x}", "${x:-default}", "${#x}", "${x//a/b}", "${!ref}", "${arr[1]}", "${x@Q}", "$1", "$@",
    "$?", "$$", "${x%.txt}", "${x^^}", "$HOME", "${HOME}/src", "$PWD",
)  # fmt: skip
ANSI_C_STRINGS = ("$'a\\tb'", "$'\\x41\\x42'", "$'it\\'s'", "$'\\101'", "$'line\\n'", "$'\\u00e9'", "$'back\\\\slash'")
ESCAPED_WORDS = ("a\\ b", "\\$HOME", "\\*", "x\\y", "\\'", '\\"', "semi\\;colon")
ARITHMETIC = ("$((1 + 2))", "$((x << 1))", "$((RANDOM % 6))", "$(( (1 + 2) * 3 ))")
TEXT_ALPHABET = st.characters(codec="ascii", categories=("L", "N", "P", "S", "Zs"), exclude_characters="\x00")


def literal_text(max_size: int = 12) -> st.SearchStrategy[str]:
    return st.text(TEXT_ALPHABET, max_size=max_size)


def words(scripts: st.SearchStrategy[Fragment] | None = None) -> st.SearchStrategy[str]:
    """One shell word, in any quoting style, possibly several parts glued together."""
    parts: list[st.SearchStrategy[str]] = [
        st.sampled_from(BARE_WORDS),
        literal_text().map(single_quoted),
        literal_text().map(double_quoted),
        st.sampled_from(ANSI_C_STRINGS),
        st.sampled_from(ESCAPED_WORDS),
        st.sampled_from(PARAMETERS),
        st.sampled_from(PARAMETERS).map(lambda parameter: f'"{parameter}"'),
        st.sampled_from(ARITHMETIC),
    ]
    if scripts is not None:
        parts += [
            st.builds(command_substitution, scripts, backquoted=st.booleans()),
            st.builds(command_substitution, scripts).map(lambda text: f'"{text}"'),
            st.builds(
                lambda body, before: f'"{before}{command_substitution(body)}"',
                scripts,
                literal_text(4).map(_inside_double_quotes),
            ),
            st.builds(lambda body: f'"${{arr[{command_substitution(body)}]}}"', scripts),
        ]
    part = st.one_of(*parts)
    return st.lists(part, min_size=1, max_size=3).map("".join)


def _inside_double_quotes(text: str) -> str:
    return double_quoted(text)[1:-1]


# -- simple commands --------------------------------------------------------------------

COMMAND_NAMES = (
    "ls", "cat", "grep", "sed", "make", "git", "docker", "kubectl", "npm", "cargo", "go", "pytest",
    "jq", "tar", "cp", "mv", "mkdir", "echo", "printf", "wc", "sort", "head", "tail", "find", "touch",
    "diff", "ssh", "rsync", "tee", "true", ":", "test",
)  # fmt: skip
WRAPPERS = (
    "sudo", "sudo -u root", "sudo -E", "env", "env -i", "env FOO=1", "nohup", "timeout 5",
    "timeout -s KILL 10", "nice -n 5", "nice", "stdbuf -oL", "setsid", "command", "time", "ionice -c3",
    "flock /tmp/lock", "xargs", "xargs -0 -n 1",
)  # fmt: skip
REDIRECTS = (
    "> out.txt", ">> log.txt", "2>/dev/null", "2>&1", "< input.txt", "&> all.log", ">| forced.txt",
    "3>&1", "<> rw.txt", "<<< word", '<<< "$x"', "> /dev/null 2>&1",
)  # fmt: skip
ASSIGNMENTS = ("FOO=1", "LANG=C", "x=$(date)", 'msg="hello world"', "n=$((n + 1))", "arr=(a b)", "PYTHONPATH=src")
NAME_QUOTINGS: tuple[Callable[[str], str], ...] = (
    lambda name: name,
    lambda name: f'"{name}"',
    lambda name: f"'{name}'",
    lambda name: f"\\{name}",
    lambda name: f"{name[0]}''{name[1:]}" if len(name) > 1 else name,
)


def command_names() -> st.SearchStrategy[str]:
    return st.builds(lambda quote, name: quote(name), st.sampled_from(NAME_QUOTINGS), st.sampled_from(COMMAND_NAMES))


HEREDOC_DELIMITERS = ("EOF", "END", "PYEOF", "MSG")
HEREDOC_LINES = (
    "plain text", "rm -rf / in the docs", "curl -s u | sh", "value: $x", "$(date)", "`whoami`",
    "${HOME}/path", "\\$(escaped)", "# a comment", "", "if then fi ) ( <<", "EOF is not alone here",
)  # fmt: skip


@st.composite
def heredocs(draw: st.DrawFn, scripts: st.SearchStrategy[Fragment] | None = None) -> tuple[str, str]:
    """(operator and delimiter word, body and terminator): `<<'EOF'`, `<<-X`, `<<\\END`..."""
    delimiter = draw(st.sampled_from(HEREDOC_DELIMITERS))
    quoting = draw(st.sampled_from(("", "'", '"', "\\")))
    strip_tabs = draw(st.booleans())
    word = {"": delimiter, "'": f"'{delimiter}'", '"': f'"{delimiter}"', "\\": f"\\{delimiter}"}[quoting]
    lines = draw(st.lists(st.sampled_from(HEREDOC_LINES), max_size=3))
    if scripts is not None and draw(st.booleans()):
        # bash cannot end a heredoc nested in a substitution inside another
        # heredoc's body when the delimiters clash; keep the nesting out.
        lines.append(command_substitution(draw(scripts.filter(lambda body: "<<" not in body.text))))
    indent = "\t" if strip_tabs else ""
    body = "".join(f"{indent}{line}\n" for line in lines)
    return f"<<{'-' if strip_tabs else ''}{word}", f"{body}{indent}{delimiter}"


@st.composite
def simple_commands(draw: st.DrawFn, scripts: st.SearchStrategy[Fragment] | None = None) -> Fragment:
    """[assignments] [wrappers] name [arguments] [redirects] [heredoc]."""
    prefix = draw(st.lists(st.sampled_from(ASSIGNMENTS), max_size=2))
    wrappers = draw(st.lists(st.sampled_from(WRAPPERS), max_size=2))
    name = draw(command_names())
    arguments = draw(st.lists(words(scripts), max_size=4))
    redirects = draw(st.lists(st.sampled_from(REDIRECTS), max_size=2))
    text = " ".join([*prefix, *wrappers, name, *arguments, *redirects])
    if draw(st.integers(0, 5)) == 0:
        operator, body = draw(heredocs(scripts))
        return Fragment(f"{text} {operator}\n{body}", ends_with_heredoc=True)
    return Fragment(text)


# -- interpreters with option soup ---------------------------------------------------------

SHELL_NAMES = ("bash", "sh", "dash", "zsh", "ksh", "/bin/bash", "/usr/bin/env bash", '"$SHELL"')
SHELL_OPTIONS = ("-e", "-x", "-u", "-o pipefail", "-O extglob", "--norc", "--noprofile", "-l")
SHELL_CODE_FLAGS = ("-c", "-ec", "-lc", "-xc", "-euc")
INTERPRETER_CALLS = (
    ("python3", ("-u", "-I", "-B", "-W ignore", "-X dev", "-O"), "-c", "print(1)"),
    ("python", ("-u", "-E"), "-c", "import os"),
    ("python3.11", ("-I",), "-c", "print(2)"),
    ("perl", ("-w", "-Mstrict", "-I/lib", "-l", "-n"), "-e", "print 1"),
    ("ruby", ("-w", "-rjson", "-I lib"), "-e", "puts 1"),
    ("node", ("-r dotenv/config", "--no-warnings"), "-e", "console.log(1)"),
    ("node", (), "--eval", "1+1"),
    ("php", ("-d x=1",), "-r", "echo 1;"),
    ("lua", (), "-e", "print(1)"),
)


@st.composite
def shell_code_strings(draw: st.DrawFn, code: st.SearchStrategy[str]) -> str:
    """`bash [options] -c CODE` with CODE quoted one way or another."""
    name = draw(st.sampled_from(SHELL_NAMES))
    options = draw(st.lists(st.sampled_from(SHELL_OPTIONS), max_size=2))
    flag = draw(st.sampled_from(SHELL_CODE_FLAGS))
    quote = draw(st.sampled_from((single_quoted, double_quoted)))
    return " ".join([name, *options, flag, quote(draw(code))])


@st.composite
def interpreter_code_strings(draw: st.DrawFn, code: st.SearchStrategy[str] | None = None) -> str:
    """`python3 -u -c CODE`, `perl -Mstrict -e CODE`...; CODE literal or given."""
    name, options, flag, literal = draw(st.sampled_from(INTERPRETER_CALLS))
    chosen = draw(st.lists(st.sampled_from(options), max_size=2, unique=True)) if options else []
    text = draw(code) if code is not None else single_quoted(literal)
    return " ".join([name, *chosen, flag, text])


# -- scripts ---------------------------------------------------------------------------------


def _compound(children: st.SearchStrategy[Fragment]) -> st.SearchStrategy[Fragment]:
    operators = st.sampled_from(("&&", "||", "|", "|&", "&"))
    return st.one_of(
        st.builds(sequence, children, children),
        st.builds(joined, children, operators, children),
        st.builds(subshell, children),
        st.builds(group, children),
        st.builds(if_clause, children, children, st.none() | children),
        st.builds(while_loop, children, children, st.sampled_from(("while", "until"))),
        st.builds(for_loop, st.just("f"), st.lists(words(), min_size=1, max_size=3).map(" ".join), children),
        st.builds(arithmetic_for, children),
        st.builds(case_clause, words(), st.sampled_from(("*", "a|b", "x*", "[0-9]")), children),
        st.builds(function_then_call, st.sampled_from(("helper", "f", "build_all")), children),
        simple_commands(children),
        st.builds(lambda body: Fragment(command_substitution(body)), children),
        st.builds(lambda code: Fragment(code), shell_code_strings(children.map(lambda body: body.text))),
        st.builds(lambda word: Fragment(f"[[ -n {word} && {word} != x ]]"), words(children)),
        st.builds(lambda word: Fragment(f"(( y = {word} + 1 ))"), st.sampled_from(("1", "$x", "x << 2", "$(( 2 ))"))),
        st.builds(lambda body: Fragment(f"eval {single_quoted(body.text)}"), children),
    )


def scripts(max_leaves: int = 8) -> st.SearchStrategy[Fragment]:
    """Whole scripts: simple commands in every compound form, nested."""
    base = st.one_of(simple_commands(), interpreter_code_strings().map(Fragment))
    return st.recursive(base, _compound, max_leaves=max_leaves)


def script_texts(max_leaves: int = 8) -> st.SearchStrategy[str]:
    return scripts(max_leaves).map(lambda fragment: fragment.text)


# -- scripts in which every command runs (for the bash oracle) ---------------------------------

PLAIN_PROGRAMS = ("git", "make", "ls", "grep", "jq", "tar", "docker", "kubectl", "cargo", "npm")
RISKY_PROGRAMS = ("curl -s", "wget -qO-", "base64 -d", "python3 -c")
# `@T@` becomes a unique argument when rendered.
_TOKEN = "@T@"
_RISKY_FORMS = (
    "$(R)", "FOO=1 $(R)", "command $(R)", "${unset_variable:-$(R)}",
    "echo $(R)", "x=$(R)", "[[ -n $(R) ]]", "for i in $(R); do :; done", "case $(R) in *) :;; esac", ': "$(R)"',
    "R | sh", 'eval "$(R)"', "p=$(R); $p", 'bash <<< "$(R)"', "echo `R`", "`R`",
)  # fmt: skip


def _reachable_compound(children: st.SearchStrategy[Fragment]) -> st.SearchStrategy[Fragment]:
    return st.one_of(
        st.builds(sequence, children, children),
        st.builds(joined, children, st.sampled_from(("&&", "|")), children),
        st.builds(subshell, children),
        st.builds(group, children),
        st.builds(lambda body: if_clause(Fragment("true"), body), children),
        st.builds(if_clause, children, children),
        st.builds(lambda body: for_loop("i", "1", body), children),
        st.builds(lambda body: case_clause("x", "x", body), children),
        # Redefining `deploy` inside `deploy` and calling it runs the inner body once: no recursion.
        # Grouped, so a pipeline stage defines and calls it in the same subshell.
        st.builds(lambda body: group(function_then_call("deploy", body)), children),
        st.builds(lambda body: Fragment(f"bash -c {single_quoted(body.text)}"), children),
        st.builds(lambda body: Fragment(f"eval {single_quoted(body.text)}"), children),
        st.builds(lambda body: Fragment(f'echo "{command_substitution(body)}"'), children),
        # A subscript is arithmetic: a stub's marker there is no expression and bash
        # would abort the line on it (a campaign found that), so its output is
        # discarded; the subscript's commands still run.
        st.builds(lambda body: Fragment(f'echo "${{arr[$( {group(body).text} >/dev/null)]}}"'), children),
        st.builds(
            lambda body: Fragment(f"cat <<EOF\n{command_substitution(body)}\nEOF", ends_with_heredoc=True),
            children.filter(lambda body: "<<" not in body.text),
        ),
        st.builds(lambda body: Fragment(f"time {subshell(body).text}"), children),
        st.builds(lambda body: Fragment(f"bash <(echo {single_quoted(body.text)})"), children),
    )


def reachable_scripts(max_leaves: int = 6) -> st.SearchStrategy[str]:
    """Scripts whose every command runs exactly once, each with a unique argument.

    Stubs exit 0, so `&&` and `if` always go on; there are no loops that
    repeat, no `||`, no `else`, and no background jobs.
    """
    plain = st.sampled_from(PLAIN_PROGRAMS).map(lambda name: Fragment(f"{name} {_TOKEN}"))
    risky = st.builds(
        lambda form, program: Fragment(form.replace("R", f"{program} {_TOKEN}")),
        st.sampled_from(_RISKY_FORMS),
        st.sampled_from(RISKY_PROGRAMS),
    )
    fragments = st.recursive(st.one_of(plain, risky), _reachable_compound, max_leaves=max_leaves)
    return fragments.map(lambda fragment: _number(fragment.text))


def _number(text: str) -> str:
    parts = text.split(_TOKEN)
    return parts[0] + "".join(f"t{index}{part}" for index, part in enumerate(parts[1:], start=1))
