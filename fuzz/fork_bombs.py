"""Fork bombs in many spellings, and their bounded neighbours (issue 19 class 7).

A bomb starts copies of itself without bound: a function that calls itself
(by name, through `$FUNCNAME` or `${FUNCNAME[0]}`, or through a second
function) in the background or through a pipe; an endless loop that starts
shells in the background (`sh`, `bash`, `$0`, the running shell); xargs -P0
fed by an endless input. A neighbour looks alike and ends: a function that
does not call itself, a recursion bounded by its argument and run in the
foreground, a loop over a finite list. Every body runs `git b` so that the
bash oracle can count what grows; the oracle confirms which is which
(`BashRun.cut_short`: the run had to be stopped).
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st

from .bash_grammar import single_quoted

# The stub every body runs once per copy: how the oracle sees growth.
MARK = "git b"
FUNCTION_NAMES = ("f", "bomb", ":", "_x", "a1")
SHELLS = ("sh", "bash", "$0", '"$0"')
LOOP_HEADERS = ("while :", "while true", "until false", "for ((;;))", "while [ 1 ]")
ENDLESS_INPUTS = ("yes", "seq inf")


@dataclass(frozen=True, slots=True)
class Script:
    text: str
    is_bomb: bool


def _self_references(name: str) -> tuple[str, ...]:
    """How a function names itself: its name, or the name of the function running."""
    return (name, "$FUNCNAME", '"$FUNCNAME"', "${FUNCNAME[0]}", '"${FUNCNAME[0]}"')


# A call of the function in the background or through a pipe: `S` is the function itself.
_SPAWNS = ("S | S &", "S & S", "S & S &", "S | S")
# `{body}` ends with its own `;` or `&`.
_DEFINITIONS = ("{name}() {{ {body} }}", "function {name} {{ {body} }}", "function {name}() {{ {body} }}")


@st.composite
def _recursive_function(draw: st.DrawFn) -> Script:
    name = draw(st.sampled_from(FUNCTION_NAMES))
    myself = draw(st.sampled_from(_self_references(name)))
    spawn = draw(st.sampled_from(_SPAWNS)).replace("S", myself)
    body = f"{MARK}; {spawn}" + ("" if spawn.endswith("&") else ";")
    definition = draw(st.sampled_from(_DEFINITIONS)).format(name=name, body=body)
    return Script(f"{definition}; {name}", is_bomb=True)


@st.composite
def _mutual_recursion(draw: st.DrawFn) -> Script:
    first, second = draw(st.sampled_from((("a", "b"), ("ping", "pong"), ("_p", "_q"))))
    return Script(f"{first}() {{ {MARK}; {second} & }}; {second}() {{ {first} & {first}; }}; {first}", is_bomb=True)


@st.composite
def _spawning_loop(draw: st.DrawFn) -> Script:
    header = draw(st.sampled_from(LOOP_HEADERS))
    shell = draw(st.sampled_from(SHELLS))
    return Script(f"{header}; do {shell} -c {single_quoted(MARK)} & done", is_bomb=True)


@st.composite
def _endless_xargs(draw: st.DrawFn) -> Script:
    source = draw(st.sampled_from(ENDLESS_INPUTS))
    shell = draw(st.sampled_from(("sh", "bash")))
    parallelism = draw(st.sampled_from(("-P0", "-P 0", "--max-procs=0")))
    return Script(f"{source} | xargs {parallelism} -n1 {shell} -c {single_quoted(MARK)}", is_bomb=True)


_NEIGHBOURS = (
    "{name}() {{ {mark}; }}; {name}",
    "{name}() {{ {mark} & }}; {name}; wait",
    "{name}() {{ {mark} | {mark}; }}; {name}",
    "{name}() {{ {mark}; }}; {name} & {name} & wait",
    '{name}() {{ echo "$FUNCNAME"; {mark}; }}; {name}',
    '{name}() {{ {mark}; [ "$1" -gt 0 ] && {name} $(( $1 - 1 )); }}; {name} 3',
    "for i in 1 2 3; do sh -c '{mark}' & done; wait",
    "seq 3 | xargs -P0 -n1 sh -c '{mark}'",
    "while read -r l; do bash -c '{mark}' & done <<< $'1\\n2'; wait",
)


@st.composite
def _neighbour(draw: st.DrawFn) -> Script:
    name = draw(st.sampled_from(FUNCTION_NAMES))
    template = draw(st.sampled_from(_NEIGHBOURS))
    return Script(template.format(mark=MARK, name=name), is_bomb=False)


def _wrapped(script: Script, wrapper: str) -> Script:
    if wrapper == "bash -c":
        return Script(f"bash -c {single_quoted(script.text)}", script.is_bomb)
    if wrapper == "eval":
        return Script(f"eval {single_quoted(script.text)}", script.is_bomb)
    return script


def fork_bomb_scripts() -> st.SearchStrategy[Script]:
    """Bombs and their bounded neighbours, as they are or run by `bash -c` or eval."""
    scripts = st.one_of(_recursive_function(), _mutual_recursion(), _spawning_loop(), _endless_xargs(), _neighbour())
    return st.builds(_wrapped, scripts, st.sampled_from(("", "bash -c", "eval")))
