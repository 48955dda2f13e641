"""mktemp's output: where the name it prints lies, its random part kept as the template's X's."""

from __future__ import annotations

import pytest

from audit._model import Span
from audit.programs import Arg
from audit.programs.temporary import temporary_name


def _args(*words: str | None) -> tuple[Arg, ...]:
    return tuple(Arg((word,) if word is not None else (), word or "$x", Span(0, 0)) for word in words)


@pytest.mark.parametrize(
    ("words", "tmpdir", "printed"),
    [
        ((), "/tmp", "/tmp/tmp.XXXXXXXXXX"),
        (("-d",), "/tmp", "/tmp/tmp.XXXXXXXXXX"),
        (("-d",), "/scratch/", "/scratch/tmp.XXXXXXXXXX"),
        (("-d", "-p", "/var/tmp"), "/tmp", "/var/tmp/tmp.XXXXXXXXXX"),
        (("--tmpdir=/srv/t", "job.XXXX"), "/tmp", "/srv/t/job.XXXX"),
        (("--tmpdir", "job.XXXX"), "/scratch", "/scratch/job.XXXX"),
        (("-d", "-t", "build.XXXXXX"), "/tmp", "/tmp/build.XXXXXX"),
        (("-t", "build"), "/tmp", "/tmp/build.XXXXXXXXXX"),
        (("--suffix=.json", "-p", "/tmp", "out.XXXX"), None, "/tmp/out.XXXX.json"),
        (("/var/tmp/run.XXXXXX",), "/tmp", "/var/tmp/run.XXXXXX"),
        (("-d", "build.XXXX"), "/tmp", "build.XXXX"),
    ],
)
def test_mktemp_prints_a_new_name_in_the_directory_its_options_and_template_say(
    words: tuple[str, ...], tmpdir: str | None, printed: str
) -> None:
    assert temporary_name(_args(*words), tmpdir) == printed


@pytest.mark.parametrize(
    ("words", "tmpdir"),
    [
        (("-d",), None),
        (("-d", None), "/tmp"),
        (("-p", None), "/tmp"),
        (("a.XXX", "b.XXX"), "/tmp"),
    ],
)
def test_mktemp_output_is_unknown_when_a_word_or_tmpdir_is(words: tuple[str | None, ...], tmpdir: str | None) -> None:
    assert temporary_name(_args(*words), tmpdir) is None
