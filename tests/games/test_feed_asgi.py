"""The feed paths served without a thread per waiting client (games/feed/asgi.py)."""

import asyncio
import json
import threading
from collections.abc import Callable
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.core.asgi import get_asgi_application

from accounts.models import User
from accounts.services import access_token_issue
from games.feed.asgi import FEED_PATH, AsgiApp, with_feed_handler
from tests.games.feed_support import play_random, run_closing_connections, seated_table

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

PARKED = 30


async def _get(app: AsgiApp, path: str, query: str, token: str) -> tuple[int, Any]:
    """One GET through the ASGI application, as a server would make it."""
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query.encode(),
        "root_path": "",
        "headers": [(b"host", b"127.0.0.1"), (b"authorization", f"Bearer {token}".encode())],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
    }
    requested = False
    messages: list[Any] = []

    async def receive() -> dict[str, Any]:
        nonlocal requested
        if not requested:
            requested = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.Event().wait()  # the client never disconnects
        raise AssertionError

    async def send(message: Any) -> None:
        messages.append(message)

    await app(scope, receive, send)
    body = b"".join(message.get("body", b"") for message in messages[1:])
    return messages[0]["status"], json.loads(body)


def test_parked_long_polls_hold_no_thread_and_all_wake(make_user: Callable[..., User]) -> None:
    table = seated_table(make_user)
    version = play_random(table, 2)
    token = access_token_issue(user=table.players[0])
    app = with_feed_handler(get_asgi_application())
    path = f"/api/v1/games/{table.game_id}/events"

    async def scenario() -> tuple[int, list[tuple[int, Any]]]:
        polls = [
            asyncio.create_task(_get(app, path, f"after={version}&wait=20", token))
            for _ in range(PARKED)
        ]
        await asyncio.sleep(2.0)  # every request is parked by now
        threads_while_parked = threading.active_count()
        await sync_to_async(play_random)(table, 1, seed=3)
        return threads_while_parked, await asyncio.gather(*polls)

    threads_before = threading.active_count()
    threads_while_parked, answers = run_closing_connections(scenario)

    assert threads_while_parked - threads_before < PARKED // 3
    assert {status for status, _ in answers} == {200}
    assert {body["last_seq"] for _, body in answers} == {version + 1}


@pytest.mark.parametrize(
    ("path", "feed"),
    [
        ("/api/v1/games/0b7f2f8e-53c8-4c3e-9f3a-1c2d3e4f5a6b/events", True),
        ("/api/v1/games/0b7f2f8e-53c8-4c3e-9f3a-1c2d3e4f5a6b/stream", True),
        ("/api/v1/games/0b7f2f8e-53c8-4c3e-9f3a-1c2d3e4f5a6b", False),
        ("/api/v1/games/0b7f2f8e-53c8-4c3e-9f3a-1c2d3e4f5a6b/actions", False),
        ("/api/v1/games/0b7f2f8e-53c8-4c3e-9f3a-1c2d3e4f5a6b/events/x", False),
    ],
)
def test_only_the_feed_paths_take_the_shared_thread_handler(path: str, feed: bool) -> None:
    assert bool(FEED_PATH.search(path)) is feed
