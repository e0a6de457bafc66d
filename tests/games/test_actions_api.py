"""POST /games/{id}/actions: versions, rule errors, bad input, idempotency, ETags.

Whatever goes wrong, nothing is appended, and no answer names another seat's cards.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.core.cache import caches
from django_redis.cache import RedisCache
from rest_framework.throttling import ScopedRateThrottle

from tests.games.action_support import assert_refused, turn
from tests.games.helpers import Table, create_table, stored

pytestmark = [pytest.mark.services, pytest.mark.django_db]


def _to_card_play(table: Table) -> tuple[int, dict[str, Any]]:
    """Take at the first bid: the first card is to be played."""
    seat, view = turn(table)
    assert table.act(seat, {"type": "take"}, view["version"]).status_code == 201
    return turn(table)


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ({"type": "fold"}, "invalid_action"),
        ({"type": "play", "card": "ZZ"}, "invalid_action"),
        ({"type": "take", "extra": 1}, "invalid_action"),
        ({"type": "play", "card": "AS"}, "wrong_phase"),
        ({"type": "choose_trump", "suit": "H"}, "wrong_phase"),
    ],
)
def test_actions_the_rules_refuse_in_bidding_are_422_with_the_rule_code(table, action, code):
    seat, view = turn(table)
    response = table.act(seat, action, view["version"])
    assert_refused(table, seat, response, 422, code, view["version"])


def test_a_card_not_in_hand_is_refused(table):
    seat, view = _to_card_play(table)
    others = {
        card
        for card in (f"{rank}{suit}" for rank in "789TJQKA" for suit in "SHDC")
        if card not in view["hand"]
    }
    card = sorted(others)[0]
    response = table.act(seat, {"type": "play", "card": card}, view["version"])
    body = assert_refused(
        table, seat, response, 422, "card_not_in_hand", view["version"], frozenset({card})
    )
    assert card in body["detail"]


def test_acting_out_of_turn_is_refused(table):
    seat, view = turn(table)
    other = (seat + 1) % 4
    response = table.act(other, {"type": "pass"}, view["version"])
    assert_refused(table, other, response, 422, "not_your_turn", view["version"])


def test_a_player_without_a_seat_gets_403(table, auth_client):
    _, view = turn(table)
    response = auth_client().post(
        f"{table.url}/actions",
        {"action": {"type": "pass"}, "expected_version": view["version"]},
        format="json",
    )
    assert_refused(table, None, response, 403, "not_seated", view["version"])


def test_a_stale_version_is_409_with_the_callers_current_view(table):
    seat, view = turn(table)
    assert table.act(seat, {"type": "pass"}, view["version"]).status_code == 201
    nxt = (seat + 1) % 4
    response = table.act(nxt, {"type": "pass"}, view["version"])
    body = assert_refused(table, nxt, response, 409, "version_conflict", view["version"] + 1)
    assert body["current_version"] == view["version"] + 1
    assert body["game"]["seat"] == nxt
    assert body["game"]["version"] == view["version"] + 1
    assert body["game"]["hand"] == table.view(nxt)["hand"]


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ('{"action": {"type": "pass"}, "expected_version": ', 400, "parse_error"),
        ('{"action": "pass", "expected_version": 2}', 400, "validation_failed"),
        ('{"action": {"type": "pass"}, "expected_version": "two"}', 400, "validation_failed"),
        (
            '{"action": {"type": "pass"}, "expected_version": ' + "9" * 100_000 + "}",
            400,
            "parse_error",
        ),
        ('{"action": {"type": "pass"}, "expected_version": 2147483648}', 400, "validation_failed"),
        ('{"action": {"type": "pass"}, "expected_version": 1e999}', 400, "parse_error"),
        ('{"action": ' + "[" * 100_000 + "]" * 100_000 + "}", 400, "json_too_deep"),
        (
            '{"action": {"type": "play", "card": "J\\udc00"}, "expected_version": 2}',
            400,
            "invalid_unicode",
        ),
        (
            '{"action": {"type": "pass"}, "expected_version": 2, "pad": "' + "x" * 300_000 + '"}',
            413,
            "request_too_large",
        ),
    ],
)
def test_malformed_or_huge_bodies_are_refused(table, body, status, code):
    seat, view = turn(table)
    response = table.clients[seat].post(
        f"{table.url}/actions", data=body, content_type="application/json"
    )
    assert_refused(table, seat, response, status, code, view["version"])


def test_before_the_start_and_after_the_end_actions_are_409(auth_client):
    organiser = auth_client()
    waiting = organiser.post("/api/v1/games", {"seat": 0}, format="json").json()
    response = organiser.post(
        f"/api/v1/games/{waiting['id']}/actions",
        {"action": {"type": "pass"}, "expected_version": 0},
        format="json",
    )
    assert response.status_code == 409
    assert response.json()["code"] == "game_not_started"

    table = create_table([auth_client() for _ in range(4)], {"target": 1})
    rng = random.Random(5)
    view = table.view(0)
    while view["status"] != "finished":
        own = table.view(view["turn"])
        view = table.act(own["seat"], rng.choice(own["legal_actions"]), own["version"]).json()[
            "game"
        ]
    response = table.act(0, {"type": "pass"}, view["version"])
    assert_refused(table, 0, response, 409, "game_over", view["version"])


def test_the_same_idempotency_key_replays_the_first_answer(table):
    seat, view = turn(table)
    action = view["legal_actions"][0]
    first = table.act(seat, action, view["version"], **{"Idempotency-Key": "k-1"})
    again = table.act(seat, action, view["version"], **{"Idempotency-Key": "k-1"})
    assert first.status_code == again.status_code == 201
    assert again.content == first.content
    assert again["Idempotent-Replayed"] == "true"
    # the headers that describe the answer come back with it
    assert again["ETag"] == first["ETag"] == f'"{first.json()["game"]["version"]}"'
    assert (again["Cache-Control"], again["Vary"]) == (first["Cache-Control"], first["Vary"])
    assert stored(table.game_id, "seq") == list(range(1, first.json()["game"]["version"] + 1))


def test_an_idempotency_key_reused_for_another_body_is_422(table):
    seat, view = turn(table)
    assert (
        table.act(seat, {"type": "pass"}, view["version"], **{"Idempotency-Key": "k"}).status_code
        == 201
    )
    nxt = table.view((seat + 1) % 4)
    # The same user, the same key, another request.
    response = table.act(seat, {"type": "take"}, nxt["version"], **{"Idempotency-Key": "k"})
    assert_refused(table, seat, response, 422, "idempotency_key_reused", nxt["version"])


def test_a_refused_attempt_leaves_its_idempotency_key_usable(table):
    seat, view = turn(table)
    key = {"Idempotency-Key": "retry-me"}
    refused = table.act(seat, {"type": "fold"}, view["version"], **key)
    assert refused.status_code == 422
    assert table.act(seat, {"type": "pass"}, view["version"], **key).status_code == 201


def test_the_action_answer_holds_the_callers_events_and_view(table):
    seat, view = turn(table)
    response = table.act(seat, {"type": "take"}, view["version"])
    body = response.json()
    assert [event["type"] for event in body["events"]] == ["bid", "trump_set", "rest_dealt"]
    assert body["events"][0]["data"] == {"seat": seat, "round": 1, "bid": "take"}
    assert list(body["events"][2]["data"]["cards"]) == [str(seat)]
    assert body["game"]["taker"] == seat
    assert len(body["game"]["hand"]) == 8
    assert json.loads(response.content) == body


def test_actions_beyond_the_rate_are_429_with_retry_after(table, monkeypatch):
    # The game actions' throttle keeps its history in Redis (belote_project/throttling.py).
    assert isinstance(caches["default"], RedisCache)
    monkeypatch.setitem(ScopedRateThrottle.THROTTLE_RATES, "game_actions", "2/min")
    seat, view = turn(table)
    other = (seat + 1) % 4
    stale = view["version"] + 5
    answers = [table.act(seat, {"type": "take"}, stale) for _ in range(3)]

    assert [answer.status_code for answer in answers] == [409, 409, 429]
    refused = answers[2]
    assert refused["Content-Type"] == "application/problem+json"
    assert 0 < int(refused["Retry-After"]) <= 60
    assert refused.json()["code"] == "throttled"
    # Per caller: another player still acts.
    assert table.act(other, {"type": "take"}, stale).status_code == 409
