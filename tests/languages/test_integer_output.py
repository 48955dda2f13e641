"""prints_only_integers: a program whose output is integers by construction, and what is not."""

from __future__ import annotations

import pytest

from audit.languages import prints_only_integers


@pytest.mark.parametrize(
    "code",
    [
        "import sys; print(sys.version_info.minor)",
        "import sys\nprint(sys.version_info[0])",
        "import sys; print(sys.version_info.major * 100 + sys.version_info.minor)",
        "import sys; print(sys.hexversion)  # for the cache key",
        "print(-(3 // 2) % 7)",
        "import sys; print(sys.version_info.major); print(sys.version_info.minor)",
    ],
)
def test_integer_expressions_printed_alone_are_integers(code: str) -> None:
    assert prints_only_integers("python", code)


@pytest.mark.parametrize(
    "code",
    [
        'print("a[$(id)]")',  # a string: any text
        "import sys; print(sys.version_info.minor, end='x')",  # a keyword argument adds text
        "import sys; print(sys.version_info[3])",  # the release level, a string
        "import os; print(1)",  # a module the working directory can stand in for
        "import sys as s; print(s.version_info.minor)",
        "import sys; print(len(sys.argv))",  # a call: its argument may print first
        "print = str; print(1)",  # anything but imports and prints
        "print(9 ** 9 ** 9)",  # an integer, after hours
        "import sys",  # prints nothing: no version check at all
        "print(1",  # not Python
        "import sys; print(sys.version_info.minor)" + " " * 400,  # too long to be a version check
    ],
)
def test_anything_else_may_print_text(code: str) -> None:
    assert not prints_only_integers("python", code)


def test_other_languages_are_not_read() -> None:
    assert not prints_only_integers("javascript", "console.log(1)")
