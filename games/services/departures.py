"""A person leaving for good (their account deleted): their seats go, their games stay.

`accounts` knows nothing of games; it sends `account_deleting` inside the deletion's
transaction, and `games.apps` connects `account_departure` to it. A table still
waiting frees the seat; a game being played appends `seat_released` through the rules
at the expected version and a bot plays the seat on; a finished game is left as it was
(its seats and events name the account, which keeps only a pseudonym). The answers
stored for the account's idempotent retries go too: nobody can send those retries now.
"""

from __future__ import annotations

from typing import Any

from accounts.models import User
from games import rules, store
from games.models import BotLevel, Game, GameStatus, IdempotencyRecord, Seat
from games.services.bot_turns import schedule_bot_turn

#: the level of the bot that takes over a released seat
RELEASED_SEAT_BOT = BotLevel.BASIC


def account_departure(*, user: User) -> None:
    """Free `user`'s seats at waiting tables, hand those of running games to bots, and
    drop the answers stored for their retries.

    Runs inside the caller's transaction (the account's deletion): each game's row is
    locked first, so a concurrent move either commits before (and the release appends
    after it) or finds the version moved on and is refused as any lost race is.
    """
    game_ids = Seat.objects.filter(user=user).values_list("game_id", flat=True)
    for game in Game.objects.select_for_update().filter(pk__in=list(game_ids)).order_by("pk"):
        seat = Seat.objects.get(game=game, user=user)
        if game.status == GameStatus.WAITING:
            seat.delete()
        elif game.status == GameStatus.PLAYING:
            _hand_to_a_bot(game, seat)
    IdempotencyRecord.objects.filter(user=user).delete()


def _hand_to_a_bot(game: Game, seat: Seat) -> None:
    loaded = store.load(game.id)
    events = rules.decide(loaded.state, rules.ReleaseSeat(seat.seat, RELEASED_SEAT_BOT.value))
    appended = store.append(
        game.id,
        expected_version=loaded.version,
        events=events,
        actor=store.Actor.system(),
        state_after=rules.replay(events, loaded.state),
    )
    seat.user = None
    seat.bot_level = RELEASED_SEAT_BOT
    seat.save(update_fields=["user", "bot_level"])
    # A bot task queued before carries the old version and will do nothing: queue anew,
    # for whichever bot's turn it is now (perhaps the released seat's).
    schedule_bot_turn(game.id, appended.progress)


def on_account_deleting(sender: Any, *, user: User, **kwargs: Any) -> None:
    """The receiver of `accounts.signals.account_deleting`."""
    account_departure(user=user)
