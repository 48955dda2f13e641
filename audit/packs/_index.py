"""Which pack lives where, what it is about and whether it is on, without loading any pack.

Loading every pack's rules (and the program declarations they read) is most of
the engine's start-up; a hook audits one command and needs the packs of its
program at most. The engine reads this index to validate a policy's `[packs]`
patterns, to tell which packs are on, and to load a pack the first time a
command names one of its programs. `tests/audit/test_lazy_loading.py` rebuilds it
from the real modules, so it cannot go stale.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from .._named_tuple import NamedTuple
from ..errors import RegistryError

if TYPE_CHECKING:
    from ..rules._pack import Pack


class PackEntry(NamedTuple):
    """One pack as the index knows it."""

    name: str
    module: str
    """The module that declares it, relative to `audit.packs`."""
    default: bool
    """Whether it is on when no policy says otherwise (the declaration's `Pack.default`)."""
    commands: frozenset[str]
    """Every command name its rules are listed for."""


# system.macos's programs; the readers are MA108's (the user's private data read or copied).
_MACOS_COMMANDS = frozenset((
    "base64", "cat", "cp", "defaults", "ditto", "dscl", "dseditgroup", "head", "hexdump", "launchctl", "less",
    "more", "networksetup", "od", "osascript", "plutil", "rsync", "scp", "security", "sqlite3", "strings", "sysadminctl",
    "systemsetup", "tail", "tar", "tccutil", "xattr", "xxd", "zip",
))  # fmt: skip

# system.machine's programs: kernel modules, mounts, kills, the network and the firewall, service managers.
_MACHINE_COMMANDS = frozenset((
    "chkconfig", "firewall-cmd", "fuser", "ifconfig", "ifdown", "insmod", "ip", "ip6tables", "ip6tables-legacy", "ip6tables-nft", "iptables",
    "iptables-legacy", "iptables-nft", "kexec", "kill", "killall", "loginctl", "modprobe", "mount", "nmcli",
    "pkill", "rc-update", "rmmod", "service", "stop-process", "systemctl", "taskkill", "ufw", "umount", "update-rc.d",
))  # fmt: skip
# The HTTP clients the API rules of the vendor packs read (`curl -X DELETE https://api...`).
_HTTP_CLIENTS = ("curl", "http", "https", "wget", "xh", "xhs")

PACK_INDEX: tuple[PackEntry, ...] = (
    PackEntry("backup.borg", ".vendors", False, frozenset(("borg",))),
    PackEntry("backup.restic", ".vendors", False, frozenset(("restic",))),
    PackEntry("cdn.cloudflare", ".vendors", False, frozenset(_HTTP_CLIENTS)),
    PackEntry("cdn.fastly", ".vendors", False, frozenset((*_HTTP_CLIENTS, "fastly"))),
    PackEntry("ci.circleci", ".vendors", False, frozenset((*_HTTP_CLIENTS, "circleci"))),
    PackEntry("cloud.aws", ".cloud.aws", True, frozenset(("aws", "eksctl"))),
    PackEntry("cloud.azure", ".cloud.azure", True, frozenset(("az",))),
    PackEntry("cloud.consul", ".cloud.infrastructure", True, frozenset(("consul",))),
    PackEntry("cloud.digitalocean", ".vendors", True, frozenset((*_HTTP_CLIENTS, "doctl"))),
    PackEntry("cloud.gcp", ".cloud.gcp", True, frozenset(("bq", "firebase", "gcloud"))),
    PackEntry("cloud.hetzner", ".cloud.infrastructure", True, frozenset(("hcloud",))),
    PackEntry("cloud.ibm", ".cloud.providers", True, frozenset(("ibmcloud",))),
    PackEntry("cloud.linode", ".cloud.providers", True, frozenset((*_HTTP_CLIENTS, "linode", "linode-cli"))),
    PackEntry("cloud.nomad", ".cloud.infrastructure", True, frozenset(("nomad",))),
    PackEntry("cloud.oci", ".cloud.providers", True, frozenset(("oci",))),
    PackEntry("cloud.openstack", ".cloud.infrastructure", True, frozenset(("openstack",))),
    PackEntry("cloud.scaleway", ".cloud.providers", True, frozenset(("scw",))),
    PackEntry("cloud.vultr", ".cloud.providers", True, frozenset((*_HTTP_CLIENTS, "vultr-cli"))),
    PackEntry(
        "containers.docker",
        ".containers.docker",
        True,
        frozenset(("docker", "docker-compose", "nerdctl", "podman", "podman-compose")),
    ),
    PackEntry(
        "containers.host-escape",
        ".containers.host_escape",
        True,
        frozenset(
            ("ctr", "curl", "docker", "incus", "kubectl", "lxc", "nerdctl", "nsenter", "oc", "podman", "systemd-nspawn")
        ),
    ),
    PackEntry("containers.podman", ".containers.podman", True, frozenset(("podman",))),
    PackEntry("database.cassandra", ".database.cassandra", True, frozenset(("cqlsh",))),
    PackEntry("database.clickhouse", ".database.clickhouse", True, frozenset(("clickhouse", "clickhouse-client"))),
    PackEntry("database.cockroachdb", ".database.cockroachdb", True, frozenset(("cockroach", "cockroach-sql"))),
    PackEntry(
        "database.migrations",
        ".database.migrations",
        True,
        frozenset(
            (
                "alembic",
                "dbt",
                "dotnet",
                "flyway",
                "knex",
                "liquibase",
                "mix",
                "php",
                "prisma",
                "python",
                "python3",
                "rails",
                "rake",
                "sequelize",
                "sequelize-cli",
                "supabase",
                "typeorm",
                "typeorm-ts-node-commonjs",
                "typeorm-ts-node-esm",
            )
        ),
    ),
    PackEntry("database.mongodb", ".database.mongodb", True, frozenset(("mongo", "mongorestore", "mongosh"))),
    PackEntry(
        "database.mysql", ".database.mysql", True, frozenset(("mariadb", "mariadb-admin", "mysql", "mysqladmin"))
    ),
    PackEntry(
        "database.others",
        ".database.others",
        True,
        frozenset(
            (*_HTTP_CLIENTS, "cypher-shell", "influx", "neon", "neonctl", "pscale", "snowsql", "turso", "upstash")
        ),
    ),
    PackEntry(
        "database.postgresql",
        ".database.postgresql",
        True,
        frozenset(
            (
                "dropdb",
                "dropuser",
                "heroku",
                "pg_ctl",
                "pg_dropcluster",
                "pg_resetwal",
                "pg_resetxlog",
                "pg_restore",
                "psql",
            )
        ),
    ),
    PackEntry("database.redis", ".database.redis", True, frozenset(("redis-cli", "valkey-cli"))),
    PackEntry("database.sqlite", ".database.sqlite", True, frozenset(("duckdb", "sqlite3", "wrangler"))),
    PackEntry("database.sqlserver", ".database.sqlserver", True, frozenset(("sqlcmd",))),
    PackEntry(
        "disks",
        ".disks",
        True,
        frozenset(
            (
                "btrfs",
                "cryptsetup",
                "diskutil",
                "dmsetup",
                "flashrom",
                "hdparm",
                "losetup",
                "lvremove",
                "mdadm",
                "nvme",
                "pvremove",
                "timeshift",
                "tmutil",
                "vgremove",
                "vssadmin",
                "vssadmin.exe",
                "wbadmin",
                "wbadmin.exe",
                "wmic",
                "wmic.exe",
                "zfs",
                "zpool",
            )
        ),
    ),
    PackEntry("email.mailgun", ".vendors", False, frozenset(_HTTP_CLIENTS)),
    PackEntry("email.sendgrid", ".vendors", False, frozenset(_HTTP_CLIENTS)),
    PackEntry(
        "filesystem.home",
        ".filesystem.home",
        True,
        frozenset(
            (
                "chmod",
                "cp",
                "dd",
                "find",
                "gpg",
                "gpg2",
                "install",
                "mv",
                "remove_directory",
                "rimraf",
                "rm",
                "shred",
                "srm",
                "ssh-keygen",
                "tar",
                "truncate",
                "unlink",
                "wipe",
            )
        ),
    ),
    PackEntry(
        "filesystem.services",
        ".filesystem.services",
        True,
        frozenset(
            (
                "cp",
                "dd",
                "find",
                "install",
                "mv",
                "remove_directory",
                "rimraf",
                "rm",
                "shred",
                "srm",
                "tar",
                "truncate",
                "unlink",
                "wipe",
            )
        ),
    ),
    PackEntry(
        "filesystem.workspace",
        ".filesystem.workspace",
        True,
        frozenset(("find", "mv", "remove_directory", "rimraf", "rm", "srm", "tar", "wipe")),
    ),
    PackEntry("flags.launchdarkly", ".vendors", False, frozenset((*_HTTP_CLIENTS, "ldcli"))),
    PackEntry("gateway.kong", ".vendors", False, frozenset((*_HTTP_CLIENTS, "deck"))),
    PackEntry("git", ".git", True, frozenset(("git",))),
    PackEntry("iac.stacks", ".iac.stacks", True, frozenset(("cdk", "cdktf", "pulumi", "sam", "serverless", "sls"))),
    PackEntry("iac.terraform", ".iac.terraform", True, frozenset(("terraform", "terragrunt", "tofu"))),
    PackEntry("kubernetes", ".kubernetes", True, frozenset(("helm", "k3d", "kind", "kubectl", "minikube", "oc"))),
    PackEntry("kubernetes.etcd", ".cloud.infrastructure", True, frozenset(("etcdctl",))),
    PackEntry(
        "messaging.kafka",
        ".vendors",
        True,
        frozenset(("kafka-delete-records", "kafka-delete-records.sh", "kafka-topics", "kafka-topics.sh")),
    ),
    PackEntry("messaging.rabbitmq", ".vendors", True, frozenset((*_HTTP_CLIENTS, "rabbitmqadmin", "rabbitmqctl"))),
    PackEntry("messaging.nats", ".vendors", True, frozenset(("nats",))),
    PackEntry("messaging.twilio", ".vendors", False, frozenset((*_HTTP_CLIENTS, "twilio"))),
    PackEntry("monitoring.datadog", ".vendors", False, frozenset(_HTTP_CLIENTS)),
    PackEntry("monitoring.grafana", ".vendors", False, frozenset(_HTTP_CLIENTS)),
    PackEntry("monitoring.pagerduty", ".vendors", False, frozenset(_HTTP_CLIENTS)),
    PackEntry("monitoring.sentry", ".vendors", False, frozenset((*_HTTP_CLIENTS, "sentry-cli"))),
    PackEntry(
        "packages.publish",
        ".packages.publish",
        True,
        frozenset(
            (
                "cargo",
                "dotnet",
                "gem",
                "gradle",
                "gradlew",
                "mvn",
                "mvnw",
                "npm",
                "pnpm",
                "poetry",
                "twine",
                "uv",
                "yarn",
            )
        ),
    ),
    PackEntry("payments.stripe", ".vendors", False, frozenset((*_HTTP_CLIENTS, "stripe"))),
    PackEntry("platform.cloudflare-workers", ".platforms", True, frozenset((*_HTTP_CLIENTS, "wrangler"))),
    PackEntry("platform.firebase", ".platforms", True, frozenset(("firebase",))),
    PackEntry("platform.fly", ".vendors", True, frozenset((*_HTTP_CLIENTS, "fly", "flyctl"))),
    PackEntry("platform.github", ".platform.github", True, frozenset((*_HTTP_CLIENTS, "gh"))),
    PackEntry("platform.gitlab", ".platform.gitlab", True, frozenset((*_HTTP_CLIENTS, "glab"))),
    PackEntry("platform.heroku", ".vendors", True, frozenset((*_HTTP_CLIENTS, "heroku"))),
    PackEntry("platform.netlify", ".vendors", True, frozenset((*_HTTP_CLIENTS, "netlify"))),
    PackEntry("platform.railway", ".platforms", True, frozenset(("railway",))),
    PackEntry("platform.render", ".platforms", True, frozenset((*_HTTP_CLIENTS, "render"))),
    PackEntry("platform.supabase", ".platforms", True, frozenset((*_HTTP_CLIENTS, "supabase"))),
    PackEntry("platform.vercel", ".vendors", True, frozenset((*_HTTP_CLIENTS, "vercel"))),
    PackEntry("remote.rsync", ".remote.rsync", True, frozenset(("rsync",))),
    PackEntry("search.algolia", ".vendors", False, frozenset((*_HTTP_CLIENTS, "algolia"))),
    PackEntry("search.elasticsearch", ".vendors", False, frozenset(_HTTP_CLIENTS)),
    PackEntry("secrets.cloud", ".secrets.cloud", True, frozenset(("aws", "az", "gcloud"))),
    PackEntry("secrets.vault", ".secrets.vault", True, frozenset(("bao", "vault"))),
    PackEntry(
        "storage.s3",
        ".storage.s3",
        True,
        frozenset(("aws", "az", "azcopy", "gcloud", "gsutil", "mc", "rclone", "s3cmd")),
    ),
    PackEntry(
        "system.controls",
        ".system.controls",
        True,
        frozenset(
            (
                "aa-complain",
                "aa-disable",
                "aa-teardown",
                "apparmor_parser",
                "auditctl",
                "chkconfig",
                "csrutil",
                "defaults",
                "fdesetup",
                "firewall-cmd",
                "history",
                "ip6tables",
                "ip6tables-legacy",
                "ip6tables-nft",
                "iptables",
                "iptables-legacy",
                "iptables-nft",
                "kill",
                "killall",
                "launchctl",
                "nft",
                "nvram",
                "pfctl",
                "pkill",
                "rc-update",
                "security",
                "service",
                "set",
                "setenforce",
                "socketfilterfw",
                "spctl",
                "systemctl",
                "trust",
                "ufw",
                "unset",
                "update-rc.d",
            )
        ),
    ),
    PackEntry("system.machine", ".system.machine", True, _MACHINE_COMMANDS),
    PackEntry(
        "system.packages",
        ".system.packages",
        True,
        frozenset(
            (
                "apk",
                "apt",
                "apt-get",
                "aptitude",
                "brew",
                "conda",
                "dnf",
                "dnf5",
                "dpkg",
                "gem",
                "mamba",
                "microdnf",
                "npm",
                "pacman",
                "pip",
                "pip3",
                "rpm",
                "yum",
                "zypper",
                "micromamba",
            )
        ),
    ),
    PackEntry(
        "system.trust",
        ".system.trust",
        True,
        frozenset(("gem", "git", "go", "npm", "pip", "pip3", "pnpm", "python", "python3", "yarn")),
    ),
    PackEntry(
        "system.windows",
        ".system.windows",
        True,
        frozenset(
            (
                "add-adgroupmember",
                "add-localgroupmember",
                "add-mppreference",
                "bcdedit",
                "bitsadmin",
                "certutil",
                "cipher",
                "clear-disk",
                "clear-eventlog",
                "format",
                "format-volume",
                "format.com",
                "icacls",
                "net",
                "net1",
                "netsh",
                "new-itemproperty",
                "new-localuser",
                "ntdsutil",
                "procdump",
                "procdump64",
                "reagentc",
                "reg",
                "register-scheduledtask",
                "remove-eventlog",
                "remove-partition",
                "rundll32",
                "sc",
                "schtasks",
                "set-executionpolicy",
                "set-itemproperty",
                "set-mppreference",
                "set-netfirewallprofile",
                "start-bitstransfer",
                "wevtutil",
                "wsl",
                "wslconfig",
            )
        ),
    ),
    PackEntry(
        "system.macos",
        ".system.macos",
        True,
        _MACOS_COMMANDS,
    ),
)


def _by_command(entries: tuple[PackEntry, ...]) -> Mapping[str, tuple[PackEntry, ...]]:
    by_command: dict[str, list[PackEntry]] = {}
    for entry in entries:
        for name in sorted(entry.commands):
            by_command.setdefault(name, []).append(entry)
    return MappingProxyType({name: tuple(listed) for name, listed in by_command.items()})


PACKS_BY_COMMAND: Mapping[str, tuple[PackEntry, ...]] = _by_command(PACK_INDEX)
"""The packs whose rules some command name is listed for (`curl`: the code hosts and vendors)."""

PACK_NAMES: tuple[str, ...] = tuple(entry.name for entry in PACK_INDEX)


_LOADED: dict[str, Pack] = {}


def load_pack(entry: PackEntry) -> Pack:
    """The pack's declaration, importing its module on first use."""
    loaded = _LOADED.get(entry.name)
    if loaded is not None:
        return loaded
    module = importlib.import_module(entry.module, __package__)
    declared: Pack | None = getattr(module, "PACK", None)
    candidates: tuple[Pack, ...] = (declared,) if declared is not None else module.VENDOR_PACKS
    for pack in candidates:
        if pack.name == entry.name:
            _LOADED[entry.name] = pack
            return pack
    raise RegistryError(f"pack {entry.name!r} is not declared in audit.packs{entry.module}")


def loaded_packs() -> tuple[Pack, ...]:
    """The packs `load_pack` has loaded so far."""
    return tuple(_LOADED.values())
