"""Running a duplicate round (docs/tournaments.md, "Duplicate"): its boards committed
before the pairings are published, each board's first table dealt, then its second
once the first has finished, its secret revealed once both have, and the match scored.

Called by `running` under the tournament's row lock; what a redelivered task finds
recorded already it leaves alone.
"""

from __future__ import annotations

import secrets
from typing import Any
from uuid import UUID

from django.db.models import Q, QuerySet
from django.utils import timezone

from games import rules, services
from games.rules import fairness
from tournaments.formats import Outcome, Pairing, duplicate
from tournaments.models import Board, Match, Round, Team, Tournament
from tournaments.services import progress
from tournaments.services.ratings import game_rate

BOARDS_COMMITTED = "boards_committed"
BOARD_REVEALED = "board_revealed"


def match_create(played: Round, *, table: int, pair: Pairing, boards: int) -> Match:
    """A pairing's match and its boards, each with a fresh secret and its commitment
    (no games yet: `boards_deal` deals them once every commitment is out)."""
    match = Match.objects.create(round=played, table=table, home_id=pair.home, away_id=pair.away)
    for number in range(1, boards + 1):
        secret = secrets.token_hex(32)
        commitment = fairness.commitment(bytes.fromhex(secret))
        Board.objects.create(match=match, number=number, secret=secret, commitment=commitment)
    return match


def boards_deal(tournament: Tournament, played: Round, teams: dict[int, Team]) -> None:
    """Publish the round's board commitments, then create each board's first table
    (the home team at seats 0 and 2)."""
    boards = list(Board.objects.filter(match__round=played).select_related("match"))
    progress.progress_append(
        tournament,
        BOARDS_COMMITTED,
        {
            "round": played.number,
            "boards": [
                {"table": b.match.table, "board": b.number, "commitment": b.commitment}
                for b in boards
            ],
        },
    )
    for board in boards:
        board.first_game = _table(tournament, board, teams[board.match.home_id], teams)
        board.save(update_fields=["first_game"])


def _table(tournament: Tournament, board: Board, holder: Team, teams: dict[int, Team]) -> Any:
    """A table of `board` with `holder` at seats 0 and 2, the other team at 1 and 3."""
    home, away = teams[board.match.home_id], teams[int(board.match.away_id or 0)]
    other = away if holder.pk == home.pk else home
    seats = [
        seat_taker(holder.captain_id, holder.captain_bot),
        seat_taker(other.captain_id, other.captain_bot),
        seat_taker(holder.partner_id, holder.partner_bot),
        seat_taker(other.partner_id, other.partner_bot),
    ]
    return services.board_game_create(
        user=tournament.organiser,
        options=tournament.options,
        seats=seats,
        board_secret=board.secret,
    )


def seat_taker(user_id: int | None, bot_level: str | None) -> services.SeatTaker:
    """A team member at a seat: the user, or the bot of that level."""
    return services.SeatTaker(user_id=user_id, bot_level=None if user_id else bot_level)


def board_of(game_id: UUID) -> Board | None:
    """The board one of whose tables `game_id` is, if any."""
    return (
        Board.objects.filter(Q(first_game_id=game_id) | Q(second_game_id=game_id))
        .select_related("match__round")
        .first()
    )


def pending(game_id: UUID) -> QuerySet[Board]:
    """The board of which `game_id` is a table whose result is not recorded yet."""
    return Board.objects.filter(
        Q(first_game_id=game_id, first_scores__isnull=True)
        | Q(second_game_id=game_id, second_scores__isnull=True)
    )


def unrecorded() -> list[UUID]:
    """Boards' finished tables whose result is not recorded (their task was lost)."""
    rows = Board.objects.filter(
        Q(first_game__status="finished", first_scores__isnull=True)
        | Q(second_game__status="finished", second_scores__isnull=True)
    ).values_list("first_game_id", "first_scores", "second_game_id")
    return [first if scores is None else second for first, scores, second in rows[:500]]


def table_record(
    tournament: Tournament, game_id: UUID, summary: rules.Summary
) -> tuple[bool, Match | None]:
    """Record a board's finished table (the caller holds the tournament's lock): deal
    its second table, or reveal it and score the match once both are in. Whether it was
    recorded now (not before), and the match if this completed it."""
    board = (
        Board.objects.select_for_update(of=("self",))
        .select_related("match__round")
        .get(Q(first_game_id=game_id) | Q(second_game_id=game_id))
    )
    first = board.first_game_id == game_id
    if (board.first_scores if first else board.second_scores) is not None:
        return False, None
    scores = list(summary.scores)
    if first:
        board.first_scores = scores
        teams = {team.pk: team for team in Team.objects.filter(tournament=tournament)}
        board.second_game = _table(tournament, board, teams[int(board.match.away_id or 0)], teams)
    else:
        board.second_scores = scores
        board.revealed = fairness.hand_secret(bytes.fromhex(board.secret), 1).hex()
        services.board_deals_release(game_ids=[game_id, *_ids(board.first_game_id)])
    board.save()
    if tournament.rated:
        game_rate(game_id)
    _finished_entry(tournament, board, game_id, scores if first else scores[::-1])
    if not first:
        progress.progress_append(
            tournament,
            BOARD_REVEALED,
            {
                "round": board.match.round.number,
                "table": board.match.table,
                "board": board.number,
                "commitment": board.commitment,
                "secret": board.revealed,
            },
        )
    return True, _match_scored(board.match)


def _finished_entry(tournament: Tournament, board: Board, game_id: UUID, home: list[int]) -> None:
    """`game_finished` for a board's table, its scores from the home team's side."""
    outcome = Outcome.DRAW if home[0] == home[1] else Outcome.HOME
    if home[0] < home[1]:
        outcome = Outcome.AWAY
    progress.progress_append(
        tournament,
        progress.GAME_FINISHED,
        {
            "round": board.match.round.number,
            "table": board.match.table,
            "board": board.number,
            "game_id": str(game_id),
            "outcome": outcome.value,
            "home_score": home[0],
            "away_score": home[1],
        },
    )


def _match_scored(match: Match) -> Match | None:
    """Score the match once every board has both tables in: IMPs and the outcome."""
    tables: list[tuple[list[int] | None, list[int] | None]] = list(
        Board.objects.filter(match=match).values_list("first_scores", "second_scores")
    )
    played = [
        duplicate.BoardPlayed((first[0], first[1]), (second[0], second[1]))
        for first, second in tables
        if first is not None and second is not None
    ]
    if len(played) < len(tables):
        return None
    match.home_score, match.away_score = duplicate.match_imps(played)
    match.outcome = duplicate.match_outcome(played).value
    match.recorded_at = timezone.now()
    match.save(update_fields=["outcome", "home_score", "away_score", "recorded_at"])
    return match


def _ids(game_id: UUID | None) -> list[UUID]:
    return [] if game_id is None else [game_id]
