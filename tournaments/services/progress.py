"""The tournament's progress feed: numbered entries, appended under the tournament's lock."""

from __future__ import annotations

from typing import Any

from django.db.models import Max

from tournaments.models import Tournament, TournamentEvent

ROUND_STARTED = "round_started"
GAME_FINISHED = "game_finished"
TOURNAMENT_FINISHED = "tournament_finished"


def progress_append(tournament: Tournament, kind: str, payload: dict[str, Any]) -> TournamentEvent:
    """Append one entry after the last; the caller holds the tournament's row lock, so
    two writers never take the same number."""
    last = TournamentEvent.objects.filter(tournament=tournament).aggregate(last=Max("seq"))
    seq = (last["last"] or 0) + 1
    return TournamentEvent.objects.create(
        tournament=tournament, seq=seq, type=kind, payload=payload
    )
