"""Runners that take a command or code and run it later or elsewhere: the `at`/`batch`
job queue, GNU parallel, tmux sessions and entr (their code is audited by
audit/_analysis/_contexts/_runners.py). Wrappers that simply run their operands
(pkexec, run0, screen, faketime...) are declared in wrappers.py instead."""

from __future__ import annotations

from ._grammar import Syntax, flag, valued
from ._program import Program, Subcommand

AT = Program(
    ("at", "batch"),
    syntax=Syntax(),
    options=(
        valued("-q"), valued("-f"), valued("-t"), flag("-m"), flag("-M"), flag("-l"), flag("-r"), flag("-d"),
        flag("-c"), flag("-b"), flag("-v"), flag("-V"),
    ),
    operands=("TIME...",),
)  # fmt: skip
"""at/batch read the job's shell code from standard input, or from `-f FILE`; `-l`, `-r`/`-d`, `-c`
list, remove and print jobs instead."""

AT_QUERIES = ("-l", "-r", "-d", "-c", "-V")
"""at's options that queue nothing (the job list, removal, a job's text, the version)."""

# GNU parallel reads its options with Perl's Getopt::Long: unique prefixes of long options count,
# and its first operand (the command, or `:::`) ends them.
PARALLEL = Program(
    ("parallel",),
    syntax=Syntax(permute=False, abbreviations=True),
    options=(
        valued("-j", "-P", "--jobs", "--max-procs"), valued("-a", "--arg-file"), valued("-d", "--delimiter"),
        valued("-E", "--eof"), valued("-I"), valued("-n", "--max-args"), valued("-N"), valued("-L", "--max-lines"),
        valued("-s", "--max-chars"), valued("-S", "--sshlogin"), valued("--slf", "--sshloginfile"),
        valued("--joblog"), valued("--results", "--res"), valued("--tmpdir"), valued("--tagstring"),
        valued("-C", "--colsep"), valued("--block", "--block-size"), valued("--retries"), valued("--timeout"),
        valued("--delay"), valued("--memfree"), valued("--load"), valued("--nice"), valued("--halt"),
        valued("--env"), valued("--workdir", "--wd"), valued("--basefile", "--bf"), valued("--return"),
        valued("--transferfile", "--tf"), valued("--header"), valued("--recstart"), valued("--recend"),
        valued("--termseq"), valued("--limit"), valued("--ssh"), valued("--id"), valued("--sshdelay"),
        flag("--pipe", "--spreadstdin"), flag("--pipepart"), flag("-k", "--keep-order"), flag("-q", "--quote"),
        flag("-r", "--no-run-if-empty"), flag("-v", "--verbose"), flag("-t"), flag("--tag"),
        flag("--line-buffer", "--lb"), flag("-u", "--ungroup"), flag("--group"), flag("-0", "--null"),
        flag("--shuf"), flag("--xapply", "--link"), flag("--plus"), flag("--fg"), flag("--bg"),
        flag("--semaphore"), flag("-X"), flag("-m"), flag("--dry-run"), flag("--progress"), flag("--bar"),
        flag("--eta"), flag("--will-cite"), flag("--version"), flag("--help"),
    ),
)  # fmt: skip

PARALLEL_SOURCES = (":::", ":::+", "::::", "::::+")
"""The separators before parallel's input sources: arguments (`:::`) or files of arguments (`::::`)."""

_SESSION_OPTIONS = (
    flag("-A"), flag("-d"), flag("-D"), flag("-E"), flag("-P"), flag("-X"), valued("-c"), valued("-e"),
    valued("-f"), valued("-F"), valued("-n"), valued("-s"), valued("-t"), valued("-x"), valued("-y"),
)  # fmt: skip
_WINDOW_OPTIONS = (
    flag("-a"), flag("-b"), flag("-d"), flag("-k"), flag("-P"), flag("-S"), valued("-c"), valued("-e"),
    valued("-F"), valued("-n"), valued("-t"),
)  # fmt: skip
_SPLIT_OPTIONS = (
    flag("-b"), flag("-d"), flag("-f"), flag("-h"), flag("-I"), flag("-v"), flag("-P"), flag("-Z"), valued("-c"),
    valued("-e"), valued("-l"), valued("-t"), valued("-F"),
)  # fmt: skip
_POPUP_OPTIONS = (
    flag("-B"), flag("-C"), flag("-E"), flag("-k"), valued("-b"), valued("-c"), valued("-d"), valued("-e"),
    valued("-h"), valued("-s"), valued("-S"), valued("-t"), valued("-T"), valued("-w"), valued("-x"), valued("-y"),
)  # fmt: skip
_TMUX_COMMAND_SYNTAX = Syntax(permute=False)
"""tmux's commands read getopt-style options before their arguments (the shell command)."""

TMUX = Program(
    ("tmux",),
    syntax=Syntax(permute=False),
    options=(
        valued("-L"), valued("-S"), valued("-f"), valued("-c"), valued("-T"), flag("-2"), flag("-C"), flag("-D"),
        flag("-l"), flag("-N"), flag("-u"), flag("-v"), flag("-V"),
    ),
    subcommands=(
        Subcommand(("new-session", "new"), options=_SESSION_OPTIONS, syntax=_TMUX_COMMAND_SYNTAX),
        Subcommand(("new-window", "neww"), options=_WINDOW_OPTIONS, syntax=_TMUX_COMMAND_SYNTAX),
        Subcommand(("split-window", "splitw"), options=_SPLIT_OPTIONS, syntax=_TMUX_COMMAND_SYNTAX),
        Subcommand(("respawn-pane", "respawnp"), options=(flag("-k"), valued("-c"), valued("-e"), valued("-t")),
                   syntax=_TMUX_COMMAND_SYNTAX),
        Subcommand(("respawn-window", "respawnw"), options=(flag("-k"), valued("-c"), valued("-e"), valued("-t")),
                   syntax=_TMUX_COMMAND_SYNTAX),
        Subcommand(("run-shell", "run"), options=(flag("-b"), flag("-C"), valued("-c"), valued("-d"), valued("-t")),
                   syntax=_TMUX_COMMAND_SYNTAX),
        Subcommand(("pipe-pane", "pipep"), options=(flag("-I"), flag("-O"), flag("-o"), valued("-t")),
                   syntax=_TMUX_COMMAND_SYNTAX),
        Subcommand(("display-popup", "popup"), options=_POPUP_OPTIONS, syntax=_TMUX_COMMAND_SYNTAX),
        Subcommand(("send-keys", "send"), syntax=_TMUX_COMMAND_SYNTAX,
                   options=(flag("-F"), flag("-H"), flag("-K"), flag("-l"), flag("-M"), flag("-R"), flag("-X"),
                            valued("-N"), valued("-t"))),
    ),
)  # fmt: skip
"""The tmux commands that run a shell command (`new-session`, `split-window`, `run-shell`...) or type
keys into a pane (`send-keys`); `-c` before any command runs a shell command as a shell would."""

TMUX_SHELL_COMMANDS = frozenset({"new-session", "new-window", "split-window", "respawn-pane", "respawn-window",
                                 "run-shell", "pipe-pane", "display-popup"})  # fmt: skip
"""tmux commands whose arguments are a shell command."""

ENTR = Program(
    ("entr",),
    syntax=Syntax(permute=False),
    options=(flag("-a"), flag("-c"), flag("-d"), flag("-n"), flag("-p"), flag("-r"), flag("-s"), flag("-z")),
    operands=("UTILITY", "ARGUMENT..."),
)
"""entr runs its utility on every change; with `-s` its first operand is code for the shell."""

RUNNER_PROGRAMS: tuple[Program, ...] = (AT, PARALLEL, TMUX, ENTR)
