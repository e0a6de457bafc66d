"""Building tournaments for the tests, and playing their games out in this process."""

from __future__ import annotations

from typing import Any

from accounts.models import User
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


def tournament_of_players(
    organiser, players, *, format: str, partner: str = "random", **more: Any
) -> Tournament:
    """A tournament where each of `players` registers a team with a bot partner."""
    settings = services.Settings(
        name=format, format=format, options=ONE_HAND, allow_bot_partners=True, **more
    )
    tournament = services.tournament_create(organiser=organiser, settings=settings)
    for number, player in enumerate(players):
        services.team_register(
            tournament_id=tournament.pk, user=player, name=f"team {number}", partner_bot=partner
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


def swiss_with_round_one_recorded(organiser) -> Tournament:
    """A 4-team Swiss of two rounds whose round 1 results are in, the round not closed."""
    tournament = tournament_of_bots(organiser, format="swiss", teams=4, rounds=2)
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    for match in Match.objects.filter(round__tournament=tournament):
        play_out(match.game_id)
        services.game_result_record(match.game_id)
    return tournament


def leave_to_bots(game_id) -> None:
    """Every player of a game hands their seat to a bot (as a player who steps away)."""
    for row in selectors.game_table(game_id).seats:
        if row.user_id is not None:
            game_services.seat_absent_set(
                game_id=game_id, user=User.objects.get(pk=row.user_id), seat=row.seat, absent=True
            )


def play_round_away(tournament: Tournament) -> None:
    """As `play_round`, the players' seats played by bots while they are away."""
    tournament.refresh_from_db()
    for match in Match.objects.filter(
        round__tournament=tournament, round__number=tournament.current_round
    ):
        if match.game_id is not None:
            leave_to_bots(match.game_id)
    play_round(tournament)
