"""Files written, then run: `echo 'rm -rf ~' > x.sh && bash x.sh`, a heredoc
saved with `cat > run.py <<EOF` and run with `python3 run.py`, `tee`, `printf`.

A file's content is known when the command that writes it prints known text:
`echo`/`printf` with literal words, or `cat`/`tee` copying a heredoc, a
here-string or an `echo` piped in. The walk remembers it by path
(`WalkState.written`), next to the files it downloaded, and audits it when the
same command string runs the file: as the interpreter's language (`bash F`,
`python3 F`, `source F`), or by its `#!` line (`./F`); `cp`, `mv` or
`install` of such a file gives its copy the same text. A write whose content
is not known (`cp` of another file, `sed -i`, a redirect of another command)
forgets what was known; the text `sed -i` adds (`a`, `i`, `c`, a
replacement) is still audited where the file runs later.

A file that runs by itself later (a git hook, a cron job, a systemd unit, an
autostart entry: the policy's `autorun_*` tables; a settings file whose values
a tool runs, `_settings_files`) is audited when it is written, as it will run;
content that downloads or decodes there, or a download saved there, is handed
to the rules (SY009). Files written into a directory that a later `git config
core.hooksPath DIR` (or `git -c core.hooksPath=DIR`) of the same string makes git's
hooks directory are audited there, when the setting names them.
"""

from __future__ import annotations

import json
from typing import cast

from ..._model import Span
from ..._syntax import Origin, ast
from ...programs import WRITERS, read_command, written_files
from .._resolve import output_redirects
from .._risks import NO_RISKS, PRODUCES_UNTRUSTED_DATA
from .._state import Frame, WrittenScript
from .._static_output import static_output
from .._subjects import (
    Arg,
    Autorun,
    AutorunFormat,
    ContextKind,
    DynamicPart,
    ExecContextSubject,
    Risk,
    Stdin,
    StdinKind,
)
from .._variables import Env
from ._call import Call, ContextWalk
from ._ci_pipelines import is_pipeline_file, pipeline_steps
from ._code import audit_code, code_text, inert, piped_code, piped_text, shebang_language, text_of_parts
from ._justfile import just_recipe_lines
from ._makefile import recipe_lines
from ._sed_edits import edited_text, sed_edit
from ._settings_files import SETTINGS_FORMATS, settings_code

WRITER_NAMES = frozenset(WRITERS)
"""The programs that write files they name (`cp`, `tee`, `dd`...), for lookups."""
_ECHO_OPTIONS = frozenset({"-n", "-e", "-E"})
_CRONTAB_SCHEDULE_FIELDS = 5
_SYSTEM_CRONTABS = ("/etc/crontab", "/etc/cron.d/*")
"""Crontabs with a user field between the schedule and the command."""


def record_writes(
    walk: ContextWalk,
    name: str | None,
    args: tuple[Arg, ...],
    redirects: tuple[ast.Redirect, ...],
    stdin: Stdin | None,
    frame: Frame,
    downloaded_to: list[Arg] | None,
) -> frozenset[Risk]:
    """Remember what the command `name ARGS` writes to files; audit what it writes where it runs later.

    `downloaded_to`: the command fetches or decodes, and these are the files its download goes to.
    """
    if downloaded_to is not None:
        for target in downloaded_to:
            walk.remember_written(target, None, False)
            autorun = walk.runs_later(target)
            if autorun is not None:
                what = "the download saved there"
                _runs_later(walk, target, autorun, frame, target.span, frozenset({Risk.FETCH}), what)
        return NO_RISKS
    if not redirects and name not in WRITER_NAMES:
        return NO_RISKS  # most commands write no file
    content = _printed(name, args, stdin, frame.env) or _copied(walk, name, args)
    # `sed -i` edits a file whose other lines are not known: what it puts there is audited, not remembered.
    edit = sed_edit(name, args) if content is None else None
    if content is None and edit is None and not walk.written_files:
        return NO_RISKS  # unknown content only makes the walk forget what it knew, and it knows nothing
    risks = NO_RISKS
    for target, append in _targets(name, args, redirects, frame.env):
        walk.remember_written(target, content, append)
        if content is None and edit is None:
            continue
        autorun = walk.runs_later(target) or _project_file(target)
        if autorun is None:
            continue
        written = edited_text(edit, autorun) if edit is not None else content
        if written is not None:
            risks = risks | _audit_later(walk, target, autorun, written, frame)
    return risks


# -- what is written, and where --------------------------------------------------------------


def _targets(
    name: str | None, args: tuple[Arg, ...], redirects: tuple[ast.Redirect, ...], env: Env
) -> list[tuple[Arg, bool]]:
    """The files the command writes its output to (redirects, tee's files), and whether it appends;
    then the other files it writes (content unknown)."""
    targets = [target for target in output_redirects(redirects, env) if not (target[0].value or "").startswith("/dev/")]
    if name in WRITER_NAMES:
        reading = read_command(name, args)
        append = name == "tee" and reading.has("--append")
        targets.extend((written, append) for written in written_files(reading))
    return targets


def _printed(name: str | None, args: tuple[Arg, ...], stdin: Stdin | None, env: Env) -> WrittenScript | None:
    """What the command prints, when that is known without running it (None: not known)."""
    if name == "echo" and not (args and args[0].value in _ECHO_OPTIONS):
        if not args:
            return None
        text, origin = code_text(args, env, inert)
        return WrittenScript(text + "\n", origin, Span(args[0].span.start, args[-1].span.end))
    if name in ("echo", "printf"):
        values = [arg.value for arg in args]
        if any(value is None for value in values) or not args:
            return None
        printed = static_output([name, *(value for value in values if value is not None)])
        span = Span(args[0].span.start, args[-1].span.end)
        return None if printed is None else WrittenScript(printed, Origin.derived_from(span), span)
    if name == "tee" or (name == "cat" and all(arg.value == "-" for arg in args)):
        return _stdin_text(stdin, env)
    return None


_COPIERS = frozenset({"cp", "mv", "install"})


def _copied(walk: ContextWalk, name: str | None, args: tuple[Arg, ...]) -> WrittenScript | None:
    """`cp FILE DEST` (or `mv`, `install`) of a file this command string wrote: DEST holds its text."""
    if name not in _COPIERS or not walk.written_files:
        return None
    reading = read_command(name, args)
    if len(reading.operands) != 2 or reading.has("--target-directory", "--directory"):
        return None
    source = reading.operands[0].value
    return walk.written_script(source) if source is not None else None


def _stdin_text(stdin: Stdin | None, env: Env) -> WrittenScript | None:
    """A heredoc, a here-string, or what `echo`/`printf` pipe in."""
    if stdin is None:
        return None
    if stdin.kind is StdinKind.HEREDOC or stdin.kind is StdinKind.HERESTRING:
        text, origin = text_of_parts(stdin.parts, stdin.span, env, inert)
        return WrittenScript(text + ("\n" if stdin.kind is StdinKind.HERESTRING else ""), origin, stdin.span)
    if stdin.kind is StdinKind.PIPE:
        printed = piped_text(stdin, env)
        if printed is not None:
            return WrittenScript(*printed, stdin.span)
    return None


def hooks_directory_code(walk: ContextWalk, directory: Arg, frame: Frame) -> frozenset[Risk]:
    """`git config core.hooksPath DIR` after this command string wrote files into DIR: git runs them
    as its hooks from now on, so they are audited as they will run, like a file written into
    `.git/hooks` (the autorun tables)."""
    risks = NO_RISKS
    for value in directory.values:
        for path, content in list(walk.written_files.items()):
            name = path.rpartition("/")[2]
            # Asked through the walk, the directory resolves as the writes did (the working directory).
            if walk.written_script(f"{value.rstrip('/')}/{name}") is content:
                target = Arg((path,), path, directory.span)
                risks = risks | _audit_later(
                    walk, target, Autorun(AutorunFormat.SCRIPT, "core.hooksPath"), content, frame
                )
    return risks


# -- auditing the content ----------------------------------------------------------------------


def _audit_later(
    walk: ContextWalk, target: Arg, autorun: Autorun, content: WrittenScript, frame: Frame
) -> frozenset[Risk]:
    """Code written where it runs later, audited now as it will run."""
    label = f"{target.display()}, run later"
    if autorun.format is AutorunFormat.OPAQUE:
        return NO_RISKS
    if autorun.format in SETTINGS_FORMATS:
        risks = settings_code(walk, target.display(), autorun, content, frame)
    elif autorun.format is AutorunFormat.SCRIPT or autorun.format in _LANGUAGE_FILES:
        language = _LANGUAGE_FILES.get(autorun.format) or shebang_language(walk, content.text)
        risks = audit_code(walk, label, content.text, content.origin, language, content.span, frame)
    elif autorun.format in _SHELL_LINE_FILES:
        # JSON escapes, make's and just's expansion, YAML's quoting: no offset maps into the source.
        origin = Origin.derived_from(content.span)
        if autorun.format is AutorunFormat.PACKAGE_SCRIPTS:
            shell = [(f"{label}: script `{name}`", script) for name, script in _package_scripts(content.text)]
        elif autorun.format is AutorunFormat.CI_PIPELINE:
            shell = [(f"{label} in CI: a step", step) for step in pipeline_steps(content.text)]
        else:
            shell = [(f"{label}: a recipe", line) for line in _RECIPE_FILES[autorun.format](content.text)]
        risks = NO_RISKS
        for where, code in shell:
            risks = risks | walk.nested_code(code, origin, where, content.span, frame)
    else:
        system = autorun.entry in _SYSTEM_CRONTABS
        commands = (
            _crontab_commands(content.text, system)
            if autorun.format is AutorunFormat.CRONTAB
            else _exec_lines(content.text)
        )
        risks = NO_RISKS
        for start, end in commands:
            code = content.text[start:end]
            risks = risks | walk.nested_code(code, content.origin.shifted(start), label, content.span, frame)
    fetched = risks & PRODUCES_UNTRUSTED_DATA
    # A ProxyCommand's job is to reach the network (`nc %h %p`): what it fetches is the connection.
    if fetched and autorun.format is not AutorunFormat.SSH_CONFIG:
        _runs_later(walk, target, autorun, frame, content.span, fetched, "the code written there")
    return risks


# Files written in a language their tool runs them as (a project's, an editor's startup file), and files
# of shell lines (recipes).
_LANGUAGE_FILES = {
    AutorunFormat.PYTHON: "python",
    AutorunFormat.RUBY: "ruby",
    AutorunFormat.JAVASCRIPT: "javascript",
    AutorunFormat.LUA: "lua",
}
_RECIPE_FILES = {AutorunFormat.MAKEFILE: recipe_lines, AutorunFormat.JUSTFILE: just_recipe_lines}
# Files whose entries are shell code a tool hands to a shell (package scripts, recipes, CI steps).
_SHELL_LINE_FILES = frozenset({AutorunFormat.PACKAGE_SCRIPTS, AutorunFormat.CI_PIPELINE, *_RECIPE_FILES})


# Files of a project that its tools run: written with known content, they are audited as they
# will run, like the policy's `autorun_*` files (program knowledge, not policy: npm reads
# package.json wherever it is, pytest every conftest.py, rake the Rakefile, just the justfile,
# webpack and vite their configuration, direnv the .envrc once allowed).
_PROJECT_FILES = {
    "package.json": AutorunFormat.PACKAGE_SCRIPTS,
    "Makefile": AutorunFormat.MAKEFILE,
    "makefile": AutorunFormat.MAKEFILE,
    "GNUmakefile": AutorunFormat.MAKEFILE,
    "conftest.py": AutorunFormat.PYTHON,
    "setup.py": AutorunFormat.PYTHON,
    "noxfile.py": AutorunFormat.PYTHON,
    "fabfile.py": AutorunFormat.PYTHON,
    "dodo.py": AutorunFormat.PYTHON,
    "SConstruct": AutorunFormat.PYTHON,
    "Rakefile": AutorunFormat.RUBY,
    "rakefile": AutorunFormat.RUBY,
    "Rakefile.rb": AutorunFormat.RUBY,
    "Gemfile": AutorunFormat.RUBY,
    "Vagrantfile": AutorunFormat.RUBY,
    ".envrc": AutorunFormat.SCRIPT,  # direnv sources it in every shell that enters the directory
    "justfile": AutorunFormat.JUSTFILE,
    "Justfile": AutorunFormat.JUSTFILE,
    ".justfile": AutorunFormat.JUSTFILE,
    **dict.fromkeys(
        (
            "gulpfile.js",
            "Gruntfile.js",
            "webpack.config.js",
            "vite.config.js",
            "vite.config.mjs",
            "rollup.config.js",
            "rollup.config.mjs",
            "jest.config.js",
            "vitest.config.js",
            "babel.config.js",
            "eslint.config.js",
            "eslint.config.mjs",
            ".eslintrc.js",
            "next.config.js",
            "next.config.mjs",
            "postcss.config.js",
            "tailwind.config.js",
            "nuxt.config.js",
            "svelte.config.js",
            "astro.config.mjs",
        ),
        AutorunFormat.JAVASCRIPT,
    ),
}


def _project_file(target: Arg) -> Autorun | None:
    value = target.values[0] if len(target.values) == 1 else None
    if value is None:
        return None
    name = value.rpartition("/")[2]
    found = _PROJECT_FILES.get(name)
    if found is None and is_pipeline_file(value):
        return Autorun(AutorunFormat.CI_PIPELINE, name)
    return Autorun(found, name) if found is not None else None


def _package_scripts(text: str) -> list[tuple[str, str]]:
    """The `scripts` of a package.json, by name (none when the text is not such JSON)."""
    try:
        manifest: object = json.loads(text)
    except ValueError:
        return []
    if not isinstance(manifest, dict):
        return []
    scripts = cast("dict[str, object]", manifest).get("scripts")
    if not isinstance(scripts, dict):
        return []
    entries = cast("dict[str, object]", scripts).items()
    return [(name, script) for name, script in entries if isinstance(script, str)]


def _runs_later(
    walk: ContextWalk, target: Arg, autorun: Autorun, frame: Frame, span: Span, risks: frozenset[Risk], what: str
) -> None:
    if not walk.reporting:
        return
    part = DynamicPart(span, what, risks, None, False)
    kind = ContextKind.RUNS_LATER
    subject = ExecContextSubject(kind, target.display(), autorun.format.value, target.span, frame.location, (part,))
    walk.emit(subject)


def _crontab_commands(text: str, system: bool) -> list[tuple[int, int]]:
    """Where each crontab line's command is: after five schedule fields (or an `@reboot`-style one)
    and, in a system crontab, the user; comments and `NAME=value` lines run nothing."""
    commands: list[tuple[int, int]] = []
    for start, line in _lines(text):
        stripped = line.lstrip()
        if not stripped or stripped.startswith("#") or _is_setting(stripped):
            continue
        skip = (1 if stripped.startswith("@") else _CRONTAB_SCHEDULE_FIELDS) + (1 if system else 0)
        offset = _after_fields(line, skip)
        if offset is not None:
            commands.append((start + offset, start + len(line)))
    return commands


def _exec_lines(text: str) -> list[tuple[int, int]]:
    """Where each `Exec...=` command of a systemd unit or desktop entry is (after systemd's `-@:+!` prefixes)."""
    commands: list[tuple[int, int]] = []
    for start, line in _lines(text):
        key, equals, value = line.partition("=")
        if not equals or not key.strip().startswith("Exec"):
            continue
        offset = len(key) + 1
        while offset < len(line) and line[offset] in " -@:+!":
            offset += 1
        if value.strip():
            commands.append((start + offset, start + len(line)))
    return commands


def _lines(text: str) -> list[tuple[int, str]]:
    lines: list[tuple[int, str]] = []
    start = 0
    for line in text.split("\n"):
        lines.append((start, line))
        start += len(line) + 1
    return lines


def _is_setting(line: str) -> bool:
    name, equals, _ = line.partition("=")
    return bool(equals) and name.strip().replace("_", "a").isalnum()


def _after_fields(line: str, count: int) -> int | None:
    """The offset in `line` after `count` blank-separated fields and the blanks after them."""
    index = 0
    for _ in range(count):
        while index < len(line) and line[index] in " \t":
            index += 1
        if index >= len(line):
            return None
        while index < len(line) and line[index] not in " \t":
            index += 1
    while index < len(line) and line[index] in " \t":
        index += 1
    return index if index < len(line) else None


def crontab_code(call: Call, walk: ContextWalk) -> frozenset[Risk]:
    """`crontab FILE` with a file written earlier, `crontab -` with a known document: the jobs it installs."""
    reading = read_command(call.name, call.args)
    if reading.has("-l", "-r", "-e"):
        return NO_RISKS
    operand = reading.operands[0] if reading.operands else None
    if operand is None or operand.value == "-":
        content = _stdin_text(call.stdin, call.frame.env)
        stdin = call.stdin
        if content is None and stdin is not None and stdin.kind is StdinKind.PIPE:
            content = _added_jobs(stdin, call.frame.env)
            _crontab_from_pipe(call, stdin, walk)
    else:
        content = walk.written_script(operand.value) if operand.value is not None else None
    if content is None:
        return NO_RISKS
    installed = operand if operand is not None and operand.value != "-" else None
    target = installed or Arg(("the user's crontab",), call.name, call.span)
    return _audit_later(walk, target, Autorun(AutorunFormat.CRONTAB, "crontab"), content, call.frame)


def _added_jobs(stdin: Stdin, env: Env) -> WrittenScript | None:
    """`(crontab -l; echo JOB) | crontab -`: the jobs the group's commands of known output add
    (the listing puts back the jobs already installed; other unknown output stays unknown)."""
    writer = stdin.writer
    if not isinstance(writer, ast.Group | ast.Subshell):
        return None
    outputs = [
        env.command_output(statement.command) for statement in writer.body.statements if not statement.background
    ]
    added = "".join(output for output in outputs if output is not None)
    return WrittenScript(added, Origin.derived_from(stdin.span), stdin.span) if added else None


def _crontab_from_pipe(call: Call, stdin: Stdin, walk: ContextWalk) -> None:
    """`curl u | crontab -`: the jobs are whatever the download holds, as in `curl u | sh` (a crontab
    assembled locally, `(crontab -l; echo JOB) | crontab -`, has its known jobs audited instead)."""
    tables = walk.tables
    if not any(name in tables.fetchers or name in tables.decoders for name in stdin.feeders):
        return
    piped_code(walk, stdin, call.name, "crontab", call.span.end, call.frame.location)
