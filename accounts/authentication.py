"""``Authorization: Bearer <token>`` authentication against hashed access tokens.

A view that knows which rows it will read can have them read in the token's round trip:
it defines a method `access_token_with_reads(token)`, which must return what
`access_token_find` would and may keep the other rows for its handler. Whether the token
is valid is decided here all the same, before any handler runs.
"""

from collections.abc import Callable

from django.http import HttpRequest
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.request import Request

from accounts.models import AccessToken, User
from accounts.selectors import access_token_find
from belote_project.problems import BEARER_CHALLENGE


class BearerTokenAuthentication(BaseAuthentication):
    """No Authorization header (or another scheme): anonymous. A bad bearer token: 401."""

    def authenticate(self, request: Request) -> tuple[User, AccessToken] | None:
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() != b"bearer":
            return None
        if len(parts) != 2:
            raise AuthenticationFailed(
                "Expected 'Authorization: Bearer <token>'.", code="malformed_token"
            )
        try:
            token = parts[1].decode("ascii")
        except UnicodeDecodeError as error:
            raise AuthenticationFailed("The token is not ASCII.", code="malformed_token") from error
        view = (request.parser_context or {}).get("view")
        reads: Callable[[str], AccessToken | None] | None
        reads = getattr(view, "access_token_with_reads", None)
        access_token = access_token_find(token=token) if reads is None else reads(token)
        if access_token is None:
            raise AuthenticationFailed(
                "The token is invalid, expired or revoked.", code="invalid_token"
            )
        return access_token.user, access_token

    def authenticate_header(self, request: HttpRequest) -> str:
        return BEARER_CHALLENGE
