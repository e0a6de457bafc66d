"""Serving the feed's waiting views: Django's stock ASGI handler, one thread for all.

Django's ASGI handler enters a `ThreadSensitiveContext` for each request, so each
request's thread-sensitive sync code (the `request_started` receivers, the sync hooks
of the stock middlewares, closing the answer) runs on a thread of its own, started
with the request and kept until it ends: a parked long-poll or stream would hold an
idle thread. asgiref documents that only the outermost `ThreadSensitiveContext` sets
the context, and that one given an executor sends the block's thread-sensitive calls
to it. `with_feed_handler` enters one around each feed request, all with one shared
single-thread executor: the feed's sync steps (authentication, the database reads,
milliseconds each) take turns on that thread, and a parked client holds nothing but
its coroutine. Every other path goes to `application` (belote_project/asgi.py).
"""

import re
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import ThreadSensitiveContext
from django.core.asgi import get_asgi_application

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[Mapping[str, Any]]]
Send = Callable[[Mapping[str, Any]], Awaitable[None]]
AsgiApp = Callable[[Scope, Receive, Send], Awaitable[None]]

# games/api/feed_urls.py: .../games/<uuid>/events and .../games/<uuid>/stream
FEED_PATH = re.compile(r"/games/[0-9a-fA-F-]{32,36}/(?:events|stream)\Z")


def with_feed_handler(application: AsgiApp) -> AsgiApp:
    """`application`, except the feed's paths: Django's ASGI handler on one thread."""
    feed: AsgiApp = get_asgi_application()
    feed_thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="feed")

    async def routed(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and FEED_PATH.search(scope["path"]):
            # A context with an executor is entered once: a new one per request.
            async with ThreadSensitiveContext(executor=feed_thread):
                await feed(scope, receive, send)
        else:
            await application(scope, receive, send)

    return routed
