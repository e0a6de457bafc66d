"""The game feed's hot path: a game's long-polls and streams answered without Django's
request handler, whenever they can be answered exactly as its views answer them.

Why. A move wakes every follower of its game at once, and a long-poll's followers all
come back with their next poll a moment later: with 200 spectators of one game, each
move is 400 requests within a few milliseconds, and every follower waits behind the
others' requests. Through Django's handler each cost about 1 ms of CPU more than its
own work (the request signals and the thread hop each makes, the URL resolver, DRF's
dispatch with its own thread hop, a thread hop to close the answer), and its token
lookup was a database statement of its own. Measured in docs/feed.md ("The hot path").

What it answers: `GET .../games/<id>/events` and `.../games/<id>/stream` (the routes of
feed_urls.py, found by name) without a body, whose bearer token authenticates. It makes
the `HttpRequest` Django would make (`ASGIRequest`), runs it through the project's
middlewares (`settings.MIDDLEWARE`, each built as Django builds it, so every answer
carries the headers the others carry), authenticates it by the same rule as
`BearerTokenAuthentication` (the polls arriving together looked up in one statement,
games/feed/tokens.py), and answers with the views' own code (feed_views.py's
`events_answer` and `stream_answer`). What it leaves out: the URL resolver, DRF's
dispatch and Django's request signals, whose work is not needed here: the feed's reads
take a database connection only on the loop's thread pool and give it back
(games/feed/threads.py).

Everything else goes to Django, untouched: another method or path, a body, no token or
one that does not authenticate, an invalid query, an unknown game, a full cap of feeds,
a token revoked while a poll was held, any error. Django answers it from the start, as
it answers any request, so the hot path has no error answers of its own; a request
handed over after its work began only does that work again (a GET changes nothing).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import re
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from typing import Any
from uuid import UUID

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.exceptions import DisallowedHost, ImproperlyConfigured
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponse, HttpResponseBase, StreamingHttpResponse
from django.urls import converters, reverse
from django.utils.cache import patch_vary_headers
from django.utils.module_loading import import_string
from rest_framework.authentication import get_authorization_header
from rest_framework.exceptions import APIException
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.views import APIView

from accounts.authentication import BearerTokenAuthentication, presented_token
from belote_project.errors import ApplicationError
from games.api.feed_views import GameEventsApi, GameStreamApi, events_answer, stream_answer
from games.feed.selectors import FeedViewer
from games.feed.tokens import token_holder

logger = logging.getLogger(__name__)

Scope = dict[str, Any]
Message = Mapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
AsgiApp = Callable[[Scope, Receive, Send], Awaitable[None]]
Answer = Callable[[Request, FeedViewer], Awaitable[HttpResponseBase]]
Handler = Callable[[HttpRequest], Awaitable[HttpResponseBase]]

# What ends a hot answer by handing the request to Django: what the views raise for
# Django's exception handler to answer, a Host not allowed, or a token to refuse.
HANDED_OVER = (APIException, ApplicationError, DisallowedHost)


class NotAuthenticated(Exception):  # noqa: N818 (a verdict, not a failure of the code)
    """No bearer token, or one that does not authenticate: Django's to refuse."""


def route(name: str) -> re.Pattern[str]:
    """The path of the URLconf's route `name` (one `game_id` argument) as a pattern."""
    placeholder = UUID(int=0)
    before, _, after = reverse(name, kwargs={"game_id": placeholder}).partition(str(placeholder))
    return re.compile(
        f"{re.escape(before)}(?P<game_id>{converters.UUIDConverter.regex}){re.escape(after)}"
    )


def _through_middlewares(view: Handler) -> Handler:
    """`view` inside the project's middlewares, each made as Django makes it (a factory
    given what comes after it). Each must run in line on an async request: the ones of
    settings.MIDDLEWARE are written to (belote_project/middleware.py, session_paths.py)."""
    handler: Any = view
    for dotted in reversed(settings.MIDDLEWARE):
        factory = import_string(dotted)
        if not getattr(factory, "async_capable", False):
            raise ImproperlyConfigured(f"{dotted} cannot serve the feed's hot path (async)")
        handler = factory(handler)
    answering: Handler = handler
    return answering


def _checks_of(view: type[APIView]) -> tuple[list[object], list[object], int]:
    return (
        list(view.authentication_classes),
        list(view.permission_classes),
        len(view.throttle_classes),
    )


def _authenticated(view_class: type[APIView], answer: Answer, route: re.Pattern[str]) -> Handler:
    """`answer`, for the viewer the request's bearer token authenticates, with the
    headers DRF's dispatch gives every answer of `view_class` (`Allow`). The view's own
    checks must be the ones this makes (a bearer token, IsAuthenticated, no throttle): a
    check added to the view and not here would be skipped, so that refuses to start."""
    if _checks_of(view_class) != ([BearerTokenAuthentication], [IsAuthenticated], 0):
        raise ImproperlyConfigured(
            f"{view_class.__name__} checks more than a bearer token: the feed's hot path "
            "(games/api/feed_hot.py) would skip it"
        )
    headers = dict(view_class().default_response_headers)
    vary = headers.pop("Vary", None)

    async def view(request: HttpRequest) -> HttpResponseBase:
        drf_request = Request(request)
        token = presented_token(get_authorization_header(drf_request))
        holder = await token_holder(token) if token is not None else None
        if holder is None:
            raise NotAuthenticated
        match = route.fullmatch(request.path_info)
        assert match is not None  # the hot path took the request by this route
        viewer = FeedViewer(
            game_id=UUID(match["game_id"]), user_id=holder.user_id, token_id=holder.token_id
        )
        response = await answer(drf_request, viewer)
        # As `APIView.finalize_response` adds them.
        if vary is not None:
            patch_vary_headers(response, vary.split(","))
        for name, value in headers.items():
            response[name] = value
        return response

    return view


def _replaying(first: Message, receive: Receive) -> Receive:
    """`receive`, handing out `first` (already received) once more before the rest."""
    pending = [first]

    async def replay() -> Message:
        return pending.pop() if pending else await receive()

    return replay


async def _sent(response: HttpResponseBase, send: Send) -> None:
    """The answer sent as Django's handler sends one: its status and headers (cookies
    included), then its body, or its parts as they come."""
    headers = [(name.encode("latin-1"), text.encode("latin-1")) for name, text in response.items()]
    headers += [
        (b"Set-Cookie", cookie.output(header="").encode("ascii").strip())
        for cookie in response.cookies.values()
    ]
    await send({"type": "http.response.start", "status": response.status_code, "headers": headers})
    if isinstance(response, StreamingHttpResponse):
        async for part in response:
            await send({"type": "http.response.body", "body": part, "more_body": True})
        await send({"type": "http.response.body", "body": b""})
    else:
        assert isinstance(response, HttpResponse)  # the views make no other kind
        await send({"type": "http.response.body", "body": response.content})


async def _answered(handler: Handler, request: HttpRequest, send: Send) -> bool:
    """Whether `handler` answered the request, its answer sent as it was ready (in the
    same task, so a woken poll's answer leaves in the turn of the loop that woke it);
    False when the request is Django's, nothing sent."""
    try:
        response = await handler(request)
    except (NotAuthenticated, *HANDED_OVER):
        return False
    except Exception:  # Django answers it as it answers any error
        logger.exception("the feed's hot path handed a request to Django on an error")
        return False
    try:
        await _sent(response, send)
    finally:
        if isinstance(response, StreamingHttpResponse):
            # What the stream holds (its feed slot) given back, as Django's close does.
            await sync_to_async(response.close, thread_sensitive=False)()
    return True


async def _unless_gone(
    work: Coroutine[Any, Any, bool], leaving: asyncio.Future[Message]
) -> bool | None:
    """`work`'s result, or None if the client leaves first (`work` is cancelled then)."""
    task = asyncio.ensure_future(work)
    either: list[asyncio.Future[Any]] = [task, leaving]
    try:
        await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
    finally:
        if not task.done():  # the client left, or the server is stopping
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
    return None if task.cancelled() else task.result()


def game_feed_hot_path(django: AsgiApp) -> AsgiApp:
    """An ASGI application answering what it can of a game's feed, and passing every
    other request to `django` (see the module's docstring)."""
    routes = [
        (path, _through_middlewares(_authenticated(view_class, answer, path)))
        for path, view_class, answer in (
            (route("game-events"), GameEventsApi, events_answer),
            (route("game-stream"), GameStreamApi, stream_answer),
        )
    ]

    async def hot_path(scope: Scope, receive: Receive, send: Send) -> None:
        handler = next((handler for path, handler in routes if path.fullmatch(scope["path"])), None)
        if handler is None or scope["method"] != "GET" or scope.get("root_path"):
            await django(scope, receive, send)
            return
        first = await receive()
        if first["type"] != "http.request" or first.get("body") or first.get("more_body"):
            await django(scope, _replaying(first, receive), send)
            return
        request = ASGIRequest(scope, io.BytesIO())
        leaving = asyncio.ensure_future(receive())  # a disconnect, while it is answered
        try:
            answered = await _unless_gone(_answered(handler, request, send), leaving)
        finally:
            leaving.cancel()
        if answered is False:  # not None: a client that left is owed nothing
            await django(scope, _replaying(first, receive), send)

    return hot_path
