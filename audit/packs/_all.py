"""Every pack, in one list (the registry in `audit.rules` is built from it)."""

from __future__ import annotations

from ..rules._pack import Pack
from . import disks, git, kubernetes, platforms
from .cloud import aws, azure, gcp, infrastructure, providers
from .containers import docker, host_escape, podman
from .database import (
    cassandra,
    clickhouse,
    cockroachdb,
    migrations,
    mongodb,
    mysql,
    others,
    postgresql,
    redis,
    sqlite,
    sqlserver,
)
from .filesystem import home, services, workspace
from .iac import stacks, terraform
from .packages import publish
from .platform import github, gitlab
from .remote import rsync
from .secrets import cloud as secrets_cloud
from .secrets import vault
from .storage import s3
from .system import controls, machine, macos, packages, trust, windows
from .vendors import VENDOR_PACKS

PACKS: tuple[Pack, ...] = (
    git.PACK,
    home.PACK,
    services.PACK,
    workspace.PACK,
    docker.PACK,
    podman.PACK,
    host_escape.PACK,
    kubernetes.PACK,
    aws.PACK,
    gcp.PACK,
    azure.PACK,
    s3.PACK,
    terraform.PACK,
    stacks.PACK,
    rsync.PACK,
    disks.PACK,
    vault.PACK,
    secrets_cloud.PACK,
    github.PACK,
    gitlab.PACK,
    postgresql.PACK,
    mysql.PACK,
    others.PACK,
    sqlite.PACK,
    sqlserver.PACK,
    clickhouse.PACK,
    cockroachdb.PACK,
    cassandra.PACK,
    redis.PACK,
    mongodb.PACK,
    migrations.PACK,
    controls.PACK,
    machine.PACK,
    trust.PACK,
    packages.PACK,
    windows.PACK,
    macos.PACK,
    publish.PACK,
    *VENDOR_PACKS,
    *infrastructure.VENDOR_PACKS,
    *providers.VENDOR_PACKS,
    *platforms.VENDOR_PACKS,
)
