"""Which module declares each program of the families the core analysis does not need.

A hook audits one command; importing every family's declarations (the cloud
CLIs, databases, vendors) is much of the engine's start-up. `KNOWN` imports a
family's module the first time a command names one of its programs.
`tests/audit/test_lazy_loading.py` rebuilds this index from the real
modules, so it cannot go stale.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from .._named_tuple import NamedTuple


class Family(NamedTuple):
    """A module of program declarations loaded on first use."""

    module: str
    """Relative to `audit.programs`."""
    attribute: str
    """The module's tuple of `Program`s."""
    names: tuple[str, ...]
    """Every name of every program it declares, in declaration order."""


LAZY_FAMILIES: tuple[Family, ...] = (
    Family(".vcs", "VCS_PROGRAMS", ("git",)),
    Family(".code_hosts", "CODE_HOST_PROGRAMS", ("gh", "glab")),
    Family(
        ".containers",
        "CONTAINER_PROGRAMS",
        ("docker", "podman", "nerdctl", "docker-compose", "podman-compose", "ctr", "systemd-nspawn"),
    ),
    Family(
        ".cloud",
        "CLOUD_PROGRAMS",
        ("aws", "eksctl", "gcloud", "bq", "firebase", "az", "gsutil", "rclone", "mc", "s3cmd", "azcopy"),
    ),
    Family(".secrets", "SECRETS_PROGRAMS", ("vault", "bao")),
    Family(
        ".controls",
        "CONTROL_PROGRAMS",
        (
            "iptables",
            "ip6tables",
            "iptables-legacy",
            "ip6tables-legacy",
            "iptables-nft",
            "ip6tables-nft",
            "nft",
            "ufw",
            "firewall-cmd",
            "pfctl",
            "setenforce",
            "aa-teardown",
            "aa-disable",
            "aa-complain",
            "apparmor_parser",
            "auditctl",
            "service",
            "spctl",
            "csrutil",
            "fdesetup",
            "nvram",
            "defaults",
            "socketfilterfw",
            "security",
            "trust",
        ),
    ),
    Family(
        ".machine",
        "MACHINE_PROGRAMS",
        (
            "insmod",
            "modprobe",
            "rmmod",
            "kexec",
            "mount",
            "umount",
            "kill",
            "loginctl",
            "ip",
            "ifconfig",
            "ifdown",
            "nmcli",
        ),
    ),
    Family(".iac", "IAC_PROGRAMS", ("terraform", "tofu", "terragrunt", "pulumi", "cdk", "cdktf", "serverless", "sls")),
    Family(
        ".databases",
        "DATABASE_PROGRAMS",
        (
            "psql",
            "mysql",
            "mariadb",
            "sqlite3",
            "duckdb",
            "sqlcmd",
            "clickhouse-client",
            "cockroach-sql",
            "redis-cli",
            "valkey-cli",
            "mongosh",
            "mongo",
            "cqlsh",
            "snowsql",
            "cypher-shell",
            "clickhouse",
            "cockroach",
            "dropdb",
            "pg_dropcluster",
            "pg_restore",
            "mysqladmin",
            "mariadb-admin",
            "pg_ctl",
            "dropuser",
            "pg_resetwal",
            "pg_resetxlog",
            "influx",
            "neonctl",
            "neon",
            "pscale",
            "turso",
            "mongorestore",
            "python",
            "python3",
            "php",
            "rails",
            "rake",
            "prisma",
            "sequelize",
            "sequelize-cli",
            "typeorm",
            "typeorm-ts-node-commonjs",
            "typeorm-ts-node-esm",
            "knex",
            "alembic",
            "dotnet",
            "supabase",
            "flyway",
            "liquibase",
            "mix",
        ),
    ),
    Family(
        ".vendors",
        "VENDOR_PROGRAMS",
        (
            "heroku",
            "vercel",
            "netlify",
            "fly",
            "flyctl",
            "doctl",
            "stripe",
            "wrangler",
            "fastly",
            "ldcli",
            "twilio",
            "algolia",
            "sentry-cli",
            "circleci",
            "deck",
            "restic",
            "borg",
            "kafka-topics",
            "kafka-topics.sh",
            "rabbitmqctl",
            "rabbitmqadmin",
            "hcloud",
            "openstack",
            "etcdctl",
            "nomad",
            "consul",
        ),
    ),
    Family(
        ".windows",
        "WINDOWS_PROGRAMS",
        (
            "reg",
            "schtasks",
            "bcdedit",
            "reagentc",
            "wevtutil",
            "netsh",
            "cipher",
            "sc",
            "set-mppreference",
            "add-mppreference",
            "set-netfirewallprofile",
            "clear-eventlog",
            "remove-eventlog",
            "new-itemproperty",
            "set-itemproperty",
            "register-scheduledtask",
            "net",
            "net1",
            "rundll32",
            "procdump",
            "procdump64",
            "ntdsutil",
            "certutil",
            "bitsadmin",
            "add-localgroupmember",
            "add-adgroupmember",
            "new-localuser",
            "start-bitstransfer",
            "format",
            "format.com",
            "format-volume",
            "clear-disk",
            "remove-partition",
            "wsl",
            "wslconfig",
            "set-executionpolicy",
            "icacls",
            "taskkill",
            "stop-process",
        ),
    ),
    Family(
        ".macos",
        "MACOS_PROGRAMS",
        ("xattr", "networksetup", "osascript", "tccutil", "dscl", "dseditgroup", "sysadminctl", "launchctl"),
    ),
)

FAMILY_OF: Mapping[str, Family] = MappingProxyType({name: family for family in LAZY_FAMILIES for name in family.names})
"""The family that declares a program, by command name."""
