"""A tournament's progress is a feed like a game's (long-polled with `wait`), and each of
its entries reaches the players it concerns in their own feed (`/me/events`)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.db.models import Q

from belote_project.asgi import FEED_PATHS
from tests.games.feed_support import LONG_POLL_WAIT, PARK_SECONDS, Background, read_stream_until
from tests.live_server import LiveServer, live_server
from tests.tournaments.helpers import (
    leave_to_bots,
    play_out,
    play_round_away,
    tournament_of_players,
)
from tournaments import services
from tournaments.models import Match

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

T = "/api/v1/tournaments"


@pytest.fixture(scope="module")
def server(django_db_setup: None) -> Iterator[LiveServer]:
    """The production server: a held poll waits there as in production, parked on the
    event loop, woken through PostgreSQL NOTIFY."""
    with live_server() as started:
        yield started


TOURNAMENT_NOTICES = ("tournament_round_started", "tournament_game_finished", "tournament_finished")


def swiss_of_players(organiser, players, *, bot_teams: int, rounds: int):
    """A Swiss where each of `players` registers with a bot partner, and bot teams."""
    tournament = tournament_of_players(organiser, players, format="swiss", rounds=rounds)
    for number in range(bot_teams):
        services.bot_team_add(
            tournament_id=tournament.pk, user=organiser, name=f"b{number}", levels=("random",) * 2
        )
    return tournament


def tournament_notices(client) -> list[dict[str, Any]]:
    answer = client.get("/api/v1/me/events", {"limit": 500})
    assert answer.status_code == 200, answer.content
    seqs = [notice["seq"] for notice in answer.json()["notices"]]
    assert seqs == list(range(1, len(seqs) + 1))  # the player's feed has no gap
    return [n for n in answer.json()["notices"] if n["type"] in TOURNAMENT_NOTICES]


def test_each_player_gets_each_notice_once_in_order(auth_client, make_user, user):
    players = [make_user() for _ in range(3)]
    tournament = swiss_of_players(user, players, bot_teams=0, rounds=2)
    services.tournament_start(tournament_id=tournament.pk, user=user)
    for number in (1, 2):
        play_round_away(tournament)
        # every task delivered a second time: nothing new
        for match in Match.objects.filter(round__tournament=tournament, game__isnull=False):
            assert not services.game_result_record(match.game_id)
        assert not services.round_close(tournament.pk, number)
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    winner = final_winner(auth_client(user), tournament.pk)

    for player in players:
        matches = Match.objects.filter(
            Q(home__captain=player) | Q(away__captain=player), round__tournament=tournament
        )
        expected: list[tuple[Any, ...]] = []
        for match in matches.order_by("round__number"):
            number, home = match.round.number, match.home.captain_id == player.pk
            team = match.home_id if home else match.away_id
            game = None if match.game_id is None else str(match.game_id)
            seat = None if game is None else (0 if home else 1)
            expected.append(("tournament_round_started", number, match.table, game, team, seat))
            if game is not None:
                expected.append(("tournament_game_finished", number, game, match.outcome))
        expected.append(("tournament_finished", 2, winner))
        got = [_shape(notice) for notice in tournament_notices(auth_client(player))]
        assert got == expected, player.username
        assert {n["tournament_id"] for n in tournament_notices(auth_client(player))} == {
            str(tournament.pk)
        }


def final_winner(client, tournament_id) -> int:
    entries = client.get(f"{T}/{tournament_id}/progress").json()
    return entries[-1]["payload"]["winner"]


def _shape(notice: dict[str, Any]) -> tuple[Any, ...]:
    if notice["type"] == "tournament_round_started":
        keys = ("round", "table", "game_id", "team", "seat")
    elif notice["type"] == "tournament_game_finished":
        keys = ("round", "game_id", "outcome")
    else:
        keys = ("round", "winner")
    return (notice["type"], *(notice[key] for key in keys))


def test_a_long_poll_answers_at_once_with_entries_and_after_its_wait_without(server, user):
    client = server.client(user)
    tournament_id = swiss_of_players(user, [], bot_teams=2, rounds=1).pk
    url = f"{T}/{tournament_id}/progress"
    started = time.monotonic()
    assert client.get(url, params={"wait": 0.5}).json() == []
    assert time.monotonic() - started >= 0.5
    services.tournament_start(tournament_id=tournament_id, user=user)
    (entry,) = client.get(url, params={"wait": 5}).json()
    assert entry["type"] == "round_started"
    (match,) = Match.objects.filter(round__tournament_id=tournament_id)
    play_out(match.game_id)
    services.game_result_record(match.game_id)
    services.round_close(tournament_id, 1)
    last = client.get(url).json()[-1]["seq"]
    # over, and every entry read: nothing to wait for
    started = time.monotonic()
    assert client.get(url, params={"after": last, "wait": LONG_POLL_WAIT}).json() == []
    assert time.monotonic() - started < LONG_POLL_WAIT / 2


@pytest.mark.parametrize(
    ("query", "field"),
    [({"wait": 31}, "wait"), ({"limit": 201}, "limit"), ({"after": -1}, "after")],
)
def test_bad_long_poll_parameters_are_refused(auth_client, user, query, field):
    tournament = swiss_of_players(user, [], bot_teams=2, rounds=1)
    answer = auth_client(user).get(f"{T}/{tournament.pk}/progress", query)
    assert (answer.status_code, answer.json()["errors"][0]["field"]) == (400, field)


@pytest.mark.parametrize("wait", [0, 20])
def test_no_such_tournament_answers_404_at_once(server, make_user, wait):
    client = server.client(make_user())  # a held poll waits on the server, not in here
    started = time.monotonic()
    answer = client.get(f"{T}/0b7f2f8e-53c8-4c3e-9f3a-1c2d3e4f5a6b/progress", params={"wait": wait})
    assert (answer.status_code, answer.json()["code"]) == (404, "tournament_not_found")
    assert time.monotonic() - started < 5


def test_the_progress_path_is_served_as_a_feed():
    tid = "0b7f2f8e-53c8-4c3e-9f3a-1c2d3e4f5a6b"
    assert FEED_PATHS.search(f"{T}/{tid}/progress")
    assert FEED_PATHS.search(f"/api/v1/games/{tid}/events")
    assert not FEED_PATHS.search(f"{T}/{tid}/rounds")
    assert not FEED_PATHS.search(f"{T}/{tid}/progress/x")


def test_a_held_long_poll_wakes_when_a_round_starts(server, make_user, user):
    tournament = swiss_of_players(user, [], bot_teams=3, rounds=2)
    services.tournament_start(tournament_id=tournament.pk, user=user)
    for match in Match.objects.filter(round__tournament=tournament, game__isnull=False):
        play_out(match.game_id)
        services.game_result_record(match.game_id)
    client = server.client(make_user())
    last = client.get(f"{T}/{tournament.pk}/progress").json()[-1]["seq"]
    poll = Background(
        lambda: client.get(
            f"{T}/{tournament.pk}/progress", params={"after": last, "wait": LONG_POLL_WAIT}
        )
    )
    time.sleep(PARK_SECONDS)
    assert services.round_close(tournament.pk, 1)
    answer = poll.join()
    assert answer.status_code == 200
    (entry,) = answer.json()
    assert (entry["seq"], entry["type"], entry["payload"]["round"]) == (
        last + 1,
        "round_started",
        2,
    )
    assert poll.seconds < LONG_POLL_WAIT / 2  # woken, not timed out


def test_the_players_stream_carries_the_tournament_notices_as_the_page_does(
    server, make_user, user
):
    player = make_user()
    tournament = swiss_of_players(user, [player], bot_teams=2, rounds=1)
    services.tournament_start(tournament_id=tournament.pk, user=user)
    client = server.client(player)
    page = client.get("/api/v1/me/events").json()["notices"]
    (started,) = [n for n in page if n["type"] == "tournament_round_started"]
    match = Match.objects.get(Q(home__captain=player) | Q(away__captain=player))
    events = read_stream_until(
        client,
        "/api/v1/me/stream",
        page[-1]["seq"],
        headers={},
        then=lambda: leave_to_bots(match.game_id),
    )
    assert started in events  # the same JSON object, in the stream as in the page
    assert events[-1]["type"] == "seat_absent"  # and what comes next comes live
