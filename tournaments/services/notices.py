"""What a tournament's progress tells each of its players, in their own feed (`/me/events`).

Each progress entry gives every player (a user, not a bot) it concerns one notice, written
in the entry's transaction through games' seam for other apps' notices: so a player gets
it exactly when the entry exists, once, and in the entries' order.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from games.services import AppNotice
from tournaments.models import Match, Team, TeamStatus, Tournament


def round_started(
    tournament: Tournament, notice_type: str, payload: dict[str, Any]
) -> list[AppNotice]:
    """To each player of the round's pairings: their table, game and seat (null, and no
    game, for a bye)."""
    base = {"tournament_id": str(tournament.pk), "round": payload["round"]}
    teams = {team.pk: team for team in Team.objects.filter(tournament=tournament)}
    return [
        AppNotice(user, notice_type, {**base, **table, "team": team.pk, "seat": seat})
        for table, team, sides in _tables(payload["pairings"], teams)
        for user, seat in sides
    ]


def game_finished(
    tournament: Tournament, notice_type: str, payload: dict[str, Any]
) -> list[AppNotice]:
    """To each player of the match: its outcome and scores."""
    base = {"tournament_id": str(tournament.pk), "round": payload["round"]}
    match = Match.objects.select_related("home", "away").get(
        round__tournament=tournament, round__number=payload["round"], table=payload["table"]
    )
    result = {key: payload[key] for key in ("table", "game_id", "outcome")}
    scores = {key: payload[key] for key in ("home_score", "away_score")}
    return [
        AppNotice(user, notice_type, {**base, **result, "team": team.pk, **scores})
        for team, home in ((match.home, True), (match.away, False))
        if team is not None
        for user, _ in _players(team, home=home)
    ]


def tournament_finished(
    tournament: Tournament, notice_type: str, payload: dict[str, Any]
) -> list[AppNotice]:
    """To each player of a team still registered: the winning team."""
    base = {"tournament_id": str(tournament.pk), "round": payload["round"]}
    finishers = Team.objects.filter(tournament=tournament, status=TeamStatus.REGISTERED)
    return [
        AppNotice(user, notice_type, {**base, "team": team.pk, "winner": payload["winner"]})
        for team in finishers
        for user, _ in _players(team, home=True)
    ]


def _tables(
    pairings: list[dict[str, Any]], teams: dict[int, Team]
) -> Iterator[tuple[dict[str, Any], Team, list[tuple[int, int | None]]]]:
    """Per table and team of a round: the table's members, the team, its players' seats."""
    for pairing in pairings:
        table = {"table": pairing["table"], "game_id": pairing["game_id"]}
        # No game for a bye, nor for a duplicate's match: its board tables come later,
        # each with its own seats, and each tells its players by a `game_started` notice.
        seated = pairing["game_id"] is not None
        for team_id, home in ((pairing["home"], True), (pairing["away"], False)):
            if team_id is not None:
                team = teams[team_id]
                sides = [
                    (user, seat if seated else None) for user, seat in _players(team, home=home)
                ]
                yield table, team, sides


def _players(team: Team, *, home: bool) -> list[tuple[int, int]]:
    """The team's users with their seats at its table: the home captain at 0 and partner
    at 2, the away team's at 1 and 3 (tournaments/services/running.py seats them so)."""
    first = 0 if home else 1
    seated = ((team.captain_id, first), (team.partner_id, first + 2))
    return [(user, seat) for user, seat in seated if user is not None]
