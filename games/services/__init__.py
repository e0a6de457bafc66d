"""Game commands: every write to a game goes through one of these."""

from games.services.maintenance import idempotency_records_purge
from games.services.play import ActResult, bot_play, game_act
from games.services.tables import (
    SeatChoice,
    bot_game_create,
    bot_seat,
    game_create,
    seat_join,
    seat_leave,
)

__all__ = [
    "ActResult",
    "SeatChoice",
    "bot_game_create",
    "bot_play",
    "bot_seat",
    "game_act",
    "game_create",
    "idempotency_records_purge",
    "seat_join",
    "seat_leave",
]
