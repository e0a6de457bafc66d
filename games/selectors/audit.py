"""Reading a game's past: its log, the audit of it, and its state as of any event.

Who may read what (docs/audit.md, "Endpoints"): once the game has ended every seed is
revealed, so its whole log and audit are anyone's who may watch it (every signed-in
user); before, only staff's, since the log holds the current hand's secret seed. The
state as of an event is anyone's at any time, but while the game runs only as the
caller's seat saw it then (a spectator's view for a spectator). A duplicate board's log
stays staff's after its end until its deal is released (docs/fairness.md, "Boards").
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.utils.translation import gettext as _

from accounts.models import User
from games import rules, store
from games.audit.record import record_of_rows
from games.audit.report import Report
from games.audit.seeds import ABSENT_SEAT_LEVEL
from games.audit.verify import audit_rows
from games.errors import EventNotFoundError, GameNotOverError
from games.models import GameStatus
from games.rules.cards import names_of
from games.selectors.table import GameTable, game_table
from games.selectors.views import seat_of, state_view


def _require_log_reader(table: GameTable, user: User) -> None:
    if table.log_published or user.is_staff:
        return
    if table.status == GameStatus.FINISHED:
        raise GameNotOverError(
            _("A board's log is published once every table of the board has finished.")
        )
    raise GameNotOverError(_("A game's log is published once the game has ended."))


def game_log(game_id: UUID | str, user: User) -> list[dict[str, Any]]:
    """The stored rows of the game's log with, on each bot move, the bot's level."""
    table = game_table(game_id)
    _require_log_reader(table, user)
    return stored_log(table)


def game_record_text(game_id: UUID | str, user: User) -> str:
    """The game's readable record (games/audit/record.py), published like its log."""
    table = game_table(game_id)
    _require_log_reader(table, user)
    rows = store.stored_rows(table.id)
    names = {row.seat: row.username or f"bot ({row.bot_level})" for row in table.seats}
    tags = {"Game": str(table.id)}
    if rows:
        tags["Date"] = rows[0]["created_at"][:10].replace("-", ".")
    return record_of_rows(rows, tags=tags, names=[names.get(seat, "") for seat in range(4)])


def stored_log(table: GameTable) -> list[dict[str, Any]]:
    """`game_log` for the operator's tools: whoever asks (manage.py audit_games)."""
    rows = store.stored_rows(table.id)
    levels = _bot_levels(table)
    for row in rows:
        if row["actor_kind"] == "bot":
            row["bot_level"] = levels.get(_seat_of_move(row))
    return rows


def _bot_levels(table: GameTable) -> dict[int | None, str | None]:
    """The level that played each seat's bot moves: a bot seat's own; the absent
    player's bot for a person's seat (games/audit/seeds.py)."""
    return {
        row.seat: ABSENT_SEAT_LEVEL if row.user_id is not None else row.bot_level
        for row in table.seats
    }


def _seat_of_move(row: dict[str, Any]) -> int | None:
    seat = row["payload"].get("seat")
    return seat if isinstance(seat, int) else None


def game_audit(game_id: UUID | str, user: User, *, bots: bool = False) -> dict[str, Any]:
    """The verifier's report on the stored log (games/audit/verify.py)."""
    return {"id": str(game_id), **audit_rows(game_log(game_id, user), bots=bots).to_dict()}


def stored_audit(table: GameTable, *, bots: bool = False) -> Report:
    """The verifier's report on a game's stored log, for the operator's tools."""
    return audit_rows(stored_log(table), bots=bots)


def game_replay(game_id: UUID | str, user: User, seq: int) -> dict[str, Any]:
    """The game as of event `seq` (0: before any) as `user` may see it."""
    table = game_table(game_id)
    if seq > table.version:
        raise EventNotFoundError(
            _("The game has %(version)d events so far.") % {"version": table.version}
        )
    loaded = store.state_at(table.id, seq) if seq else store.LoadedGame(rules.new_game(), 0)
    ended = table.log_published
    hands = loaded.state.hands
    return {
        **state_view(table=table, loaded=loaded, seat=seat_of(table, user)),
        "complete": ended,
        "all_hands": {str(s): names_of(hands[s]) for s in range(4)} if ended else None,
    }
