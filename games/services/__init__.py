"""Game commands: every write to a game goes through one of these."""

from games.services.maintenance import idempotency_records_purge, read_model_rebuild
from games.services.notices import AppNotice, app_notices_write, feed_wake, notice_counters_lock
from games.services.play import ActResult, bot_play, game_act
from games.services.presence import seat_absent_set
from games.services.stale_tables import stale_tables_close
from games.services.tables import (
    SeatChoice,
    SeatTaker,
    board_deals_release,
    board_game_create,
    bot_game_create,
    bot_seat,
    game_create,
    seat_join,
    seat_leave,
    seated_game_create,
)
from games.services.timeouts import due_turns_expire, turn_time_out

__all__ = [
    "ActResult",
    "AppNotice",
    "SeatChoice",
    "SeatTaker",
    "app_notices_write",
    "board_deals_release",
    "board_game_create",
    "bot_game_create",
    "bot_play",
    "bot_seat",
    "due_turns_expire",
    "feed_wake",
    "game_act",
    "game_create",
    "idempotency_records_purge",
    "notice_counters_lock",
    "read_model_rebuild",
    "seat_absent_set",
    "seat_join",
    "seat_leave",
    "seated_game_create",
    "stale_tables_close",
    "turn_time_out",
]
