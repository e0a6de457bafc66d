"""``Authorization: Bearer <token>`` authentication against hashed access tokens.

Like DRF's TokenAuthentication: one lookup of the token with its user, nothing else. What
a view reads, it reads in its handler, once permissions and throttles have let it run.
"""

from django.http import HttpRequest
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.request import Request

from accounts.models import AccessToken, User
from accounts.selectors import access_token_find
from belote_project.problems import BEARER_CHALLENGE


def presented_token(authorization: bytes) -> str | None:
    """The bearer token an Authorization header's value presents; None when there is
    none (no header, or another scheme); AuthenticationFailed (401 `malformed_token`)
    for a bearer header that is not `Bearer <ASCII token>`."""
    parts = authorization.split()
    if not parts or parts[0].lower() != b"bearer":
        return None
    if len(parts) != 2:
        raise AuthenticationFailed(
            "Expected 'Authorization: Bearer <token>'.", code="malformed_token"
        )
    try:
        return parts[1].decode("ascii")
    except UnicodeDecodeError as error:
        raise AuthenticationFailed("The token is not ASCII.", code="malformed_token") from error


class BearerTokenAuthentication(BaseAuthentication):
    """No Authorization header (or another scheme): anonymous. A bad bearer token: 401."""

    def authenticate(self, request: Request) -> tuple[User, AccessToken] | None:
        token = presented_token(get_authorization_header(request))
        if token is None:
            return None
        access_token = access_token_find(token=token)
        if access_token is None:
            raise AuthenticationFailed(
                "The token is invalid, expired or revoked.", code="invalid_token"
            )
        return access_token.user, access_token

    def authenticate_header(self, request: HttpRequest) -> str:
        return BEARER_CHALLENGE
