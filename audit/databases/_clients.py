"""Database clients as data: where each one takes the statements it runs.

For the database packs: which options carry statements (`psql -c`), which
name a file of statements (`psql -f`), what the operands are (`sqlite3 DB
SQL...`), whether standard input is read, and the other options that take a
value (so that an argv reader does not take a value for an operand). Plain
declarations, meant to move into the engine's program-knowledge tables.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from ._model import SqlDialect


class Reads(str, Enum):
    """What a client's statements are written in, and so which classifier reads them."""

    SQL = "sql"
    REDIS = "redis"
    MONGO = "mongo"
    CYPHER = "cypher"


class OperandRole(str, Enum):
    DATABASE = "database"
    """A database name, file or connection string."""
    USER = "user"
    HOST = "host"
    PORT = "port"
    STATEMENT = "statement"
    """Statements (or client commands) to run."""
    SCRIPT = "script"
    """A file of statements to run."""
    COMMAND_WORD = "command-word"
    """The operands together are one command's argv."""
    STATEMENT_WORDS = "statement-words"
    """The operands together, joined with spaces, are the statements (`bq query DROP TABLE t`)."""


class OptionStyle(str, Enum):
    """How the client reads its options (what an argv reader must accept)."""

    GNU = "gnu"
    """getopt_long and alikes: `-xVALUE`, `-x VALUE`, `--long=VALUE`, `--long VALUE`, clusters, unique long prefixes."""
    SINGLE_DASH = "single-dash"
    """Long names with one dash (`-cmd VALUE`; two dashes also accepted); no clusters, no attached values."""
    GO_FLAGS = "go-flags"
    """Go's pflag: `-e VALUE`, `-eVALUE`, `--long=VALUE`, `--long VALUE`; no prefixes."""
    OPTPARSE = "optparse"
    """Python's optparse: as GNU, unique long prefixes included."""
    BOOST = "boost"
    """boost::program_options: `--long VALUE`, `--long=VALUE`, `-x VALUE`, `-xVALUE`; any `--setting=value`."""
    SEPARATE = "separate"
    """Each option its own word, its value the next word (`-h host`)."""
    YARGS = "yargs"
    """yargs-parser (mongosh): `--long VALUE`, `--long=VALUE`, `-x VALUE`."""


@dataclass(frozen=True, slots=True)
class DatabaseClient:
    name: str
    invocations: tuple[tuple[str, ...], ...]
    """The words that start the client: a program name, and for some a subcommand (`cockroach sql`)."""
    reads: Reads
    dialect: SqlDialect | None
    option_style: OptionStyle
    statement_options: tuple[str, ...]
    """The option's value is statements to run; each occurrence runs, in order."""
    file_options: tuple[str, ...]
    """The option's value is a file of statements (`-` is standard input where noted)."""
    value_options: tuple[str, ...]
    """Every other option that takes a value: connection, output, settings."""
    operands: tuple[OperandRole, ...] = ()
    """The roles of the leading operands, in order."""
    database_options: tuple[str, ...] = ()
    """The value options (listed in `value_options` too) whose value names the database the
    statements run in, as a DATABASE operand does."""
    more_operands: OperandRole | None = None
    """The role of every operand after those."""
    reads_stdin: bool = True
    """Statements are read from standard input when no option or operand gives any."""
    optional_value_options: tuple[str, ...] = ()
    """Options whose value must be attached (`-pSECRET`, `--password=SECRET`); alone they take none."""
    shell_options: tuple[str, ...] = ()
    """The option's value is a shell command the client runs."""
    shell_escapes_off: tuple[str, ...] = ()
    """Options that turn the client's shell commands off (`sqlite3 -safe`)."""
    dry_run_options: tuple[str, ...] = ()
    """Options under which the statements are checked, not run (`bq query --dry_run`)."""
    live_options: tuple[str, ...] = ()
    """When given, the options without one of which the statements run on a local development copy,
    not judged (`wrangler d1 execute` runs on the deployed database only with `--remote`)."""
    declared_in: str = ""
    """The module of `audit/programs` that declares the program, when it is a subcommand of a tool
    declared with its family (`bq query`: cloud.py); empty when the declaration is built from this table."""
    notes: str = ""

    def operand_role(self, index: int) -> OperandRole | None:
        """The role of the operand at `index` (None: the client takes no operand there)."""
        return self.operands[index] if index < len(self.operands) else self.more_operands


CLIENTS: tuple[DatabaseClient, ...] = (
    DatabaseClient(
        name="psql",
        invocations=(("psql",),),
        reads=Reads.SQL,
        dialect=SqlDialect.POSTGRES,
        option_style=OptionStyle.GNU,
        statement_options=("-c", "--command"),
        file_options=("-f", "--file"),
        database_options=("-d", "--dbname"),
        value_options=(
            "-d", "--dbname", "-h", "--host", "-p", "--port", "-U", "--username", "-v", "--set", "--variable",
            "-P", "--pset", "-F", "--field-separator", "-R", "--record-separator", "-T", "--table-attr",
            "-L", "--log-file", "-o", "--output",
        ),
        operands=(OperandRole.DATABASE, OperandRole.USER),
        notes=(
            "-c and -f repeat and run in order; a -c value is SQL or one backslash command; `-f -` reads standard "
            "input. `-o '|cmd'` pipes query output to a shell command. `-v name=value` sets a variable that "
            ":name interpolates into SQL. The database operand may be a connection string."
        ),
    ),
    DatabaseClient(
        name="heroku pg:psql",
        invocations=(("heroku", "pg:psql"),),
        reads=Reads.SQL,
        dialect=SqlDialect.POSTGRES,
        option_style=OptionStyle.GNU,
        statement_options=("-c", "--command"),
        file_options=("-f", "--file"),
        value_options=("-a", "--app", "-r", "--remote", "--credential"),
        operands=(OperandRole.DATABASE,),
        declared_in="vendors",
        notes=(
            "Heroku's psql on an app's database: -c and -f are handed to psql; the operand names the "
            "database add-on (DATABASE_URL by default). heroku and its options are declared with the vendor CLIs."
        ),
    ),
    DatabaseClient(
        name="mysql",
        invocations=(("mysql",), ("mariadb",)),
        reads=Reads.SQL,
        dialect=SqlDialect.MYSQL,
        option_style=OptionStyle.GNU,
        statement_options=("-e", "--execute", "--init-command"),
        file_options=(),
        database_options=("-D", "--database"),
        value_options=(
            "-h", "--host", "-P", "--port", "-u", "--user", "-D", "--database", "-S", "--socket", "--protocol",
            "--defaults-file", "--defaults-extra-file", "--defaults-group-suffix", "--login-path", "--ssl-ca",
            "--ssl-capath", "--ssl-cert", "--ssl-key", "--ssl-mode", "--ssl-cipher", "--tls-version",
            "--default-character-set", "--character-sets-dir", "--plugin-dir", "--default-auth",
            "--connect-timeout", "--max-allowed-packet", "--net-buffer-length", "--delimiter", "--prompt", "--tee",
            "--bind-address", "--server-public-key-path", "--compression-algorithms",
        ),
        operands=(OperandRole.DATABASE,),
        optional_value_options=("-p", "--password"),
        shell_options=("--pager",),
        notes=(
            "No option names a file of statements: `mysql db < file.sql` reads it on standard input, `source "
            "file` inside. --init-command runs on connecting. --delimiter changes where statements end. "
            "--pager=CMD (and the pager command) runs a shell command."
        ),
    ),
    DatabaseClient(
        name="sqlite3",
        invocations=(("sqlite3",),),
        reads=Reads.SQL,
        dialect=SqlDialect.SQLITE,
        option_style=OptionStyle.SINGLE_DASH,
        statement_options=("-cmd",),
        file_options=("-init",),
        value_options=("-separator", "-newline", "-nullvalue", "-vfs", "-maxsize", "-mmap", "-heap", "-escape"),
        operands=(OperandRole.DATABASE,),
        more_operands=OperandRole.STATEMENT,
        shell_escapes_off=("-safe",),
        notes=(
            "Each operand after the database is SQL or a dot command, run in order, and then standard input is "
            "not read. -cmd runs before them. -pagecache and -lookaside take two values; -A takes the rest."
        ),
    ),
    DatabaseClient(
        name="duckdb",
        invocations=(("duckdb",),),
        reads=Reads.SQL,
        dialect=SqlDialect.DUCKDB,
        option_style=OptionStyle.SINGLE_DASH,
        statement_options=("-c", "-cmd"),
        file_options=("-f", "-init"),
        value_options=("-separator", "-newline", "-nullvalue"),
        operands=(OperandRole.DATABASE,),
        more_operands=OperandRole.STATEMENT,
        shell_escapes_off=("-safe",),
        notes="sqlite3's shell: the same dot commands. -c runs and exits; -cmd runs before standard input.",
    ),
    DatabaseClient(
        name="sqlcmd",
        invocations=(("sqlcmd",),),
        reads=Reads.SQL,
        dialect=SqlDialect.TSQL,
        option_style=OptionStyle.SEPARATE,
        statement_options=("-Q", "-q", "--query", "--initial-query"),
        file_options=("-i", "--input-file"),
        database_options=("-d", "--database-name"),
        value_options=(
            "-S", "--server", "-U", "--user-name", "-P", "--password", "-d", "--database-name", "-H", "-l", "-t",
            "-o", "--output-file", "-a", "-c", "--batch-terminator", "-v", "--variables", "-f", "-s", "-w", "-h",
            "-m", "-V", "-K", "-z", "-Z", "-F", "--format",
        ),
        shell_escapes_off=("-X",),
        notes=(
            "-Q runs and exits, -q runs and stays. -i takes one or more files (comma-separated). -c renames the "
            "batch terminator GO. The value may also be attached (-Q\"...\")."
        ),
    ),
    DatabaseClient(
        name="clickhouse-client",
        invocations=(("clickhouse-client",), ("clickhouse", "client")),
        reads=Reads.SQL,
        dialect=SqlDialect.CLICKHOUSE,
        option_style=OptionStyle.BOOST,
        statement_options=("-q", "--query"),
        file_options=("--queries-file",),
        database_options=("-d", "--database"),
        value_options=(
            "-h", "--host", "--port", "-u", "--user", "--password", "-d", "--database", "-C", "--config-file",
            "-f", "--format", "--connection", "--query_id", "--history_file", "--stage",
        ),
        notes=(
            "Any server setting is an option with a value (--max_threads=8), and --param_NAME=VALUE fills "
            "{NAME:Type} in queries. With -n/--multiquery, queries may follow as operands."
        ),
    ),
    DatabaseClient(
        name="cockroach sql",
        invocations=(("cockroach", "sql"), ("cockroach", "demo"), ("cockroach-sql",)),
        reads=Reads.SQL,
        dialect=SqlDialect.COCKROACH,
        option_style=OptionStyle.GO_FLAGS,
        statement_options=("-e", "--execute"),
        file_options=("-f", "--file"),
        database_options=("-d", "--database"),
        value_options=(
            "--url", "--host", "--port", "-p", "--user", "-u", "--database", "-d", "--certs-dir", "--format",
            "--set", "--cluster-name", "--watch",
        ),
        notes="-e repeats; each value may hold several statements.",
    ),
    DatabaseClient(
        name="redis-cli",
        invocations=(("redis-cli",), ("valkey-cli",)),
        reads=Reads.REDIS,
        dialect=None,
        option_style=OptionStyle.SEPARATE,
        statement_options=(),
        file_options=(),
        value_options=(
            "-h", "-p", "-s", "-a", "--user", "--pass", "-u", "-n", "-r", "-i", "-d", "-D", "-t", "--sni",
            "--cacert", "--cacertdir", "--cert", "--key", "--tls-ciphers", "--tls-ciphersuites", "--show-pushes",
            "--lru-test", "--rdb", "--functions-rdb", "--pipe-timeout", "--memkeys-samples", "--pattern",
            "--quoted-pattern", "--count", "--intrinsic-latency", "--eval",
        ),
        more_operands=OperandRole.COMMAND_WORD,
        notes=(
            "With no command operands and standard input not a terminal, each input line is a command; -x reads "
            "the last argument from standard input; --pipe reads raw protocol. --eval FILE runs a Lua script on "
            "the server. `--cluster call HOST:PORT CMD ...` runs CMD on every node."
        ),
    ),
    DatabaseClient(
        name="mongosh",
        invocations=(("mongosh",), ("mongo",)),
        reads=Reads.MONGO,
        dialect=None,
        option_style=OptionStyle.YARGS,
        statement_options=("--eval",),
        file_options=("-f", "--file"),
        value_options=(
            "--host", "--port", "-u", "--username", "-p", "--password", "--authenticationDatabase",
            "--authenticationMechanism", "--tlsCAFile", "--tlsCertificateKeyFile", "--tlsCertificateKeyFilePassword",
            "--tlsCRLFile", "--apiVersion", "--awsAccessKeyId", "--awsSecretAccessKey", "--awsSessionToken",
            "--gssapiServiceName", "--keyVaultNamespace", "--kmsURL",
        ),
        operands=(OperandRole.DATABASE,),
        more_operands=OperandRole.SCRIPT,
        notes=(
            "The first operand is the connection string or database address unless it ends in .js; every .js "
            "operand is a script to run. --eval repeats. The legacy mongo shell reads the same way."
        ),
    ),
    DatabaseClient(
        name="cqlsh",
        invocations=(("cqlsh",),),
        reads=Reads.SQL,
        dialect=SqlDialect.CQL,
        option_style=OptionStyle.OPTPARSE,
        statement_options=("-e", "--execute"),
        file_options=("-f", "--file"),
        value_options=(
            "-u", "--username", "-p", "--password", "-k", "--keyspace", "--cqlshrc", "--cqlversion",
            "--protocol-version", "--connect-timeout", "--request-timeout", "--encoding", "-b",
            "--secure-connect-bundle", "--credentials",
        ),
        operands=(OperandRole.HOST, OperandRole.PORT),
    ),
    DatabaseClient(
        name="snowsql",
        invocations=(("snowsql",),),
        reads=Reads.SQL,
        dialect=SqlDialect.SNOWFLAKE,
        option_style=OptionStyle.GNU,
        statement_options=("-q", "--query"),
        file_options=("-f", "--filename"),
        database_options=("-d", "--dbname"),
        value_options=(
            "-a", "--accountname", "-u", "--username", "-d", "--dbname", "-s", "--schemaname", "-r", "--rolename",
            "-w", "--warehouse", "-h", "--host", "-p", "--port", "--region", "-m", "--mfa-passcode",
            "--authenticator", "-c", "--connection", "-D", "--variable", "-o", "--option", "--config",
            "--private-key-path",
        ),
        notes=(
            "-q runs and exits; -f repeats. Its own commands start with `!` (`!source`, `!spool`, `!system`) "
            "and are not read."
        ),
    ),
    DatabaseClient(
        name="cypher-shell",
        invocations=(("cypher-shell",),),
        reads=Reads.CYPHER,
        dialect=None,
        option_style=OptionStyle.GNU,
        statement_options=(),
        file_options=("-f", "--file"),
        database_options=("-d", "--database"),
        value_options=(
            "-a", "--address", "--uri", "-u", "--username", "-p", "--password", "-d", "--database",
            "--encryption", "--format", "-P", "--param", "--access-mode", "--sample-rows", "--wrap",
            "--idle-timeout", "--log", "--history", "--notifications",
        ),
        more_operands=OperandRole.STATEMENT,
        notes="Neo4j's shell: the Cypher is the operand, a -f file, or standard input.",
    ),
    DatabaseClient(
        name="bq query",
        invocations=(("bq", "query"),),
        reads=Reads.SQL,
        dialect=SqlDialect.BIGQUERY,
        option_style=OptionStyle.GO_FLAGS,
        statement_options=(),
        file_options=(),
        value_options=(),
        more_operands=OperandRole.STATEMENT_WORDS,
        dry_run_options=("--dry_run",),
        declared_in="cloud",
        notes=(
            "The query is the operands joined with spaces (one quoted word as a rule), or standard "
            "input when there are none. bq's flags are absl's (`--flag=value`, `--noflag`); bq and its options "
            "are declared with the cloud CLIs."
        ),
    ),
    DatabaseClient(
        name="wrangler d1 execute",
        invocations=(("wrangler", "d1", "execute"),),
        reads=Reads.SQL,
        dialect=SqlDialect.SQLITE,
        option_style=OptionStyle.YARGS,
        statement_options=("--command",),
        file_options=("--file",),
        value_options=("-c", "--config", "-e", "--env", "--persist-to"),
        operands=(OperandRole.DATABASE,),
        reads_stdin=False,
        live_options=("--remote",),
        declared_in="vendors",
        notes=(
            "Cloudflare D1, SQLite's dialect. Since wrangler 3 the statements run on a local copy unless "
            "`--remote` is given (`--local` is the default), so only remote runs are judged. wrangler and its "
            "options are declared with the vendor CLIs."
        ),
    ),
)  # fmt: skip


def _clients_by_program() -> dict[str, tuple[DatabaseClient, ...]]:
    by_program: dict[str, list[DatabaseClient]] = {}
    for client in CLIENTS:
        for invocation in client.invocations:
            by_program.setdefault(invocation[0], []).append(client)
    return {name: tuple(clients) for name, clients in by_program.items()}


_CLIENTS_BY_PROGRAM = _clients_by_program()


def client_invoked(program: str, path: tuple[str, ...]) -> DatabaseClient | None:
    """The client the program `program` starts with the subcommand path `path` (as an argv reader
    found it: `cockroach sql` is `("cockroach", ("sql",))`), or None."""
    for client in _CLIENTS_BY_PROGRAM.get(program, ()):
        for invocation in client.invocations:
            if invocation[0] == program and invocation[1:] == path:
                return client
    return None


def client_for(argv: Sequence[str]) -> DatabaseClient | None:
    """The client an argv starts (by the program's base name, and its subcommand where it has one)."""
    if not argv:
        return None
    words = (os.path.basename(argv[0]), *argv[1:])
    for client in CLIENTS:
        for invocation in client.invocations:
            if tuple(words[: len(invocation)]) == invocation:
                return client
    return None
