"""Running a tournament: the start, each round's opening and close, the finish (each
game's result is recorded by `results`).

Nobody pushes a tournament along: a game's end (games' `game_finished`, after its
commit) queues `record_game_result`; the result that completes a round queues
`close_round` with that round's number; closing it opens the next round or finishes
the tournament. Both tasks lock the tournament's row and do nothing when what they
carry is done already, so a task delivered twice, or the sweeper's copy of a lost
one, changes nothing.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any
from uuid import UUID

from celery import current_app
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games import services
from tournaments.errors import (
    NotEnoughTeamsError,
    NotTournamentOrganiserError,
    TournamentNotFoundError,
    TournamentStartedError,
)
from tournaments.formats import Outcome, Pairing
from tournaments.formats.records import PairingError
from tournaments.models import (
    Format,
    Match,
    Round,
    RoundStatus,
    Team,
    TeamStatus,
    Tournament,
    TournamentStatus,
)
from tournaments.selectors import standings_of
from tournaments.services import boards, pairing, progress, proposals
from tournaments.services.boards import seat_taker

logger = logging.getLogger(__name__)

CLOSE_TASK = "tournaments.tasks.close_round"


@transaction.atomic
def tournament_start(*, tournament_id: UUID, user: User) -> Tournament:
    """The organiser starts: pending invitations lapse, round 1 is paired and its games
    created with everyone seated."""
    tournament = tournament_locked(tournament_id)
    if tournament is None:
        raise TournamentNotFoundError()
    if tournament.organiser_id != user.pk:
        raise NotTournamentOrganiserError()
    if tournament.status != TournamentStatus.REGISTRATION:
        raise TournamentStartedError()
    _start(tournament)
    return tournament


def due_tournaments_start(*, now: datetime | None = None, limit: int = 20) -> int:
    """Start the tournaments whose registration has closed (celery beat): the same start
    as the organiser's. One whose teams cannot play (fewer than two, or too few for its
    Swiss rounds) stays in registration for its organiser, who may withdraw or start it
    by hand once it can; it is tried again at each sweep. Rows another sweeper holds are
    skipped. How many started."""
    now = now or timezone.now()
    started = 0
    for tournament_id in _registration_closed(now, limit):
        with transaction.atomic():
            tournament = (
                Tournament.objects.select_for_update(skip_locked=True)
                .filter(pk=tournament_id, status=TournamentStatus.REGISTRATION, paused=False)
                .first()
            )
            if tournament is None:
                continue
            try:
                with transaction.atomic():  # a refused start leaves nothing behind
                    _start(tournament)
            except NotEnoughTeamsError:
                logger.info("tournament %s: registration closed, too few teams", tournament.pk)
                continue
            started += 1
    return started


def _registration_closed(now: datetime, limit: int) -> list[UUID]:
    rows = Tournament.objects.filter(
        status=TournamentStatus.REGISTRATION, registration_closes_at__lte=now, paused=False
    ).order_by("registration_closes_at")
    return list(rows.values_list("pk", flat=True)[:limit])


def _start(tournament: Tournament) -> None:
    Team.objects.filter(tournament=tournament, status=TeamStatus.INVITED).update(
        status=TeamStatus.DECLINED
    )
    count = Team.objects.filter(tournament=tournament, status=TeamStatus.REGISTERED).count()
    if count < 2:
        raise NotEnoughTeamsError()
    if tournament.format == Format.SWISS and int(tournament.rounds or 0) > count - 1:
        raise NotEnoughTeamsError(
            _("%(teams)d teams can play at most %(rounds)d Swiss rounds without a rematch.")
            % {"teams": count, "rounds": count - 1}
        )
    tournament.status = TournamentStatus.RUNNING
    tournament.started_at = timezone.now()
    tournament.total_rounds = pairing.round_count(tournament, count)
    round_open(tournament, 1)


def tournament_locked(tournament_id: UUID) -> Tournament | None:
    """The tournament's row, locked until the transaction ends: every running step
    takes it first, so that they happen one after the other."""
    return Tournament.objects.select_for_update().filter(pk=tournament_id).first()


def round_open(
    tournament: Tournament, number: int, pairings: tuple[Pairing, ...] | None = None
) -> Round | None:
    """Pair round `number` (unless paired already), create its games (seats 0 and 2 the
    home team's) and say so; a paused tournament holds the round, paired, instead."""
    if tournament.paused:
        proposals.round_hold(tournament, number, pairings)
        return None
    if pairings is None:
        pairings = pairing.pairings(tournament, number)
    tournament.current_round = number
    tournament.save(update_fields=["status", "started_at", "total_rounds", "current_round"])
    played = Round.objects.create(tournament=tournament, number=number)
    teams = {team.pk: team for team in Team.objects.filter(tournament=tournament)}
    # Its games and its entry give notices to its players over many statements: their
    # counters first, all at once, in the order every game's append takes them.
    services.notice_counters_lock(_players_of(pairings, teams))
    now = timezone.now()
    listed = []
    for table, pair in enumerate(pairings, start=1):
        if tournament.format == Format.DUPLICATE and pair.away is not None:
            match = boards.match_create(
                played, table=table, pair=pair, boards=int(tournament.boards or 1)
            )
        else:
            match = _match_create(tournament, played, table=table, pair=pair, teams=teams, now=now)
        listed.append(
            {
                "table": table,
                "home": pair.home,
                "away": pair.away,
                "game_id": None if match.game_id is None else str(match.game_id),
            }
        )
    if tournament.format == Format.DUPLICATE:
        boards.boards_deal(tournament, played, teams)  # committed before the pairings
    progress.progress_append(
        tournament, progress.ROUND_STARTED, {"round": number, "pairings": listed}
    )
    round_close_if_over(played)  # a round of byes only is over at once
    return played


def _players_of(pairings: tuple[Pairing, ...], teams: dict[int, Team]) -> list[int]:
    """The users (not bots) of the teams in `pairings`."""
    paired = [teams[team_id] for pair in pairings for team_id in (pair.home, pair.away) if team_id]
    return [user for team in paired for user in (team.captain_id, team.partner_id) if user]


def _match_create(
    tournament: Tournament,
    played: Round,
    *,
    table: int,
    pair: Pairing,
    teams: dict[int, Team],
    now: Any,
) -> Match:
    if pair.away is None:
        return Match.objects.create(
            round=played,
            table=table,
            home_id=pair.home,
            outcome=Outcome.BYE.value,
            recorded_at=now,
        )
    home, away = teams[pair.home], teams[pair.away]
    seats = [
        seat_taker(home.captain_id, home.captain_bot),
        seat_taker(away.captain_id, away.captain_bot),
        seat_taker(home.partner_id, home.partner_bot),
        seat_taker(away.partner_id, away.partner_bot),
    ]
    game = services.seated_game_create(
        user=tournament.organiser, options=tournament.options, seats=seats
    )
    return Match.objects.create(round=played, table=table, home=home, away=away, game=game)


def round_close_on_commit(tournament_id: UUID, number: int) -> None:
    """Queue `close_round` for round `number` once the transaction commits."""

    def enqueue() -> None:
        current_app.send_task(CLOSE_TASK, args=(str(tournament_id), number))

    transaction.on_commit(enqueue, robust=True)


def _unfinished(played: Round) -> bool:
    return Match.objects.filter(round=played, outcome__isnull=True).exists()


def round_close_if_over(played: Round) -> None:
    """Queue the round's close on commit once every match of it has its result."""
    if not _unfinished(played):
        round_close_on_commit(played.tournament_id, played.number)


@transaction.atomic
def round_close(tournament_id: UUID, number: int) -> bool:
    """Close round `number` once every match of it has a result: open the next round or
    finish. False if that round is not the one being played, or not over yet."""
    tournament = tournament_locked(tournament_id)
    if tournament is None or tournament.status != TournamentStatus.RUNNING:
        return False
    played = Round.objects.filter(tournament=tournament, number=number).first()
    if tournament.current_round != number or played is None:
        return False
    if played.status != RoundStatus.PLAYING:
        return False
    if _unfinished(played):
        return False
    played.status, played.closed_at = RoundStatus.CLOSED, timezone.now()
    played.save(update_fields=["status", "closed_at"])
    following = _next_pairings(tournament, number + 1)
    if following is None:
        _finish(tournament)
    else:
        round_open(tournament, number + 1, following)
    return True


def _next_pairings(tournament: Tournament, number: int) -> tuple[Pairing, ...] | None:
    """Round `number`'s pairings, or None when the tournament is over: its rounds are
    played, or (a Swiss whose withdrawals left fewer than two teams) none can be paired."""
    if number > tournament.total_rounds:
        return None
    try:
        pairs = pairing.pairings(tournament, number)
    except PairingError:
        return None
    return pairs if any(pair.away is not None for pair in pairs) else None


def _finish(tournament: Tournament) -> None:
    tournament.status = TournamentStatus.FINISHED
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["status", "finished_at"])
    table = standings_of(tournament)
    progress.progress_append(
        tournament,
        progress.TOURNAMENT_FINISHED,
        {"round": tournament.current_round, "winner": table[0]["team"]["id"] if table else None},
    )
