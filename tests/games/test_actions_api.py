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

from tests.games.helpers import Table, create_table, stored
from tests.games.leaks import assert_no_leak

pytestmark = [pytest.mark.services, pytest.mark.django_db]


@pytest.fixture
def table(auth_client) -> Table:
    return create_table([auth_client() for _ in range(4)])


def _turn(table: Table) -> tuple[int, dict[str, Any]]:
    seat = table.view(0)["turn"]
    return seat, table.view(seat)


def _to_card_play(table: Table) -> tuple[int, dict[str, Any]]:
    """Take at the first bid: the first card is to be played."""
    seat, view = _turn(table)
    assert table.act(seat, {"type": "take"}, view["version"]).status_code == 201
    return _turn(table)


def _assert_refused(
    table: Table,
    seat: int | None,
    response: Any,
    status: int,
    code: str,
    events_before: int,
    sent: frozenset[str] = frozenset(),
) -> dict[str, Any]:
    assert response.status_code == status, response.content
    body = response.json()
    assert body["code"] == code
    assert response["Content-Type"].startswith("application/problem+json")
    assert len(stored(table.game_id, "seq")) == events_before
    assert_no_leak(table.game_id, seat, body, sent)
    return body


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
    seat, view = _turn(table)
    response = table.act(seat, action, view["version"])
    _assert_refused(table, seat, response, 422, code, view["version"])


def test_a_card_not_in_hand_is_refused(table):
    seat, view = _to_card_play(table)
    others = {
        card
        for card in (f"{rank}{suit}" for rank in "789TJQKA" for suit in "SHDC")
        if card not in view["hand"]
    }
    card = sorted(others)[0]
    response = table.act(seat, {"type": "play", "card": card}, view["version"])
    body = _assert_refused(
        table, seat, response, 422, "card_not_in_hand", view["version"], frozenset({card})
    )
    assert card in body["detail"]


def test_acting_out_of_turn_is_refused(table):
    seat, view = _turn(table)
    other = (seat + 1) % 4
    response = table.act(other, {"type": "pass"}, view["version"])
    _assert_refused(table, other, response, 422, "not_your_turn", view["version"])


def test_a_player_without_a_seat_gets_403(table, auth_client):
    _, view = _turn(table)
    response = auth_client().post(
        f"{table.url}/actions",
        {"action": {"type": "pass"}, "expected_version": view["version"]},
        format="json",
    )
    _assert_refused(table, None, response, 403, "not_seated", view["version"])


def test_a_stale_version_is_409_with_the_callers_current_view(table):
    seat, view = _turn(table)
    assert table.act(seat, {"type": "pass"}, view["version"]).status_code == 201
    nxt = (seat + 1) % 4
    response = table.act(nxt, {"type": "pass"}, view["version"])
    body = _assert_refused(table, nxt, response, 409, "version_conflict", view["version"] + 1)
    assert body["current_version"] == view["version"] + 1
    assert body["game"]["seat"] == nxt
    assert body["game"]["version"] == view["version"] + 1
    assert body["game"]["hand"] == table.view(nxt)["hand"]


def test_if_match_carries_the_version_and_a_missing_version_is_428(table):
    seat, view = _turn(table)
    url = f"{table.url}/actions"
    missing = table.clients[seat].post(url, {"action": {"type": "pass"}}, format="json")
    _assert_refused(table, seat, missing, 428, "version_required", view["version"])
    response = table.clients[seat].post(
        url,
        {"action": {"type": "pass"}},
        format="json",
        headers={"If-Match": f'"{view["version"]}"'},
    )
    assert response.status_code == 201
    assert response["ETag"] == f'"{view["version"] + 1}"'


def _pass_with_if_match(table: Table, seat: int, version: int, header: str) -> Any:
    """Pass with no expected_version in the body and `header` (V: the version) as If-Match."""
    return table.clients[seat].post(
        f"{table.url}/actions",
        {"action": {"type": "pass"}},
        format="json",
        headers={"If-Match": header.replace("V", str(version))},
    )


@pytest.mark.parametrize(
    ("header", "status", "code"),
    [
        # isdigit() is true of a superscript two and of an Arabic-Indic three; Django
        # hands header bytes over decoded as latin-1 (the byte B2 is "²" itself).
        ('"\u00b2"', 412, "precondition_failed"),
        ('"' + "\u00b2".encode().decode("latin-1") + '"', 412, "precondition_failed"),
        ('"' + "\u0663".encode().decode("latin-1") + '"', 412, "precondition_failed"),
        ('"' + "1" * 5000 + '"', 400, "invalid_if_match"),  # over the length bound
        ('"' + "1" * 200 + '"', 412, "precondition_failed"),  # no version this large
        ('"2147483648"', 412, "precondition_failed"),
        ('W/"V"', 412, "precondition_failed"),  # If-Match compares strongly
        ('"0V"', 412, "precondition_failed"),  # octet by octet: not the ETag "V"
        ('"V-0123abcd"', 412, "precondition_failed"),
        ("V", 400, "invalid_if_match"),  # not quoted
        ('"V', 400, "invalid_if_match"),
        ('"V" "V"', 400, "invalid_if_match"),
        ('"a b"', 400, "invalid_if_match"),  # a space is no etagc
        ('"V", "999"', 400, "invalid_if_match"),  # two versions
        ("*", 428, "version_required"),
    ],
)
def test_a_malformed_or_unmatchable_if_match_is_refused(table, header, status, code):
    seat, view = _turn(table)
    response = _pass_with_if_match(table, seat, view["version"], header)
    _assert_refused(table, seat, response, status, code, view["version"])
    assert table.view(seat)["version"] == view["version"]


@pytest.mark.parametrize("header", ['"V"', ' "V" ', 'W/"x", "V"', '"V", "V"'])
def test_if_match_may_list_other_tags_beside_the_one_version(table, header):
    seat, view = _turn(table)
    response = _pass_with_if_match(table, seat, view["version"], header)
    assert response.status_code == 201, response.content


def test_if_match_is_checked_even_beside_expected_version(table):
    seat, view = _turn(table)
    for header in ("1" * 5000, '"999"'):  # malformed; another version than the body's
        response = table.act(seat, {"type": "pass"}, view["version"], **{"If-Match": header})
        _assert_refused(table, seat, response, 400, "invalid_if_match", view["version"])


def test_a_malformed_if_none_match_is_ignored(table):
    seat, _ = _turn(table)
    for header in ('"' + "7" * 5000 + '"', "\u00b2", 'W/"'):
        assert (
            table.clients[seat].get(table.url, headers={"If-None-Match": header}).status_code == 200
        )


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
    seat, view = _turn(table)
    response = table.clients[seat].post(
        f"{table.url}/actions", data=body, content_type="application/json"
    )
    _assert_refused(table, seat, response, status, code, view["version"])


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
    _assert_refused(table, 0, response, 409, "game_over", view["version"])


def test_the_same_idempotency_key_replays_the_first_answer(table):
    seat, view = _turn(table)
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
    seat, view = _turn(table)
    assert (
        table.act(seat, {"type": "pass"}, view["version"], **{"Idempotency-Key": "k"}).status_code
        == 201
    )
    nxt = table.view((seat + 1) % 4)
    # The same user, the same key, another request.
    response = table.act(seat, {"type": "take"}, nxt["version"], **{"Idempotency-Key": "k"})
    _assert_refused(table, seat, response, 422, "idempotency_key_reused", nxt["version"])


def test_a_refused_attempt_leaves_its_idempotency_key_usable(table):
    seat, view = _turn(table)
    key = {"Idempotency-Key": "retry-me"}
    refused = table.act(seat, {"type": "fold"}, view["version"], **key)
    assert refused.status_code == 422
    assert table.act(seat, {"type": "pass"}, view["version"], **key).status_code == 201


def test_view_etag_and_if_none_match(table):
    seat, view = _turn(table)
    first = table.clients[seat].get(table.url)
    etag = first["ETag"]
    assert "Authorization" in first["Vary"]
    assert first["Cache-Control"] == "private, no-cache"
    assert etag == f'"{view["version"]}"'
    unchanged = table.clients[seat].get(table.url, headers={"If-None-Match": etag})
    assert unchanged.status_code == 304
    assert unchanged.content == b""
    table.act(seat, {"type": "pass"}, view["version"])
    changed = table.clients[seat].get(table.url, headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed["ETag"] == f'"{view["version"] + 1}"'


def test_the_action_answer_holds_the_callers_events_and_view(table):
    seat, view = _turn(table)
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
    seat, view = _turn(table)
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
