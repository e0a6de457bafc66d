"""What every game endpoint answers with: the caller, and its view with the view's headers."""

from __future__ import annotations

from uuid import UUID

from rest_framework.request import Request
from rest_framework.response import Response

from accounts.models import User
from games import selectors


def player(request: Request) -> User:
    """The signed-in caller (IsAuthenticated, the default permission, ran before)."""
    assert isinstance(request.user, User)
    return request.user


def view_headers(etag: str) -> dict[str, str]:
    # Views differ per player: no shared cache may keep or mix them.
    return {"ETag": etag, "Cache-Control": "private, no-cache", "Vary": "Authorization"}


def view_response(game_id: UUID, request: Request, status_code: int) -> Response:
    """The caller's view of the game, with its ETag."""
    view, etag = selectors.game_view_for(selectors.table_state(game_id), player(request))
    return Response(view, status=status_code, headers=view_headers(etag))
