"""The admin pages show tournaments; the withdraw action goes through the service."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from tests.tournaments.helpers import tournament_of_bots
from tournaments.models import TeamStatus

pytestmark = pytest.mark.django_db


def test_pages_load_and_an_operator_withdraws_a_team(user):
    tournament = tournament_of_bots(user, format="knockout", teams=3)
    admin = User.objects.create_superuser(username="operator", password="x" * 12)
    client = Client()
    client.force_login(admin)
    for page in ("tournament", "team", "match", "tournamentevent", "rating"):
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
