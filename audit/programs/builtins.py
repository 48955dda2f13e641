"""Bash builtins whose arguments the analysis reads: `read` and `mapfile`
(which variables they assign); and those the system.controls pack reads:
`history`, `unset` and `set` (the shell's history turned off)."""

from __future__ import annotations

from ._grammar import POSIX, Syntax, flag, valued
from ._program import Program

READ = Program(
    ("read",),
    syntax=POSIX,
    options=(
        valued("-a"), valued("-d"), valued("-i"), valued("-n"), valued("-N"), valued("-p"), valued("-t"),
        valued("-u"), flag("-e"), flag("-r"), flag("-s"),
    ),
    operands=("NAME...",),
)  # fmt: skip
"""`read [-a ARRAY] [NAME...]`: the names it assigns (REPLY without any)."""

MAPFILE = Program(
    ("mapfile", "readarray"),
    syntax=POSIX,
    options=(
        valued("-d"),
        valued("-n"),
        valued("-O"),
        valued("-s"),
        valued("-u"),
        valued("-C"),
        valued("-c"),
        flag("-t"),
    ),
    operands=("ARRAY",),
)
"""`mapfile [ARRAY]`: the array it fills (MAPFILE without one)."""

# `-a`, `-n`, `-r` and `-w` take an optional file name: declared as flags, it is an operand.
HISTORY = Program(
    ("history",),
    syntax=POSIX,
    options=(flag("-c"), valued("-d"), flag("-a"), flag("-n"), flag("-r"), flag("-w"), flag("-p"), flag("-s")),
    operands=("FILE",),
)

UNSET = Program(("unset",), syntax=POSIX, options=(flag("-f"), flag("-v"), flag("-n")), operands=("NAME...",))

# `set +o NAME` turns a shell option off, `-o NAME` on; `--` ends the options and sets the arguments.
SET = Program(
    ("set",),
    syntax=Syntax(permute=False, signs="-+"),
    options=(valued("-o"), valued("+o")),
    operands=("ARGUMENT...",),
)

BUILTIN_PROGRAMS: tuple[Program, ...] = (READ, MAPFILE, HISTORY, UNSET, SET)
