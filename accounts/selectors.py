from functools import cache

from django.db import connection
from django.utils import timezone

from accounts.models import AccessToken, User
from accounts.tokens import token_digest
from belote_project.rows import ModelColumns, table

_TOKEN = ModelColumns(AccessToken)
_USER = ModelColumns(User)


@cache
def _token_sql() -> str:
    # Every authenticated request runs this: written once, not compiled per request.
    return (
        f"SELECT {_TOKEN.select('t')}, {_USER.select('u')} "  # noqa: S608 (no input in it)
        f"FROM {table(AccessToken)} t JOIN {table(User)} u ON u.id = t.user_id "
        "WHERE t.digest = %s AND t.expires_at > %s AND u.is_active"
    )


def access_token_find(*, token: str) -> AccessToken | None:
    """The live token record for a presented token, with its user, or None."""
    now = connection.ops.adapt_datetimefield_value(timezone.now())
    with connection.cursor() as cursor:
        cursor.execute(_token_sql(), [token_digest(token), now])
        row = cursor.fetchone()
    if row is None:
        return None
    (access_token,) = _TOKEN.instances([row[: _TOKEN.width]])
    (access_token.user,) = _USER.instances([row[_TOKEN.width :]])
    return access_token
