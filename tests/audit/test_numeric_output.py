"""Commands whose output is numbers by construction carry no code (EX010's line): curl printing
only numeric --write-out variables, and what still prints text the server chooses."""

from __future__ import annotations

import pytest

from audit._model import Span
from audit.programs import Arg, curl_prints_only_numbers


def argv(*values: str) -> tuple[Arg, ...]:
    return tuple(Arg((value,), value, Span(0, 0)) for value in values)


@pytest.mark.parametrize(
    "words",
    [
        ("-s", "-o", "/dev/null", "-w", "%{http_code}", "http://localhost:3000"),
        ("-so", "/dev/null", "-w", "%{http_code}\\n", "localhost:8080/health"),
        ("-fsSL", "--output=/dev/null", "--write-out", "%{http_code} %{time_total}", "https://example.com"),
        ("-I", "-m", "5", "-o", "/dev/null", "-w", "%{response_code}", "https://example.com"),
    ],
)
def test_curl_printing_only_numeric_write_out_variables(words: tuple[str, ...]) -> None:
    assert curl_prints_only_numbers(argv(*words))


@pytest.mark.parametrize(
    ("words", "why"),
    [
        (("-s", "-w", "%{http_code}", "u"), "no -o: the body is printed"),
        (("-s", "-o", "/dev/stdout", "-w", "%{http_code}", "u"), "the body is sent to standard output"),
        (("-s", "-o", "/dev/null", "-w", "%{http_code}", "u", "v"), "-o covers the first URL only"),
        (("-s", "-o", "/dev/null", "-w", "%{http_code}", "u/[1-2]"), "a URL glob is several transfers"),
        (("-s", "-o", "/dev/null", "-w", "%{content_type}", "u"), "text the server chooses"),
        (("-s", "-o", "/dev/null", "-w", "a[$(id)]%{http_code}", "u"), "literal text in the format"),
        (("-s", "-o", "/dev/null", "-w", "@format.txt", "u"), "a format read from a file"),
        (("-s", "-o", "/dev/null", "-D", "-", "-w", "%{http_code}", "u"), "the headers are printed"),
        (("-s", "-o", "/dev/null", "--trace", "-", "-w", "%{http_code}", "u"), "a trace on standard output"),
        (("-K", "more.cfg", "-o", "/dev/null", "-w", "%{http_code}", "u"), "options read from a file"),
        (("-s", "-o", "/dev/null", "u"), "no write-out: nothing said about the output"),
    ],
)
def test_curl_printing_anything_else(words: tuple[str, ...], why: str) -> None:
    assert not curl_prints_only_numbers(argv(*words)), why
