"""Ratings: a rated tournament's games move the players' ratings the right way, and a
rebuild from the games gives the same numbers."""

from __future__ import annotations

import pytest

from tests.tournaments.helpers import ONE_HAND, play_round_away
from tournaments import selectors, services
from tournaments.models import Match, Rating, RatingChange, TournamentStatus

pytestmark = pytest.mark.django_db


def rated_tournament(organiser, players, *, fmt="round_robin", rated=True):
    settings = services.Settings(
        name="rated", format=fmt, options=ONE_HAND, rated=rated, allow_bot_partners=True
    )
    tournament = services.tournament_create(organiser=organiser, settings=settings)
    for number, player in enumerate(players):
        services.team_register(
            tournament_id=tournament.pk, user=player, name=f"team {number}", partner_bot="random"
        )
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    tournament.refresh_from_db()
    return tournament


def snapshot():
    ratings = sorted(Rating.objects.values_list("user_id", "mu", "sigma", "games"))
    changes = sorted(
        RatingChange.objects.values_list(
            "user_id", "rated_game_id", "mu_before", "sigma_before", "mu_after", "sigma_after"
        )
    )
    return ratings, changes


def test_winners_go_up_losers_down_and_a_rebuild_gives_the_same_numbers(make_user, auth_client):
    organiser = make_user()
    players = [make_user() for _ in range(3)]
    tournament = rated_tournament(organiser, players)
    while tournament.status == TournamentStatus.RUNNING:
        play_round_away(tournament)
    changes = RatingChange.objects.select_related("rated_game")
    assert changes.count() == 6  # three games, one rated player on each side
    for match in Match.objects.filter(round__tournament=tournament, away__isnull=False):
        winner = match.home if match.outcome == "home" else match.away
        loser = match.away if match.outcome == "home" else match.home
        won = changes.get(rated_game__game_id=match.game_id, user=winner.captain)
        lost = changes.get(rated_game__game_id=match.game_id, user=loser.captain)
        assert won.mu_after > won.mu_before
        assert lost.mu_after < lost.mu_before
        assert won.sigma_after < won.sigma_before
    before = snapshot()
    assert services.ratings_rebuild() == 3
    assert snapshot() == before
    line = selectors.leaderboard(10)
    assert len(line) == 3
    assert line[0]["rating"] >= line[-1]["rating"]
    assert all(entry["provisional"] for entry in line)  # two games do not settle a rating
    history = selectors.rating_history(players[0])
    assert len(history) == 2
    assert history[0]["mu_after"] == history[1]["mu_before"]
    answer = auth_client().get(f"/api/v1/ratings/{players[0].username}")
    assert answer.status_code == 200
    served = [(entry["game_id"], entry["mu_after"]) for entry in answer.json()["history"]]
    assert served == [(entry["game_id"], entry["mu_after"]) for entry in history]
    assert answer.json()["rating"]["games"] == 2


def test_an_unrated_tournament_leaves_ratings_alone(make_user):
    organiser = make_user()
    tournament = rated_tournament(
        organiser, [make_user(), make_user()], fmt="knockout", rated=False
    )
    play_round_away(tournament)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    assert not Rating.objects.exists()
