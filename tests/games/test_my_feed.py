"""The player's own feed (docs/feed.md, "Your own feed"): `/me/games` and `/me/events`
give each user what waits for them, and nobody else's."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rest_framework.test import APIClient

from games import services
from games.models import Game
from games.services.clocks import GRACE
from tests.games.helpers import GAMES, Table, create_table
from tests.games.test_races import _all_at_once

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

ME_EVENTS = "/api/v1/me/events"
ME_GAMES = "/api/v1/me/games"
TIMED = {"turn_seconds": 5, "absent_after": 2}


def notices(client: APIClient, after: int = 0, **params: Any) -> list[dict[str, Any]]:
    answer = client.get(ME_EVENTS, {"after": after, **params})
    assert answer.status_code == 200, answer.content
    items: list[dict[str, Any]] = answer.json()["notices"]
    return items


def kinds(client: APIClient) -> list[tuple[str, int | None]]:
    return [(item["type"], item["seat"]) for item in notices(client)]


def four_players(auth_client: Callable[..., APIClient], **options: Any) -> Table:
    return create_table([auth_client() for _ in range(4)], options)


def test_your_turn_goes_to_the_player_to_act_and_to_nobody_else(auth_client):
    table = four_players(auth_client, **TIMED)
    turn = table.view(0)["turn"]
    for seat, client in enumerate(table.clients):
        expected = [("game_started", seat)]
        if seat == turn:
            expected.append(("your_turn", seat))
        assert kinds(client) == expected
    (mine,) = [item for item in notices(table.clients[turn]) if item["type"] == "your_turn"]
    game = Game.objects.get(pk=table.game_id)
    assert mine["game_id"] == table.game_id
    assert mine["version"] == game.version
    assert mine["turn_deadline"] == table.view(turn)["turn_deadline"]

    view = table.view(turn)
    assert table.act(turn, {"type": "pass"}, view["version"]).status_code == 201
    following = table.view(turn)["turn"]
    assert following != turn
    assert kinds(table.clients[following])[-1] == ("your_turn", following)
    assert [kind for kind, _ in kinds(table.clients[turn])].count("your_turn") == 1
    for seat in set(range(4)) - {turn, following}:
        assert kinds(table.clients[seat]) == [("game_started", seat)]


def test_a_seat_given_up_before_the_start_gives_its_notices_to_whoever_took_it(auth_client):
    first, second, gone, taker = (auth_client() for _ in range(4))
    game_id = first.post(GAMES, {"seat": 0, "options": {}}, format="json").json()["id"]
    assert gone.post(f"{GAMES}/{game_id}/seats", {"seat": 1}, format="json").status_code == 201
    assert gone.delete(f"{GAMES}/{game_id}/seats/1").status_code == 200
    assert taker.post(f"{GAMES}/{game_id}/seats", {"seat": 1}, format="json").status_code == 201
    third = auth_client()
    for seat, client in ((2, second), (3, third)):
        assert (
            client.post(f"{GAMES}/{game_id}/seats", {"seat": seat}, format="json").status_code
            == 201
        )

    assert notices(gone) == []
    assert gone.get(ME_GAMES).json()["results"] == []
    assert kinds(taker)[0] == ("game_started", 1)
    assert [row["seat"] for row in taker.get(ME_GAMES).json()["results"]] == [1]


def test_a_seat_handed_to_a_bot_tells_its_player_only(auth_client):
    table = four_players(auth_client)
    assert table.clients[2].post(f"{table.url}/seats/2/leave").status_code == 200
    assert kinds(table.clients[2])[-1] == ("seat_absent", 2)
    assert notices(table.clients[2])[-1]["reason"] == "left"
    for seat in (0, 1, 3):
        assert ("seat_absent", 2) not in kinds(table.clients[seat])


def test_timeouts_tell_the_player_their_seat_went_to_a_bot(auth_client):
    table = four_players(auth_client, **TIMED)
    seat = table.view(0)["turn"]
    for _ in range(2):
        game = Game.objects.get(pk=table.game_id)
        while game.turn != seat:  # the others play their turns themselves
            view = table.view(game.turn)
            table.act(game.turn, view["legal_actions"][0], view["version"])
            game = Game.objects.get(pk=table.game_id)
        assert game.turn_deadline is not None
        assert services.due_turns_expire(now=game.turn_deadline + GRACE) == 1
    last = notices(table.clients[seat])[-1]
    assert (last["type"], last["reason"]) == ("seat_absent", "timeout")


def test_my_games_says_which_games_wait_for_me(auth_client):
    me = auth_client()
    first = create_table([me, *(auth_client() for _ in range(3))])
    second = create_table([auth_client(), auth_client(), me, auth_client()])
    lonely = me.post(GAMES, {"seat": 0, "options": {}}, format="json").json()["id"]
    while (view := first.view(0))["turn"] != 0:  # the others pass until it is my turn
        assert first.act(view["turn"], {"type": "pass"}, view["version"]).status_code == 201

    rows = me.get(ME_GAMES).json()["results"]
    by_id = {row["id"]: row for row in rows}
    assert set(by_id) == {first.game_id, second.game_id, lonely}
    for table, seat in ((first, 0), (second, 2)):
        row = by_id[table.game_id]
        assert row["seat"] == seat
        assert row["turn"] == table.view(seat)["turn"]
        assert row["my_turn"] is (row["turn"] == seat)
        assert row["turn_deadline"] is None
    assert by_id[first.game_id]["my_turn"] is True
    assert by_id[lonely] | {"created_at": None} == {
        "id": lonely,
        "status": "waiting",
        "version": 0,
        "phase": "waiting",
        "seat": 0,
        "absent": False,
        "turn": None,
        "my_turn": False,
        "turn_deadline": None,
        "scores": [0, 0],
        "winner": None,
        "created_at": None,
    }
    assert me.get(ME_GAMES, {"status": "finished"}).json()["results"] == []


def test_my_games_come_a_page_at_a_time(auth_client):
    me = auth_client()
    created = [
        me.post(GAMES, {"seat": 0, "options": {}}, format="json").json()["id"] for _ in range(3)
    ]
    seen, url = [], f"{ME_GAMES}?page_size=2"
    while url:
        page = me.get(url).json()
        seen += [row["id"] for row in page["results"]]
        url = page["next"]
    assert seen == created[::-1]


def test_a_bad_filter_or_cursor_is_refused(auth_client):
    me = auth_client()
    assert me.get(ME_GAMES, {"status": "playing"}).json()["code"] == "validation_failed"
    assert me.get(ME_EVENTS, {"after": -1}).json()["code"] == "validation_failed"
    assert me.get(ME_EVENTS, {"wait": 31}).status_code == 400
    assert APIClient().get(ME_EVENTS).status_code == 401


def test_pages_resume_from_last_seq(auth_client):
    table = four_players(auth_client)
    client = table.clients[table.view(0)["turn"]]
    first = client.get(ME_EVENTS, {"limit": 1}).json()
    assert [item["seq"] for item in first["notices"]] == [1]
    assert first["next"] is not None
    rest = client.get(first["next"]).json()
    assert [item["seq"] for item in rest["notices"]] == [2]
    assert rest["next"] is None
    assert client.get(ME_EVENTS, {"after": rest["last_seq"]}).json() == {
        "notices": [],
        "last_seq": 2,
        "next": None,
    }


def test_one_players_notices_from_games_appending_at_once_are_numbered_without_a_gap(
    auth_client,
):
    me = auth_client()
    tables = []
    for _ in range(4):
        clients = [auth_client() for _ in range(4)]
        game_id = clients[0].post(GAMES, {"seat": 0, "options": {}}, format="json").json()["id"]
        for seat in (1, 2):
            clients[seat].post(f"{GAMES}/{game_id}/seats", {"seat": seat}, format="json")
        tables.append(game_id)

    def join(game_id: str) -> Callable[[], Any]:
        twin = APIClient()
        twin.credentials(HTTP_AUTHORIZATION=me._credentials["HTTP_AUTHORIZATION"])
        return lambda: twin.post(f"{GAMES}/{game_id}/seats", {"seat": 3}, format="json")

    answers = _all_at_once([join(game_id) for game_id in tables])
    assert [answer.status_code for answer in answers] == [201] * 4
    seqs = [item["seq"] for item in notices(me)]
    assert seqs == list(range(1, len(seqs) + 1))
    assert {item["game_id"] for item in notices(me) if item["type"] == "game_started"} == set(
        tables
    )
