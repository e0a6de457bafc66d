"""Recording a tournament game's result: the match's (or the duplicate board's), then the
round's close queued when it was the last. Queued by games' `game_finished` signal
after the game's commit; idempotent, and swept again when its task was lost
(docs/tournaments.md, "Running").
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from celery import current_app
from django.db import transaction
from django.utils import timezone

from games import rules, selectors
from games.errors import GameNotFoundError
from tournaments.formats import Outcome
from tournaments.models import Match, NoShow, Round, RoundStatus, Tournament, TournamentStatus
from tournaments.services import boards, progress
from tournaments.services.ratings import game_rate
from tournaments.services.running import round_close, round_close_if_over, tournament_locked

RECORD_TASK = "tournaments.tasks.record_game_result"


def on_game_finished(sender: Any, *, game_id: UUID, **kwargs: Any) -> None:
    """The receiver of games' `game_finished`: queue the recording of its result (a
    game outside any tournament costs one query)."""
    playing = Match.objects.filter(game_id=game_id, outcome__isnull=True).values("pk")
    if playing.union(boards.pending(game_id).values("pk")).exists():
        current_app.send_task(RECORD_TASK, args=(str(game_id),))


def game_result_record(game_id: UUID) -> bool:
    """Copy a finished game's result into its match, rate it, and close the round if it
    was the last; False (nothing done) if not a pending tournament game or not over."""
    board = boards.board_of(game_id)
    if board is not None:
        return _board_table_record(game_id, board.match.round.tournament_id)
    match = Match.objects.filter(game_id=game_id).select_related("round").first()
    if match is None or match.outcome is not None:
        return False
    summary = _finished_summary(game_id)
    if summary is None:
        return False
    with transaction.atomic():
        tournament = tournament_locked(match.round.tournament_id)
        match = Match.objects.select_for_update().select_related("round").get(pk=match.pk)
        if tournament is None or match.outcome is not None:
            return False
        outcome = _outcome(tournament, summary)
        match.outcome = outcome.value
        match.home_score, match.away_score = summary.scores
        match.recorded_at = timezone.now()
        match.save(update_fields=["outcome", "home_score", "away_score", "recorded_at"])
        if tournament.rated:
            game_rate(game_id)
        number = match.round.number
        progress.progress_append(
            tournament,
            progress.GAME_FINISHED,
            {
                "round": number,
                "table": match.table,
                "game_id": str(game_id),
                "outcome": outcome.value,
                "home_score": match.home_score,
                "away_score": match.away_score,
            },
        )
        round_close_if_over(match.round)
    return True


def _finished_summary(game_id: UUID) -> rules.Summary | None:
    try:
        state = selectors.table_state(game_id).loaded.state
    except GameNotFoundError:
        return None
    summary = rules.summary(state)
    return summary if summary.status == "finished" else None


def _board_table_record(game_id: UUID, tournament_id: UUID) -> bool:
    """A duplicate board's table ended (services/boards.py): False if not over."""
    summary = _finished_summary(game_id)
    if summary is None:
        return False
    with transaction.atomic():
        tournament = tournament_locked(tournament_id)
        if tournament is None:
            return False
        recorded, match = boards.table_record(tournament, game_id, summary)
        if match is not None:
            round_close_if_over(match.round)
    return recorded


def _outcome(tournament: Tournament, summary: rules.Summary) -> Outcome:
    """The match's outcome: the game's, unless a no-show forfeits it (a seat still absent
    at the end, under `no_show: forfeit`)."""
    if tournament.no_show == NoShow.FORFEIT and summary.absent:
        home_absent = any(seat % 2 == 0 for seat in summary.absent)
        away_absent = any(seat % 2 == 1 for seat in summary.absent)
        if home_absent and away_absent:
            return Outcome.DOUBLE_FORFEIT
        return Outcome.HOME_FORFEIT if home_absent else Outcome.AWAY_FORFEIT
    if summary.winner is None:
        return Outcome.DRAW
    return Outcome.HOME if summary.winner == 0 else Outcome.AWAY


def unrecorded_games_sweep() -> int:
    """Periodic: record the finished games whose result task was lost (broker down when
    the game ended, worker killed), and close the rounds left open the same way."""
    done = 0
    pending = Match.objects.filter(
        outcome__isnull=True, game__status="finished", round__status=RoundStatus.PLAYING
    ).values_list("game_id", flat=True)
    for game_id in [*pending[:500], *boards.unrecorded()]:
        done += game_result_record(game_id)
    open_rounds = Round.objects.filter(
        status=RoundStatus.PLAYING, tournament__status=TournamentStatus.RUNNING
    ).exclude(matches__outcome__isnull=True)
    for played in list(open_rounds.values_list("tournament_id", "number")[:500]):
        done += round_close(*played)
    return done
