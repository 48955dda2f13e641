"""packages.publish: packages published to a public registry, or taken off it,
with npm, pnpm, yarn, twine, cargo, gem, poetry and uv.

Pushing a container image (`docker push`) is left alone: CI pushes images on
every build, to registries the team owns, and a tag is overwritten by the
next push. A package version is published to everyone and cannot be
published again under the same number."""

from __future__ import annotations

from ..._model import Severity
from ...programs import Arg
from ...programs.destinations import on_the_loopback
from ...rules._pack import Pack
from .._invocation import Found, command, pack_rule

_NODE = ("npm", "pnpm")
_DRY_RUN = ("--dry-run",)
_TRUE = ("true", "1", "yes")
# Where each client is told to publish (a registry or index URL).
_DESTINATIONS = ("--registry", "--repository-url", "--publish-url", "--host")


# Where each client reads its registry from the environment, when no option names one
# (`NPM_CONFIG_REGISTRY=http://localhost:4873 npm publish`). npm and pnpm read `npm_config_*` in any case.
_NPM_SETTINGS = "npm_config_"
_DESTINATION_VARIABLES: dict[str, tuple[str, ...]] = {
    "yarn": ("YARN_NPM_PUBLISH_REGISTRY", "YARN_NPM_REGISTRY_SERVER", "YARN_REGISTRY"),
    "twine": ("TWINE_REPOSITORY_URL",),
    "uv": ("UV_PUBLISH_URL",),
    "gem": ("RUBYGEMS_HOST",),
}


def _npm_setting(found: Found, key: str) -> str | None:
    """The value of npm's `key` setting (`registry`, `dry_run`) the command gives in the environment."""
    wanted = _NPM_SETTINGS + key
    return next((value for name, value in reversed(found.subject.environment) if name.lower() == wanted), None)


def _registry_from_environment(found: Found) -> str | None:
    program = found.subject.name
    registry = found.subject.setting(*_DESTINATION_VARIABLES.get(program or "", ()))
    if registry is None and program in (*_NODE, "yarn"):
        registry = _npm_setting(found, "registry")  # yarn 1 reads npm's settings too
    return registry


def _leaves_the_machine(found: Found) -> Arg | None:
    """A publication to a registry other than one on the loopback (a local Verdaccio or devpi is
    where a release is tried out): the destination's word, else the command's last. An option
    names the registry, else the environment the command sets, as each client reads them."""
    read = found.reading
    destinations = read.values(*_DESTINATIONS)
    if destinations:
        if all(on_the_loopback(value) for word in destinations for value in word.values):
            return None
        return destinations[-1]
    registry = _registry_from_environment(found)
    if registry is not None and on_the_loopback(registry):
        return None
    if found.subject.name in _NODE and (_npm_setting(found, "dry_run") or "").lower() in _TRUE:
        return None
    return read.args[-1]


PUBLISH = pack_rule(
    id="PU101",
    name="publish-package",
    severity=Severity.MEDIUM,
    summary="Publishes a package to a registry (`npm publish`, `pnpm publish`, `yarn publish`, `yarn npm publish`, `twine upload`, `cargo publish`, `gem push`, `poetry publish`, `uv publish`), not as a dry run.",
    rationale="A published version is public at once, installed by everyone who depends on the package, mirrored, and its number can never be published again (crates.io and PyPI keep it for ever); whether and when to release is the maintainers' call. Releasing is also an agent's legitimate job in a release workflow, so the command runs and the warning says what went out.",
    safer_alternative="Try the release on a local registry (`--registry http://localhost:4873` passes), run the dry run (`npm publish --dry-run`, `cargo publish --dry-run`, `poetry publish --dry-run`, `uv publish --dry-run`) or build the artefact (`npm pack`, `twine check dist/*`) and let a person publish it.",
    matches=(
        *(command(program, "publish", unless=_DRY_RUN, where=_leaves_the_machine) for program in (*_NODE, "yarn", "cargo", "poetry", "uv")),
        command("yarn", "npm publish", where=_leaves_the_machine),
        command("twine", "upload", where=_leaves_the_machine),
        command("gem", "push", where=_leaves_the_machine),
    ),
    message="publishes a package to a registry",
    must_match=(
        "npm publish --access public",
        "pnpm publish --no-git-checks",
        "yarn npm publish --tag next",
        "twine upload dist/*",
        "cargo publish -p mycrate",
        "gem push mygem-1.0.0.gem",
        "poetry publish --build",
        "uv publish",
    ),
    must_not_match=(
        "npm publish --dry-run",
        "npm pack",
        "pnpm publish --dry-run",
        "cargo publish --dry-run",
        "cargo publish -n",
        "twine check dist/*",
        "poetry publish --dry-run",
        "gem build mygem.gemspec",
        "npm install",
        "npm publish --registry http://localhost:4873",
        "twine upload --repository-url http://127.0.0.1:3141/root/dev/ dist/*",
        "NPM_CONFIG_REGISTRY=http://localhost:4873 npm publish",
        "TWINE_REPOSITORY_URL=http://127.0.0.1:3141/root/dev/ twine upload dist/*",
    ),
)  # fmt: skip

UNPUBLISH = pack_rule(
    id="PU102",
    name="unpublish-package",
    severity=Severity.HIGH,
    summary="Removes a published package or version from its registry (`npm unpublish`, `gem yank`).",
    rationale="Every project and lock file that pins the version fails to install from then on, and the version number can never be published again; npm refuses to restore it.",
    safer_alternative="Deprecate it (`npm deprecate PKG@VERSION 'reason'`) and publish a fixed version; `npm unpublish --dry-run` shows what would go.",
    matches=(command("npm", "unpublish", unless=_DRY_RUN), command("gem", "yank")),
    message="removes a published package from its registry",
    must_match=("npm unpublish mypkg@1.0.3", "npm unpublish mypkg --force", "gem yank mygem -v 1.0.0"),
    must_not_match=("npm unpublish mypkg@1.0.3 --dry-run", "npm view mypkg versions"),
)

PACK = Pack(
    name="packages.publish",
    summary="Packages published to or removed from a registry: npm, pnpm, yarn, twine, cargo, gem, poetry and uv.",
    default=True,
    reason="A published version goes to everyone who installs the package and its number cannot be reused, and an unpublished one breaks everyone who pinned it.",
    rules=(PUBLISH, UNPUBLISH),
)
