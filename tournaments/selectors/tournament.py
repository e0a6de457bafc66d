"""A tournament as the API shows it: plain dicts, the same for every viewer (nothing in a
tournament is hidden; a game's cards are behind the game's own endpoints)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

from django.core.exceptions import ValidationError
from django.db.models import QuerySet

from tournaments.errors import TournamentNotFoundError
from tournaments.formats import standings
from tournaments.formats.records import Outcome, Result
from tournaments.models import (
    Board,
    Format,
    Match,
    Round,
    Team,
    Tournament,
    TournamentEvent,
    TournamentStatus,
)


def tournament_get(tournament_id: UUID | str) -> Tournament:
    try:
        found = Tournament.objects.select_related("organiser").filter(pk=tournament_id).first()
    except ValidationError as error:
        raise TournamentNotFoundError() from error
    if found is None:
        raise TournamentNotFoundError()
    return found


def tournament_list() -> QuerySet[Tournament]:
    return Tournament.objects.select_related("organiser").all()


def _member(user: Any, bot: str | None) -> dict[str, Any]:
    if user is not None:
        return {"kind": "user", "username": user.username, "bot_level": None}
    return {"kind": "bot", "username": None, "bot_level": bot}


def team_line(team: Team) -> dict[str, Any]:
    return {
        "id": team.pk,
        "name": team.name,
        "seed": team.seed,
        "status": team.status,
        "players": [
            _member(team.captain, team.captain_bot),
            _member(team.partner, team.partner_bot),
        ],
        "first_round": team.first_round,
        "withdrawn_from_round": team.withdrawn_from_round,
    }


def _teams(tournament: Tournament) -> list[Team]:
    return list(Team.objects.filter(tournament=tournament).select_related("captain", "partner"))


def tournament_detail(tournament: Tournament) -> dict[str, Any]:
    return {
        "id": str(tournament.pk),
        "name": tournament.name,
        "format": tournament.format,
        "organiser": tournament.organiser.username,
        "options": tournament.options,
        "no_show": tournament.no_show,
        "rounds": tournament.rounds,
        "boards": tournament.boards,
        "first_round": tournament.first_round,
        "rated": tournament.rated,
        "allow_bot_partners": tournament.allow_bot_partners,
        "registration_opens_at": tournament.registration_opens_at,
        "registration_closes_at": tournament.registration_closes_at,
        "status": tournament.status,
        "current_round": tournament.current_round,
        "total_rounds": tournament.total_rounds,
        "paused": tournament.paused,
        "created_at": tournament.created_at,
        "started_at": tournament.started_at,
        "finished_at": tournament.finished_at,
        "teams": [team_line(team) for team in _teams(tournament)],
    }


def _results(tournament: Tournament) -> list[Result]:
    matches = Match.objects.filter(round__tournament=tournament, outcome__isnull=False)
    return [
        Result(
            round=number,
            home=home,
            away=away,
            outcome=Outcome(outcome),
            home_score=home_score,
            away_score=away_score,
        )
        for number, home, away, outcome, home_score, away_score in matches.order_by(
            "round__number", "table"
        ).values_list("round__number", "home_id", "away_id", "outcome", "home_score", "away_score")
    ]


def standings_of(tournament: Tournament) -> list[dict[str, Any]]:
    """Every team that played or plays, ranked (docs/tournaments.md, "Standings")."""
    teams = {
        team.pk: team
        for team in _teams(tournament)
        if team.status == "registered" or team.withdrawn_from_round is not None
    }
    lines = standings(
        {pk: team.seed for pk, team in teams.items()},
        _results(tournament),
        swiss=tournament.format == Format.SWISS,
    )
    return [
        {
            "rank": line.rank,
            "team": team_line(teams[line.team]),
            "played": line.played,
            "match_points": line.match_points,
            "point_difference": line.point_difference,
            "head_to_head": line.head_to_head,
            "buchholz": line.buchholz,
            "sonneborn_berger": line.sonneborn_berger,
        }
        for line in lines
    ]


def rounds_of(tournament: Tournament) -> list[dict[str, Any]]:
    """Each round with its pairings and their results so far."""
    matches: dict[int, list[dict[str, Any]]] = {}
    boards = _boards(tournament)
    for match in Match.objects.filter(round__tournament=tournament).select_related("round"):
        matches.setdefault(match.round_id, []).append(
            {
                "table": match.table,
                "home": match.home_id,
                "away": match.away_id,
                "game_id": None if match.game_id is None else str(match.game_id),
                "outcome": match.outcome,
                "home_score": match.home_score,
                "away_score": match.away_score,
                "boards": boards.get(match.pk, []),
            }
        )
    return [
        {
            "number": played.number,
            "status": played.status,
            "started_at": played.started_at,
            "closed_at": played.closed_at,
            "matches": matches.get(played.pk, []),
        }
        for played in Round.objects.filter(tournament=tournament).order_by("number")
    ]


def _boards(tournament: Tournament) -> dict[int, list[dict[str, Any]]]:
    """Each duplicate match's boards, by match: a board's secret only once revealed."""
    lines: dict[int, list[dict[str, Any]]] = {}
    rows = Board.objects.filter(match__round__tournament=tournament).order_by("match", "number")
    for board in rows:
        lines.setdefault(board.match_id, []).append(
            {
                "board": board.number,
                "commitment": board.commitment,
                "secret": board.revealed or None,
                "first_game_id": _game_id(board.first_game_id),
                "second_game_id": _game_id(board.second_game_id),
                "first_scores": board.first_scores,
                "second_scores": board.second_scores,
            }
        )
    return lines


def _game_id(game_id: UUID | None) -> str | None:
    return None if game_id is None else str(game_id)


@dataclass(frozen=True)
class ProgressPage:
    """Progress entries after a cursor, and whether the tournament is over (then no entry
    comes after the last)."""

    entries: list[dict[str, Any]]
    finished: bool


def progress_page(tournament_id: UUID, after: int, limit: int) -> ProgressPage:
    """Up to `limit` entries with `seq > after`, oldest first (one query for the
    tournament, one for its entries)."""
    tournament = tournament_get(tournament_id)
    rows = TournamentEvent.objects.filter(tournament=tournament, seq__gt=after).order_by("seq")
    entries = [
        {"seq": row.seq, "type": row.type, "payload": row.payload, "created_at": row.created_at}
        for row in rows[:limit]
    ]
    return ProgressPage(entries, finished=tournament.status == TournamentStatus.FINISHED)
