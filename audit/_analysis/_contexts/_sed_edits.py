"""What `sed -i` puts in a file that runs later or that a tool trusts, when the file's other lines
are not known: the lines its script adds (`a`, `i`, `c`, a whole line replaced), read alone in a
file read line by line; and in a package manager's settings file, the package index a
substitution rewrites (`sed -i 's#pypi.org#mirror.example.net#' ~/.pip/pip.conf`): the
substitutions are applied to the index the tool uses by default, and a different result is the
index the file now names, judged as the setting that writes it."""

from __future__ import annotations

from ..._model import Span
from ..._named_tuple import NamedTuple
from ..._syntax import Origin
from ...programs import Arg, read_command, sed_effects, sed_scripts, substituted
from .._state import WrittenScript
from .._subjects import Autorun, AutorunFormat

# Files read line by line, where a line `sed -i` adds is read alone; in a program or a JSON
# document its meaning depends on the lines around it (an indented line of setup.py).
_LINE_FORMATS = frozenset(
    {
        AutorunFormat.SCRIPT,
        AutorunFormat.CRONTAB,
        AutorunFormat.UNIT,
        AutorunFormat.SSH_CONFIG,
        AutorunFormat.GIT_CONFIG,
        AutorunFormat.NODE_CONFIG,
        AutorunFormat.PIP_CONFIG,
        AutorunFormat.VIM_SCRIPT,
        AutorunFormat.EMACS_LISP,
    }
)
# The package index each settings file names when it names the default one, by file name.
_PIP_DEFAULT = "[global]\nindex-url = https://pypi.org/simple\n"
_NPM_DEFAULT = "registry=https://registry.npmjs.org/\n"
_DEFAULT_INDEX = {"pip.conf": _PIP_DEFAULT, "pip.ini": _PIP_DEFAULT, ".npmrc": _NPM_DEFAULT, "npmrc": _NPM_DEFAULT}


class SedEdit(NamedTuple):
    """The lines a `sed -i` command adds, and its substitutions, from the script words at `span`."""

    added: WrittenScript | None
    scripts: tuple[str, ...]
    extended: bool
    span: Span


def sed_edit(name: str | None, args: tuple[Arg, ...]) -> SedEdit | None:
    """What `sed -i` does to the files it edits; None for any other command, or no script known."""
    if name != "sed":
        return None
    reading = read_command(name, args)
    if not reading.has("--in-place"):
        return None
    words = sed_scripts(reading)
    scripts = tuple(word.value for word in words if word.value is not None)
    if not scripts:
        return None
    span = Span(words[0].span.start, words[-1].span.end)
    added = [text for script in scripts for text in sed_effects(script).added]
    written = WrittenScript("\n".join(added) + "\n", Origin.derived_from(span), span) if added else None
    return SedEdit(written, scripts, reading.has("--regexp-extended"), span)


def edited_text(edit: SedEdit, autorun: Autorun) -> WrittenScript | None:
    """The text of `edit` to audit in a file of `autorun`'s kind: the index it rewrites in a package
    manager's settings, else the lines it adds to a file read line by line."""
    default = _DEFAULT_INDEX.get(autorun.entry.rsplit("/", 1)[-1])
    if default is not None:
        substitutions = tuple(each for script in edit.scripts for each in sed_effects(script).substitutions)
        text = substituted(default, substitutions, edit.extended)
        if text is not None and text != default:
            return WrittenScript(text, Origin.derived_from(edit.span), edit.span)
    return edit.added if autorun.format in _LINE_FORMATS else None
