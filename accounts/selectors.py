from collections.abc import Sequence
from functools import cache
from typing import Any

from django.db import connection
from django.utils import timezone

from accounts.models import AccessToken, User
from accounts.tokens import token_digest
from belote_project.rows import ModelColumns, Statement, table

# What a request needs of its token and user; the rest is deferred (read on first use).
# Not the password hash, and few timestamps: Django parses those in Python, slowly.
_TOKEN = ModelColumns(AccessToken, ("id", "user"))
_USER = ModelColumns(
    User, ("id", "username", "is_active", "is_staff", "is_superuser", "date_joined")
)


def _live_tokens() -> str:
    """FROM and WHERE of every statement that asks whether a token authenticates: not
    expired (the first parameter), its user active. The one statement of that rule."""
    return (
        f"FROM {table(AccessToken)} t JOIN {table(User)} u ON u.id = t.user_id "
        "WHERE t.expires_at > %s AND u.is_active"
    )


@cache
def _token_sql() -> str:
    # Every authenticated request runs this: written once, not compiled per request.
    return f"SELECT {_TOKEN.select('t')}, {_USER.select('u')} {_live_tokens()} AND t.digest = %s"


@cache
def _alive_sql() -> str:
    return f"SELECT 1 {_live_tokens()} AND t.id = %s"


def _now() -> Any:
    return connection.ops.adapt_datetimefield_value(timezone.now())


def access_token_find(*, token: str) -> AccessToken | None:
    """The live token record for a presented token, with its user, or None."""
    sql, params = access_token_statement(token=token)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return access_token_of(cursor.fetchall())


def access_token_statement(*, token: str) -> Statement:
    """`access_token_find`'s statement, to read with others (rows.read_together)."""
    return _token_sql(), [_now(), token_digest(token)]


def access_token_of(rows: Sequence[Sequence[Any]]) -> AccessToken | None:
    """The token record (with its user) from the rows of `access_token_statement`."""
    if not rows:
        return None
    row = rows[0]
    (access_token,) = _TOKEN.instances([row[: _TOKEN.width]])
    (access_token.user,) = _USER.instances([row[_TOKEN.width :]])
    return access_token


def access_token_alive(*, token_id: int) -> bool:
    """Whether the token record `token_id` would still authenticate a request: not
    deleted (logout), not expired, its user active. Long-lived answers recheck it."""
    with connection.cursor() as cursor:
        cursor.execute(_alive_sql(), [_now(), token_id])
        return cursor.fetchone() is not None
