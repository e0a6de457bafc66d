"""A round's pairings from the tournament's teams and results (the pure formats decide)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from tournaments.formats import Pairing, Result, knockout, round_robin, standings, swiss
from tournaments.formats.records import Outcome
from tournaments.models import Format, Match, Team, TeamStatus, Tournament


def teams_in_round(tournament: Tournament, number: int) -> list[Team]:
    """The teams that play round `number`: registered (or withdrawn from a later round),
    entered by then, in seed order."""
    teams = Team.objects.filter(
        tournament=tournament, status__in=(TeamStatus.REGISTERED, TeamStatus.WITHDRAWN)
    ).order_by("seed")
    return [
        team
        for team in teams
        if team.first_round <= number
        and (team.withdrawn_from_round is None or team.withdrawn_from_round > number)
        and (team.status == TeamStatus.REGISTERED or team.withdrawn_from_round is not None)
    ]


def results(tournament: Tournament, *, before_round: int | None = None) -> list[Result]:
    """Every recorded match of the tournament, in round and table order."""
    matches = Match.objects.filter(round__tournament=tournament, outcome__isnull=False)
    if before_round is not None:
        matches = matches.filter(round__number__lt=before_round)
    return [
        Result(
            round=match.round.number,
            home=match.home_id,
            away=match.away_id,
            outcome=Outcome(match.outcome),
            home_score=match.home_score,
            away_score=match.away_score,
        )
        for match in matches.select_related("round").order_by("round__number", "table")
    ]


def round_count(tournament: Tournament, teams: int) -> int:
    """The rounds the tournament plays with `teams` teams at the start."""
    if tournament.format in (Format.ROUND_ROBIN, Format.DUPLICATE):
        return round_robin.round_count(teams)
    if tournament.format == Format.KNOCKOUT:
        return knockout.round_count(teams)
    return int(tournament.rounds or 0)


def pairings(tournament: Tournament, number: int) -> tuple[Pairing, ...]:
    """Round `number`'s pairings."""
    playing = teams_in_round(tournament, number)
    ids = [team.pk for team in playing]
    if tournament.format in (Format.ROUND_ROBIN, Format.DUPLICATE):
        return round_robin.round_robin_round(ids, number)
    played = results(tournament, before_round=number)
    if tournament.format == Format.KNOCKOUT:
        if number == 1:
            return knockout.first_round(ids)
        previous = [result for result in played if result.round == number - 1]
        seeds = {team.pk: team.seed for team in Team.objects.filter(tournament=tournament)}
        return knockout.next_round(previous, seeds)
    return _swiss(tournament, number, playing, played)


def _swiss(
    tournament: Tournament,
    number: int,
    playing: Sequence[Team],
    played: Sequence[Result],
) -> tuple[Pairing, ...]:
    everyone = {team.pk: team.seed for team in Team.objects.filter(tournament=tournament)}
    points = {line.team: line.match_points for line in standings(everyone, played, swiss=True)}
    teams = [swiss.SwissTeam(team.pk, team.seed, points.get(team.pk, 0)) for team in playing]
    if number == 1:
        draw = hashlib.sha256(bytes.fromhex(tournament.draw_seed)).digest()
        return swiss.first_round(teams, seeded=tournament.first_round == "seeded", seed=draw)
    met = {frozenset((r.home, r.away)) for r in played if r.away is not None}
    had_bye = {r.home for r in played if r.outcome is Outcome.BYE}
    return swiss.later_round(teams, met=met, had_bye=had_bye)
