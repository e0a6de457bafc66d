"""Reads of accounts: the live token a request presents, and whether one is still live.

Every authenticated request runs `access_token_find`, so its SQL is written once rather
than compiled from a queryset per request: the ORM's lookup cost ~1.3 ms of CPU on the
benchmark machine, this one ~0.2 ms.
"""

from collections.abc import Collection
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connection
from django.utils import timezone

from accounts.models import AccessToken, User
from accounts.tokens import token_digest

# What a request needs of its token and user; the rest is deferred (read on first use,
# e.g. /me's date_joined). Not the password hash: a request has no use for it. Integers
# and text only, which every database returns as Python holds them.
_TOKEN_FIELDS = ("id", "user_id")
_USER_FIELDS = ("id", "username")


@cache
def _live_tokens_where(column: str, values: str = "= %s") -> str:
    """FROM and WHERE of the statements that ask whether a token authenticates: its
    `column` matches the first parameters (`values`: `= %s`, or `IN (%s, ...)`), it is
    not expired (the next), its user is active. A logout deletes the row. The one
    statement of that rule."""
    name = connection.ops.quote_name
    token, user = name(AccessToken._meta.db_table), name(User._meta.db_table)
    return (
        f"FROM {token} t JOIN {user} u ON u.{name('id')} = t.{name('user_id')} "
        f"WHERE t.{name(column)} {values} AND t.{name('expires_at')} > %s "
        f"AND u.{name('is_active')}"
    )


def _now() -> Any:  # the backend's own form of a datetime
    return connection.ops.adapt_datetimefield_value(timezone.now())


def access_token_find(*, token: str) -> AccessToken | None:
    """The live token record for a presented token, with its user, or None: one query."""
    name = connection.ops.quote_name
    select = f"SELECT t.{name('id')}, t.{name('user_id')}, u.{name('username')} "
    with connection.cursor() as cursor:
        cursor.execute(select + _live_tokens_where("digest"), [token_digest(token), _now()])
        row = cursor.fetchone()
    if row is None:
        return None
    token_id, user_id, username = row
    # from_db: how the ORM itself makes an instance of a row (the unread fields deferred)
    access_token = AccessToken.from_db(DEFAULT_DB_ALIAS, _TOKEN_FIELDS, (token_id, user_id))
    access_token.user = User.from_db(DEFAULT_DB_ALIAS, _USER_FIELDS, (user_id, username))
    return access_token


@dataclass(frozen=True)
class TokenHolder:
    """Whose a live token is: its record's id and its user's id."""

    token_id: int
    user_id: int


def access_token_holders(*, tokens: Collection[str]) -> dict[str, TokenHolder]:
    """`access_token_find` for many presented tokens in one statement: each token that
    would authenticate a request, with its record's and its user's ids (the others are
    left out). For answers that need no model instance, only who is asking."""
    digests = {token_digest(token): token for token in tokens}
    if not digests:
        return {}
    name = connection.ops.quote_name
    placeholders = ", ".join(["%s"] * len(digests))
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT t.{name('digest')}, t.{name('id')}, t.{name('user_id')} "
            + _live_tokens_where("digest", f"IN ({placeholders})"),
            [*sorted(digests), _now()],
        )
        return {
            digests[digest]: TokenHolder(token_id=int(token_id), user_id=int(user_id))
            for digest, token_id, user_id in cursor.fetchall()
        }


def access_token_alive(*, token_id: int) -> bool:
    """Whether the token record `token_id` would still authenticate a request: not
    deleted (logout), not expired, its user active. Long-lived answers recheck it."""
    return token_id in access_tokens_alive(token_ids=[token_id])


def access_tokens_alive(*, token_ids: Collection[int]) -> set[int]:
    """Which of the token records `token_ids` would still authenticate a request, in one
    statement (`access_token_alive` for many long-lived answers at once)."""
    ids = sorted(set(token_ids))
    if not ids:
        return set()
    placeholders = ", ".join(["%s"] * len(ids))
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT t.{connection.ops.quote_name('id')} "
            + _live_tokens_where("id", f"IN ({placeholders})"),
            [*ids, _now()],
        )
        return {int(token_id) for (token_id,) in cursor.fetchall()}
