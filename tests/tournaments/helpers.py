"""Building tournaments for the tests, and playing their games out in this process."""

from __future__ import annotations

from typing import Any

from games import selectors
from games import services as game_services
from tournaments import services
from tournaments.models import Match, Tournament

#: one scored hand ends the game: the target is 1 point
ONE_HAND = {"target": 1}


def tournament_of_bots(
    organiser, *, format: str, teams: int, rounds: int | None = None, **more: Any
) -> Tournament:
    settings = services.Settings(
        name=f"{format} of {teams}", format=format, options=ONE_HAND, rounds=rounds, **more
    )
    tournament = services.tournament_create(organiser=organiser, settings=settings)
    for number in range(1, teams + 1):
        services.bot_team_add(
            tournament_id=tournament.pk,
            user=organiser,
            name=f"bots {number}",
            levels=("random", "random"),
        )
    return tournament


def play_out(game_id) -> None:
    """Play every bot turn of a game, in this process, until it ends."""
    for _ in range(10_000):
        table = selectors.game_table(game_id)
        if table.status == "finished":
            return
        assert game_services.bot_play(game_id=game_id, expected_version=table.version)
    raise AssertionError("the game did not end")


def play_round(tournament: Tournament) -> None:
    """Play the current round's games and do what the worker's tasks would."""
    tournament.refresh_from_db()
    number = tournament.current_round
    for match in Match.objects.filter(round__tournament=tournament, round__number=number):
        if match.game_id is not None:
            play_out(match.game_id)
            services.game_result_record(match.game_id)
    services.round_close(tournament.pk, number)
    tournament.refresh_from_db()
