"""The tournament's progress feed: numbered entries, appended under the tournament's lock.

Each entry wakes the feed's long-polls (`tournament-<id>` on the game feed's channel) and
gives the players it concerns a notice in their own feed (tournaments/services/notices.py),
both in the entry's transaction.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from uuid import UUID

from django.db.models import Max

from games.services import AppNotice, app_notices_write, feed_wake
from tournaments.models import Tournament, TournamentEvent
from tournaments.services import notices

ROUND_STARTED = "round_started"
GAME_FINISHED = "game_finished"
TOURNAMENT_FINISHED = "tournament_finished"
#: the prefix of a tournament's key on the feed's channel: `tournament-<id>:<seq>`
FEED_KEY_PREFIX = "tournament-"

Notices = Callable[[Tournament, str, dict[str, Any]], list[AppNotice]]
#: entry type -> the type of the notice it gives its players, and who gets what
NOTICES: dict[str, tuple[str, Notices]] = {
    ROUND_STARTED: ("tournament_round_started", notices.round_started),
    GAME_FINISHED: ("tournament_game_finished", notices.game_finished),
    TOURNAMENT_FINISHED: ("tournament_finished", notices.tournament_finished),
}


def feed_key(tournament_id: UUID) -> str:
    return f"{FEED_KEY_PREFIX}{tournament_id}"


def progress_append(tournament: Tournament, kind: str, payload: dict[str, Any]) -> TournamentEvent:
    """Append one entry after the last; the caller holds the tournament's row lock, so
    two writers never take the same number. Its notices and wakeup go with it."""
    last = TournamentEvent.objects.filter(tournament=tournament).aggregate(last=Max("seq"))
    seq = (last["last"] or 0) + 1
    entry = TournamentEvent.objects.create(
        tournament=tournament, seq=seq, type=kind, payload=payload
    )
    if kind in NOTICES:  # an entry of another kind tells the players nothing of their own
        notice_type, notices_of = NOTICES[kind]
        app_notices_write(notices_of(tournament, notice_type, payload), now=entry.created_at)
    feed_wake(feed_key(tournament.pk), seq)
    return entry
