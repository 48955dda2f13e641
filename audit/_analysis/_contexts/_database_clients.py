"""Shell commands a database client runs: psql's `\\!`, mysql's `system` and `\\!`, sqlite3's
`.shell` and `.system`, a pipe to a command (`\\o |CMD`, `.output |CMD`), PostgreSQL's `COPY ...
PROGRAM 'CMD'`, and options whose value is a command (`mysql --pager=CMD`).

The statements come from wherever the client takes them (`_client_statements`: `-c`, operands,
heredocs, files written earlier in the same string), and `audit.databases` finds the shell
commands in them; each is audited as shell code one level deeper, as `bash -c` is, so
`psql -c '\\! rm -rf ~'` is judged as `rm -rf ~`. (The database packs' risky-statement rules
still say the client runs a shell command: that is true of `\\! ls` too.) A command with a
run-time part the statements hold is not known, and is left to those rules.

The client table and the classifiers are imported by the first client command, not with the
walk: most command strings run none.
"""

from __future__ import annotations

from ..._syntax import Origin
from ...programs import read_command
from .._risks import NO_RISKS
from .._subjects import ContextKind, Risk
from ._call import Call, ContextWalk
from ._code import code_string

DATABASE_CLIENT_NAMES = frozenset(
    {
        "psql", "mysql", "mariadb", "sqlite3", "duckdb", "sqlcmd", "clickhouse-client", "clickhouse",
        "cockroach", "cockroach-sql", "cqlsh", "snowsql", "bq", "heroku", "wrangler",
    }
)  # fmt: skip
"""The programs that start a SQL client (`audit.databases.CLIENTS`) or one with an option whose
value is a shell command: their statements or options may run one (a test rebuilds the set)."""


def database_client_code(call: Call, walk: ContextWalk) -> frozenset[Risk]:
    """The shell commands `call`, a database client, runs from its options and statements."""
    from ...databases import StatementKind, client_invoked
    from .._client_statements import classified, client_statements

    read = read_command(call.name, call.args)
    client = client_invoked(call.name, read.path)
    if client is None:
        return NO_RISKS
    risks = NO_RISKS
    for use in read.uses(*client.shell_options) if client.shell_options else ():
        if use.value is not None:
            label = f"{call.name} {use.spelling}"
            risks = risks | code_string(walk, ContextKind.RUNNER, label, (use.value,), "shell", call.frame)
    if client.shell_escapes_off and read.has(*client.shell_escapes_off):
        return risks

    def written(value: str) -> str | None:
        script = walk.written_script(value)
        return script.text if script is not None else None

    for statements in client_statements(client, read, call.stdin, written):
        for finding in classified(client, statements.text):
            if finding.kind is StatementKind.SHELL_OUT and finding.target is not None:
                label = f"{call.name}: {finding.evidence}"
                origin = Origin.derived_from(statements.span)
                risks = risks | walk.nested_code(finding.target, origin, label, statements.span, call.frame)
    return risks
