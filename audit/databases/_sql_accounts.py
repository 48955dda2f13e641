"""Statements that change who may do what: superuser grants, password changes, and UPDATEs that make an
application's users administrators (`UPDATE users SET role = 'admin' WHERE email LIKE '%@x.com'`).

PostgreSQL gives a role the run of the server with `SUPERUSER` (`CREATE ROLE
... SUPERUSER`, `ALTER ROLE ... WITH SUPERUSER`) or with membership of a role
that reads, writes or runs anything on the server (`GRANT
pg_execute_server_program TO x`); MySQL with `GRANT ALL` (or `SUPER`, `FILE`,
or `WITH GRANT OPTION`) `ON *.*`. A password set on an existing account
(`ALTER USER ... PASSWORD`, `IDENTIFIED BY`, MySQL's `SET PASSWORD`) locks out
whoever used it. Creating an ordinary account, or granting on one database,
is routine and is not reported.
"""

from __future__ import annotations

from ._model import StatementKind
from ._sql_lexer import TokenKind
from ._sql_tokens import Tokens, comma_separated, first_at_depth0, split_at_depth0, word_at

Effect = tuple[StatementKind, str | None]
"""What an account statement does, and to which account (None: not written as a name)."""

# PostgreSQL roles whose members may do anything a superuser may do on the server: read or write
# any file, run any program, or are the superuser itself (the managed services' admin roles).
_SUPERUSER_ROLES = frozenset(
    {
        "postgres", "pg_execute_server_program", "pg_write_server_files", "pg_read_server_files",
        "rds_superuser", "cloudsqlsuperuser", "azure_pg_admin",
    }
)  # fmt: skip
# MySQL privileges that, on `*.*`, amount to the server's (FILE reads and writes its files).
_GLOBAL_PRIVILEGES = frozenset({"ALL", "SUPER", "FILE"})
_ACCOUNT_WORDS = frozenset({"ROLE", "USER"})
_PASSWORD_WORDS = frozenset({"PASSWORD", "IDENTIFIED"})


def account_change(tokens: Tokens) -> Effect | None:
    """`CREATE|ALTER ROLE|USER name ...`: a superuser made, or an existing account's password set."""
    if word_at(tokens, 1) not in _ACCOUNT_WORDS:
        return None
    name_index = 2
    while word_at(tokens, name_index) in ("IF", "NOT", "EXISTS"):
        name_index += 1
    account = _account(tokens, name_index)
    if first_at_depth0(tokens, {"SUPERUSER"}, name_index) is not None:
        return StatementKind.GRANT_SUPERUSER, account
    if word_at(tokens, 0) == "ALTER" and first_at_depth0(tokens, _PASSWORD_WORDS, name_index) is not None:
        return StatementKind.SET_PASSWORD, account
    return None


def grant(tokens: Tokens) -> Effect | None:
    """`GRANT privileges ON *.* TO ...` (MySQL), or `GRANT role TO ...` of a superuser's role (PostgreSQL)."""
    on = first_at_depth0(tokens, {"ON"}, 1)
    to = first_at_depth0(tokens, {"TO"}, 1)
    if to is None:
        return None
    grantee = _account(tokens, to + 1)
    if on is None:  # role membership
        granted = {token.text.strip('"').lower() for token in tokens[1:to] if token.kind is not TokenKind.SYMBOL}
        return (StatementKind.GRANT_SUPERUSER, grantee) if granted & _SUPERUSER_ROLES else None
    target = "".join(token.text for token in tokens[on + 1 : to])
    if target != "*.*":
        return None
    privileges = {token.word for token in tokens[1:on]}
    with_grant = first_at_depth0(tokens, {"OPTION"}, to) is not None
    return (StatementKind.GRANT_SUPERUSER, grantee) if privileges & _GLOBAL_PRIVILEGES or with_grant else None


def set_password(tokens: Tokens) -> Effect | None:
    """MySQL `SET PASSWORD [FOR account] = ...` (not a session variable named like it)."""
    if word_at(tokens, 1) != "PASSWORD":
        return None
    return StatementKind.SET_PASSWORD, _account(tokens, 3) if word_at(tokens, 2) == "FOR" else None


# An application's columns that say what a user may do, and the values among theirs that make an admin.
_ROLE_COLUMNS = frozenset({"role", "roles", "user_role", "user_type", "account_type", "access_level", "permission",
                           "permissions", "privilege", "privileges", "group", "groups", "rank"})  # fmt: skip
_ADMIN_VALUES = ("admin", "superuser", "super_user", "root", "owner", "sysadmin")
_ADMIN_FLAGS = frozenset({"is_admin", "admin", "is_superuser", "superuser", "is_staff", "is_root", "is_owner",
                          "is_super_admin", "super_admin", "site_admin", "is_site_admin"})  # fmt: skip
_TRUE = frozenset({"TRUE", "1", "T", "Y", "YES"})


def makes_admins(tokens: Tokens, set_index: int) -> bool:
    """Whether an UPDATE's `SET` (at `set_index`) makes administrators of the application out of rows a
    pattern, a range or a list selects (or all of them): `role = 'admin'` (`'super_admin'`, `'owner'`...),
    `is_admin = true` (`1`, `'t'`). One row picked by an equality (`WHERE id = 7`) is a routine promotion."""
    where = first_at_depth0(tokens, {"WHERE"}, set_index + 1)
    if where is not None and _picks_by_equality(tokens[where + 1 :]):
        return False
    end = first_at_depth0(tokens, {"WHERE", "FROM", "RETURNING", "OUTPUT"}, set_index + 1) or len(tokens)
    for assignment in comma_separated(tokens[:end], set_index + 1):
        if len(assignment) < 3 or not assignment[-2].is_symbol("=") or assignment[-1].kind is TokenKind.SYMBOL:
            continue
        column = assignment[-3].text.lower()
        value = assignment[-1].text
        if column in _ROLE_COLUMNS and any(admin in value.lower() for admin in _ADMIN_VALUES):
            return True
        if column in _ADMIN_FLAGS and value.upper() in _TRUE:
            return True
    return False


def _picks_by_equality(condition: Tokens) -> bool:
    """`id = 7`, `email = 'a@x.com' AND active`: a condition with no OR, one of whose conjuncts is a column
    equal to one literal."""
    if first_at_depth0(condition, {"OR"}, 0) is not None:
        return False
    return any(
        len(conjunct) == 3
        and conjunct[1].is_symbol("=")
        and conjunct[0].kind in (TokenKind.WORD, TokenKind.NAME)
        and conjunct[2].kind in (TokenKind.STRING, TokenKind.NUMBER)
        for conjunct in split_at_depth0(condition, lambda token: token.word == "AND")
    )


def _account(tokens: Tokens, index: int) -> str | None:
    """The account named at `index`: `name`, `"name"`, `'user'@'host'`."""
    if index >= len(tokens) or tokens[index].kind is TokenKind.SYMBOL:
        return None
    name = tokens[index].text
    if index + 2 < len(tokens) and tokens[index + 1].text == "@":
        name = f"{name}@{tokens[index + 2].text}"
    return name
