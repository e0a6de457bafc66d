"""An operator pauses a tournament: the round a close would open waits, paired; resume
opens it as paired, re-pair pairs it again from the teams as they are (through the
services, and through the Django admin's actions as a staff member uses them)."""

from __future__ import annotations

import functools
from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission
from django.contrib.messages import get_messages
from django.test import Client
from django.utils import timezone

from accounts.models import User
from tests.games.test_races import _all_at_once
from tests.tournaments.helpers import (
    play_out,
    play_round,
    swiss_with_round_one_recorded,
    tournament_of_bots,
)
from tournaments import services
from tournaments.errors import (
    HeldRoundStaleError,
    NoHeldRoundError,
    TournamentOverError,
)
from tournaments.models import Match, Round, Tournament, TournamentEvent

pytestmark = pytest.mark.django_db


def pairs(tournament: Tournament, number: int) -> list[dict[str, int | None]]:
    rows = Match.objects.filter(round__tournament=tournament, round__number=number)
    return [{"home": row.home_id, "away": row.away_id} for row in rows.order_by("table")]


def round_started_entries(tournament: Tournament) -> int:
    return TournamentEvent.objects.filter(tournament=tournament, type="round_started").count()


def finish_round_paused(tournament: Tournament) -> None:
    """Play the current round and run its tasks while the tournament is paused."""
    assert services.tournament_pause(tournament_id=tournament.pk)
    play_round(tournament)


def test_a_paused_tournament_holds_its_next_round_until_resumed(auth_client, user):
    tournament = tournament_of_bots(user, format="swiss", teams=5, rounds=3)
    services.tournament_start(tournament_id=tournament.pk, user=user)
    finish_round_paused(tournament)
    # round 1 is closed and its results in; round 2 is paired, with no game yet
    assert list(Round.objects.filter(tournament=tournament).values_list("status")) == [("closed",)]
    assert (tournament.current_round, tournament.proposed_round) == (1, 2)
    held = tournament.proposed_pairings
    assert len(held) == 3
    assert sum(1 for pair in held if pair["away"] is None) == 1  # five teams: one bye
    assert round_started_entries(tournament) == 1
    assert not services.tournament_pause(tournament_id=tournament.pk)  # paused already
    assert auth_client().get(f"/api/v1/tournaments/{tournament.pk}").json()["paused"]

    assert services.tournament_resume(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    assert (tournament.paused, tournament.current_round, tournament.proposed_round) == (
        False,
        2,
        None,
    )
    assert pairs(tournament, 2) == held
    assert round_started_entries(tournament) == 2
    assert all(row.game_id for row in Match.objects.filter(round__number=2, away__isnull=False))
    assert not services.tournament_resume(tournament_id=tournament.pk)  # running already
    assert round_started_entries(tournament) == 2


def test_games_being_played_go_on_and_count_while_paused(user):
    tournament = tournament_of_bots(user, format="knockout", teams=4)
    services.tournament_start(tournament_id=tournament.pk, user=user)
    services.tournament_pause(tournament_id=tournament.pk)
    for match in Match.objects.filter(round__tournament=tournament):
        play_out(match.game_id)
        assert services.game_result_record(match.game_id)
    assert services.round_close(tournament.pk, 1)
    assert Match.objects.filter(round__tournament=tournament, outcome__isnull=True).count() == 0
    tournament.refresh_from_db()
    assert (tournament.proposed_round, len(tournament.proposed_pairings)) == (2, 1)
    assert not Round.objects.filter(tournament=tournament, number=2).exists()


def test_a_withdrawal_while_paused_is_refused_at_resume_until_re_paired(user):
    tournament = tournament_of_bots(user, format="swiss", teams=5, rounds=3)
    services.tournament_start(tournament_id=tournament.pk, user=user)
    finish_round_paused(tournament)
    held = tournament.proposed_pairings
    leaving = next(pair["home"] for pair in held if pair["away"] is not None)
    services.team_withdraw(tournament_id=tournament.pk, team_id=leaving, user=user)
    with pytest.raises(HeldRoundStaleError):
        services.tournament_resume(tournament_id=tournament.pk)
    tournament.refresh_from_db()
    assert tournament.paused  # nothing changed
    assert tournament.proposed_pairings == held

    assert services.held_round_repair(tournament_id=tournament.pk)
    assert not services.held_round_repair(tournament_id=tournament.pk)  # the same again
    tournament.refresh_from_db()
    repaired = tournament.proposed_pairings
    assert len(repaired) == 2
    assert leaving not in {team for pair in repaired for team in pair.values()}
    assert services.tournament_resume(tournament_id=tournament.pk)
    assert pairs(tournament, 2) == repaired


def test_a_paused_tournament_does_not_start_by_itself_and_a_start_holds_round_one(user):
    tournament = tournament_of_bots(user, format="round_robin", teams=3)
    closes = timezone.now() - timedelta(minutes=1)
    Tournament.objects.filter(pk=tournament.pk).update(
        registration_opens_at=closes - timedelta(days=1), registration_closes_at=closes
    )
    services.tournament_pause(tournament_id=tournament.pk)
    assert services.due_tournaments_start() == 0
    tournament.refresh_from_db()
    assert tournament.status == "registration"

    services.tournament_start(tournament_id=tournament.pk, user=user)  # the organiser's
    tournament.refresh_from_db()
    assert (tournament.status, tournament.current_round, tournament.proposed_round) == (
        "running",
        0,
        1,
    )
    assert not Round.objects.filter(tournament=tournament).exists()
    held = tournament.proposed_pairings
    assert len(held) == 2  # three teams: one match and a bye
    assert services.tournament_resume(tournament_id=tournament.pk)
    assert pairs(tournament, 1) == held
    assert round_started_entries(tournament) == 1


def test_what_cannot_be_done_is_refused(user):
    tournament = tournament_of_bots(user, format="knockout", teams=2)
    with pytest.raises(NoHeldRoundError):
        services.held_round_repair(tournament_id=tournament.pk)
    services.tournament_start(tournament_id=tournament.pk, user=user)
    play_round(tournament)
    assert tournament.status == "finished"
    with pytest.raises(TournamentOverError):
        services.tournament_pause(tournament_id=tournament.pk)


@pytest.mark.django_db(transaction=True)
def test_two_resumes_at_once_open_the_held_round_once(user):
    tournament = tournament_of_bots(user, format="swiss", teams=4, rounds=2)
    services.tournament_start(tournament_id=tournament.pk, user=user)
    finish_round_paused(tournament)
    resume = functools.partial(services.tournament_resume, tournament_id=tournament.pk)
    assert sorted(_all_at_once([resume, resume])) == [False, True]
    assert Match.objects.filter(round__tournament=tournament, round__number=2).count() == 2
    assert round_started_entries(tournament) == 2


@pytest.mark.django_db(transaction=True)
def test_a_pause_and_a_round_close_at_once_either_hold_or_open_the_next_round(user):
    tournament = swiss_with_round_one_recorded(user)
    paused, closed = _all_at_once(
        [
            functools.partial(services.tournament_pause, tournament_id=tournament.pk),
            functools.partial(services.round_close, tournament.pk, 1),
        ]
    )
    assert (paused, closed) == (True, True)
    tournament.refresh_from_db()
    opened = Round.objects.filter(tournament=tournament, number=2).exists()
    # the one that took the lock first decided: the round opened, or it waits, paired
    assert opened is (tournament.proposed_round is None)
    assert round_started_entries(tournament) == (2 if opened else 1)


def _admin_action(client: Client, action: str, tournament: Tournament) -> str:
    """The message the action left, the last one (none is shown in between, so they add up)."""
    answer = client.post(
        "/admin/tournaments/tournament/",
        {"action": action, "_selected_action": [tournament.pk]},
    )
    assert answer.status_code == 302
    return [str(message) for message in get_messages(answer.wsgi_request)][-1]


def test_an_operator_pauses_re_pairs_and_resumes_through_the_admin(user):
    tournament = tournament_of_bots(user, format="swiss", teams=5, rounds=3)
    services.tournament_start(tournament_id=tournament.pk, user=user)
    staff = User.objects.create_user(username="operator", password="x" * 12, is_staff=True)
    staff.user_permissions.add(
        Permission.objects.get(content_type__app_label="tournaments", codename="view_tournament")
    )
    client = Client()
    client.force_login(staff)

    assert _admin_action(client, "pause", tournament).endswith(": paused")
    play_round(tournament)
    page = client.get(f"/admin/tournaments/tournament/{tournament.pk}/change/")
    assert page.status_code == 200
    assert b"Proposed pairings" in page.content
    assert _admin_action(client, "repair", tournament).endswith("paired again: the same")
    leaving = next(p["home"] for p in tournament.proposed_pairings if p["away"] is not None)
    services.team_withdraw(tournament_id=tournament.pk, team_id=leaving, user=user)
    assert "pair it again first" in _admin_action(client, "resume", tournament)
    assert _admin_action(client, "repair", tournament).endswith("new pairings")
    assert _admin_action(client, "resume", tournament).endswith("resumed")
    tournament.refresh_from_db()
    assert (tournament.paused, tournament.current_round) == (False, 2)
    assert _admin_action(client, "resume", tournament).endswith("was not paused")
