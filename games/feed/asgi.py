"""Serving the feed's waiting views without a thread per waiting client.

Django's ASGI handler gives each request a thread of its own for its sync code (a
per-request `ThreadSensitiveContext`): the thread is started when the request starts
(the `request_started` signal already runs sync code) and kept until it ends. For a
long-poll or an event stream that means one idle thread per parked client.

`with_feed_handler` routes the feed's paths to a handler without that per-request
context: their sync steps (authentication, the database reads) take turns on asgiref's
process-wide thread, which they only need for milliseconds, and a parked client holds
nothing but its coroutine. Every other path keeps Django's handler, whose sync views
need threads of their own. Wire it in belote_project/asgi.py around the Django
application.
"""

import re
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from django.core.handlers.asgi import ASGIHandler

# The shapes django-stubs gives ASGIHandler.
Scope = dict[str, Any]
Receive = Callable[[], Awaitable[Mapping[str, Any]]]
Send = Callable[[Mapping[str, Any]], Awaitable[None]]
AsgiApp = Callable[[Scope, Receive, Send], Awaitable[None]]

# games/api/feed_urls.py: .../games/<uuid>/events and .../games/<uuid>/stream
FEED_PATH = re.compile(r"/games/[0-9a-fA-F-]{32,36}/(?:events|stream)\Z")


class SharedThreadASGIHandler(ASGIHandler):
    """Django's ASGI handler minus the thread of its own for each request."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django serves HTTP only, not {scope['type']}.")
        # Outside any ThreadSensitiveContext, asgiref runs thread-sensitive sync code on
        # one process-wide thread.
        await self.handle(scope, receive, send)


def with_feed_handler(application: AsgiApp) -> AsgiApp:
    """`application`, except the feed's paths, served by a `SharedThreadASGIHandler`."""
    feed = SharedThreadASGIHandler()

    async def routed(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and FEED_PATH.search(scope["path"]):
            await feed(scope, receive, send)
        else:
            await application(scope, receive, send)

    return routed
