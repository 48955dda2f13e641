"""database.sqlserver: SQL Server: statements run through sqlcmd."""

from __future__ import annotations

from ...rules._pack import Pack
from ._statements import DEFAULT_REASON, statement_rules

PACK = Pack(
    name="database.sqlserver",
    summary="SQL Server: statements run through sqlcmd.",
    default=True,
    reason=DEFAULT_REASON,
    rules=statement_rules(
        ids=("DB601", "DB602"),
        label="sqlserver",
        database="SQL Server",
        programs=("sqlcmd",),
        destroying=("sqlcmd -S db -Q 'DROP DATABASE Sales'", "sqlcmd -Q 'TRUNCATE TABLE dbo.Orders'"),
        not_destroying=("sqlcmd -S db -Q 'SELECT @@VERSION'", "sqlcmd -i setup.sql"),
        risky=("sqlcmd -Q 'DROP PROCEDURE dbo.Cleanup'", "sqlcmd -Q 'DROP LOGIN app'"),
        not_risky=("sqlcmd -Q 'SELECT name FROM sys.databases'", "sqlcmd -Q 'EXEC dbo.Report'"),
    ),
)
