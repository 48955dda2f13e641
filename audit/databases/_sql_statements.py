"""Which SQL statements destroy data, read from their tokens.

A statement is known by its first keyword (after `WITH ...` and `EXPLAIN
ANALYZE`), its object keyword and a few clauses at its own nesting level:
`DROP TABLE`, `TRUNCATE`, `DELETE`/`UPDATE` and their `WHERE`, `ALTER TABLE
... DROP`, `COPY ... PROGRAM`. Statements that run text as SQL (a `DO` block,
`EXECUTE 'DROP ...'`, `EXEC(...)`, `PREPARE ... FROM`) have the text they show
classified too. Anything else is an ordinary statement.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from .._model import Span
from ._model import UNKNOWN, SqlDialect, StatementFinding, StatementKind, evidence_of
from ._sql_accounts import Effect, account_change, grant, makes_admins, set_password
from ._sql_lexer import TokenKind, lexer_for
from ._sql_split import Mode, split_statements
from ._sql_tokens import (
    Tokens,
    after_name,
    closing_paren,
    comma_separated,
    first_at_depth0,
    name_at,
    qualified_names,
    skip_words,
    split_at_depth0,
    word_at,
)

# Text run as SQL can hold text run as SQL; past this depth it is reported as dynamic, not read.
MAX_DYNAMIC_DEPTH = 4


@dataclass(frozen=True, slots=True)
class Context:
    text: str
    """The text the tokens' offsets point into."""
    dialect: SqlDialect
    mode: Mode
    outer_span: Span | None = None
    """Set for SQL built at run time: its findings are reported at the statement that runs it."""
    outer_evidence: str = ""
    depth: int = 0


def classify_tokens(tokens: Tokens, context: Context) -> Iterator[StatementFinding]:
    """The findings of the statements `tokens` hold."""
    for statement in split_statements(tokens, context.mode):
        if statement:
            yield from _classify_statement(statement, context)


def classify_fragment(fragment: str, context: Context, mode: Mode | None = None) -> Iterator[StatementFinding]:
    """The findings of SQL text that a statement runs (a DO body, EXECUTE's string)."""
    if context.depth >= MAX_DYNAMIC_DEPTH:
        yield _dynamic(context)
        return
    lexed = lexer_for(context.dialect).lex(fragment)
    inner = replace(context, text=fragment, mode=mode or context.mode, depth=context.depth + 1)
    yield from classify_tokens(lexed.tokens, inner)
    if lexed.unreadable_from is not None:
        yield _dynamic(context)


def classify_output_run(tokens: Tokens, context: Context) -> Iterator[StatementFinding]:
    """psql `\\gexec`: each value the query returns runs as a statement; the literals show which."""
    select_list = tokens[: first_at_depth0(tokens, {"FROM"}, 0) or len(tokens)]
    yield from _run_text(select_list, context, tokens)


# ---------------------------------------------------------------------------------------------------
# Statements


def _classify_statement(tokens: Tokens, context: Context) -> Iterator[StatementFinding]:
    yield from _classify_main(tokens, context)
    if tokens[0].word == "EXPLAIN":
        return  # what it explains runs only with ANALYZE, and then is classified in full
    # Data-modifying sub-statements: PostgreSQL's `WITH gone AS (DELETE FROM t RETURNING *) SELECT ...`.
    for index, token in enumerate(tokens[1:], start=1):
        if token.is_symbol("(") and index + 1 < len(tokens) and tokens[index + 1].word in ("DELETE", "UPDATE"):
            inner = tokens[index + 1 : closing_paren(tokens, index)]
            yield from _HANDLERS[inner[0].word](inner, context)


def _drop(tokens: Tokens, context: Context) -> Iterator[StatementFinding]:
    index = 1
    temporary = False
    while word_at(tokens, index) in ("TEMPORARY", "TEMP"):
        temporary, index = True, index + 1
    object_word = word_at(tokens, index)
    cascade = first_at_depth0(tokens, {"CASCADE"}, index) is not None
    if object_word in ("DATABASE", "KEYSPACE"):
        kind, irreversible = StatementKind.DROP_DATABASE, True
    elif object_word == "SCHEMA":
        # A PostgreSQL, T-SQL or DuckDB schema must be empty to be dropped without CASCADE; MySQL's is a database.
        kind, irreversible = StatementKind.DROP_SCHEMA, cascade or context.dialect is SqlDialect.MYSQL
    elif object_word == "TABLE":
        kind, irreversible = StatementKind.DROP_TABLE, not temporary
    else:
        # DROP OWNED BY drops every object the role owns, tables included.
        kind, irreversible = StatementKind.DROP_OTHER, cascade or object_word == "OWNED"
    if kind is StatementKind.DROP_OTHER:
        while word_at(tokens, index) in _OBJECT_WORDS:
            index += 1
    else:
        index += 1
    names = qualified_names(tokens, skip_words(tokens, index, _NAME_PREFIX_WORDS))
    if kind is StatementKind.DROP_TABLE and names and all(name.startswith("#") for name in names):
        irreversible = False  # T-SQL temporary tables
    yield _finding(tokens, context, kind, irreversible, ", ".join(names) or None)


def _truncate(tokens: Tokens, context: Context) -> Iterator[StatementFinding]:
    index = skip_words(tokens, 1, _NAME_PREFIX_WORDS | {"TABLE", "DATABASE", "ALL", "TABLES", "FROM"})
    names = qualified_names(tokens, index)
    yield _finding(tokens, context, StatementKind.TRUNCATE, True, ", ".join(names) or None)


def _delete(tokens: Tokens, context: Context) -> Iterator[StatementFinding]:
    index = _skip_row_limits(tokens, skip_words(tokens, 1, {"LOW_PRIORITY", "QUICK", "IGNORE"}))
    index = skip_words(tokens, index, {"FROM", "ONLY"})
    if not _filtered(tokens, 1):
        yield _finding(tokens, context, StatementKind.DELETE_WITHOUT_WHERE, True, name_at(tokens, index))


def _update(tokens: Tokens, context: Context) -> Iterator[StatementFinding]:
    set_index = first_at_depth0(tokens, {"SET"}, 1)
    if set_index is None:
        return  # not a row update: T-SQL's UPDATE STATISTICS
    index = _skip_row_limits(tokens, skip_words(tokens, 1, {"LOW_PRIORITY", "IGNORE", "ONLY"}))
    if not _filtered(tokens, 1):
        yield _finding(tokens, context, StatementKind.UPDATE_WITHOUT_WHERE, True, name_at(tokens, index))
    if makes_admins(tokens, set_index):
        yield _finding(tokens, context, StatementKind.GRANT_APP_ADMIN, False, name_at(tokens, index))


# ALTER TABLE ... DROP <word>: dropping these loses no rows; anything else (COLUMN, PARTITION, a bare column
# name) loses data.
_RECOVERABLE_DROPS = frozenset(
    {
        "CONSTRAINT", "INDEX", "KEY", "PRIMARY", "FOREIGN", "CHECK", "UNIQUE", "PERIOD", "SYSTEM", "DEFAULT",
        "PROJECTION", "STATISTICS", "TRIGGER", "ROW", "DETACHED", "FULLTEXT", "SPATIAL",
    }
)  # fmt: skip


def _alter(tokens: Tokens, context: Context) -> Iterator[StatementFinding]:
    yield from _account_findings(tokens, context, account_change(tokens))
    table_word = skip_words(tokens, 1, {"ONLINE", "IGNORE", "FOREIGN"})
    if word_at(tokens, table_word) != "TABLE":
        return
    index = skip_words(tokens, table_word + 1, _NAME_PREFIX_WORDS)
    table = name_at(tokens, index)
    index = after_name(tokens, index)
    for number, action in enumerate(comma_separated(tokens, index)):
        if number == 0 and word_at(action, 0) == "ON" and word_at(action, 1) == "CLUSTER":
            action = action[3:]  # ClickHouse: ALTER TABLE t ON CLUSTER c DROP PARTITION ...
        verb = word_at(action, 0)
        if verb == "DROP":
            dropped = word_at(action, skip_words(action, 1, {"IF", "EXISTS"}))
            yield _finding(tokens, context, StatementKind.ALTER_DROP, dropped not in _RECOVERABLE_DROPS, table)
        elif verb == "CLEAR":
            yield _finding(tokens, context, StatementKind.ALTER_DROP, word_at(action, 1) == "COLUMN", table)
        elif verb == "DISCARD":
            yield _finding(tokens, context, StatementKind.ALTER_DROP, True, table)  # MySQL: deletes the .ibd file
        elif verb == "TRUNCATE":
            yield _finding(tokens, context, StatementKind.TRUNCATE, True, table)
        elif verb == "DELETE" and not _filtered(action, 1):
            yield _finding(tokens, context, StatementKind.DELETE_WITHOUT_WHERE, True, table)  # ClickHouse mutation
        elif verb == "UPDATE" and not _filtered(action, 1):
            yield _finding(tokens, context, StatementKind.UPDATE_WITHOUT_WHERE, True, table)


def _create(tokens: Tokens, context: Context) -> Iterator[StatementFinding]:
    """`CREATE OR REPLACE TABLE` drops the table it replaces, rows and all; `CREATE ROLE ... SUPERUSER`."""
    yield from _account_findings(tokens, context, account_change(tokens))
    if word_at(tokens, 1) != "OR" or word_at(tokens, 2) != "REPLACE":
        return
    index = skip_words(tokens, 3, {"TEMPORARY", "TEMP", "TRANSIENT"})
    if word_at(tokens, index) == "TABLE":
        temporary = index > 3
        name_index = skip_words(tokens, index + 1, {"IF", "NOT", "EXISTS"})
        yield _finding(tokens, context, StatementKind.DROP_TABLE, not temporary, name_at(tokens, name_index))


# The words that begin the statement a WITH clause or EXPLAIN applies to.
_MAIN_STATEMENT_WORDS = frozenset(
    {"SELECT", "INSERT", "UPDATE", "DELETE", "MERGE", "VALUES", "TABLE", "REPLACE", "CREATE", "DECLARE", "EXECUTE"}
)


def _with(tokens: Tokens, context: Context) -> Iterator[StatementFinding]:
    main = first_at_depth0(tokens, _MAIN_STATEMENT_WORDS, 1)
    if main is not None:
        yield from _classify_main(tokens[main:], context)


def _explain(tokens: Tokens, context: Context) -> Iterator[StatementFinding]:
    """EXPLAIN ANALYZE runs the statement it explains; plain EXPLAIN does not."""
    analyze = False
    index = 1
    while index < len(tokens) and tokens[index].word not in _MAIN_STATEMENT_WORDS - {"TABLE"}:
        if tokens[index].is_symbol("("):
            close = closing_paren(tokens, index)
            analyze = analyze or any(token.word in ("ANALYZE", "ANALYSE") for token in tokens[index:close])
            index = close + 1
            continue
        analyze = analyze or tokens[index].word in ("ANALYZE", "ANALYSE")
        index += 1
    if analyze and index < len(tokens):
        yield from _classify_statement(tokens[index:], context)


def _copy(tokens: Tokens, context: Context) -> Iterator[StatementFinding]:
    """PostgreSQL `COPY ... FROM/TO PROGRAM 'command'` runs the command in a shell on the server."""
    program = first_at_depth0(tokens, {"PROGRAM"}, 1)
    if program is not None and program + 1 < len(tokens) and tokens[program + 1].kind is TokenKind.STRING:
        yield _finding(tokens, context, StatementKind.SHELL_OUT, False, tokens[program + 1].text)


def _execute(tokens: Tokens, context: Context) -> Iterator[StatementFinding]:
    """EXEC/EXECUTE: of a string or expression (dynamic SQL), or of a procedure (xp_cmdshell, sp_executesql)."""
    index = 1
    if word_at(tokens, index) == "IMMEDIATE":
        index += 1
    if index < len(tokens) and (tokens[index].kind is TokenKind.STRING or tokens[index].is_symbol("(")):
        yield from _run_text(tokens[index:], context, tokens)
        return
    if index + 2 < len(tokens) and tokens[index].is_symbol("@") and tokens[index + 2].is_symbol("="):
        index += 3  # T-SQL: EXEC @status = procedure ...
    name = (name_at(tokens, index) or "").rsplit(".", 1)[-1].lower()
    after = after_name(tokens, index)
    if name == "xp_cmdshell":
        command = next((token.text for token in tokens[after:] if token.kind is TokenKind.STRING), None)
        yield _finding(tokens, context, StatementKind.SHELL_OUT, False, command)
    elif name == "sp_executesql" or name in ("format", "concat", "concat_ws"):
        yield from _run_text(tokens[index:], context, tokens)
    elif context.mode is Mode.PLPGSQL and index < len(tokens):
        yield from _run_text(tokens[index:], context, tokens)  # PL/pgSQL: EXECUTE <expression>


def _prepare(tokens: Tokens, context: Context) -> Iterator[StatementFinding]:
    """MySQL `PREPARE s FROM 'text'` / PostgreSQL `PREPARE s AS statement`: what EXECUTE s will run."""
    source = first_at_depth0(tokens, {"FROM", "AS"}, 1)
    if source is None or source + 1 >= len(tokens):
        return
    if tokens[source].word == "AS":
        yield from _classify_main(tokens[source + 1 :], context)
    else:
        yield from _run_text(tokens[source + 1 :], context, tokens)


def _do(tokens: Tokens, context: Context) -> Iterator[StatementFinding]:
    """PostgreSQL `DO [LANGUAGE l] 'body'`: an anonymous block, run now."""
    body = next((token.text for token in tokens[1:] if token.kind is TokenKind.STRING), None)
    language_at = first_at_depth0(tokens, {"LANGUAGE"}, 1)
    language = tokens[language_at + 1].text.lower() if language_at is not None and language_at + 1 < len(tokens) else ""
    if body is None:
        return
    if language in ("", "plpgsql", "sql"):
        yield from classify_fragment(body, _inner(tokens, context), Mode.PLPGSQL)
    else:
        yield _dynamic(_inner(tokens, context))  # a block in another language (plpython3u, plperlu, ...)


def _grant(tokens: Tokens, context: Context) -> Iterator[StatementFinding]:
    yield from _account_findings(tokens, context, grant(tokens))


def _set(tokens: Tokens, context: Context) -> Iterator[StatementFinding]:
    yield from _account_findings(tokens, context, set_password(tokens))


def _account_findings(tokens: Tokens, context: Context, effect: Effect | None) -> Iterator[StatementFinding]:
    """A change of who may do what: not a loss of data (the packs judge it on its own)."""
    if effect is not None:
        yield _finding(tokens, context, effect[0], False, effect[1])


def _shutdown(tokens: Tokens, context: Context) -> Iterator[StatementFinding]:
    yield _finding(tokens, context, StatementKind.SHUTDOWN, False, None)


def _source(tokens: Tokens, context: Context) -> Iterator[StatementFinding]:
    """cqlsh `SOURCE 'file'`: statements read from a file."""
    if context.dialect is SqlDialect.CQL:
        file = next((token.text for token in tokens[1:] if token.kind is TokenKind.STRING), None)
        yield _finding(tokens, context, StatementKind.INCLUDE_FILE, False, file)


Handler = Callable[[Tokens, Context], Iterator[StatementFinding]]

_HANDLERS: dict[str, Handler] = {
    "DROP": _drop,
    "TRUNCATE": _truncate,
    "DELETE": _delete,
    "UPDATE": _update,
    "ALTER": _alter,
    "CREATE": _create,
    "WITH": _with,
    "EXPLAIN": _explain,
    "COPY": _copy,
    "EXEC": _execute,
    "EXECUTE": _execute,
    "PREPARE": _prepare,
    "DO": _do,
    "GRANT": _grant,
    "SET": _set,
    "SHUTDOWN": _shutdown,
    "SOURCE": _source,
}


def _classify_main(tokens: Tokens, context: Context) -> Iterator[StatementFinding]:
    handler = _HANDLERS.get(tokens[0].word) if tokens else None
    if handler is not None:
        yield from handler(tokens, context)


# ---------------------------------------------------------------------------------------------------
# Run-time SQL


def _run_text(tokens: Tokens, context: Context, statement: Tokens) -> Iterator[StatementFinding]:
    """SQL that `statement` builds from `tokens` and runs: each comma-separated expression's literals,
    joined, are classified; with no literal at all, nothing of it is seen and it is reported as dynamic."""
    inner = _inner(statement, context)
    seen = False
    for expression in comma_separated(tokens, 0):
        fragment = _literal_text(expression)
        if fragment is not None:
            seen = True
            yield from classify_fragment(fragment, inner)
    if not seen:
        yield _dynamic(inner)


# Functions whose string arguments are the text they build; any other function's are values.
_TEXT_BUILDERS = frozenset({"FORMAT", "CONCAT", "CONCAT_WS"})
# What joins two literals into one text without a value between them: `'DROP' || ' TABLE t'`, T-SQL's `+`,
# CONCAT's commas.
_JOINERS = frozenset({"||", "+", ","})


def _literal_text(tokens: Tokens) -> str | None:
    """The text an expression builds from its literals: `'DROP TABLE ' || name` reads `DROP TABLE __dynamic__`.

    What sits between and after the literals is a value known only at run
    time, standing in as a placeholder name; what comes before the first
    literal (a function name) is not part of the text, and neither are the
    literal arguments of functions other than format and concat
    (`current_setting('app.sql')` builds text the literal does not show).
    """
    parts: list[str] = []
    pending_value = False
    levels: list[bool] = []  # per open parenthesis: do its literals belong to the text?
    values_depth = 0
    for index, token in enumerate(tokens):
        if token.is_symbol("("):
            before = tokens[index - 1] if index else None
            builds_text = before is None or before.kind is not TokenKind.WORD or before.word in _TEXT_BUILDERS
            levels.append(builds_text)
            values_depth += not builds_text
            continue
        if token.is_symbol(")"):
            if levels and not levels.pop():
                values_depth -= 1
            continue
        if token.kind is TokenKind.STRING and not values_depth:
            if pending_value:
                parts.append(f" {UNKNOWN} ")
            parts.append(token.text)
            pending_value = False
        elif parts and token.text not in _JOINERS:
            pending_value = True
    if not parts:
        return None
    if pending_value:
        parts.append(f" {UNKNOWN}")
    return "".join(parts)


def _inner(tokens: Tokens, context: Context) -> Context:
    """The context for SQL a statement runs: findings are reported at that statement."""
    if context.outer_span is not None:
        return context
    start, end = tokens[0].start, tokens[-1].end
    return replace(context, outer_span=Span(start, end), outer_evidence=evidence_of(context.text[start:end]))


def _dynamic(context: Context) -> StatementFinding:
    """SQL built at run time whose text is not seen (reported at the statement that runs it)."""
    span = context.outer_span or Span(0, len(context.text))
    evidence = context.outer_evidence or evidence_of(context.text)
    return StatementFinding(StatementKind.DYNAMIC_SQL, False, span, None, evidence)


# ---------------------------------------------------------------------------------------------------
# Findings and clauses


# Words that may stand between an object keyword and the object's name.
_NAME_PREFIX_WORDS = frozenset({"IF", "EXISTS", "NOT", "ONLY", "CONCURRENTLY"})
# Words of multi-word object types (`DROP MATERIALIZED VIEW`, `DROP FOREIGN DATA WRAPPER`).
_OBJECT_WORDS = frozenset(
    {
        "ACCESS", "AGGREGATE", "CAST", "CLASS", "CLUSTERED", "COLLATION", "CONFIGURATION", "CONVERSION", "DATA",
        "DATABASE", "DICTIONARY", "DOMAIN", "EVENT", "EXTENSION", "FAMILY", "FOREIGN", "FULLTEXT", "FUNCTION",
        "GROUP", "INDEX", "KEYSPACE", "LANGUAGE", "LOGIN", "MACRO", "MAPPING", "MATERIALIZED", "METHOD",
        "NONCLUSTERED", "OPERATOR", "OWNED", "BY", "PARSER", "POLICY", "PROC", "PROCEDURE", "PUBLICATION", "ROLE",
        "ROUTINE", "RULE", "SCHEMA", "SEARCH", "SECRET", "SEQUENCE", "SERVER", "STATISTICS", "SUBSCRIPTION",
        "SYNONYM", "TABLE", "TABLESPACE", "TEMPLATE", "TEXT", "TRANSFORM", "TRIGGER", "TYPE", "UNIQUE", "USER",
        "VIEW", "WRAPPER",
    }
)  # fmt: skip
_CONSTANT_WORDS = frozenset({"TRUE", "FALSE", "NULL", "NOT", "AND", "OR", "XOR", "IS", "UNKNOWN", "IN", "BETWEEN"})
_AFTER_WHERE = frozenset({"RETURNING", "ORDER", "LIMIT", "OUTPUT", "OPTION", "GROUP", "SETTINGS"})


def _finding(
    tokens: Tokens, context: Context, kind: StatementKind, irreversible: bool, target: str | None
) -> StatementFinding:
    start, end = tokens[0].start, tokens[-1].end
    evidence = evidence_of(context.text[start:end])
    return StatementFinding(kind, irreversible, context.outer_span or Span(start, end), target, evidence)


def _skip_row_limits(tokens: Tokens, index: int) -> int:
    """T-SQL's `TOP (n) [PERCENT]` between DELETE/UPDATE and the table."""
    if word_at(tokens, index) != "TOP":
        return index
    index += 1
    if index < len(tokens) and tokens[index].is_symbol("("):
        index = closing_paren(tokens, index) + 1
    elif index < len(tokens) and tokens[index].kind is TokenKind.NUMBER:
        index += 1
    return skip_words(tokens, index, {"PERCENT"})


def _filtered(tokens: Tokens, start: int) -> bool:
    """Whether a DELETE/UPDATE's rows are restricted: by a WHERE that names a column and is not `... OR
    <constant>` (`WHERE id = 5 OR 1=1`), or by a JOIN ... ON."""
    where = first_at_depth0(tokens, {"WHERE"}, start)
    if where is None:
        join = first_at_depth0(tokens, {"JOIN"}, start)
        return join is not None and first_at_depth0(tokens, {"ON"}, join) is not None
    end = first_at_depth0(tokens, _AFTER_WHERE, where + 1) or len(tokens)
    condition = _unwrapped(tokens[where + 1 : end])
    if not condition:
        return True  # an empty condition is a syntax error: the statement does nothing
    disjuncts = split_at_depth0(condition, lambda token: token.word == "OR")
    return not any(_constant(disjunct) and not _plainly_false(disjunct) for disjunct in disjuncts)


def _unwrapped(condition: Tokens) -> Tokens:
    """`(a OR b)` as `a OR b`, when the parentheses hold the whole condition."""
    while len(condition) > 2 and condition[0].is_symbol("(") and closing_paren(condition, 0) == len(condition) - 1:
        condition = condition[1:-1]
    return condition


def _plainly_false(condition: Tokens) -> bool:
    """A constant condition written to be false (`FALSE`, `0`, `NULL`, `1 = 0`): it matches no row."""
    texts = [token.text.upper() for token in _unwrapped(condition)]
    if len(texts) == 1:
        return texts[0] in ("FALSE", "0", "NULL")
    if len(texts) == 3 and texts[1] in ("=", "<>", "!="):
        return (texts[0] == texts[2]) == (texts[1] != "=")
    return False


def _constant(condition: Tokens) -> bool:
    """A condition that names no column (`1=1`, `true`, `'a' = 'a'`) is true for every row or for none."""
    return all(
        token.kind is not TokenKind.NAME and (not token.word or token.word in _CONSTANT_WORDS) for token in condition
    )
