"""Whether a command line only asks its program for help (`kubectl delete ns prod --help`).

A program that declares `HelpForms` prints its help and exits when one of its help options
is read as an option, wherever the options are read; this module says whether that is so for
a command line. An option word counts only where the program reads it as that option: not
as an option's value (`git commit -m --help`), not after `--` or after the operand that ends
the options of a program that stops there, and not right after an option the declaration does
not know, which might take it as its value (`git push -o --help`). A help word counts only
when it is the one word after the subcommands, global options aside (`aws s3 rm help`).
"""

from __future__ import annotations

from ._arg import Arg
from ._grammar import OptionUse
from ._program import Program, Reading, read


def asks_for_help(reading: Reading) -> bool:
    """Whether the command line only asks the program for its help text."""
    forms = reading.program.help_forms
    if forms is None:
        return False
    if forms.word and _help_word(reading, forms.word):
        return True
    return bool(forms.options) and _help_option(reading, forms.options)


def _help_word(reading: Reading, word: str) -> bool:
    operands = reading.operands
    if reading.end_of_options or len(operands) != 1 or operands[0].values != (word,):
        return False
    global_options = reading.program.options
    return all(use.option in global_options for use in reading.options)


def _help_option(reading: Reading, spellings: tuple[str, ...]) -> bool:
    if not any(_is_help(use, spellings) for use in reading.options):
        return False
    args = reading.args
    return any(
        len(arg.values) == 1 and arg.values[0] in spellings and _read_as_help(reading.program, args, index, spellings)
        for index, arg in enumerate(args)
    )


def _read_as_help(program: Program, args: tuple[Arg, ...], index: int, spellings: tuple[str, ...]) -> bool:
    """Whether the word at `index` is read as a help option by itself (the readings of the words
    before it, and through it, differ by that one option)."""
    before = read(program, args[:index])
    if before.end_of_options:
        return False
    through = read(program, args[: index + 1])
    if len(through.options) != len(before.options) + 1 or not _is_help(through.options[-1], spellings):
        return False
    return not (before.options and _may_take_next_word(before.options[-1]) and _is_option_word(before.args[-1].values))


def _is_help(use: OptionUse, spellings: tuple[str, ...]) -> bool:
    """An option use that is a help option: given with no value, and no other option that shares
    a spelling with one (`docker run -h` is `--hostname`)."""
    return use.value is None and use.spelling in spellings and all(name in spellings for name in use.option.spellings)


def _may_take_next_word(use: OptionUse) -> bool:
    """An option the declaration does not know, given no value: the program may take the next word as one."""
    return not use.declared and use.value is None


def _is_option_word(values: tuple[str, ...]) -> bool:
    return len(values) == 1 and len(values[0]) > 1 and values[0].startswith("-")
