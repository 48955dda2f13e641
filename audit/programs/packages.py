"""Package managers, as far as PK001 asks: their install subcommands and the
options with which an install takes exactly what a lock file pins (npm ci,
pnpm/yarn --frozen-lockfile, pip --require-hashes). Which subcommands install
at all is the policy's `[names] installers` table. Their `config set` commands,
for the system.trust pack (certificate checks and package sources). Their publishing
commands, and those of twine, cargo, gem, poetry and uv, for the packages.publish pack."""

from __future__ import annotations

from collections.abc import Mapping

from ._arg import Arg
from ._grammar import GO_FLAGS, Option, attached, flag, valued
from ._program import Program, Reading, Subcommand

# pip reads its options with optparse, which also takes unique prefixes of long options.
_PIP_INSTALL_OPTIONS = (
    valued("-r", "--requirement"), valued("-c", "--constraint"), valued("-e", "--editable"),
    valued("-t", "--target"), valued("-d", "--dest"), valued("-i", "--index-url"), valued("--extra-index-url"),
    valued("-f", "--find-links"), valued("--platform"), valued("--python-version"), valued("--prefix"),
    valued("--root"), valued("--src"), valued("--no-binary"), valued("--only-binary"), flag("--require-hashes"),
    flag("--no-deps"), flag("-U", "--upgrade"), flag("--user"), flag("--pre"), flag("-q", "--quiet"),
    flag("-v", "--verbose"), flag("--no-cache-dir"), flag("--break-system-packages"),
)  # fmt: skip


def _config(names: tuple[str, ...], options: tuple[Option, ...], actions: tuple[tuple[str, ...], ...]) -> Subcommand:
    """A package manager's `config` command: its actions (the first `set`), each reading `options`;
    what `set` is given are its settings (`KEY VALUE`, or `KEY=VALUE` for the Node managers)."""
    return Subcommand(
        names,
        options=options,
        subcommands=tuple(
            Subcommand(spellings, options=options, operands=("SETTING...",)) for spellings in (("set",), *actions)
        ),
    )


# pip config: where it writes (`--global`, `--user`, `--site`) and its actions; NAME is `section.key`.
_PIP_CONFIG = _config(
    ("config",),
    (flag("--global"), flag("--user"), flag("--site"), valued("--editor")),
    (("get",), ("unset",), ("list",), ("edit",), ("debug",)),
)
PIP = Program(
    ("pip", "pip3"),
    options=(flag("-q", "--quiet"), flag("-v", "--verbose"), flag("--isolated"), valued("--proxy")),
    subcommands=(
        Subcommand(("install",), options=_PIP_INSTALL_OPTIONS, operands=("PACKAGE...",)),
        Subcommand(("download",), options=_PIP_INSTALL_OPTIONS, operands=("PACKAGE...",)),
        _PIP_CONFIG,
    ),
)

# npm-style configuration flags take an attached value: `--frozen-lockfile=false` turns the flag off.
_NODE_INSTALL_OPTIONS = (
    attached("--frozen-lockfile"), attached("--immutable"), attached("--ignore-scripts"), flag("--production"), flag("--prod"),
    flag("-D", "--save-dev", "--dev"), flag("-g", "--global"), valued("--registry"), valued("--prefix"),
)  # fmt: skip
# npm and pnpm config: where a setting goes (`--location=global|user|project`, `-g`); `npm set`
# and `npm get` are `npm config set` and `get`.
_NODE_CONFIG_OPTIONS = (flag("-g", "--global"), valued("-L", "--location"), flag("--json"))
_NODE_CONFIG_ACTIONS = (("get",), ("delete", "rm", "del"), ("list", "ls"), ("edit",), ("fix",))
# What the packages.publish pack reads of a publication: its dry run, where it goes, what it sends.
_NODE_PUBLISH_OPTIONS = (
    flag("--dry-run"), valued("--tag"), valued("--access"), valued("--otp"), valued("--registry"),
    valued("-w", "--workspace"), flag("--workspaces"), flag("--provenance"), flag("-f", "--force"),
)  # fmt: skip
# npm pkg and set-script edit the project's package.json (`-w` picks a workspace's).
_NODE_PKG_OPTIONS = (valued("-w", "--workspace"), flag("--workspaces"), flag("-f", "--force"), flag("--json"))
# npm audit: what it reports, and whether `audit fix` only says what it would change.
_NODE_AUDIT_OPTIONS = (
    flag("--dry-run"), flag("--json"), valued("--audit-level"), valued("--omit"), flag("--production"),
    valued("-w", "--workspace"), flag("--workspaces"),
)  # fmt: skip
NPM = Program(
    ("npm",),
    subcommands=(
        Subcommand(("install", "i", "add"), options=_NODE_INSTALL_OPTIONS, operands=("PACKAGE...",)),
        Subcommand(("publish",), options=_NODE_PUBLISH_OPTIONS, operands=("PACKAGE",)),
        Subcommand(("unpublish",), options=_NODE_PUBLISH_OPTIONS, operands=("PACKAGE",)),
        Subcommand(("deprecate",), options=_NODE_PUBLISH_OPTIONS, operands=("PACKAGE", "MESSAGE")),
        Subcommand(("ci",), options=_NODE_INSTALL_OPTIONS),
        _config(("config", "c"), _NODE_CONFIG_OPTIONS, _NODE_CONFIG_ACTIONS),
        Subcommand(("set",), options=_NODE_CONFIG_OPTIONS, operands=("SETTING...",)),
        Subcommand(("get",), options=_NODE_CONFIG_OPTIONS, operands=("KEY...",)),
        Subcommand(
            ("pkg",),
            subcommands=(
                Subcommand(("set",), options=_NODE_PKG_OPTIONS, operands=("FIELD=VALUE...",)),
                Subcommand(("get",), options=_NODE_PKG_OPTIONS, operands=("FIELD...",)),
                Subcommand(("delete",), options=_NODE_PKG_OPTIONS, operands=("FIELD...",)),
                Subcommand(("fix",), options=_NODE_PKG_OPTIONS),
            ),
        ),
        Subcommand(("set-script",), options=_NODE_PKG_OPTIONS, operands=("NAME", "COMMAND")),
        Subcommand(
            ("audit",),
            subcommands=(Subcommand(("fix",), options=(*_NODE_AUDIT_OPTIONS, flag("-f", "--force"))),),
            options=_NODE_AUDIT_OPTIONS,
        ),
    ),
)
PNPM = Program(
    ("pnpm",),
    subcommands=(
        Subcommand(("install", "i"), options=_NODE_INSTALL_OPTIONS, operands=("PACKAGE...",)),
        _config(("config", "c"), _NODE_CONFIG_OPTIONS, _NODE_CONFIG_ACTIONS),
        Subcommand(
            ("publish",),
            options=(*_NODE_PUBLISH_OPTIONS, flag("--no-git-checks"), flag("-r", "--recursive")),
            operands=("PACKAGE",),
        ),
    ),
)
# bun's package manager (`bun` also runs code: the interpreters' node family).
BUN = Program(
    ("bun",),
    subcommands=(
        Subcommand(("install", "i"), options=_NODE_INSTALL_OPTIONS, operands=("PACKAGE...",)),
        Subcommand(("add", "a"), options=_NODE_INSTALL_OPTIONS, operands=("PACKAGE...",)),
    ),
)
# yarn 1 writes `-g` (the global file) and yarn 2+ `-H` (the home file) settings.
YARN = Program(
    ("yarn",),
    subcommands=(
        Subcommand(("install",), options=_NODE_INSTALL_OPTIONS, operands=("PACKAGE...",)),
        # yarn 1's `publish`, yarn 2+'s `npm publish`.
        Subcommand(("publish",), options=(*_NODE_PUBLISH_OPTIONS, valued("--new-version")), operands=("PACKAGE",)),
        Subcommand(("npm",), subcommands=(Subcommand(("publish",), options=_NODE_PUBLISH_OPTIONS),)),
        _config(
            ("config",),
            (flag("-g", "--global"), flag("-H", "--home"), flag("--json")),
            (("get",), ("delete", "unset"), ("list",)),
        ),
    ),
)

# Publishing clients of other ecosystems, as far as the packages.publish pack asks.
TWINE = Program(
    ("twine",),
    subcommands=(
        Subcommand(
            ("upload",),
            options=(
                valued("-r", "--repository"), valued("--repository-url"), valued("-u", "--username"),
                valued("-p", "--password"), flag("--skip-existing"), flag("--non-interactive"), flag("-s", "--sign"),
            ),
            operands=("DIST...",),
        ),
        Subcommand(("check",), options=(flag("--strict"),), operands=("DIST...",)),
    ),
)  # fmt: skip
CARGO = Program(
    ("cargo",),
    subcommands=(
        Subcommand(
            ("publish",),
            options=(
                flag("-n", "--dry-run"), valued("--registry"), valued("--index"), valued("--token"), valued("-p", "--package"),
                flag("--allow-dirty"), flag("--no-verify"), flag("--workspace"), flag("--locked"),
            ),
        ),
        Subcommand(
            ("yank",),
            options=(valued("--version", "--vers"), flag("--undo"), valued("--registry"), valued("--index"), valued("--token")),
            operands=("CRATE",),
        ),
    ),
)  # fmt: skip
_GEM_REMOTE = (valued("-k", "--key"), valued("--host"), valued("--otp"))
GEM = Program(
    ("gem",),
    subcommands=(
        Subcommand(("push",), options=_GEM_REMOTE, operands=("GEM",)),
        Subcommand(("yank",), options=(*_GEM_REMOTE, valued("-v", "--version"), valued("--platform")), operands=("GEM",)),
        Subcommand(("build",), operands=("GEMSPEC",)),
    ),
)  # fmt: skip
POETRY = Program(
    ("poetry",),
    subcommands=(
        Subcommand(
            ("publish",),
            options=(
                flag("--dry-run"), flag("--build"), valued("-r", "--repository"), valued("-u", "--username"),
                valued("-p", "--password"), flag("--skip-existing"), valued("--dist-dir"),
            ),
        ),
    ),
)  # fmt: skip
UV = Program(
    ("uv",),
    subcommands=(
        Subcommand(
            ("publish",),
            options=(
                flag("--dry-run"), valued("--publish-url"), valued("--index"), valued("-u", "--username"),
                valued("-p", "--password"), valued("-t", "--token"), valued("--trusted-publishing"), valued("--check-url"),
            ),
            operands=("FILES...",),
        ),
    ),
)  # fmt: skip

# `go install|run [build flags] PACKAGE...`: the build flags that take a value, so that it is not
# read as a package.
_GO_BUILD_OPTIONS = tuple(
    valued(f"-{name}")
    for name in (
        "o", "p", "C", "ldflags", "gcflags", "asmflags", "gccgoflags", "tags", "mod", "modfile", "exec",
        "toolexec", "overlay", "pkgdir", "installsuffix", "compiler", "buildmode", "pgo", "coverpkg", "covermode",
    )
)  # fmt: skip
GO = Program(
    ("go",),
    syntax=GO_FLAGS,
    subcommands=(
        Subcommand(("install",), options=_GO_BUILD_OPTIONS, operands=("PACKAGE...",)),
        Subcommand(("run",), options=_GO_BUILD_OPTIONS, operands=("PACKAGE", "ARGUMENT...")),
    ),
)

# The JVM build tools: tasks and phases are operands, in any number and order (`gradle clean build publish`,
# `mvn -DskipTests clean deploy`); the packages.publish pack reads which of them publish.
GRADLE = Program(
    ("gradle", "gradlew"),
    options=(
        valued("-p", "--project-dir"), valued("-b", "--build-file"), valued("-c", "--settings-file"),
        valued("-x", "--exclude-task"), valued("-P", "--project-prop"), valued("-D", "--system-prop"),
        valued("-I", "--init-script"), valued("-g", "--gradle-user-home"), valued("--console"), valued("--max-workers"),
        flag("-m", "--dry-run"), flag("--offline"), flag("-q", "--quiet"), flag("-i", "--info"), flag("-d", "--debug"),
        flag("-s", "--stacktrace"), flag("-S", "--full-stacktrace"), flag("--no-daemon"), flag("--daemon"),
        flag("--parallel"), flag("--continue"), flag("--scan"), flag("--build-cache"), flag("--refresh-dependencies"),
        flag("--no-configuration-cache"), flag("--configuration-cache"), flag("-w", "--warn"),
    ),
    operands=("TASK...",),
)  # fmt: skip
MAVEN = Program(
    ("mvn", "mvnw"),
    options=(
        valued("-f", "--file"), valued("-s", "--settings"), valued("-gs", "--global-settings"),
        valued("-P", "--activate-profiles"), valued("-D", "--define"), valued("-T", "--threads"), valued("-rf", "--resume-from"),
        valued("-pl", "--projects"), valued("-l", "--log-file"), flag("-B", "--batch-mode"), flag("-U", "--update-snapshots"),
        flag("-o", "--offline"), flag("-q", "--quiet"), flag("-X", "--debug"), flag("-e", "--errors"), flag("-N", "--non-recursive"),
        flag("-am", "--also-make"), flag("-amd", "--also-make-dependents"), flag("-ntp", "--no-transfer-progress"),
        flag("-V", "--show-version"), flag("-fae", "--fail-at-end"), flag("-ff", "--fail-fast"),
    ),
    operands=("GOAL...",),
)  # fmt: skip

PACKAGE_PROGRAMS: tuple[Program, ...] = (PIP, NPM, PNPM, YARN, BUN, TWINE, CARGO, GEM, POETRY, UV, GO, GRADLE, MAVEN)

LOCKED_INSTALLS: Mapping[tuple[str, str], tuple[str, ...]] = {
    ("npm", "ci"): (),
    ("pnpm", "install"): ("--frozen-lockfile",),
    ("bun", "install"): ("--frozen-lockfile",),
    ("yarn", "install"): ("--frozen-lockfile", "--immutable"),
    ("pip", "install"): ("--require-hashes",),
}
"""Per (program, subcommand): the options with which an install takes only what the lock file pins
(none needed: always). pip checks every requirement's hash in that mode, so a requirements file is the
lock file; a package named on the command line is not from one."""


PACKAGE_BINARIES: Mapping[str, str] = {
    "aws-cdk": "cdk",
    "cdktf-cli": "cdktf",
    "netlify-cli": "netlify",
    "@sentry/cli": "sentry-cli",
    "twilio-cli": "twilio",
    "@cloudflare/wrangler": "wrangler",
    "firebase-tools": "firebase",
    "@railway/cli": "railway",
    "@upstash/cli": "upstash",
    "@anthropic-ai/claude-code": "claude",
    "@openai/codex": "codex",
    "@google/gemini-cli": "gemini",
    "@qwen-code/qwen-code": "qwen",
    "@sourcegraph/amp": "amp",
    "@github/copilot": "copilot",
}
"""npm packages whose binary has another name than the package (the runners name the package)."""


def package_binary(spec: str) -> str:
    """The binary a package runner runs for a package spec (`aws-cdk@2` runs `cdk`): the version
    dropped, then the package's binary when it has another name."""
    at = spec.find("@", 1)  # `@scope/name@1.2`: the scope's `@` is not a version's
    name = spec[:at] if at > 0 else spec
    return PACKAGE_BINARIES.get(name, name)


def installs_only_the_lock_file(reading: Reading) -> bool:
    """Whether the install takes exactly what a lock file pins, and no package named on the command line."""
    if not reading.path:
        return False
    locking = LOCKED_INSTALLS.get((reading.program.name, reading.path[0]))
    if locking is None or reading.operands:
        return False
    return not locking or any(_turned_on(use.value) for use in reading.uses(*locking))


# The installs that take what the project declares when no package is named: its manifest
# (`npm install`), a requirements file (`pip install -r requirements.txt`), the project itself.
_PROJECT_INSTALLS = frozenset(
    {("npm", "install"), ("pnpm", "install"), ("yarn", "install"), ("bun", "install"), ("pip", "install")}
)
# Where packages come from: given on the command line, they are not the project's choice.
_SOURCE_OPTIONS = ("--index-url", "--extra-index-url", "--find-links", "--registry")


def _is_the_project(word: Arg) -> bool:
    """`.`, `./` or the project with extras (`.[dev]`): the directory being worked on."""
    value = word.value
    return value is not None and (value in (".", "./") or value.startswith((".[", "./[")))


def _go_builds_the_module(reading: Reading) -> bool:
    """`go install ./...`, `go run .`, `go run golang.org/x/tools/cmd/stringer`: packages of the module
    or of its `go.mod` requirements. A version (`PKG@latest`) fetches a module the project never
    declared; `go run` takes one package, the words after it are the program's arguments."""
    packages = reading.operands[:1] if reading.path[0] == "run" else reading.operands
    return not any("@" in (word.value or "@") for word in packages)


def installs_the_project(reading: Reading) -> bool:
    """Whether the install takes only what the project declares (its manifest, a requirements file,
    the project itself: `pip install -e .`, the module's packages: `go install ./...`), or upgrades the
    installer itself (`pip install -U pip`), from the default index: no package named, no other index
    or registry given."""
    if reading.path and reading.program.name == "go":
        return _go_builds_the_module(reading)
    if not reading.path or (reading.program.name, reading.path[0]) not in _PROJECT_INSTALLS:
        return False
    if reading.has(*_SOURCE_OPTIONS):
        return False
    named = reading.operands
    if reading.program.name == "pip" and reading.has("--upgrade") and [word.value for word in named] == ["pip"]:
        return True
    return all(_is_the_project(word) for word in (*named, *reading.values("--editable")))


def forces_major_upgrades(reading: Reading) -> bool:
    """`npm audit fix --force`: installs whatever versions fix the advisories, past the ranges the
    project's manifest declares (breaking upgrades, and downgrades), and rewrites the manifest."""
    return reading.path == ("audit", "fix") and reading.has("--force") and not reading.has("--dry-run")


def _turned_on(value: Arg | None) -> bool:
    return value is None or value.value not in ("false", "0", "no")
