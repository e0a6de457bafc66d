from django.utils import timezone

from accounts.models import AccessToken
from accounts.tokens import token_digest


def access_token_find(*, token: str) -> AccessToken | None:
    """The live token record for a presented token, with its user, or None."""
    return (
        AccessToken.objects.select_related("user")
        .filter(digest=token_digest(token), expires_at__gt=timezone.now(), user__is_active=True)
        .first()
    )
