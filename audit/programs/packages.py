"""Package managers, as far as PK001 asks: their install subcommands and the
options with which an install takes exactly what a lock file pins (npm ci,
pnpm/yarn --frozen-lockfile, pip --require-hashes). Which subcommands install
at all is the policy's `[names] installers` table."""

from __future__ import annotations

from collections.abc import Mapping

from ._arg import Arg
from ._grammar import attached, flag, valued
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
PIP = Program(
    ("pip", "pip3"),
    options=(flag("-q", "--quiet"), flag("-v", "--verbose"), flag("--isolated"), valued("--proxy")),
    subcommands=(
        Subcommand(("install",), options=_PIP_INSTALL_OPTIONS, operands=("PACKAGE...",)),
        Subcommand(("download",), options=_PIP_INSTALL_OPTIONS, operands=("PACKAGE...",)),
    ),
)

# npm-style configuration flags take an attached value: `--frozen-lockfile=false` turns the flag off.
_NODE_INSTALL_OPTIONS = (
    attached("--frozen-lockfile"), attached("--immutable"), attached("--ignore-scripts"), flag("--production"), flag("--prod"),
    flag("-D", "--save-dev", "--dev"), flag("-g", "--global"), valued("--registry"), valued("--prefix"),
)  # fmt: skip
NPM = Program(
    ("npm",),
    subcommands=(
        Subcommand(("install", "i", "add"), options=_NODE_INSTALL_OPTIONS, operands=("PACKAGE...",)),
        Subcommand(("ci",), options=_NODE_INSTALL_OPTIONS),
    ),
)
PNPM = Program(
    ("pnpm",),
    subcommands=(Subcommand(("install", "i"), options=_NODE_INSTALL_OPTIONS, operands=("PACKAGE...",)),),
)
YARN = Program(
    ("yarn",),
    subcommands=(Subcommand(("install",), options=_NODE_INSTALL_OPTIONS, operands=("PACKAGE...",)),),
)

PACKAGE_PROGRAMS: tuple[Program, ...] = (PIP, NPM, PNPM, YARN)

LOCKED_INSTALLS: Mapping[tuple[str, str], tuple[str, ...]] = {
    ("npm", "ci"): (),
    ("pnpm", "install"): ("--frozen-lockfile",),
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


def _turned_on(value: Arg | None) -> bool:
    return value is None or value.value not in ("false", "0", "no")
