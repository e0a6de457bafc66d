"""The game feed's hot path (games/api/feed_hot.py): what it answers, it answers exactly
as Django's views do; everything else it hands to them untouched."""

import asyncio
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from asgiref.sync import markcoroutinefunction, sync_to_async
from django.core.asgi import get_asgi_application
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest, HttpResponseBase
from django.utils import timezone
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import IsAdminUser, IsAuthenticated
from rest_framework.throttling import AnonRateThrottle

from accounts.authentication import BearerTokenAuthentication
from accounts.models import AccessToken, User
from accounts.services import access_token_issue
from accounts.tokens import token_digest
from bench.asgi_scope import http_scope
from games.api import feed_hot
from games.api.feed_hot import AsgiApp, Receive, Scope, Send, game_feed_hot_path
from games.api.feed_views import GameEventsApi
from games.feed import tokens
from games.feed.hub import followed_games
from tests.games.feed_support import Table, play_random, run_closing_connections, seated_table

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@dataclass
class Answer:
    """What an ASGI application sent for one request."""

    status: int = 0
    headers: list[tuple[bytes, bytes]] = field(default_factory=list)
    body: bytes = b""


class Django:
    """Django's ASGI handler, counting the requests handed to it."""

    def __init__(self) -> None:
        self.app = get_asgi_application()
        self.requests = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        self.requests += 1
        await self.app(scope, receive, send)


async def call(
    app: AsgiApp,
    path: str,
    *,
    query: str = "",
    headers: dict[str, str] | None = None,
    method: str = "GET",
    body: bytes = b"",
    leave: asyncio.Event | None = None,
) -> Answer:
    """One request through `app`, as a server makes it; the client disconnects when
    `leave` is set (never, without it)."""
    raw = [(name.lower().encode(), value.encode()) for name, value in (headers or {}).items()]
    raw = [(b"host", b"127.0.0.1"), *raw]
    answer, asked = Answer(), False

    async def receive() -> dict[str, Any]:
        nonlocal asked
        if not asked:
            asked = True
            return {"type": "http.request", "body": body, "more_body": False}
        await (leave or asyncio.Event()).wait()
        return {"type": "http.disconnect"}

    async def send(message: Any) -> None:
        if message["type"] == "http.response.start":
            answer.status, answer.headers = message["status"], list(message["headers"])
        else:
            answer.body += message.get("body", b"")

    await app(http_scope(method, path, raw, query), receive, send)
    return answer


@pytest.fixture
def table(make_user: Callable[..., User]) -> Table:
    table = seated_table(make_user)
    play_random(table, 6)
    return table


def _events(table: Table) -> str:
    return f"/api/v1/games/{table.game_id}/events"


def _bearer(user: User) -> dict[str, str]:
    return {"Authorization": f"Bearer {access_token_issue(user=user)}"}


def _both(path: str, **request: Any) -> tuple[Answer, Answer, int]:
    """The hot path's answer, Django's own, and how many requests the hot path handed on."""
    django = Django()
    hot = game_feed_hot_path(django)

    async def scenario() -> tuple[Answer, Answer]:
        return await call(hot, path, **request), await call(django.app, path, **request)

    hot_answer, django_answer = run_closing_connections(scenario)
    return hot_answer, django_answer, django.requests


@pytest.mark.parametrize(
    ("query", "headers"),
    [
        ("after=0", {}),
        ("after=0&limit=2", {}),  # a page with a `next` link
        ("after=3&limit=1&wait=0", {"Accept-Language": "fr-FR,fr;q=0.9"}),
        ("after=6&wait=0", {"Accept-Language": "de"}),  # nothing new: an empty page
    ],
)
def test_a_page_of_events_is_the_views_own(
    table: Table, query: str, headers: dict[str, str]
) -> None:
    hot, django, handed_on = _both(
        _events(table), query=query, headers={**headers, **_bearer(table.players[2])}
    )

    assert handed_on == 0
    assert hot.status == 200
    assert hot == django


def test_a_held_poll_woken_by_a_move_is_the_views_own(table: Table) -> None:
    version = play_random(table, 0)
    django = Django()
    hot = game_feed_hot_path(django)
    request = {"query": f"after={version}&wait=20", "headers": _bearer(table.players[1])}

    async def scenario() -> tuple[Answer, Answer]:
        polls = [
            asyncio.create_task(call(app, _events(table), **request)) for app in (hot, django.app)
        ]
        await asyncio.sleep(1.0)  # both parked
        await sync_to_async(play_random)(table, 1, seed=5)
        hot_answer, django_answer = await asyncio.gather(*polls)
        return hot_answer, django_answer

    hot_answer, django_answer = run_closing_connections(scenario)

    assert django.requests == 0
    assert hot_answer.status == 200
    assert b'"events": [{' in hot_answer.body
    assert hot_answer == django_answer


def test_a_finished_games_stream_is_the_views_own(make_user: Callable[..., User]) -> None:
    table = seated_table(make_user, target=1)
    play_random(table, 500)
    path = f"/api/v1/games/{table.game_id}/stream"
    spectator = _bearer(make_user())

    whole, whole_from_django, handed_on = _both(path, headers=spectator)
    assert handed_on == 0
    assert whole.status == 200
    assert b"event: game_finished" in whole.body
    assert whole == whole_from_django

    last = play_random(table, 0)
    seen, seen_from_django, handed_on = _both(path, query=f"after={last}", headers=spectator)
    assert (handed_on, seen.status) == (0, 204)
    assert seen == seen_from_django


@pytest.mark.parametrize(
    ("change", "status"),
    [
        (lambda r: r.update(headers={}), 401),  # no token
        (lambda r: r.update(headers={"Authorization": "Bearer blt_nope"}), 401),
        (lambda r: r.update(headers={"Authorization": "Bearer two parts"}), 401),
        (lambda r: r.update(headers={"Authorization": "Basic dXNlcjpwdw=="}), 401),
        (lambda r: r.update(query="after=-1"), 400),
        (lambda r: r.update(query="wait=31"), 400),
        (lambda r: r.update(query="after=1&after=2"), 400),
        (lambda r: r.update(query="limit="), 400),
        (lambda r: r.update(path=f"/api/v1/games/{uuid.uuid4()}/events"), 404),
        (lambda r: r.update(path=r["path"].replace(r["game"], r["game"].upper())), 404),
        (lambda r: r.update(method="POST"), 405),
        (lambda r: r.update(method="HEAD"), 405),
        (lambda r: r.update(body=b"{}"), 200),  # a GET with a body: Django's to read it
        (lambda r: r["headers"].update(Host="elsewhere.example"), 400),
    ],
)
def test_what_the_hot_path_cannot_answer_django_answers(
    table: Table, change: Callable[[dict[str, Any]], None], status: int
) -> None:
    request: dict[str, Any] = {"path": _events(table), "headers": _bearer(table.players[0])}
    request["game"] = str(table.game_id)
    change(request)
    path = request.pop("path")
    del request["game"]

    hot, django, handed_on = _both(path, **request)

    assert handed_on == 1
    assert hot.status == status
    assert hot == django


def test_a_poll_held_past_the_cap_of_feeds_is_djangos_429(table: Table, settings: Any) -> None:
    settings.MAX_OPEN_FEEDS_PER_USER = 1
    version = play_random(table, 0)
    viewer = _bearer(table.players[3])
    django = Django()
    hot = game_feed_hot_path(django)

    async def scenario() -> tuple[Answer, Answer]:
        leave = asyncio.Event()
        held = asyncio.create_task(
            call(hot, _events(table), query=f"after={version}&wait=20", headers=viewer, leave=leave)
        )
        await asyncio.sleep(1.0)  # parked, its slot taken
        refused = await call(hot, _events(table), query=f"after={version}&wait=5", headers=viewer)
        leave.set()
        return refused, await held

    refused, _ = run_closing_connections(scenario)

    assert django.requests == 1
    assert refused.status == 429
    assert b'"code":"too_many_feeds"' in refused.body.replace(b" ", b"")


@pytest.mark.parametrize("forwarded", [None, "https"])
def test_the_https_redirect_and_hsts_are_the_security_middlewares(
    table: Table, settings: Any, forwarded: str | None
) -> None:
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.SECURE_HSTS_SECONDS = 3600
    headers = _bearer(table.players[0])
    if forwarded:
        headers["X-Forwarded-Proto"] = forwarded

    hot, django, _ = _both(_events(table), query="after=0", headers=headers)

    assert hot.status == (200 if forwarded else 301)
    assert (b"Strict-Transport-Security" in dict(hot.headers)) is bool(forwarded)
    assert hot == django


def test_polls_arriving_together_are_authenticated_by_one_statement(
    table: Table, make_user: Callable[..., User], monkeypatch: pytest.MonkeyPatch
) -> None:
    viewers = [_bearer(make_user()) for _ in range(12)]
    revoked = _bearer(make_user())
    AccessToken.objects.filter(digest=token_digest(revoked["Authorization"].split()[1])).update(
        expires_at=timezone.now()
    )
    statements: list[int] = []
    counted = tokens.access_token_holders

    def counting(**asked: Any) -> Any:
        statements.append(len(asked["tokens"]))
        return counted(**asked)

    monkeypatch.setattr(tokens, "access_token_holders", counting)
    django = Django()
    hot = game_feed_hot_path(django)

    async def scenario() -> list[Answer]:
        return list(
            await asyncio.gather(
                *(
                    call(hot, _events(table), query="after=0", headers=h)
                    for h in [*viewers, revoked]
                )
            )
        )

    answers = run_closing_connections(scenario)

    assert statements[0] == len(viewers) + 1  # every poll of that turn in one statement
    assert [a.status for a in answers] == [200] * len(viewers) + [401]
    assert django.requests == 1  # the expired token: Django's to refuse


def test_a_client_that_leaves_a_held_poll_leaves_its_game(table: Table) -> None:
    version = play_random(table, 0)
    django = Django()
    hot = game_feed_hot_path(django)
    query, viewer = f"after={version}&wait=20", _bearer(table.players[0])

    async def scenario() -> tuple[bool, bool, Answer]:
        leave = asyncio.Event()
        poll = asyncio.create_task(
            call(hot, _events(table), query=query, headers=viewer, leave=leave)
        )
        await asyncio.sleep(1.0)
        followed_while_held = table.game_id in followed_games()
        leave.set()
        answer = await asyncio.wait_for(poll, 5)
        return followed_while_held, table.game_id in followed_games(), answer

    followed_while_held, followed_after, answer = run_closing_connections(scenario)

    assert followed_while_held
    assert not followed_after
    assert answer.status == 0  # nothing was sent to a client that is gone
    assert django.requests == 0


def _signed(request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
    response["X-Test-Middleware"] = "ran"
    return response


class SigningMiddleware:
    async_capable = True
    sync_capable = False

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response
        markcoroutinefunction(self)

    async def __call__(self, request: HttpRequest) -> HttpResponseBase:
        return _signed(request, await self.get_response(request))


class SyncOnlyMiddleware:
    async_capable = False
    sync_capable = True

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        return _signed(request, self.get_response(request))


def test_the_hot_path_runs_the_projects_middlewares(table: Table, settings: Any) -> None:
    settings.MIDDLEWARE = [*settings.MIDDLEWARE, f"{__name__}.SigningMiddleware"]

    hot, django, handed_on = _both(
        _events(table), query="after=0", headers=_bearer(table.players[0])
    )

    assert handed_on == 0
    assert (b"X-Test-Middleware", b"ran") in hot.headers
    assert hot == django


def test_a_middleware_that_cannot_run_async_is_refused_at_start(settings: Any) -> None:
    django = Django()
    settings.MIDDLEWARE = [*settings.MIDDLEWARE, f"{__name__}.SyncOnlyMiddleware"]

    with pytest.raises(ImproperlyConfigured, match="SyncOnlyMiddleware"):
        game_feed_hot_path(django)


@pytest.mark.parametrize(
    ("path", "taken"),
    [
        ("/api/v1/games/0b7f2f8e-53c8-4c3e-9f3a-1c2d3e4f5a6b/events", True),
        ("/api/v1/games/0b7f2f8e-53c8-4c3e-9f3a-1c2d3e4f5a6b/stream", True),
        ("/api/v1/games/0B7F2F8E-53C8-4C3E-9F3A-1C2D3E4F5A6B/events", False),
        ("/api/v1/games/0b7f2f8e53c84c3e9f3a1c2d3e4f5a6b/events", False),
        ("/api/v1/games/0b7f2f8e-53c8-4c3e-9f3a-1c2d3e4f5a6b/events/", False),
        ("/api/v1/me/events", False),
    ],
)
def test_the_routes_are_the_urlconfs(path: str, taken: bool) -> None:
    routes = [feed_hot.route("game-events"), feed_hot.route("game-stream")]

    assert any(route.fullmatch(path) for route in routes) is taken


@pytest.mark.parametrize(
    "added",
    [
        {"throttle_classes": [AnonRateThrottle]},
        {"permission_classes": [IsAuthenticated, IsAdminUser]},
        {"authentication_classes": [SessionAuthentication, BearerTokenAuthentication]},
    ],
)
def test_a_check_the_view_gains_and_the_hot_path_would_skip_refuses_to_start(
    monkeypatch: pytest.MonkeyPatch, added: dict[str, Any]
) -> None:
    for name, checks in added.items():
        monkeypatch.setattr(GameEventsApi, name, checks)

    with pytest.raises(ImproperlyConfigured, match="GameEventsApi"):
        game_feed_hot_path(Django())
