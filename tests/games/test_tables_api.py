"""Tables: creation with options, seats, bots, lists, spectators, the OpenAPI document."""

from __future__ import annotations

import random
from datetime import timedelta
from uuid import UUID

import pytest
from django.utils import timezone
from rest_framework.throttling import ScopedRateThrottle

from games import rules, tasks
from games.models import Game, IdempotencyRecord, Seat
from tests.games.helpers import GAMES, create_table, stored
from tests.games.leaks import assert_no_leak

pytestmark = [pytest.mark.services, pytest.mark.django_db]


def test_create_fills_default_options_and_seats_the_creator(auth_client):
    response = auth_client().post(GAMES, {"options": {"target": 1000}}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert body["options"] == {**rules.Options().to_dict(), "target": 1000}
    assert body["status"] == "waiting"
    assert body["version"] == 0
    assert body["seat"] == 0
    assert body["seats"][0]["username"]
    assert [seat["username"] for seat in body["seats"][1:]] == [None, None, None]
    assert response["ETag"].startswith('"0-')
    assert response["Location"] == f"{GAMES}/{body['id']}"


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"target": 0}, "options.target"),
        ({"target": "many"}, "options.target"),
        ({"tie_rule": "coin"}, "options.tie_rule"),
        ({"jokers": True}, "options.jokers"),
    ],
)
def test_invalid_options_are_422_naming_the_option(auth_client, options, field):
    response = auth_client().post(GAMES, {"options": options}, format="json")
    assert response.status_code == 422
    body = response.json()
    assert body["code"] == "invalid_options"
    assert [error["field"] for error in body["errors"]] == [field]
    assert not Game.objects.exists()


def test_an_organiser_with_seat_null_watches_and_fills_the_table_with_bots(auth_client):
    organiser = auth_client()
    created = organiser.post(GAMES, {"seat": None}, format="json").json()
    assert created["seat"] is None
    url = f"{GAMES}/{created['id']}"
    for level in ("random", "basic", "expert"):
        assert organiser.post(f"{url}/bots", {"level": level}, format="json").status_code == 201
    player = auth_client()
    joined = player.post(f"{url}/seats", {}, format="json").json()
    assert joined["seat"] == 3
    assert joined["status"] == "playing"
    assert [seat["bot_level"] for seat in joined["seats"]] == ["random", "basic", "expert", None]
    spectator = organiser.get(url).json()
    assert spectator["seat"] is None
    assert spectator["hand"] == []
    assert spectator["legal_actions"] == []
    assert_no_leak(created["id"], None, spectator)


def test_bots_play_their_turns_through_the_task_to_the_end_of_a_game(auth_client):
    player = auth_client()
    created = player.post(GAMES, {"seat": 0, "options": {"target": 1}}, format="json").json()
    url = f"{GAMES}/{created['id']}"
    for seat in (1, 2, 3):
        player.post(f"{url}/bots", {"seat": seat, "level": "random"}, format="json")
    game_id = UUID(created["id"])
    rng = random.Random(8)
    for _ in range(300):
        game = Game.objects.get(pk=game_id)
        if game.status == "finished":
            break
        if game.turn == 0:
            view = player.get(url).json()
            action = rng.choice(view["legal_actions"])
            posted = player.post(
                f"{url}/actions",
                {"action": action, "expected_version": view["version"]},
                format="json",
            )
            assert posted.status_code == 201
        else:
            assert tasks.play_bot_turn(str(game_id), game.version)
    assert Game.objects.get(pk=game_id).status == "finished"
    assert set(stored(created["id"], "actor_kind")) == {"system", "user", "bot"}
    # A task scheduled at an old version finds the game moved on and does nothing.
    assert not tasks.play_bot_turn(str(game_id), 3)


def test_seats_are_taken_once_and_left_only_before_the_start(auth_client):
    alice, bob, carol = auth_client(), auth_client(), auth_client()
    created = alice.post(GAMES, {}, format="json").json()
    seats = f"{GAMES}/{created['id']}/seats"
    taken = bob.post(seats, {"seat": 0}, format="json")
    assert (taken.status_code, taken.json()["code"]) == (409, "seat_taken")
    assert bob.post(seats, {"seat": 2}, format="json").status_code == 201
    again = bob.post(seats, {}, format="json")
    assert (again.status_code, again.json()["code"]) == (409, "already_seated")
    not_yours = carol.delete(f"{seats}/2")
    assert (not_yours.status_code, not_yours.json()["code"]) == (403, "not_seated")
    left = bob.delete(f"{seats}/2")
    assert left.status_code == 200
    assert left.json()["seat"] is None
    empty = bob.delete(f"{seats}/2")
    assert (empty.status_code, empty.json()["code"]) == (409, "seat_empty")
    bot = carol.post(f"{GAMES}/{created['id']}/bots", {"level": "basic"}, format="json")
    assert (bot.status_code, bot.json()["code"]) == (403, "not_organiser")


@pytest.mark.parametrize("seat", ["4", "9", "-1", "03", "9" * 30])
def test_leaving_a_seat_number_beyond_the_table_is_404(auth_client, seat):
    alice = auth_client()
    created = alice.post(GAMES, {}, format="json").json()
    response = alice.delete(f"{GAMES}/{created['id']}/seats/{seat}")
    assert (response.status_code, response.json()["code"]) == (404, "not_found")
    assert response["Content-Type"] == "application/problem+json"
    assert list(Seat.objects.filter(game_id=created["id"]).values_list("seat", flat=True)) == [0]


@pytest.mark.parametrize("seat", [4, 7, -1, 10**40])
@pytest.mark.parametrize("where", ["seats", "bots"])
def test_taking_a_seat_number_beyond_the_table_is_400(auth_client, seat, where):
    alice = auth_client()
    created = alice.post(GAMES, {}, format="json").json()
    response = alice.post(
        f"{GAMES}/{created['id']}/{where}", {"seat": seat, "level": "basic"}, format="json"
    )
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "validation_failed"
    assert [error["field"] for error in body["errors"]] == ["seat"]
    assert Seat.objects.filter(game_id=created["id"]).count() == 1
    assert Game.objects.get(pk=created["id"]).version == 0


def test_seats_are_fixed_once_the_game_started(auth_client):
    table = create_table([auth_client() for _ in range(4)])
    response = table.clients[1].delete(f"{table.url}/seats/1")
    assert (response.status_code, response.json()["code"]) == (409, "game_already_started")
    late = auth_client().post(f"{table.url}/seats", {}, format="json")
    assert (late.status_code, late.json()["code"]) == (409, "game_already_started")
    assert Seat.objects.filter(game_id=table.game_id).count() == 4


def test_the_view_etag_of_a_waiting_table_changes_when_someone_sits(auth_client):
    alice = auth_client()
    created = alice.post(GAMES, {}, format="json")
    url = f"{GAMES}/{created.json()['id']}"
    etag = created["ETag"]
    assert alice.get(url, headers={"If-None-Match": etag}).status_code == 304
    auth_client().post(f"{url}/seats", {}, format="json")
    assert alice.get(url, headers={"If-None-Match": etag}).status_code == 200


def test_creating_with_the_same_idempotency_key_makes_one_game_per_user(auth_client):
    alice, bob = auth_client(), auth_client()
    key = {"Idempotency-Key": "new-table"}
    first = alice.post(GAMES, {"options": {"target": 101}}, format="json", headers=key)
    again = alice.post(GAMES, {"options": {"target": 101}}, format="json", headers=key)
    assert first.status_code == again.status_code == 201
    # The same bytes, whatever the database does with JSON (jsonb reorders keys).
    assert again.content == first.content
    assert again["Location"] == first["Location"] == f"{GAMES}/{first.json()['id']}"
    replayed = {name: value for name, value in again.items() if name != "Idempotent-Replayed"}
    assert replayed == dict(first.items())
    other = bob.post(GAMES, {"options": {"target": 101}}, format="json", headers=key)
    assert other.json()["id"] != first.json()["id"]
    reused = alice.post(GAMES, {"options": {"target": 501}}, format="json", headers=key)
    assert (reused.status_code, reused.json()["code"]) == (422, "idempotency_key_reused")
    assert Game.objects.count() == 2


def test_list_filters_and_cursor_pages(auth_client):
    alice, bob = auth_client(), auth_client()
    full = create_table([alice, *(auth_client() for _ in range(3))])
    open_ids = [bob.post(GAMES, {}, format="json").json()["id"] for _ in range(3)]

    def ids(client, query: str) -> list[str]:
        return [row["id"] for row in client.get(f"{GAMES}?{query}").json()["results"]]

    assert ids(alice, "open_seats=true") == open_ids[::-1]
    assert ids(alice, "mine=true") == [full.game_id]
    assert ids(alice, "status=playing") == [full.game_id]
    assert ids(bob, "mine=true&status=waiting") == open_ids[::-1]
    assert ids(bob, "mine=true&open_seats=true") == open_ids[::-1]
    page = bob.get(f"{GAMES}?page_size=2").json()
    assert [row["id"] for row in page["results"]] == open_ids[::-1][:2]
    rest = bob.get(page["next"]).json()
    assert [row["id"] for row in rest["results"]] == [open_ids[0], full.game_id]
    assert rest["results"][1]["seats"][0]["username"] == alice.get("/api/v1/me").json()["username"]
    bad = bob.get(f"{GAMES}?status=paused")
    assert (bad.status_code, bad.json()["code"]) == (400, "validation_failed")
    for size in ("0", "201", "two"):
        bad_size = bob.get(f"{GAMES}?page_size={size}")
        assert bad_size.status_code == 400, size
        assert bad_size.json()["errors"][0]["field"] == "page_size"
    forged = bob.get(f"{GAMES}?cursor=0")
    assert (forged.status_code, forged["Content-Type"]) == (404, "application/problem+json")


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("status=", "status"),
        ("open_seats=", "open_seats"),
        ("mine=", "mine"),
        ("mine=maybe", "mine"),
        ("status=waiting&status=playing", "status"),
        ("cursor=", "cursor"),
        ("page_size=", "page_size"),
        ("page_size=0", "page_size"),
        ("page_size=201", "page_size"),
        ("page_size=two", "page_size"),
    ],
)
def test_an_empty_repeated_or_invalid_list_parameter_is_400_naming_it(auth_client, query, field):
    response = auth_client().get(f"{GAMES}?{query}")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "validation_failed"
    assert [error["field"] for error in body["errors"]] == [field]


def test_game_creation_is_throttled(auth_client, monkeypatch):
    monkeypatch.setitem(ScopedRateThrottle.THROTTLE_RATES, "game_create", "2/min")
    alice = auth_client()
    assert [alice.post(GAMES, {}, format="json").status_code for _ in range(3)] == [201, 201, 429]
    assert alice.get(GAMES).status_code == 200


def test_unknown_games_are_404_and_anonymous_callers_401(auth_client, api_client):
    missing = auth_client().get(f"{GAMES}/00000000-0000-4000-8000-000000000000")
    assert (missing.status_code, missing.json()["code"]) == (404, "game_not_found")
    assert api_client.get(GAMES).status_code == 401


def test_the_openapi_document_describes_the_game_endpoints(api_client):
    response = api_client.get("/api/v1/schema/", headers={"Accept": "application/json"})
    assert response.status_code == 200
    schema = response.json() if response["Content-Type"].startswith("application/json") else None
    text = response.content.decode()
    for path in (
        "/api/v1/games",
        "/api/v1/games/{game_id}/actions",
        "/api/v1/games/{game_id}/bots",
    ):
        assert path in text
    if schema is not None:
        act = schema["paths"]["/api/v1/games/{game_id}/actions"]["post"]
        assert {"201", "403", "409", "422", "428"} <= set(act["responses"])


def test_joining_and_adding_bots_with_a_repeated_key_happen_once(auth_client):
    alice, bob = auth_client(), auth_client()
    created = alice.post(GAMES, {}, format="json").json()
    url = f"{GAMES}/{created['id']}"
    join = [
        bob.post(f"{url}/seats", {}, format="json", headers={"Idempotency-Key": "j"}) for _ in "ab"
    ]
    assert [response.status_code for response in join] == [201, 201]
    assert join[0].json() == join[1].json()
    bots = [
        alice.post(
            f"{url}/bots", {"level": "basic"}, format="json", headers={"Idempotency-Key": "b"}
        )
        for _ in "ab"
    ]
    assert bots[0].json() == bots[1].json()
    assert Seat.objects.filter(game_id=created["id"]).count() == 3


def test_old_idempotency_records_are_purged_and_their_keys_reusable(auth_client):
    alice = auth_client()
    key = {"Idempotency-Key": "old"}
    first = alice.post(GAMES, {"options": {"target": 101}}, format="json", headers=key)
    assert first.status_code == 201
    IdempotencyRecord.objects.update(created_at=timezone.now() - timedelta(days=2))
    assert tasks.purge_idempotency_records() == 1
    second = alice.post(GAMES, {"options": {"target": 501}}, format="json", headers=key)
    assert second.status_code == 201
    assert second.json()["id"] != first.json()["id"]
