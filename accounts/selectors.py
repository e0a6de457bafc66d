"""Reads of accounts: the live token a request presents, and whether one is still live."""

from django.db.models import QuerySet
from django.utils import timezone

from accounts.models import AccessToken
from accounts.tokens import token_digest

# What a request needs of its user; the rest is deferred (read on first use). Not the
# password hash: a request has no use for it.
_REQUEST_USER_FIELDS = ("username", "is_active", "is_staff", "is_superuser", "date_joined")


def _live_tokens() -> QuerySet[AccessToken]:
    """The one statement of when a token authenticates: not expired (not deleted by a
    logout: it would not be found), its user active."""
    return AccessToken.objects.filter(expires_at__gt=timezone.now(), user__is_active=True)


def access_token_find(*, token: str) -> AccessToken | None:
    """The live token record for a presented token, with its user, or None: one query."""
    return (
        _live_tokens()
        .filter(digest=token_digest(token))
        .select_related("user")
        .only("user_id", *(f"user__{name}" for name in _REQUEST_USER_FIELDS))
        .first()
    )


def access_token_alive(*, token_id: int) -> bool:
    """Whether the token record `token_id` would still authenticate a request: not
    deleted (logout), not expired, its user active. Long-lived answers recheck it."""
    return _live_tokens().filter(pk=token_id).exists()
