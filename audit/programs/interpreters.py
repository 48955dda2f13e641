"""Interpreters: how each family of programs that run code (shells, python,
perl, node, awk...) takes its program: a code string, a script, a module, or
standard input.

A policy adds families, names or options with `[interpreters.FAMILY]` tables
(same keys as the fields below; see default_policy.toml). The analysis reads
an interpreter's argv with `audit/_analysis/_contexts/_interpreters.py`.
"""

from __future__ import annotations

import functools

from .._caches import DECLARED_GRAMMARS
from .._named_tuple import NamedTuple
from ._grammar import Grammar, Option, Syntax, Takes
from ._program import Program, Writes

_INTERPRETER_SYNTAX = Syntax(permute=False, signs="-+")
"""Interpreters stop reading options at their script or code; `+o`/`+x` are options too."""


class InterpreterSpec(NamedTuple):
    """How one interpreter family receives its program.

    `names` may carry a version suffix when `versioned` (python3.12,
    perl5.36). `value_options` consume the next word (or the rest of their
    word); `code_options` take the code string (for a shell, `-c` is a flag and
    the first operand is the code); `module_options` run a named module
    (neither code nor stdin); `script_options` name the script file (awk -f);
    `stdin_options` read code from stdin explicitly; `exit_options` print
    information and exit (`--version`, `--help`): no program runs at all; `assignment_options` set one
    of the program's variables before it starts from their `NAME=VALUE` value (awk -v); `attached_value_options`
    take only the rest of their word (perl -I/lib), `digit_options` only the
    digits that follow (perl -l0). `code_operand`: the first operand is the
    code (awk). Without code, module or script, an interpreter reads its
    program from stdin unless `reads_stdin_code` is false. `compiles`: a compiler, whose program runs
    later (`./a.out`), not when it reads its source: a downloaded source it compiles is not run yet.
    """

    family: str
    names: frozenset[str]
    language: str
    versioned: bool = False
    code_options: frozenset[str] = frozenset()
    value_options: frozenset[str] = frozenset()
    attached_value_options: frozenset[str] = frozenset()
    digit_options: frozenset[str] = frozenset()
    module_options: frozenset[str] = frozenset()
    stdin_options: frozenset[str] = frozenset()
    script_options: frozenset[str] = frozenset()
    exit_options: frozenset[str] = frozenset()
    assignment_options: frozenset[str] = frozenset()
    code_operand: bool = False
    reads_stdin_code: bool = True
    compiles: bool = False
    code_subcommands: frozenset[str] = frozenset()
    script_subcommands: frozenset[str] = frozenset()

    @property
    def grammar(self) -> Grammar:
        """Its options as the lexer reads them, built when first read."""
        return _grammar(self)

    @property
    def is_shell(self) -> bool:
        return self.language == "shell"

    def policy_table(self) -> dict[str, object]:
        """This family as a policy's `[interpreters.FAMILY]` table would declare it
        (names and language, then settings that differ from the defaults)."""
        table: dict[str, object] = {"names": sorted(self.names), "language": self.language}
        if self.versioned:
            table["versioned"] = True
        for key in (*OPTION_KEYS, *SUBCOMMAND_KEYS):
            spellings: frozenset[str] = getattr(self, key)
            if spellings:
                table[key] = sorted(spellings)
        if self.code_operand:
            table["code_operand"] = True
        if not self.reads_stdin_code:
            table["reads_stdin_code"] = False
        if self.compiles:
            table["compiles"] = True
        return table


# By value: equal declarations (the built-in one, and a policy's that repeats it) share one.
@functools.lru_cache(maxsize=DECLARED_GRAMMARS)
def _grammar(spec: InterpreterSpec) -> Grammar:
    """Options by how they take a value; a spelling in several sets takes the first that applies here."""
    takes: dict[str, Takes] = {}
    ordered = (
        (spec.attached_value_options, Takes.ATTACHED),
        (spec.digit_options, Takes.DIGITS),
        (spec.code_options, Takes.NOTHING if spec.is_shell else Takes.VALUE),
        (spec.module_options, Takes.VALUE),
        (spec.script_options, Takes.VALUE),
        (spec.value_options, Takes.VALUE),
        (spec.assignment_options, Takes.VALUE),
        (spec.stdin_options, Takes.NOTHING),
        (spec.exit_options, Takes.NOTHING),
    )
    for spellings, how in ordered:
        for spelling in sorted(spellings):
            takes.setdefault(spelling, how)
    options = [Option((spelling,), how) for spelling, how in takes.items()]
    return Grammar(options, _INTERPRETER_SYNTAX, where=f"interpreter {spec.family}")


OPTION_KEYS = (
    "code_options",
    "value_options",
    "attached_value_options",
    "digit_options",
    "module_options",
    "stdin_options",
    "script_options",
    "exit_options",
    "assignment_options",
)
"""The fields that list option spellings (a policy adds to them)."""
SUBCOMMAND_KEYS = ("code_subcommands", "script_subcommands")
"""The fields that list subcommands (a policy adds to them)."""
POLICY_KEYS = frozenset(
    {"names", "language", "versioned", *OPTION_KEYS, *SUBCOMMAND_KEYS, "code_operand", "reads_stdin_code", "compiles"}
)
"""The keys of a policy's `[interpreters.FAMILY]` table."""


def interpreter(
    family: str,
    names: tuple[str, ...],
    language: str,
    *,
    versioned: bool = True,
    code: tuple[str, ...] = (),
    value: tuple[str, ...] = (),
    attached: tuple[str, ...] = (),
    digits: tuple[str, ...] = (),
    module: tuple[str, ...] = (),
    stdin: tuple[str, ...] = (),
    script: tuple[str, ...] = (),
    exits: tuple[str, ...] = (),
    assign: tuple[str, ...] = (),
    code_operand: bool = False,
    reads_stdin_code: bool = True,
    compiles: bool = False,
    code_subcommands: tuple[str, ...] = (),
    script_subcommands: tuple[str, ...] = (),
) -> InterpreterSpec:
    return InterpreterSpec(
        family=family,
        names=frozenset(names),
        language=language,
        versioned=versioned,
        code_options=frozenset(code),
        value_options=frozenset(value),
        attached_value_options=frozenset(attached),
        digit_options=frozenset(digits),
        module_options=frozenset(module),
        stdin_options=frozenset(stdin),
        script_options=frozenset(script),
        exit_options=frozenset(exits),
        assignment_options=frozenset(assign),
        code_operand=code_operand,
        reads_stdin_code=reads_stdin_code,
        compiles=compiles,
        code_subcommands=frozenset(code_subcommands),
        script_subcommands=frozenset(script_subcommands),
    )


INTERPRETERS: tuple[InterpreterSpec, ...] = (
    interpreter(
        "shell",
        ("sh", "bash", "dash", "ksh", "mksh", "zsh", "ash", "yash", "posh", "fish", "csh", "tcsh", "rbash", "ksh93",
         "pdksh"),
        "shell",
        code=("-c", "--command"),
        value=("-o", "+o", "-O", "+O", "--rcfile", "--init-file"),
        stdin=("-s",),
        # Only the long spellings: a shell's -h and -v are set options.
        exits=("--version", "--help"),
    ),
    interpreter(
        "python",
        ("python", "python2", "python3", "pypy", "pypy3", "jython", "ipython"),
        "python",
        code=("-c",),
        value=("-W", "-X", "-Q"),
        module=("-m",),
        exits=("-V", "--version", "-h", "--help", "-?"),
    ),
    interpreter(
        "perl", ("perl",), "perl",
        code=("-e", "-E"), value=("-I",), attached=("-M", "-m", "-x", "-C", "-i", "-d", "-D"), digits=("-l", "-0"),
        exits=("-v", "-h"),
    ),
    interpreter(
        "ruby", ("ruby", "jruby", "truffleruby", "irb"), "ruby",
        code=("-e",),
        value=("-I", "-r", "-C", "-E", "--encoding", "-F", "-x", "-i", "-K", "-T", "-W"),
        attached=("-x", "-i", "-K", "-T", "-W"),
        digits=("-0",),
        # Not -v: it prints the version and goes on as -w, reading a program.
        exits=("--version", "-h", "--help"),
    ),
    interpreter(
        "node", ("node", "nodejs", "bun"), "javascript",
        code=("-e", "--eval", "-p", "--print"),
        value=("-r", "--require", "--import", "--loader", "--experimental-loader", "-C", "--conditions", "--title",
               "--input-type"),
        exits=("-v", "--version", "-h", "--help"),
    ),
    # deno takes its program after a subcommand: `deno eval [-p] CODE`, `deno run [flags] FILE|-`; its permission
    # flags glue their values (`--allow-read=/tmp`). Another subcommand (test, fmt, task) reads as a script operand.
    interpreter(
        "deno", ("deno",), "javascript", versioned=False,
        value=("--ext", "--import-map", "-c", "--config", "--location", "--seed", "--cert"),
        exits=("-V", "--version", "-h", "--help"),
        code_subcommands=("eval",),
        script_subcommands=("run",),
    ),
    # `php -S ADDR` runs the built-in web server: like a module, neither code nor standard input.
    interpreter(
        "php", ("php", "php-cli"), "php",
        code=("-r",), value=("-c", "-d", "-z", "-t"), module=("-S",),
        # -i prints the configuration, -m the modules.
        exits=("-v", "--version", "-h", "--help", "-i", "--info", "-m", "--modules"),
    ),
    # lua -v with no script or -e prints its version and reads nothing.
    interpreter("lua", ("lua", "luajit"), "lua", code=("-e",), value=("-l",), exits=("-v",)),
    interpreter("tcl", ("tclsh", "wish", "expect"), "tcl", code=("-c",)),
    # PowerShell's and cmd's parameters are not POSIX options (any case, any unique prefix, `/c`): the code they
    # run is found by audit/_analysis/_contexts/_windows_shells.py; these spellings are for reading them as programs.
    interpreter(
        "powershell", ("pwsh", "powershell"), "powershell", versioned=False,
        code=("-c", "-command", "-Command", "-EncodedCommand", "-e", "-ec"),
        value=("-File", "-f", "-ExecutionPolicy", "-ep", "-WorkingDirectory", "-wd"),
    ),
    interpreter("cmd", ("cmd",), "cmd", versioned=False, reads_stdin_code=False),
    interpreter("applescript", ("osascript",), "applescript", versioned=False, code=("-e",), value=("-l", "-s")),
    interpreter("r", ("Rscript",), "r", versioned=False, code=("-e",)),
    interpreter(
        "julia", ("julia",), "julia", versioned=False,
        code=("-e", "--eval", "-E", "--print"), value=("-L", "--load", "-J", "--sysimage", "-t", "--threads", "-p", "--procs"),
        exits=("-v", "--version", "-h", "--help"),
    ),
    # awk's program is its first operand unless -f names a file.
    interpreter(
        "awk", ("awk", "gawk", "mawk", "nawk", "busybox-awk"), "awk", versioned=False,
        code_operand=True,
        # gawk: -e/--source give program text, -i/--include load a library (`-i inplace`).
        code=("-e", "--source"),
        script=("-f", "--file"),
        value=("-F", "--field-separator", "-i", "--include"),
        exits=("--version", "-V", "--help"),
        assign=("-v", "--assign"),
        reads_stdin_code=False,
    ),
    # Compilers: the program they build runs later (`./a.out`), so the source's shell-outs and deletes
    # are judged where the command shows it (`gcc -x c - <<< CODE`, a file written then compiled).
    # Their source files are operands, standard input is `-`.
    interpreter(
        "c", ("gcc", "g++", "cc", "c++", "clang", "clang++", "tcc"), "c",
        value=("-o", "-x", "-I", "-L", "-D", "-U", "-include", "-isystem", "-iquote", "-MF", "-MT", "-MQ", "-T",
               "-Xlinker", "-Xpreprocessor", "-Xassembler"),
        exits=("--version", "--help"),
        reads_stdin_code=False,
        compiles=True,
    ),
    interpreter(
        "go", ("go",), "go", versioned=False,
        # `go run [build flags] FILE.go...`; the other subcommands build or test packages named by path.
        script_subcommands=("run",),
        value=("-C", "-exec", "-tags", "-ldflags", "-gcflags", "-asmflags", "-o", "-p", "-mod", "-modfile",
               "-overlay", "-pgo", "-toolexec"),
        reads_stdin_code=False,
    ),
    interpreter(
        "rust", ("rustc",), "rust",
        value=("-o", "--edition", "--crate-type", "--crate-name", "-C", "--codegen", "-L", "-l", "--cfg", "--target",
               "--out-dir", "--emit", "-A", "-W", "-D", "-F"),
        exits=("--version", "-V", "--help", "-h"),
        reads_stdin_code=False,
        compiles=True,
    ),
    interpreter(
        "swift", ("swift",), "swift", versioned=False,
        value=("-I", "-L", "-F", "-module-name", "-sdk", "-target", "-Xcc", "-Xlinker", "-Xswiftc", "-D"),
        exits=("--version", "-version", "--help", "-help"),
        reads_stdin_code=False,
    ),
)  # fmt: skip
"""The interpreter families every policy knows (a policy may add names, options and families)."""

MODULE_PROGRAMS: dict[str, dict[str, str]] = {
    "python": {
        "pip": "pip", "twine": "twine", "pipx": "pipx", "poetry": "poetry", "pdm": "pdm", "hatch": "hatch",
        "uv": "uv", "conda": "conda", "awscli": "aws", "django": "django-admin", "pytest": "pytest",
        "mkdocs": "mkdocs", "ansible": "ansible", "jupyter": "jupyter", "celery": "celery", "flask": "flask",
    },
}  # fmt: skip
"""Modules an interpreter runs as the program of the same command line (`python3 -m pip install x` is
`pip install x`), by family: the module's own arguments are that program's, so every rule on the
program reads them."""


def interpreter_program(family: str, names: tuple[str, ...], writes: Writes | None = None) -> Program:
    """An interpreter read as an ordinary program (a writer with `writes`), with the options its
    interpreter declaration gives it: `python3 manage.py flush`, `perl -i -pe ... FILE`."""
    grammar = next(spec.grammar for spec in INTERPRETERS if spec.family == family)
    return Program(names, syntax=grammar.syntax, options=grammar.options, operands=("SCRIPT", "ARG..."), writes=writes)
