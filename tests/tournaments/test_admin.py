"""The admin pages show tournaments; the withdraw action goes through the service."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from tests.tournaments.helpers import tournament_of_bots
from tournaments import services
from tournaments.models import Board, TeamStatus

pytestmark = pytest.mark.django_db


def test_pages_load_and_an_operator_withdraws_a_team(user):
    tournament = tournament_of_bots(user, format="knockout", teams=3)
    admin = User.objects.create_superuser(username="operator", password="x" * 12)
    client = Client()
    client.force_login(admin)
    for page in ("tournament", "team", "match", "board", "tournamentevent", "rating"):
        assert client.get(f"/admin/tournaments/{page}/").status_code == 200, page
    assert client.get(f"/admin/tournaments/tournament/{tournament.pk}/change/").status_code == 200
    team = tournament.teams.first()
    answer = client.post(
        "/admin/tournaments/team/",
        {"action": "withdraw", "_selected_action": [team.pk]},
    )
    assert answer.status_code == 302
    team.refresh_from_db()
    assert team.status == TeamStatus.WITHDRAWN


def test_the_board_pages_never_show_a_boards_secret(user):
    tournament = tournament_of_bots(user, format="duplicate", teams=2, boards=1)
    services.tournament_start(tournament_id=tournament.pk, user=user)
    board = Board.objects.get(match__round__tournament=tournament)
    admin = User.objects.create_superuser(username="operator", password="x" * 12)
    client = Client()
    client.force_login(admin)
    pages = [client.get(f"/admin/tournaments/board/{path}") for path in ("", f"{board.pk}/change/")]
    assert [page.status_code for page in pages] == [200, 200]
    assert board.commitment in pages[0].content.decode()
    assert not [page for page in pages if board.secret in page.content.decode()]
