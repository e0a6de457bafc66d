"""GET /games/{id}/events without waiting: pages, cursors, per-viewer redaction, errors."""

from collections.abc import Callable
from typing import Any
from uuid import uuid4

import pytest
from rest_framework.test import APIClient

from accounts.models import User
from tests.games.feed_support import Table, foreign_cards_seen, play_random, seated_table
from tests.games.feed_support import secret_cards_by_seq as secrets_of

# The feed reads on threads of its own, with connections of their own: data committed.
pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

ClientFor = Callable[..., APIClient]


@pytest.fixture
def fresh_table(make_user: Callable[..., User]) -> Table:
    return seated_table(make_user)


@pytest.fixture
def table(fresh_table: Table) -> Table:
    play_random(fresh_table, 40)
    return fresh_table


def _events_url(table: Table) -> str:
    return f"/api/v1/games/{table.game_id}/events"


def _all_pages(client: APIClient, url: str) -> list[dict[str, Any]]:
    pages = []
    next_url: str | None = url
    while next_url is not None:
        response = client.get(next_url)
        assert response.status_code == 200, response.json()
        pages.append(response.json())
        next_url = pages[-1]["next"]
    return pages


def test_pages_follow_next_until_the_latest_event(table: Table, auth_client: ClientFor) -> None:
    client = auth_client(table.players[0])
    whole = client.get(_events_url(table), {"limit": 500}).json()

    pages = _all_pages(client, _events_url(table) + "?limit=7")

    assert [len(page["events"]) <= 7 for page in pages] == [True] * len(pages)
    paged = [event for page in pages for event in page["events"]]
    assert [event["seq"] for event in paged] == [event["seq"] for event in whole["events"]]
    assert pages[-1]["last_seq"] == whole["version"] == whole["last_seq"]
    assert whole["next"] is None


def test_after_returns_only_later_events(table: Table, auth_client: ClientFor) -> None:
    body = auth_client(table.players[1]).get(_events_url(table), {"after": 10}).json()

    assert body["events"][0]["seq"] == 11
    assert all(event["seq"] > 10 for event in body["events"])


def test_each_seat_sees_its_own_cards_and_no_other(table: Table, auth_client: ClientFor) -> None:
    secrets = secrets_of(table.game_id)
    for seat, player in table.players.items():
        events = auth_client(player).get(_events_url(table), {"limit": 500}).json()["events"]
        dealt = [event for event in events if event["type"] == "hand_dealt"]

        assert dealt
        assert all(set(event["data"]["cards"]) == {str(seat)} for event in dealt)
        assert foreign_cards_seen(events, seat, secrets) == []


def test_a_spectator_sees_no_cards_in_hand_and_no_rest_dealt(
    table: Table, auth_client: ClientFor
) -> None:
    events = auth_client().get(_events_url(table), {"limit": 500}).json()["events"]

    assert all(event["data"]["cards"] == {} for event in events if event["type"] == "hand_dealt")
    assert "rest_dealt" not in {event["type"] for event in events}
    assert foreign_cards_seen(events, None, secrets_of(table.game_id)) == []


def test_events_hidden_from_a_viewer_still_move_its_cursor(
    make_user: Callable[..., User], auth_client: ClientFor
) -> None:
    table = seated_table(make_user)
    version = play_random(table, 40)
    spectator = auth_client()
    seen = {event["seq"] for event in spectator.get(_events_url(table)).json()["events"]}
    hidden = sorted(set(range(1, version + 1)) - seen)
    assert hidden, "the sample game should have dealt the rest"

    body = spectator.get(_events_url(table), {"after": hidden[-1] - 1, "limit": 1}).json()

    assert body["events"] == []
    assert body["last_seq"] == hidden[-1]


def test_an_event_carries_seq_type_actor_and_data(table: Table, auth_client: ClientFor) -> None:
    first = auth_client(table.players[2]).get(_events_url(table)).json()["events"][0]

    assert first["seq"] == 1
    assert first["type"] == "game_started"
    assert first["actor"] == "system"
    assert set(first) == {"seq", "type", "v", "actor", "created_at", "turn_deadline", "data"}


def test_nothing_new_returns_an_empty_page_at_once(table: Table, auth_client: ClientFor) -> None:
    client = auth_client(table.players[0])
    version = client.get(_events_url(table), {"limit": 500}).json()["version"]

    body = client.get(_events_url(table), {"after": version}).json()

    assert body == {"events": [], "last_seq": version, "version": version, "next": None}


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"after": "ten"}, "after"),
        ({"after": -1}, "after"),
        ({"limit": 0}, "limit"),
        ({"limit": 501}, "limit"),
        ({"wait": 31}, "wait"),
        ({"wait": -1}, "wait"),
        ({"wait": "soon"}, "wait"),
        ({"wait": "nan"}, "wait"),
    ],
)
def test_bad_parameters_are_a_400_problem_naming_the_field(
    fresh_table: Table, auth_client: ClientFor, query: dict[str, Any], field: str
) -> None:
    response = auth_client(fresh_table.players[0]).get(_events_url(fresh_table), query)

    assert response.status_code == 400
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == "validation_failed"
    assert [error["field"] for error in response.json()["errors"]] == [field]


def test_an_unknown_game_is_a_404_problem(auth_client: ClientFor) -> None:
    response = auth_client().get(f"/api/v1/games/{uuid4()}/events")

    assert response.status_code == 404
    assert response.json()["code"] == "game_not_found"


@pytest.mark.parametrize("path", ["events", "stream"])
def test_without_a_token_the_feed_is_a_401_problem(
    fresh_table: Table, api_client: APIClient, path: str
) -> None:
    response = api_client.get(f"/api/v1/games/{fresh_table.game_id}/{path}")

    assert response.status_code == 401
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == "not_authenticated"
    assert response["WWW-Authenticate"].startswith("Bearer")


def test_a_bad_token_is_a_401_problem(fresh_table: Table, api_client: APIClient) -> None:
    api_client.credentials(HTTP_AUTHORIZATION="Bearer not-a-token")

    response = api_client.get(_events_url(fresh_table))

    assert response.status_code == 401
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == "invalid_token"


def test_a_bad_last_event_id_is_a_400_problem(fresh_table: Table, auth_client: ClientFor) -> None:
    response = auth_client(fresh_table.players[0]).get(
        f"/api/v1/games/{fresh_table.game_id}/stream", HTTP_LAST_EVENT_ID="yesterday"
    )

    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "Last-Event-ID"


def test_other_methods_are_a_405_problem(fresh_table: Table, auth_client: ClientFor) -> None:
    response = auth_client(fresh_table.players[0]).post(_events_url(fresh_table), {})

    assert response.status_code == 405
    assert response["Content-Type"] == "application/problem+json"
    assert response.json()["code"] == "method_not_allowed"


@pytest.mark.parametrize(
    "query", ["after=", "limit=", "wait=", "after=1&after=2", "after=99999999999"]
)
def test_an_empty_repeated_or_out_of_range_parameter_is_400(
    fresh_table: Table, auth_client: ClientFor, query: str
) -> None:
    response = auth_client(fresh_table.players[0]).get(f"{_events_url(fresh_table)}?{query}")

    assert response.status_code == 400
    assert response["Content-Type"] == "application/problem+json"


@pytest.mark.parametrize("last_event_id", ["", "\u0663", "1" * 11, "-1", "1.0"])
def test_a_last_event_id_that_is_no_seq_is_400(
    fresh_table: Table, auth_client: ClientFor, last_event_id: str
) -> None:
    response = auth_client(fresh_table.players[0]).get(
        f"/api/v1/games/{fresh_table.game_id}/stream", HTTP_LAST_EVENT_ID=last_event_id
    )

    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "Last-Event-ID"
