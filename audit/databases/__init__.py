"""Classify the statements database clients run: which destroy data, and how badly.

The threat packs for databases call these on the statements a command line
carries (`psql -c`, `mysql -e`, `sqlite3 db 'SQL'`, heredocs, `-f` files
written in the same command). They only read text: nothing here connects to a
database. The SQL tokenizer (sqlglot) and the JavaScript grammar are loaded on
first use, so `import audit` does not pay for them.

>>> [(f.kind.value, f.target) for f in classify_sql("SELECT count(*) FROM users; DROP TABLE users", "postgres")]
[('drop-table', 'users')]
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_names

if TYPE_CHECKING:  # what the names are, for type checkers; `__getattr__` loads them at run time
    from ._clients import CLIENTS as CLIENTS
    from ._clients import DatabaseClient as DatabaseClient
    from ._clients import OperandRole as OperandRole
    from ._clients import OptionStyle as OptionStyle
    from ._clients import Reads as Reads
    from ._clients import client_for as client_for
    from ._clients import client_invoked as client_invoked
    from ._cypher import classify_cypher as classify_cypher
    from ._model import UNKNOWN as UNKNOWN
    from ._model import DatabaseInputError as DatabaseInputError
    from ._model import SqlDialect as SqlDialect
    from ._model import StatementFinding as StatementFinding
    from ._model import StatementKind as StatementKind
    from ._mongo import classify_mongo as classify_mongo
    from ._redis import classify_redis as classify_redis
    from ._sql import classify_sql as classify_sql

# Public name -> the submodule that defines it. The engine reads the client table at import
# (for the program declarations) but loads the classifiers only when a command carries
# statements: they cost tens of milliseconds to import.
_HOMES = {
    "CLIENTS": "._clients",
    "DatabaseClient": "._clients",
    "OperandRole": "._clients",
    "OptionStyle": "._clients",
    "Reads": "._clients",
    "client_for": "._clients",
    "client_invoked": "._clients",
    "DatabaseInputError": "._model",
    "SqlDialect": "._model",
    "StatementFinding": "._model",
    "StatementKind": "._model",
    "UNKNOWN": "._model",
    "classify_cypher": "._cypher",
    "classify_mongo": "._mongo",
    "classify_redis": "._redis",
    "classify_sql": "._sql",
}

__all__ = [
    "CLIENTS",
    "UNKNOWN",
    "DatabaseClient",
    "DatabaseInputError",
    "OperandRole",
    "OptionStyle",
    "Reads",
    "SqlDialect",
    "StatementFinding",
    "StatementKind",
    "classify_cypher",
    "classify_mongo",
    "classify_redis",
    "classify_sql",
    "client_for",
    "client_invoked",
]


__getattr__, __dir__ = lazy_names(__name__, _HOMES, globals())
