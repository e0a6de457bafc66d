"""Running tournaments through the services, in this process (the worker's tasks called
directly): pairings, byes, standings, withdrawals and the finish."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import Seat
from tests.tournaments.helpers import play_round, tournament_of_bots, tournament_of_players
from tournaments import selectors, services
from tournaments.errors import NotEnoughTeamsError, WithdrawalClosedError
from tournaments.models import Match, Tournament, TournamentEvent, TournamentStatus

pytestmark = pytest.mark.django_db


def pairs_of(tournament):
    return [
        (m.round.number, m.home_id, m.away_id)
        for m in Match.objects.filter(round__tournament=tournament).select_related("round")
    ]


def test_a_swiss_of_five_bot_teams_runs_to_its_end(user):
    tournament = tournament_of_bots(user, format="swiss", teams=5, rounds=3)
    services.tournament_start(tournament_id=tournament.pk, user=user)
    tournament.refresh_from_db()
    rounds = 0
    while tournament.status == TournamentStatus.RUNNING:
        play_round(tournament)
        rounds += 1
    assert rounds == 3
    played = pairs_of(tournament)
    met = [frozenset((h, a)) for _, h, a in played if a is not None]
    assert len(met) == len(set(met)) == 6  # two matches a round, no rematch
    byes = [h for _, h, a in played if a is None]
    assert len(byes) == len(set(byes)) == 3  # a bye each round, never twice to one team
    table = selectors.standings_of(tournament)
    assert [line["rank"] for line in table] == [1, 2, 3, 4, 5]
    assert sum(line["match_points"] for line in table) == 3 * (2 * 2 + 2)
    kinds = list(
        TournamentEvent.objects.filter(tournament=tournament).values_list("type", flat=True)
    )
    assert kinds[-1] == "tournament_finished"
    assert kinds.count("round_started") == 3
    assert kinds.count("game_finished") == 6


def test_tournament_games_seat_the_home_team_at_0_and_2(user):
    tournament = tournament_of_bots(user, format="knockout", teams=2)
    services.tournament_start(tournament_id=tournament.pk, user=user)
    (match,) = Match.objects.filter(round__tournament=tournament)
    seats = {row.seat: row.bot_level for row in Seat.objects.filter(game_id=match.game_id)}
    assert seats == {0: "random", 1: "random", 2: "random", 3: "random"}


def test_a_swiss_needs_more_teams_than_rounds(user):
    tournament = tournament_of_bots(user, format="swiss", teams=3, rounds=3)
    with pytest.raises(NotEnoughTeamsError):
        services.tournament_start(tournament_id=tournament.pk, user=user)


def test_withdrawal_mid_swiss_leaves_the_team_out_of_later_rounds(user):
    tournament = tournament_of_bots(user, format="swiss", teams=6, rounds=4)
    services.tournament_start(tournament_id=tournament.pk, user=user)
    play_round(tournament)  # round 2 is paired as round 1 closes
    leaving = tournament.teams.order_by("seed").first()
    services.team_withdraw(tournament_id=tournament.pk, team_id=leaving.pk, user=user)
    while tournament.status == TournamentStatus.RUNNING:
        play_round(tournament)
    # round 2 plays on with the team; from round 3 it is gone
    assert any(leaving.pk in (h, a) for n, h, a in pairs_of(tournament) if n == 2)
    later = [(h, a) for n, h, a in pairs_of(tournament) if n > 2]
    assert all(leaving.pk not in pair for pair in later)
    assert len([1 for h, a in later if a is None]) == 2  # five teams left: a bye a round
    assert leaving.pk in [line["team"]["id"] for line in selectors.standings_of(tournament)]


def test_a_round_robin_refuses_withdrawal_once_started(user):
    tournament = tournament_of_bots(user, format="round_robin", teams=3)
    services.tournament_start(tournament_id=tournament.pk, user=user)
    team = tournament.teams.first()
    with pytest.raises(WithdrawalClosedError):
        services.team_withdraw(tournament_id=tournament.pk, team_id=team.pk, user=user)


def _closing(tournament, minutes_ago: int) -> None:
    closes = timezone.now() - timedelta(minutes=minutes_ago)
    Tournament.objects.filter(pk=tournament.pk).update(
        registration_opens_at=closes - timedelta(days=1), registration_closes_at=closes
    )


def test_a_tournament_starts_by_itself_once_its_registration_closes(user):
    closed = tournament_of_bots(user, format="round_robin", teams=3)
    still_open = tournament_of_bots(user, format="round_robin", teams=3)
    _closing(closed, 1)
    Tournament.objects.filter(pk=still_open.pk).update(
        registration_closes_at=timezone.now() + timedelta(hours=1)
    )

    assert services.due_tournaments_start() == 1
    assert services.due_tournaments_start() == 0  # a second sweep finds nothing to do

    closed.refresh_from_db()
    still_open.refresh_from_db()
    assert closed.status == TournamentStatus.RUNNING
    assert Match.objects.filter(round__tournament=closed, round__number=1).count() == 2
    assert still_open.status == TournamentStatus.REGISTRATION


def test_a_closed_registration_with_too_few_teams_waits_for_its_organiser(user):
    lonely = tournament_of_bots(user, format="knockout", teams=1)
    _closing(lonely, 5)

    assert services.due_tournaments_start() == 0

    lonely.refresh_from_db()
    assert lonely.status == TournamentStatus.REGISTRATION
    assert not Match.objects.filter(round__tournament=lonely).exists()


def test_a_round_takes_its_players_notice_counters_first_all_at_once_in_id_order(
    user, make_user
):
    """Its games and its entry number notices over many statements; taking every counter
    first, in the order each game's append takes its own, is what keeps a round's opening
    from deadlocking with a move at a table that shares two of its players."""
    players = [make_user() for _ in range(6)]
    tournament = tournament_of_players(user, players[::-1], format="round_robin")
    counters = re.compile(r'INSERT INTO "?games_noticecounter"?', re.IGNORECASE)
    with CaptureQueriesContext(connection) as queries:
        services.tournament_start(tournament_id=tournament.pk, user=user)
    taking = [query["sql"] for query in queries.captured_queries if counters.search(query["sql"])]
    assert len(taking) > 1  # a game per table, then the entry's notices
    first = taking[0]
    locked = [int(found) for found in re.findall(r"\((\d+), 0\)", first)]
    assert locked == sorted(player.pk for player in players)
