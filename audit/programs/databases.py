"""Database clients and tools, and the migration tools of application frameworks.

The clients (psql, mysql, sqlite3, redis-cli, mongosh...) are described once,
as data, in `audit.databases.CLIENTS` (which options carry statements, which
name a file, which take values, the operand roles); their program
declarations here are built from that table, so an argv is read the way the
client reads it. The database tools (dropdb, mysqladmin...) and the
frameworks' command-line tools (rails, prisma, alembic...) are declared as
usual.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from ..databases import CLIENTS, DatabaseClient, OptionStyle
from ._grammar import GNU, Option, Syntax, attached, flag, valued
from ._program import HelpForms, Program, Subcommand
from ._tree import leaf, tree
from .interpreters import interpreter_program

# How each option style reads an argv (see OptionStyle).
_SYNTAX: Mapping[OptionStyle, Syntax] = MappingProxyType(
    {
        OptionStyle.GNU: GNU,
        OptionStyle.OPTPARSE: GNU,
        OptionStyle.SINGLE_DASH: Syntax(clusters=False),
        OptionStyle.GO_FLAGS: Syntax(),
        OptionStyle.BOOST: Syntax(),
        OptionStyle.YARGS: Syntax(),
        # redis-cli's options end at the first command word; sqlcmd has no operands.
        OptionStyle.SEPARATE: Syntax(clusters=False, permute=False),
    }
)


def _options(client: DatabaseClient) -> tuple[Option, ...]:
    valued_spellings = dict.fromkeys(
        (*client.statement_options, *client.file_options, *client.value_options, *client.shell_options)
    )
    return (
        *(valued(spelling) for spelling in valued_spellings),
        *(attached(spelling) for spelling in client.optional_value_options),
        *(flag(spelling) for spelling in client.shell_escapes_off),
    )


def _programs() -> tuple[Program, ...]:
    """One program per client name; a client started by a subcommand (`cockroach sql`) is a
    subcommand of its program."""
    plain: dict[str, Program] = {}
    by_subcommand: dict[str, list[Subcommand]] = {}
    for client in CLIENTS:
        if client.declared_in:
            continue
        syntax = _SYNTAX[client.option_style]
        options = _options(client)
        for invocation in client.invocations:
            if len(invocation) == 1:
                plain[invocation[0]] = Program((invocation[0],), syntax=syntax, options=options)
            else:
                subcommand = Subcommand((invocation[1],), options=options, syntax=syntax)
                by_subcommand.setdefault(invocation[0], []).append(subcommand)
    nested = tuple(Program((name,), subcommands=tuple(subcommands)) for name, subcommands in by_subcommand.items())
    return (*plain.values(), *nested)


CLIENT_PROGRAMS: tuple[Program, ...] = _programs()
"""The database clients, read as `audit.databases.CLIENTS` describes them."""

_HELP = (flag("-?", "--help"), flag("-V", "--version"))
_PG_CONNECTION = (
    valued("-h", "--host"),
    valued("-p", "--port"),
    valued("-U", "--username"),
    flag("-w", "--no-password"),
    flag("-W", "--password"),
    valued("--maintenance-db"),
)

DATABASE_TOOLS: tuple[Program, ...] = (
    Program(
        ("dropdb",),
        options=(
            *_HELP,
            *_PG_CONNECTION,
            flag("-e", "--echo"),
            flag("-f", "--force"),
            flag("-i", "--interactive"),
            flag("--if-exists"),
        ),
        operands=("DBNAME",),
    ),
    Program(("pg_dropcluster",), options=(flag("--stop"), flag("--help")), operands=("VERSION", "CLUSTER")),
    Program(
        ("pg_restore",),
        options=(
            *_PG_CONNECTION,
            valued("-d", "--dbname"),
            valued("-f", "--file"),
            valued("-F", "--format"),
            valued("-j", "--jobs"),
            valued("-n", "--schema"),
            valued("-t", "--table"),
            flag("-c", "--clean"),
            flag("-C", "--create"),
            flag("--if-exists"),
            flag("-l", "--list"),
            flag("-a", "--data-only"),
        ),
        operands=("FILE",),
    ),
    Program(
        ("mysqladmin", "mariadb-admin"),
        options=(
            valued("-h", "--host"),
            valued("-P", "--port"),
            valued("-u", "--user"),
            attached("-p", "--password"),
            valued("-S", "--socket"),
            flag("-f", "--force"),
        ),
        subcommands=tree(leaf("drop", operands=("DB",)), leaf("shutdown"), leaf("status"), leaf("ping")),
    ),
    Program(
        ("pg_ctl",),
        options=(
            valued("-D", "--pgdata"),
            valued("-m", "--mode"),
            valued("-l", "--log"),
            valued("-o", "--options"),
            valued("-t", "--timeout"),
            flag("-w", "--wait"),
            flag("-W", "--no-wait"),
            flag("-s", "--silent"),
        ),
        global_options_anywhere=True,
        subcommands=tree("start", "stop", "restart", "reload", "status", "promote", "kill", "init|initdb"),
    ),
    Program(
        ("dropuser",),
        options=(*_HELP, *_PG_CONNECTION, flag("-e", "--echo"), flag("-i", "--interactive"), flag("--if-exists")),
        operands=("ROLENAME",),
    ),
    Program(
        ("pg_resetwal", "pg_resetxlog"),
        options=(valued("-D", "--pgdata"), flag("-f", "--force"), flag("-n", "--dry-run"), *_HELP),
        operands=("DATADIR",),
    ),
    Program(
        ("influx",),
        options=(valued("--host"), valued("-t", "--token"), valued("-o", "--org"), valued("--org-id")),
        global_options_anywhere=True,
        subcommands=tree(
            leaf("bucket delete", valued("-n", "--name"), valued("-i", "--id")),
            leaf("org delete", valued("-i", "--id")),
            leaf("delete", valued("-b", "--bucket"), valued("--bucket-id"), valued("--start"), valued("--stop")),
            "bucket list|ls",
            "query",
            "write",
        ),
    ),
    # The hosted databases' CLIs: what they delete is the database and every branch of it.
    Program(
        ("neonctl", "neon"),
        options=(valued("--project-id"), valued("--api-key"), valued("-o", "--output")),
        global_options_anywhere=True,
        subcommands=tree("projects delete", "branches delete", "databases delete", "projects list", "branches list"),
    ),
    Program(
        ("pscale",),
        options=(valued("--org"), valued("--service-token"), valued("--service-token-id")),
        global_options_anywhere=True,
        subcommands=tree(
            "database delete", "branch delete", "database list", "branch list", options=(flag("--force"),)
        ),
    ),
    Program(
        ("turso",),
        global_options_anywhere=True,
        subcommands=tree("db destroy", "group destroy", "db list", "db shell", options=(flag("-y", "--yes"),)),
    ),
    Program(
        ("mongorestore",),
        options=(valued("--uri"), valued("-d", "--db"), valued("-c", "--collection"), flag("--drop"), flag("--dryRun")),
        operands=("PATH",),
    ),
)

# -- application frameworks --------------------------------------------------------------------

_FORCE = flag("-f", "--force")

FRAMEWORK_TOOLS: tuple[Program, ...] = (
    # Framework management scripts run by their interpreter: `python manage.py flush`, `php artisan db:wipe`.
    interpreter_program("python", ("python", "python3")),
    interpreter_program("php", ("php",)),
    # Rails and rake take task names as operands (`rails db:drop db:create`).
    Program(("rails", "rake"), options=(valued("-e", "--environment"), flag("--trace")), operands=("TASK...",)),
    Program(
        ("prisma",),
        options=(valued("--schema"),),
        global_options_anywhere=True,
        subcommands=tree(
            leaf("migrate reset", _FORCE, flag("--skip-seed"), flag("--skip-generate")),
            leaf("migrate dev", valued("--name"), flag("--create-only")),
            leaf("migrate deploy"),
            leaf("db push", flag("--force-reset"), flag("--accept-data-loss"), flag("--skip-generate")),
            leaf("generate"),
        ),
    ),
    Program(
        ("sequelize", "sequelize-cli"),
        options=(valued("--env"), valued("--config")),
        global_options_anywhere=True,
        subcommands=tree(leaf("db:drop"), leaf("db:migrate:undo:all"), leaf("db:seed:undo:all"), leaf("db:migrate")),
    ),
    Program(
        ("typeorm", "typeorm-ts-node-commonjs", "typeorm-ts-node-esm"),
        options=(valued("-d", "--dataSource"),),
        global_options_anywhere=True,
        subcommands=tree(leaf("schema:drop"), leaf("schema:sync"), leaf("migration:run"), leaf("migration:revert")),
    ),
    Program(
        ("knex",),
        options=(valued("--env"), valued("--knexfile")),
        global_options_anywhere=True,
        subcommands=tree(leaf("migrate:rollback", flag("--all")), leaf("migrate:latest")),
    ),
    Program(
        ("alembic",),
        options=(valued("-c", "--config"), valued("-n", "--name"), valued("-x")),
        subcommands=tree(
            leaf("downgrade", flag("--sql"), operands=("REVISION",)),
            leaf("upgrade", flag("--sql"), operands=("REVISION",)),
            leaf("current"),
        ),
    ),
    Program(
        ("dotnet",),
        subcommands=tree(
            leaf("ef database drop", _FORCE, flag("--dry-run"), valued("-c", "--context"), valued("-p", "--project")),
            leaf("ef database update", valued("-c", "--context"), valued("-p", "--project"), operands=("MIGRATION",)),
            # Packages pushed to and deleted from a NuGet feed: the packages.publish pack's.
            leaf(
                "nuget push",
                valued("-s", "--source"),
                valued("-k", "--api-key"),
                valued("-ss", "--symbol-source"),
                valued("-sk", "--symbol-api-key"),
                valued("-t", "--timeout"),
                flag("--skip-duplicate"),
                flag("-n", "--no-symbols"),
                flag("--interactive"),
                flag("--force-english-output"),
                operands=("PACKAGE",),
            ),
            leaf(
                "nuget delete",
                valued("-s", "--source"),
                valued("-k", "--api-key"),
                flag("--non-interactive"),
                flag("--interactive"),
                flag("--force-english-output"),
                operands=("PACKAGE", "VERSION"),
            ),
        ),
    ),
    Program(
        ("supabase",),
        options=(valued("--workdir"),),
        global_options_anywhere=True,
        help_forms=HelpForms(("-h", "--help")),
        subcommands=tree(
            leaf("db reset", flag("--linked"), flag("--local"), valued("--db-url")),
            leaf("db push"),
            leaf("start"),
            # The hosted platform: the platform.supabase pack's.
            leaf("projects delete", operands=("REF",)),
            leaf("projects list"),
            leaf("branches delete", operands=("BRANCH",)),
            leaf("branches list"),
            leaf("storage rm", flag("-r", "--recursive"), flag("--experimental"), operands=("PATH...",)),
            leaf("storage ls", flag("-r", "--recursive"), flag("--experimental"), operands=("PATH",)),
        ),
    ),
    Program(("flyway",), syntax=Syntax(clusters=False), subcommands=tree(leaf("clean"), leaf("migrate"), leaf("info"))),
    Program(("liquibase",), subcommands=tree(leaf("dropAll|drop-all"), leaf("update"), leaf("status"))),
    Program(("mix",), operands=("TASK...",)),
    # dbt builds a warehouse's tables from its models; `--full-refresh` drops and rebuilds them.
    Program(
        ("dbt",),
        options=(valued("--profiles-dir"), valued("--project-dir")),
        global_options_anywhere=True,
        subcommands=tree(
            *("run", "build", "seed", "snapshot", "test", "compile"),
            options=(
                flag("--full-refresh"),
                valued("-t", "--target"),
                valued("-s", "--select"),
                valued("--exclude"),
                valued("--vars"),
                valued("--threads"),
                flag("-x", "--fail-fast"),
                flag("--empty"),
            ),
        ),
    ),
)

DATABASE_PROGRAMS: tuple[Program, ...] = (*CLIENT_PROGRAMS, *DATABASE_TOOLS, *FRAMEWORK_TOOLS)
