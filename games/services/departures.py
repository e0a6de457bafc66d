"""A person leaving for good (their account deleted): their seats go, their games stay.

`accounts` knows nothing of games; it sends `account_deleting` inside the deletion's
transaction, and `games.apps` connects `account_departure` to it. A table still
waiting frees the seat; in a game being played the person leaves their seat as any
player may (`seat_absent`, reason `left`, appended at the expected version) and a bot
plays it on; since the account can no longer sign in, nobody takes it back. A finished
game is left as it was (its seats and events name the account, which keeps only a
pseudonym). The answers stored for the account's idempotent retries go too: nobody can
send those retries now.
"""

from __future__ import annotations

from typing import Any

from accounts.models import User
from games.models import Game, GameStatus, IdempotencyRecord, Seat
from games.services.presence import seat_absent_set


def account_departure(*, user: User) -> None:
    """Free `user`'s seats at waiting tables, hand those of running games to bots, and
    drop the answers stored for their retries.

    Runs inside the caller's transaction (the account's deletion): each game's row is
    locked first, so a concurrent move either commits before (and the departure appends
    after it) or finds the version moved on and is refused as any lost race is.
    """
    game_ids = Seat.objects.filter(user=user).values_list("game_id", flat=True)
    for game in Game.objects.select_for_update().filter(pk__in=list(game_ids)).order_by("pk"):
        seat = Seat.objects.get(game=game, user=user)
        if game.status == GameStatus.WAITING:
            seat.delete()
        elif game.status == GameStatus.PLAYING:
            seat_absent_set(game_id=game.id, user=user, seat=seat.seat, absent=True)
    IdempotencyRecord.objects.filter(user=user).delete()


def on_account_deleting(sender: Any, *, user: User, **kwargs: Any) -> None:
    """The receiver of `accounts.signals.account_deleting`."""
    account_departure(user=user)
