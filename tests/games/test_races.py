"""Concurrent writers: one wins, the others get a conflict; never a duplicate or a gap."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from rest_framework.test import APIClient

from games.models import Seat
from tests.games.helpers import GAMES, create_table, stored
from tests.games.leaks import assert_no_leak

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def _all_at_once(calls: list[Callable[[], Any]]) -> list[Any]:
    """Run the calls in threads released together; each thread closes its connection."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(index: int) -> None:
        try:
            barrier.wait()
            results[index] = calls[index]()
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(index,)) for index in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def _client_like(client: APIClient) -> APIClient:
    twin = APIClient()
    twin.credentials(HTTP_AUTHORIZATION=client._credentials["HTTP_AUTHORIZATION"])
    return twin


def test_sixteen_simultaneous_posts_of_one_turn_append_once(auth_client):
    table = create_table([auth_client() for _ in range(4)])
    seat = table.view(0)["turn"]
    view = table.view(seat)
    action = view["legal_actions"][0]
    clients = [_client_like(table.clients[seat]) for _ in range(16)]

    def post(client: APIClient) -> Callable[[], Any]:
        return lambda: client.post(
            f"{table.url}/actions",
            {"action": action, "expected_version": view["version"]},
            format="json",
        )

    responses = _all_at_once([post(client) for client in clients])
    statuses = Counter(response.status_code for response in responses)
    assert statuses == {201: 1, 409: 15}
    assert {r.json()["code"] for r in responses if r.status_code == 409} == {"version_conflict"}
    winner = next(r.json() for r in responses if r.status_code == 201)
    assert stored(table.game_id, "seq") == list(range(1, winner["game"]["version"] + 1))
    for response in responses:
        if response.status_code == 409:
            assert response.json()["current_version"] == winner["game"]["version"]
            assert_no_leak(table.game_id, seat, response.json())


def test_simultaneous_joins_fill_the_table_and_start_it_once(auth_client):
    first = auth_client()
    created = first.post(GAMES, {"seat": 0}, format="json").json()
    url = f"{GAMES}/{created['id']}/seats"
    joiners = [auth_client() for _ in range(8)]
    responses = _all_at_once(
        [lambda client=client: client.post(url, {}, format="json") for client in joiners]
    )
    statuses = Counter(response.status_code for response in responses)
    assert statuses == {201: 3, 409: 5}
    assert Seat.objects.filter(game_id=created["id"]).count() == 4
    assert stored(created["id"], "type") == ["game_started", "hand_dealt"]
