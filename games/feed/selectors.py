"""Reads behind the feed: who is looking, and which events they may see after a cursor."""

from dataclasses import dataclass
from typing import Any
from uuid import UUID

from django.contrib.auth.base_user import AbstractBaseUser

from accounts.selectors import access_token_alive
from games.feed.events import viewer_events_after
from games.models import Game, GameStatus, Seat
from games.selectors import game_get


class SignedOut(Exception):  # noqa: N818 (a state, not a failure of the code)
    """The viewer's access token stopped being valid while the feed was serving it."""


@dataclass(frozen=True)
class FeedViewer:
    """A user looking at a game: from their seat, or as a spectator (`seat` None).

    `token_id` is the access token the request came with: a long-poll or a stream
    checks now and then that it is still valid (no logout, expiry or disabled user).
    """

    game_id: UUID
    seat: int | None
    token_id: int | None = None


@dataclass(frozen=True)
class FeedPage:
    """Events after a cursor as one viewer sees them.

    `last_seq` is the cursor to resume from: it moves past events the viewer may not
    see, so a page can be empty and still advance.
    """

    events: list[dict[str, Any]]
    last_seq: int
    version: int
    finished: bool

    @property
    def has_more(self) -> bool:
        return self.last_seq < self.version

    @property
    def exhausted(self) -> bool:
        """Nothing will ever follow this page: the game is over and all of it was read."""
        return self.finished and not self.has_more


def feed_viewer(*, game_id: UUID, user: AbstractBaseUser, token_id: int | None) -> FeedViewer:
    game = game_get(game_id)
    seat = Seat.objects.filter(game=game, user_id=user.pk).values_list("seat", flat=True)
    return FeedViewer(game_id=game.id, seat=seat.first(), token_id=token_id)


def viewer_signed_in(viewer: FeedViewer) -> bool:
    """Whether the token the viewer came with would still authenticate a request."""
    return viewer.token_id is None or access_token_alive(token_id=viewer.token_id)


def feed_page(viewer: FeedViewer, *, after: int, limit: int) -> FeedPage:
    """Up to `limit` stored events after seq `after`, redacted for the viewer.

    The read model's version is checked first, so a poll that finds nothing new costs
    one indexed lookup instead of a snapshot load and a replay.
    """
    version, status = Game.objects.values_list("version", "status").get(pk=viewer.game_id)
    finished = status == GameStatus.FINISHED
    if version <= after:
        return FeedPage(events=[], last_seq=after, version=version, finished=finished)
    served = viewer_events_after(viewer.game_id, after, seat=viewer.seat, limit=limit)
    return FeedPage(
        events=served.events,
        last_seq=served.last_seq,
        version=max(version, served.last_seq),
        finished=finished,
    )
