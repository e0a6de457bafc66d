"""Long-poll and Server-Sent Events against a real server, started as in production.

The server (docs/deploy.md's command, one worker, tests/live_server.py) reads the
test database; tests commit their data (transactional) so that it sees them, and an
event appended here reaches the server's listener through PostgreSQL NOTIFY.
"""

import time
from collections.abc import Callable, Iterator

import httpx
import pytest

from accounts.models import User
from games import rules, store
from games.models import PlayerNotice
from games.services.play import game_act
from tests.games.feed_support import (
    LONG_POLL_WAIT,
    PARK_SECONDS,
    Background,
    Table,
    foreign_cards_seen,
    parse_sse,
    play_random,
    read_stream_until,
    seated_table,
    secret_cards_by_seq,
    sse_events,
)
from tests.live_server import LiveServer, live_server

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

# Generous bounds: a working wakeup answers in milliseconds, a broken one only at these.
LONG_POLL_SECONDS = 20


@pytest.fixture(scope="module")
def server(django_db_setup: None) -> Iterator[LiveServer]:
    with live_server() as started:
        yield started


@pytest.fixture
def table(make_user: Callable[..., User]) -> Table:
    table = seated_table(make_user)
    play_random(table, 12)
    return table


def test_long_polls_of_every_seat_return_with_the_new_event(
    server: LiveServer, table: Table
) -> None:
    version = play_random(table, 0)
    clients = {seat: server.client(user) for seat, user in table.players.items()}
    polls = {
        seat: Background(
            lambda client=client: client.get(  # type: ignore[misc]
                f"/api/v1/games/{table.game_id}/events",
                params={"after": version, "wait": LONG_POLL_SECONDS},
            )
        )
        for seat, client in clients.items()
    }
    time.sleep(1.0)  # the requests are parked on the server by now

    new_version = play_random(table, 1, seed=99)

    secrets = secret_cards_by_seq(table.game_id)
    for seat, poll in polls.items():
        body = poll.join().json()
        assert poll.seconds < LONG_POLL_SECONDS
        assert body["last_seq"] == new_version
        assert [event["seq"] for event in body["events"]] == [new_version]
        assert foreign_cards_seen(body["events"], seat, secrets) == []


def test_a_long_poll_with_nothing_new_returns_an_empty_page_after_its_wait(
    server: LiveServer, table: Table
) -> None:
    version = play_random(table, 0)
    started = time.monotonic()

    response = server.client(table.players[0]).get(
        f"/api/v1/games/{table.game_id}/events", params={"after": version, "wait": 1}
    )

    assert time.monotonic() - started >= 1.0
    assert response.json() == {"events": [], "last_seq": version, "version": version, "next": None}


def test_a_stream_resumes_after_last_event_id_and_delivers_new_events(
    server: LiveServer, table: Table
) -> None:
    version = play_random(table, 0)
    client = server.client(table.players[3])

    events = read_stream_until(
        client,
        f"/api/v1/games/{table.game_id}/stream?after=1",
        version,
        headers={"Last-Event-ID": "5"},
        then=lambda: play_random(table, 1, seed=5),
    )

    seqs = [event["seq"] for event in events]
    assert seqs[0] == 6
    assert seqs == sorted(seqs)
    assert seqs[-1] == version + 1
    assert foreign_cards_seen(events, 3, secret_cards_by_seq(table.game_id)) == []


def test_a_whole_game_streams_to_each_seat_without_another_seats_cards(
    server: LiveServer, make_user: Callable[..., User]
) -> None:
    table = seated_table(make_user, target=1)
    version = play_random(table, 400)
    secrets = secret_cards_by_seq(table.game_id)

    for seat, user in table.players.items():
        # The stream closes by itself after game_finished.
        response = server.client(user).get(f"/api/v1/games/{table.game_id}/stream")
        events = sse_events(parse_sse(response.text))

        assert events[-1]["type"] == "game_finished"
        assert events[-1]["seq"] == version
        assert foreign_cards_seen(events, seat, secrets) == []


def test_reconnecting_to_a_finished_game_seen_to_its_end_is_a_204(
    server: LiveServer, make_user: Callable[..., User]
) -> None:
    table = seated_table(make_user, target=1)
    version = play_random(table, 400)
    client = server.client(table.players[0])
    url = f"/api/v1/games/{table.game_id}/stream"

    finished = client.get(url, headers={"Last-Event-ID": str(version)})
    assert finished.status_code == 204
    assert "content-type" not in finished.headers  # no body, so no type of body
    assert client.get(url, headers={"Last-Event-ID": str(version - 1)}).status_code == 200


# The player's own feed (docs/feed.md, "Your own feed"): a held long-poll wakes on the
# notice written with the move; a stream resumes after `Last-Event-ID`.


def last_seq(user: User) -> int:
    return PlayerNotice.objects.filter(user=user).count()


def pass_turn(table: Table) -> int:
    """The seat to play passes (a bid of the first round); the seat that plays next."""
    loaded = store.load(table.game_id)
    turn = rules.view(loaded.state, None)["turn"]
    game_act(
        game_id=table.game_id,
        user=table.players[turn],
        action={"type": "pass"},
        expected_version=loaded.version,
    )
    following: int = rules.view(store.load(table.game_id).state, None)["turn"]
    return following


def long_poll(client: httpx.Client, after: int, wait: float) -> Background:
    return Background(
        lambda: client.get("/api/v1/me/events", params={"after": after, "wait": wait})
    )


def test_a_held_long_poll_wakes_with_your_turn_and_the_others_stay_asleep(
    server: LiveServer, make_user: Callable[..., User]
) -> None:
    table = seated_table(make_user)
    turn = rules.view(store.load(table.game_id).state, None)["turn"]
    following = (turn + 1) % 4
    polls = {
        seat: long_poll(
            server.client(user), last_seq(user), LONG_POLL_WAIT if seat == following else 3
        )
        for seat, user in table.players.items()
        if seat != turn
    }
    time.sleep(PARK_SECONDS)

    assert pass_turn(table) == following

    woken = polls.pop(following).join()
    assert woken.status_code == 200
    (notice,) = woken.json()["notices"]
    assert (notice["type"], notice["seat"], notice["game_id"]) == (
        "your_turn",
        following,
        str(table.game_id),
    )
    assert notice["version"] == store.load(table.game_id).version
    for poll in polls.values():  # nothing was for them: they waited out their wait
        assert poll.join().json()["notices"] == []


def test_the_stream_resumes_after_last_event_id_and_delivers_what_comes(
    server: LiveServer, make_user: Callable[..., User]
) -> None:
    table = seated_table(make_user)
    turn = rules.view(store.load(table.game_id).state, None)["turn"]
    me = table.players[(turn + 2) % 4]
    pass_turn(table)  # two passes: then it is my turn
    pass_turn(table)
    assert last_seq(me) == 2  # game_started, your_turn
    pass_turn(table)  # I pass too: the turn goes on, my notices stay two

    items = read_stream_until(
        server.client(me),
        "/api/v1/me/stream",
        2,
        headers={"Last-Event-ID": "1"},
        then=lambda: [pass_turn(table) for _ in range(3)],  # round to me again
    )

    assert [item["seq"] for item in items] == [2, 3]
    assert [item["type"] for item in items] == ["your_turn", "your_turn"]
    assert items[1]["version"] > items[0]["version"]
