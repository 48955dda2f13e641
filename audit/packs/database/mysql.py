"""database.mysql: MySQL and MariaDB: statements run through mysql/mariadb, mysqladmin drop and shutdown."""

from __future__ import annotations

from ..._model import Severity
from ...rules._pack import Pack
from .._invocation import command, pack_rule
from ._statements import DEFAULT_REASON, statement_rules, superuser_rule

MYSQL_STATEMENTS = statement_rules(
    ids=("DB201", "DB202"),
    label="mysql",
    database="MySQL or MariaDB",
    programs=("mysql", "mariadb"),
    destroying=(
        "mysql -u root -e 'DROP DATABASE shop'",
        "mysql shop -e 'UPDATE users SET role = \"admin\"'",
        "mariadb -e 'TRUNCATE TABLE sessions' app",
    ),
    not_destroying=(
        "mysql -e 'SHOW DATABASES'",
        "mysql shop -e 'DELETE FROM carts WHERE updated_at < NOW() - INTERVAL 30 DAY'",
    ),
    risky=("mysql -e 'DROP USER bob'", "mysql -e 'SHUTDOWN'"),
    not_risky=("mysql -e 'SELECT VERSION()'", "mysql shop < schema.sql"),
)

MYSQL_TOOLS = pack_rule(
    id="DB203",
    name="mysql-drop-database-tool",
    severity=Severity.HIGH,
    summary="`mysqladmin drop` drops a MySQL or MariaDB database.",
    rationale="It is `DROP DATABASE` from the shell (with `-f`, without asking): every table goes.",
    safer_alternative="Dump it first (`mysqldump shop > shop.sql`), and drop only databases made for the task.",
    matches=(command(("mysqladmin", "mariadb-admin"), "drop"),),
    message="drops a MySQL database",
    must_match=("mysqladmin -u root -f drop shop", "mariadb-admin drop test_db"),
    must_not_match=("mysqladmin status", "mysqladmin -u root ping"),
)

MYSQL_SHUTDOWN = pack_rule(
    id="DB205",
    name="mysql-server-shutdown",
    severity=Severity.MEDIUM,
    summary="`mysqladmin shutdown` stops a MySQL or MariaDB server.",
    rationale="Every connection is cut and the applications using it fail until it is started again.",
    safer_alternative="Stop only a server made for the task, through its service manager (`systemctl stop mysql`).",
    matches=(command(("mysqladmin", "mariadb-admin"), "shutdown"),),
    message="stops a MySQL server",
    must_match=("mysqladmin -u root shutdown", "mariadb-admin -h db.internal -u admin -p shutdown"),
    must_not_match=("mysqladmin -u root status", "mariadb-admin ping"),
)

MYSQL_SUPERUSER = superuser_rule(
    id="DB204",
    label="mysql",
    database="MySQL or MariaDB",
    programs=("mysql", "mariadb"),
    granting=(
        "mysql -u root -e \"GRANT ALL ON *.* TO 'ops'@'%'\"",
        "mariadb -e 'GRANT SUPER ON *.* TO backup'",
        "mysql -e \"GRANT SELECT ON *.* TO 'r'@'%' WITH GRANT OPTION\"",
    ),
    not_granting=(
        "mysql -e \"GRANT ALL ON shop.* TO 'shop'@'localhost'\"",
        "mysql -e \"CREATE USER 'shop'@'localhost' IDENTIFIED BY 'pw'\"",
    ),
)

PACK = Pack(
    name="database.mysql",
    summary="MySQL and MariaDB: statements run through mysql/mariadb, mysqladmin drop and shutdown.",
    default=True,
    reason=DEFAULT_REASON,
    rules=(*MYSQL_STATEMENTS, MYSQL_TOOLS, MYSQL_SUPERUSER, MYSQL_SHUTDOWN),
)
