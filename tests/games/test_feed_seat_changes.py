"""Feeds opened before the viewer's seat changed, against a real server (issue 10, finding 1).

A feed never keeps the seat its viewer had when it opened: a stream ends at its first
read after the seat changed, and a held long-poll answers for the seat held when it
reads. The attack: sit at seats 1, 2 and 3 in turn, opening feeds from each, then sit
at seat 0 and let others fill 1-3; the old feeds must not deliver those seats' cards.
"""

import time
from collections.abc import Callable, Iterator
from typing import Any
from uuid import UUID

import httpx
import pytest

from accounts.models import User
from games.models import Game
from games.services.tables import game_create, seat_join
from tests.games.feed_support import (
    PARK_SECONDS,
    Background,
    StreamRead,
    cards_seen,
    open_stream,
    parse_sse,
    secret_cards_by_seq,
    send_long_poll,
    sse_events,
)
from tests.live_server import LiveServer, live_server

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture(scope="module")
def server(django_db_setup: None) -> Iterator[LiveServer]:
    with live_server() as started:
        yield started


def _sit(client: httpx.Client, game_id: UUID, seat: int) -> None:
    response = client.post(f"/api/v1/games/{game_id}/seats", json={"seat": seat})
    assert response.status_code == 201, response.text


def _stand_up(client: httpx.Client, game_id: UUID, seat: int) -> None:
    response = client.delete(f"/api/v1/games/{game_id}/seats/{seat}")
    assert response.status_code == 200, response.text


def _hold_long_poll(client: httpx.Client, game_id: UUID) -> Background:
    poll = send_long_poll(client, game_id)
    time.sleep(PARK_SECONDS)  # parked on the server by now, its first read done for the seat held
    return poll


def _ended_empty(stream: Background) -> StreamRead:
    read: StreamRead = stream.join()
    assert read.status == 200
    assert read.events == []
    assert read.ended  # the server closed it, not the deadline
    return read


def test_feeds_opened_from_seats_given_up_deliver_none_of_those_seats_cards(
    server: LiveServer, make_user: Callable[..., User]
) -> None:
    creator = make_user()
    game_id = game_create(user=creator, options={}, seat=1).id
    attacker = server.client(creator)
    streams, polls = [], []
    for seat in (1, 2, 3):
        if seat != 1:
            _sit(attacker, game_id, seat)
        streams.append(open_stream(server.client(creator), game_id))
        polls.append(_hold_long_poll(server.client(creator), game_id))
        _stand_up(attacker, game_id, seat)
    _sit(attacker, game_id, 0)

    for seat in (1, 2, 3):
        seat_join(game_id=game_id, user=make_user(), seat=seat)  # the last one deals

    secrets = secret_cards_by_seq(game_id)
    for stream in streams:
        _ended_empty(stream)
    for poll in polls:
        response = poll.join()
        assert response.status_code == 200
        events = response.json()["events"]
        # Answered for seat 0, the seat held when it read: its own cards and no other's.
        assert [event["type"] for event in events][:1] == ["game_started"]
        assert set(cards_seen(events, secrets)) == {0}


def test_a_viewer_seated_after_its_feeds_opened_gets_its_cards_from_reads_after_that(
    server: LiveServer, make_user: Callable[..., User]
) -> None:
    game_id = game_create(user=make_user(), options={}, seat=0).id
    for seat in (1, 2):
        seat_join(game_id=game_id, user=make_user(), seat=seat)
    watcher = make_user()
    old_stream = open_stream(server.client(watcher), game_id)  # as a spectator
    old_poll = _hold_long_poll(server.client(watcher), game_id)

    _sit(server.client(watcher), game_id, 3)  # the fourth seat: the game starts

    secrets = secret_cards_by_seq(game_id)
    version = Game.objects.values_list("version", flat=True).get(pk=game_id)
    _ended_empty(old_stream)
    polled = old_poll.join().json()["events"]
    assert set(cards_seen(polled, secrets)) == {3}
    streamed = _stream_until(server.client(watcher), game_id, version)
    assert [event["seq"] for event in streamed] == [event["seq"] for event in polled]
    assert cards_seen(streamed, secrets) == cards_seen(polled, secrets)


def _stream_until(client: httpx.Client, game_id: UUID, last_seq: int) -> list[dict[str, Any]]:
    text = ""
    with client.stream("GET", f"/api/v1/games/{game_id}/stream") as response:
        assert response.status_code == 200
        chunks = response.iter_text()
        while not any(frame["id"] == str(last_seq) for frame in parse_sse(text)):
            text += next(chunks)
    return sse_events(parse_sse(text))
