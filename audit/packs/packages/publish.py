"""packages.publish: packages published to a public registry, withdrawn or taken off it,
with npm, pnpm, yarn, twine, cargo, gem, poetry, uv, dotnet nuget, Gradle and Maven.

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


# Gradle's tasks that publish: `publish`, `publishPlugins`, `publishToSonatype`,
# `publishAllPublicationsToNexusRepository`, `:lib:publish` (a project's), the old `uploadArchives`;
# not the ones that publish to the local Maven repository (`publishToMavenLocal`).
_GRADLE_LOCAL = "ToMavenLocal"
# Maven's goals that deploy: the `deploy` phase (the ones before it run first), the deploy plugin's goals, a release.
_MAVEN_DEPLOYS = frozenset({"deploy", "deploy:deploy", "deploy:deploy-file", "release:perform"})
_MAVEN_SKIPS = frozenset({"maven.deploy.skip=true", "maven.deploy.skip"})


def _gradle_publishes(found: Found) -> Arg | None:
    """A Gradle task that publishes to a remote repository, not in a dry run (`-m`)."""
    if found.reading.has("--dry-run"):
        return None
    for task in found.reading.operands:
        name = (task.value or "").rpartition(":")[2]
        if (name.startswith("publish") and _GRADLE_LOCAL not in name) or name == "uploadArchives":
            return task
    return None


def _maven_deploys(found: Found) -> Arg | None:
    """Maven's deploy phase or goal, unless deploying is skipped or goes to a directory (a `file:` URL)."""
    read = found.reading
    goal = next((word for word in read.operands if word.value in _MAVEN_DEPLOYS), None)
    if goal is None:
        return None
    for setting in read.values("--define"):
        value = (setting.value or "").lower()
        local = value.startswith(("altdeploymentrepository=", "url=")) and "file:" in value
        if value in _MAVEN_SKIPS or local:
            return None
    return goal


def _to_a_feed_elsewhere(found: Found) -> Arg | None:
    """`dotnet nuget push|delete`: a feed named by a URL off this machine, or none (the configured
    feed, nuget.org by default). A feed that is a directory (`-s ./packages`) or on the loopback is local."""
    sources = found.reading.values("--source")
    if not sources:
        return found.reading.args[-1]
    source = sources[-1].value
    if source is None or ("://" in source and not on_the_loopback(source)):
        return sources[-1]
    return None


def _deprecates(found: Found) -> Arg | None:
    """`npm deprecate PKG MESSAGE` with a message: an empty one takes the deprecation back."""
    messages = found.reading.operand("MESSAGE")
    return messages[0] if messages and messages[0].value != "" else None


PUBLISH = pack_rule(
    id="PU101",
    name="publish-package",
    severity=Severity.MEDIUM,
    summary="Publishes a package to a registry (`npm publish`, `pnpm publish`, `yarn publish`, `yarn npm publish`, `twine upload`, `cargo publish`, `gem push`, `poetry publish`, `uv publish`, `dotnet nuget push`, Gradle's `publish` tasks, Maven's `deploy`), not as a dry run.",
    rationale="A published version is public at once, installed by everyone who depends on the package, mirrored, and its number can never be published again (crates.io and PyPI keep it for ever); whether and when to release is the maintainers' call. Releasing is also an agent's legitimate job in a release workflow, so the command runs and the warning says what went out.",
    safer_alternative="Try the release on a local registry (`--registry http://localhost:4873` passes), run the dry run (`npm publish --dry-run`, `cargo publish --dry-run`, `poetry publish --dry-run`, `uv publish --dry-run`) or build the artefact (`npm pack`, `twine check dist/*`) and let a person publish it.",
    matches=(
        *(command(program, "publish", unless=_DRY_RUN, where=_leaves_the_machine) for program in (*_NODE, "yarn", "cargo", "poetry", "uv")),
        command("yarn", "npm publish", where=_leaves_the_machine),
        command("twine", "upload", where=_leaves_the_machine),
        command("gem", "push", where=_leaves_the_machine),
        command("dotnet", "nuget push", where=_to_a_feed_elsewhere),
        command(("gradle", "gradlew"), where=_gradle_publishes),
        command(("mvn", "mvnw"), where=_maven_deploys),
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
        "dotnet nuget push bin/Release/Acme.1.2.0.nupkg -k $NUGET_KEY -s https://api.nuget.org/v3/index.json",
        "./gradlew clean build publish",
        "mvn -B -DskipTests clean deploy",
    ),
    must_not_match=(
        "dotnet nuget push Acme.1.2.0.nupkg -s ./local-feed",
        "./gradlew publishToMavenLocal",
        "gradle build",
        "mvn verify",
        "mvn install",
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
    summary="Removes a published package or version from its registry (`npm unpublish`, `gem yank`, `dotnet nuget delete`).",
    rationale="Every project and lock file that pins the version fails to install from then on, and the version number can never be published again; npm refuses to restore it, RubyGems no longer lets a yank be undone, and most NuGet feeds but nuget.org (which unlists) delete the package for good.",
    safer_alternative="Deprecate it (`npm deprecate PKG@VERSION 'reason'`) and publish a fixed version; `npm unpublish --dry-run` shows what would go.",
    matches=(
        command("npm", "unpublish", unless=_DRY_RUN),
        command("gem", "yank"),
        command("dotnet", "nuget delete", where=_to_a_feed_elsewhere),
    ),
    message="removes a published package from its registry",
    must_match=(
        "npm unpublish mypkg@1.0.3",
        "npm unpublish mypkg --force",
        "gem yank mygem -v 1.0.0",
        "dotnet nuget delete Acme 1.0.0 --non-interactive -k $NUGET_KEY",
    ),
    must_not_match=(
        "npm unpublish mypkg@1.0.3 --dry-run",
        "npm view mypkg versions",
        "dotnet nuget delete Acme 1.0.0 -s ./local-feed",
    ),
)

WITHDRAW = pack_rule(
    id="PU103",
    name="withdraw-package-version",
    severity=Severity.MEDIUM,
    summary="Yanks or deprecates a published version in a way that can be undone (`cargo yank`, `npm deprecate`).",
    rationale="New projects can no longer pick a yanked crate version and every install of a deprecated npm version prints the message, for everyone who uses the package; lock files keep working and `cargo yank --undo` or `npm deprecate PKG@V ''` takes it back, so the command runs and the warning says what changed.",
    safer_alternative="Leave withdrawing releases to the maintainers; publish a fixed version instead.",
    matches=(command("cargo", "yank", unless=("--undo",)), command("npm", "deprecate", where=_deprecates)),
    message="withdraws a published version from its users",
    must_match=("cargo yank --version 1.0.0 mycrate", "npm deprecate mypkg@'<2.0.0' 'use 2.x'"),
    must_not_match=(
        "cargo yank --version 1.0.0 --undo mycrate",
        "npm view mypkg deprecated",
        "npm deprecate mypkg@1.x ''",
    ),
)

PACK = Pack(
    name="packages.publish",
    summary="Packages published to, withdrawn from or removed from a registry: npm, pnpm, yarn, twine, cargo, gem, poetry, uv, dotnet nuget, Gradle and Maven.",
    default=True,
    reason="A published version goes to everyone who installs the package and its number cannot be reused, and an unpublished one breaks everyone who pinned it.",
    rules=(PUBLISH, UNPUBLISH, WITHDRAW),
)
