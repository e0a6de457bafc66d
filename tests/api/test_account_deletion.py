"""Deleting one's account (POST /api/v1/me/deletion): the person goes, their games stay."""

from __future__ import annotations

import random
import time

import pytest

from accounts.models import AccessToken, User
from accounts.services import deleted_username
from games import store
from games.feed.events import viewer_events_after
from games.models import Game, IdempotencyRecord, Seat
from tests.conftest import PASSWORD
from tests.games.helpers import GAMES, create_table, stored
from tests.integration.test_celery_round_trip import worker_process  # noqa: F401 (fixture)

DELETION = "/api/v1/me/deletion"
DEADLINE_SECONDS = 60


def delete_account(client, password: str | None = PASSWORD):
    body = {} if password is None else {"password": password}
    return client.post(DELETION, body, format="json")


@pytest.mark.django_db
def test_a_wrong_password_is_refused_and_changes_nothing(auth_client, user):
    client = auth_client(user)

    response = delete_account(client, "not-the-password-at-all")

    assert response.status_code == 403
    assert response.json()["code"] == "wrong_password"
    assert client.get("/api/v1/me").json()["username"] == user.username
    assert User.objects.get(pk=user.pk).deleted_at is None


@pytest.mark.django_db
def test_a_missing_password_is_a_field_error(auth_client, user):
    response = delete_account(auth_client(user), None)

    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "validation_failed"
    assert [error["field"] for error in body["errors"]] == ["password"]
    assert User.objects.get(pk=user.pk).deleted_at is None


@pytest.mark.django_db
def test_a_deleted_account_keeps_only_a_pseudonym_and_no_way_in(auth_client, api_client, user):
    client = auth_client(user)
    User.objects.filter(pk=user.pk).update(email="alice@example.com", first_name="Alice")

    assert delete_account(client).status_code == 204

    gone = User.objects.get(pk=user.pk)
    assert gone.username == deleted_username(user.pk) == f"deleted#{user.pk}"
    assert (gone.email, gone.first_name, gone.last_name) == ("", "", "")
    assert not gone.has_usable_password()
    assert not gone.is_active
    assert gone.deleted_at is not None
    assert not AccessToken.objects.filter(user=gone).exists()
    assert client.get("/api/v1/me").status_code == 401
    login = api_client.post(
        "/api/v1/auth/token", {"username": user.username, "password": PASSWORD}, format="json"
    )
    assert login.status_code == 401


@pytest.mark.django_db
def test_the_name_of_a_deleted_account_is_free_to_register(auth_client, api_client, user):
    assert delete_account(auth_client(user)).status_code == 204

    again = api_client.post(
        "/api/v1/auth/register", {"username": user.username, "password": PASSWORD}, format="json"
    )

    assert again.status_code == 201
    assert User.objects.filter(username=user.username).exclude(pk=user.pk).exists()


@pytest.mark.django_db
def test_a_seat_at_a_waiting_table_is_freed(auth_client, make_user):
    host, guest = make_user(), make_user()
    host_client, guest_client = auth_client(host), auth_client(guest)
    game_id = host_client.post(GAMES, {"seat": 0}, format="json").json()["id"]
    guest_client.post(f"{GAMES}/{game_id}/seats", {"seat": 1}, format="json")

    assert delete_account(guest_client).status_code == 204

    assert list(Seat.objects.filter(game_id=game_id).values_list("seat", flat=True)) == [0]
    assert store.load(game_id).version == 0  # nothing was appended before the start


@pytest.mark.django_db
def test_a_running_game_hands_the_seat_to_a_bot_by_an_event_everyone_sees(auth_client, make_user):
    clients = [auth_client(make_user()) for _ in range(4)]
    table = create_table(clients)
    leaver = User.objects.get(seats__game_id=table.game_id, seats__seat=2)
    before = store.load(table.game_id).version

    assert delete_account(clients[2]).status_code == 204

    seat = Seat.objects.get(game_id=table.game_id, seat=2)
    assert (seat.user_id, seat.bot_level) == (leaver.pk, "basic")
    assert stored(table.game_id, "type")[-1] == "seat_absent"
    assert store.load(table.game_id).version == before + 1
    for viewer in (None, 0, 1, 3):
        (released,) = viewer_events_after(table.game_id, before, seat=viewer).events
        assert released["type"] == "seat_absent"
        assert released["data"] == {"seat": 2, "reason": "left"}
    seats = table.view(0)["seats"]
    assert (seats[2]["username"], seats[2]["bot_level"]) == (deleted_username(leaver.pk), "basic")
    assert User.objects.get(pk=leaver.pk).username == deleted_username(leaver.pk)


@pytest.mark.django_db
def test_a_move_made_at_the_version_before_the_departure_is_a_version_conflict(
    auth_client, make_user
):
    clients = [auth_client(make_user()) for _ in range(4)]
    table = create_table(clients)
    turn = table.view(0)["turn"]
    view = table.view(turn)

    assert delete_account(clients[(turn + 1) % 4]).status_code == 204
    answer = table.act(turn, view["legal_actions"][0], view["version"])

    assert answer.status_code == 409
    assert answer.json()["code"] == "version_conflict"
    assert stored(table.game_id, "type")[-1] == "seat_absent"


@pytest.mark.django_db
def test_the_answers_kept_for_retries_go_with_the_account(auth_client, user):
    client = auth_client(user)
    client.post(GAMES, {"seat": 0}, format="json", headers={"Idempotency-Key": "table-1"})
    assert IdempotencyRecord.objects.filter(user=user).exists()

    assert delete_account(client).status_code == 204

    assert not IdempotencyRecord.objects.filter(user=user).exists()


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("worker_process")
def test_a_game_left_by_a_player_is_played_on_by_the_bot_and_stays_replayable(
    auth_client, make_user
):
    clients = [auth_client(make_user()) for _ in range(4)]
    table = create_table(clients, {"target": 1})
    assert delete_account(clients[1]).status_code == 204
    released_at = store.load(table.game_id).version

    rng = random.Random(7)
    deadline = time.monotonic() + DEADLINE_SECONDS
    while Game.objects.get(pk=table.game_id).status != "finished":
        assert time.monotonic() < deadline, "the game did not finish"
        for seat in (0, 2, 3):
            view = table.view(seat)
            if view["legal_actions"]:
                table.act(seat, rng.choice(view["legal_actions"]), view["version"])
                break
        else:
            time.sleep(0.05)

    kinds = stored(table.game_id, "actor_kind")[released_at:]
    assert "bot" in kinds
    assert store.replay_all(table.game_id) == store.load(table.game_id)
