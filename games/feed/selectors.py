"""Reads behind the feed: who is looking, and which events they may see after a cursor.

A feed never remembers a viewer's seat. Every read takes who sits where from the
database, in the same statement as the game's version, and redacts for the seat the
viewer holds at that moment: a seat given up or taken while a feed is open counts
from the next read on (docs/feed.md, "Seats change, feeds follow").
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from games.errors import GameNotFoundError
from games.models import Game, GameStatus


class SignedOut(Exception):  # noqa: N818 (a state, not a failure of the code)
    """The viewer's access token stopped being valid while the feed was serving it."""


@dataclass(frozen=True)
class FeedViewer:
    """A signed-in user following a game, seated or not: the seat is read at every read.

    `token_id` is the access token the request came with: a long-poll or a stream
    checks now and then that it is still valid (no logout, expiry or disabled user).
    """

    game_id: UUID
    user_id: int
    token_id: int | None = None


@dataclass(frozen=True)
class FeedPage:
    """Events after a cursor as one seat (None: a spectator) sees them.

    `last_seq` is the cursor to resume from: it moves past events the viewer may not
    see, so a page can be empty and still advance.
    """

    events: list[dict[str, Any]]
    last_seq: int
    version: int
    finished: bool
    seat: int | None

    @property
    def has_more(self) -> bool:
        return self.last_seq < self.version

    @property
    def exhausted(self) -> bool:
        """Nothing will ever follow this page: the game is over and all of it was read."""
        return self.finished and not self.has_more


@dataclass(frozen=True)
class GameHeading:
    """What every read of a game starts with: its version, whether it is over, and who
    sits where (user id -> seat, humans only), all from one statement."""

    version: int
    finished: bool
    seats: Mapping[int, int]


def game_heading(game_id: UUID) -> GameHeading:
    """The game's version, status and seat map in one statement.

    A reader takes events only up to that version: seqs have no gaps, so those are
    exactly the events committed before the seats were read, and a seat change that
    comes later cannot be paired with them.
    """
    rows = list(
        Game.objects.filter(pk=game_id).values_list(
            "version", "status", "seats__user", "seats__seat"
        )
    )
    if not rows:
        raise GameNotFoundError()
    version, status = rows[0][0], rows[0][1]
    return GameHeading(
        version=version,
        finished=status == GameStatus.FINISHED,
        seats={user_id: seat for _, _, user_id, seat in rows if user_id is not None},
    )
