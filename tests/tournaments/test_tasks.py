"""The tasks carry what they act on and change nothing when delivered again; the
no-show setting decides what an absent player's game counts for."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from django.db.models import Q

from games import selectors
from games import services as game_services
from tests.tournaments.helpers import (
    ONE_HAND,
    leave_to_bots,
    play_out,
    play_round,
    swiss_with_round_one_recorded,
    tournament_of_bots,
)
from tournaments import services
from tournaments.errors import AlreadyRegisteredError, RegistrationClosedError
from tournaments.models import Match, Round, Team, TournamentEvent


@pytest.mark.django_db
def test_a_result_and_a_close_delivered_twice_change_nothing(user):
    tournament = tournament_of_bots(user, format="swiss", teams=4, rounds=2)
    services.tournament_start(tournament_id=tournament.pk, user=user)
    matches = list(Match.objects.filter(round__tournament=tournament))
    for match in matches:
        play_out(match.game_id)
        assert services.game_result_record(match.game_id)
        assert not services.game_result_record(match.game_id)  # recorded already
    assert services.round_close(tournament.pk, 1)
    assert not services.round_close(tournament.pk, 1)  # round 2 is on now
    assert not services.round_close(tournament.pk, 2)  # not over yet
    assert Round.objects.filter(tournament=tournament).count() == 2
    assert TournamentEvent.objects.filter(tournament=tournament, type="round_started").count() == 2
    assert services.unrecorded_games_sweep() == 0


@pytest.mark.django_db
def test_the_sweeper_records_a_result_whose_task_was_lost(user):
    tournament = tournament_of_bots(user, format="knockout", teams=2)
    services.tournament_start(tournament_id=tournament.pk, user=user)
    (match,) = Match.objects.filter(round__tournament=tournament)
    play_out(match.game_id)  # no worker here: the task queued for it never runs
    assert services.unrecorded_games_sweep() == 2  # the result, then the round's close
    tournament.refresh_from_db()
    assert tournament.status == "finished"


def _register_team(make_user, fmt="swiss", **more):
    organiser = make_user()
    settings = services.Settings(
        name="t",
        format=fmt,
        options=ONE_HAND,
        rounds=1 if fmt == "swiss" else None,
        allow_bot_partners=True,
        **more,
    )
    return organiser, services.tournament_create(organiser=organiser, settings=settings)


@pytest.mark.django_db
def test_a_no_show_forfeits_the_match_where_the_tournament_says_so(make_user):
    organiser, tournament = _register_team(make_user, fmt="knockout", no_show="forfeit")
    absent, present = make_user(), make_user()
    for number, player in enumerate((absent, present)):
        services.team_register(
            tournament_id=tournament.pk, user=player, name=f"t{number}", partner_bot="random"
        )
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    (match,) = Match.objects.filter(round__tournament=tournament)
    # the absent player's seat goes to a bot (the clocks do this for a no-show); the
    # other player steps away and comes back, so only one seat is absent at the end
    leave_to_bots(match.game_id)
    seat = 0 if match.home.captain_id == present.pk else 1
    game_services.seat_absent_set(game_id=match.game_id, user=present, seat=seat, absent=False)
    play_until_present_must_move(match.game_id, present, seat)
    match.refresh_from_db()
    absent_home = match.home.captain_id == absent.pk
    assert match.outcome == ("home_forfeit" if absent_home else "away_forfeit")


def play_until_present_must_move(game_id, present, seat):
    """Play the game out: the bots' turns in this process, the present player's by their
    first legal action."""
    for _ in range(5000):
        read = selectors.table_state(game_id)
        if read.table.status == "finished":
            services.game_result_record(game_id)
            return
        if read.table.turn == seat:
            view = selectors.game_view(table=read.table, loaded=read.loaded, seat=seat)
            game_services.game_act(
                game_id=game_id,
                user=present,
                action=view["legal_actions"][0],
                expected_version=read.table.version,
            )
        else:
            game_services.bot_play(game_id=game_id, expected_version=read.table.version)
    raise AssertionError("the game did not end")


@pytest.mark.django_db(transaction=True)
def test_two_registrations_of_one_player_at_once_make_one_team(make_user):
    _, tournament = _register_team(make_user)
    player = make_user()
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def register(name: str) -> None:
        barrier.wait()
        try:
            services.team_register(
                tournament_id=tournament.pk, user=player, name=name, partner_bot="basic"
            )
            outcomes.append("registered")
        except AlreadyRegisteredError:
            outcomes.append("refused")
        finally:
            connection.close()

    threads = [threading.Thread(target=register, args=(f"t{n}",)) for n in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["refused", "registered"]
    assert Team.objects.filter(tournament=tournament).count() == 1


@pytest.mark.django_db
def test_a_late_entry_plays_from_the_next_round_until_half_the_rounds_have_started(
    make_user,
):
    organiser, tournament = _register_team(make_user)
    tournament.rounds = 4
    tournament.save(update_fields=["rounds"])
    for number in range(5):
        services.bot_team_add(
            tournament_id=tournament.pk,
            user=organiser,
            name=f"b{number}",
            levels=("random", "random"),
        )
    services.tournament_start(tournament_id=tournament.pk, user=organiser)
    late = services.team_register(
        tournament_id=tournament.pk, user=make_user(), name="late", partner_bot="basic"
    )
    assert late.first_round == 2
    play_round(tournament)  # round 2 started: half of four
    with pytest.raises(RegistrationClosedError):
        services.team_register(
            tournament_id=tournament.pk, user=make_user(), name="later", partner_bot="basic"
        )

    def plays(number: int) -> bool:
        rows = Match.objects.filter(round__tournament=tournament, round__number=number)
        return rows.filter(Q(home=late) | Q(away=late)).exists()

    assert not plays(1)
    assert plays(2)


@pytest.mark.django_db(transaction=True)
def test_two_closes_of_one_round_at_once_open_the_next_round_once(user):
    tournament = swiss_with_round_one_recorded(user)
    barrier = threading.Barrier(2)
    closed: list[bool] = []

    def close() -> None:
        barrier.wait()
        try:
            closed.append(services.round_close(tournament.pk, 1))
        finally:
            connection.close()

    threads = [threading.Thread(target=close) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(closed) == [False, True]
    assert Round.objects.filter(tournament=tournament).count() == 2
    assert Match.objects.filter(round__tournament=tournament, round__number=2).count() == 2
