"""database.others: Snowflake (snowsql) and Neo4j (cypher-shell) statements, InfluxDB deletes, the
hosted databases' CLIs deleting a database (Neon, PlanetScale, Turso), and stores deleted through
their HTTP API (Elasticsearch and OpenSearch indices, CouchDB databases, InfluxDB buckets, Solr
cores and collections)."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlsplit

from ..._model import Severity
from ...programs import Arg
from ...rules._pack import Pack
from .._http import api_calls, body_matches, request_urls, url_path
from .._invocation import Found, command, pack_rule
from ._statements import DEFAULT_REASON, disposable_database, statement_rules

SNOWFLAKE_STATEMENTS = statement_rules(
    ids=("DB003", "DB004"),
    label="snowflake",
    database="Snowflake",
    programs=("snowsql",),
    destroying=("snowsql -q 'DROP DATABASE prod'", "snowsql -c prod --query 'TRUNCATE TABLE events'"),
    not_destroying=("snowsql -q 'SELECT CURRENT_VERSION()'", "snowsql -f load.sql"),
    risky=("snowsql -q 'DROP VIEW daily_rollup'", "snowsql -q \"ALTER USER etl SET PASSWORD = 'x'\""),
    not_risky=("snowsql -q 'SHOW WAREHOUSES'", "snowsql -q 'CREATE VIEW v AS SELECT 1'"),
)

NEO4J_STATEMENTS = statement_rules(
    ids=("DB005", "DB006"),
    label="neo4j",
    database="Neo4j (Cypher)",
    programs=("cypher-shell",),
    destroying=("cypher-shell 'MATCH (n) DETACH DELETE n'", "cypher-shell -d system 'DROP DATABASE shop'"),
    not_destroying=(
        "cypher-shell 'MATCH (n:User {id: 7}) DETACH DELETE n'",
        "cypher-shell 'MATCH (n) RETURN count(n)'",
    ),
    risky=("cypher-shell 'DROP INDEX user_email'", "cypher-shell -d system 'STOP DATABASE shop'"),
    not_risky=(
        "cypher-shell 'CREATE INDEX user_email FOR (u:User) ON (u.email)'",
        "cypher-shell 'SHOW DATABASES'",
    ),
)

INFLUXDB_DELETE = pack_rule(
    id="DB007",
    name="influxdb-deletes-data",
    severity=Severity.HIGH,
    summary="Deletes an InfluxDB bucket or organisation, or the points of a time range (`influx bucket delete`, `influx org delete`, `influx delete`).",
    rationale="InfluxDB keeps no copy of a deleted bucket or of deleted points; only a backup taken before brings them back.",
    safer_alternative="Back it up first (`influx backup`), and delete from a bucket made for the task.",
    matches=(command("influx", "bucket delete"), command("influx", "org delete"), command("influx", "delete")),
    message="deletes InfluxDB data",
    must_match=(
        "influx bucket delete -n prod",
        "influx delete --bucket prod --start 1970-01-01T00:00:00Z --stop 2100-01-01T00:00:00Z",
    ),
    must_not_match=("influx bucket list", "influx query 'from(bucket:\"prod\") |> range(start: -1h)'"),
)

HOSTED_DATABASE_DELETE = pack_rule(
    id="DB008",
    name="hosted-database-deleted",
    severity=Severity.HIGH,
    summary="Deletes a hosted database, project or branch with its CLI (`neonctl projects delete`, `pscale database delete`, `turso db destroy`, `upstash redis delete`).",
    rationale="The service deletes the database with its data; a deleted project or database is not kept to restore.",
    safer_alternative="Take a dump first, and delete only databases and branches made for the task.",
    matches=(
        command(("neonctl", "neon"), "projects delete"),
        command(("neonctl", "neon"), "branches delete"),
        command(("neonctl", "neon"), "databases delete"),
        command("pscale", "database delete"),
        command("pscale", "branch delete"),
        command("turso", "db destroy"),
        command("turso", "group destroy"),
        command("upstash", "redis delete"),
        command("upstash", "kafka cluster delete"),
        command("upstash", "kafka topic delete"),
    ),
    message="deletes a hosted database",
    must_match=(
        "neonctl projects delete my-project",
        "pscale database delete prod --force",
        "turso db destroy prod --yes",
        "upstash redis delete --db-id 8a2b",
    ),
    must_not_match=("neonctl projects list", "pscale branch list prod", "turso db shell prod", "upstash redis list"),
)

# Whole stores by their REST paths: an Elasticsearch or OpenSearch index (on its port, on the
# hosted services, or by `_all` or a wildcard pattern on any host), a CouchDB database, an InfluxDB 2
# bucket or organisation, a Solr collection or core through the v2 API; the search and vector stores'
# collections and indexes on their default ports and hosted services (Qdrant, Meilisearch, Typesense,
# Weaviate's classes, Chroma's collections).
_SEARCH_HOSTS = ("*:9200", "*.es.amazonaws.com", "*.aoss.amazonaws.com", "*.cloud.es.io", "*.cloud.es.io:*")
_STORE_PATHS = (
    *(f"{host}/*" for host in _SEARCH_HOSTS), "*/_all", "*/*[*]*", "*:5984/*", "*.cloudant.com/*",
    "*/api/v2/buckets/*", "*/api/v2/orgs/*", "*:8983/api/collections/*", "*:8983/api/cores/*",
    "*:6333/collections/*", "*.cloud.qdrant.io/collections/*", "*.cloud.qdrant.io:*/collections/*",
    "*:7700/indexes/*", "*.meilisearch.io/indexes/*", "*:8108/collections/*", "*.typesense.net/collections/*",
    "*:8080/v1/schema/*", "*.weaviate.network/v1/schema/*", "*.weaviate.cloud/v1/schema/*",
    "*:8000/api/v1/collections/*", "*:8000/api/v2/tenants/*/databases/*/collections/*",
)  # fmt: skip
# Every document of an index deleted by a query that matches them all (`match_all`): the index stays, empty.
_DELETE_BY_QUERY = tuple(f"{host}/*/_delete_by_query" for host in _SEARCH_HOSTS)
# Solr's admin actions that delete: a collection, or a core unloaded with its index or data.
_SOLR_DELETING = frozenset({"deleteindex", "deletedatadir", "deleteinstancedir"})


def _kept_store(found: Found) -> Arg | None:
    """The URL word naming the store deleted, unless every name in it is a test one
    (`disposable_databases`: `test-index`) or an API of the server's own (`_cat`, `_snapshot`)."""
    return _kept(found, 1)


def _kept_index(found: Found) -> Arg | None:
    """`.../orders/_delete_by_query`: the URL word, unless the indices it names are test ones."""
    return _kept(found, 2)


def _kept(found: Found, from_end: int) -> Arg | None:
    """The URL word whose path segment `from_end` places from its end names a store that is kept."""
    for word in request_urls(found.subject):
        for value in word.values:
            segments = url_path(value).split("/")
            names = segments[-from_end].split(",") if len(segments) > from_end else []
            if any(not name.startswith("_") or name == "_all" for name in names) and not all(
                disposable_database(name, found.tables) for name in names
            ):
                return word
    return None


def _solr_deletes(found: Found) -> Arg | None:
    """`/solr/admin/collections?action=DELETE&name=X`, `/solr/admin/cores?action=UNLOAD&core=X&deleteIndex=true`."""
    for word in request_urls(found.subject):
        for value in word.values:
            query = {key.lower(): item for key, item in parse_qsl(urlsplit(value).query)}
            action = query.get("action", "").upper()
            unloads = action == "UNLOAD" and any(query.get(key, "").lower() == "true" for key in _SOLR_DELETING)
            name = query.get("name") or query.get("core") or ""
            if (action == "DELETE" or unloads) and not disposable_database(name, found.tables):
                return word
    return None


HTTP_STORE_DELETE = pack_rule(
    id="DB603",
    name="store-deleted-over-http",
    severity=Severity.HIGH,
    summary=(
        "Deletes a whole store through its HTTP API: Elasticsearch or OpenSearch indices (`DELETE "
        "es:9200/logs-*`, `_all`) or every document of one (`_delete_by_query` with `match_all`), a CouchDB "
        "database, an InfluxDB bucket, a Solr collection or core, a search or vector store's collection or index "
        "(Qdrant, Meilisearch, Typesense, Weaviate, Chroma); stores named as test ones are exempt."
    ),
    rationale=(
        "One request drops the index or database with every document in it; a wildcard or `_all` drops all of "
        "them at once. The servers keep no copy: only a snapshot taken before brings the data back."
    ),
    safer_alternative="Take a snapshot first, and delete the one index you mean by its full name.",
    matches=(
        *api_calls(("DELETE",), *_STORE_PATHS, where=(_kept_store,)),
        *api_calls(("POST",), "*/api/v2/delete"),
        *api_calls(("POST",), *_DELETE_BY_QUERY, where=(body_matches(r'"match_all"'), _kept_index)),
        *api_calls(
            ("GET", "POST", "DELETE"), "**/solr/admin/collections", "**/solr/admin/cores", where=(_solr_deletes,)
        ),
    ),
    message="deletes a whole store through its HTTP API",
    must_match=(
        "curl -X DELETE 'http://es-prod.internal:9200/logs-*'",
        "curl -XDELETE https://search.example.com/_all",
        "http DELETE couch.internal:5984/customers",
        "curl 'http://solr:8983/solr/admin/collections?action=DELETE&name=products'",
        "curl -X DELETE http://localhost:6333/collections/documents",
        """curl -X POST es:9200/orders/_delete_by_query -H 'Content-Type: application/json' -d '{"query":{"match_all":{}}}'""",
    ),
    must_not_match=(
        "curl -X DELETE localhost:9200/test-index",
        "curl -s localhost:9200/_cat/indices",
        "curl -X DELETE localhost:9200/logs/_doc/42",
        """curl -X POST es:9200/orders/_delete_by_query -d '{"query":{"term":{"status":"stale"}}}'""",
        """curl -X POST es:9200/test-orders/_delete_by_query -d '{"query":{"match_all":{}}}'""",
        "curl 'http://solr:8983/solr/admin/cores?action=STATUS'",
        "curl -X DELETE http://localhost:7700/indexes/movies/documents/42",
    ),
)

PACK = Pack(
    name="database.others",
    summary=(
        "Snowflake and Neo4j statements (snowsql, cypher-shell), InfluxDB deletes, the hosted databases' CLIs "
        "(Neon, PlanetScale, Turso), and stores deleted over HTTP (Elasticsearch, OpenSearch, CouchDB, Solr, and "
        "the search and vector stores)."
    ),
    default=True,
    reason=DEFAULT_REASON,
    rules=(
        *SNOWFLAKE_STATEMENTS,
        *NEO4J_STATEMENTS,
        INFLUXDB_DELETE,
        HOSTED_DATABASE_DELETE,
        HTTP_STORE_DELETE,
    ),
)
