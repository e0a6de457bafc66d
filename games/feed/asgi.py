"""Serving the feed's waiting views: Django's stock ASGI handler on a few shared threads.

Django's ASGI handler enters a `ThreadSensitiveContext` for each request, so each
request's thread-sensitive sync code (the `request_started` receivers, the sync hooks
of the stock middlewares, closing the answer) runs on a thread of its own, started
with the request and kept until it ends: a parked long-poll or stream would hold an
idle thread. asgiref documents that only the outermost `ThreadSensitiveContext` sets
the context, and that one given an executor sends the block's thread-sensitive calls
to it. `with_feed_handler` enters one around each feed request, with one of
`FEED_THREADS` single-thread executors taken in turn: a request's sync steps (the
middlewares' hooks, authentication and its token query, closing the answer) all run on
that one thread, and a parked client holds nothing but its coroutine. With one thread
for all (as before), every feed request's dozen middleware hops queued behind any other
request's token query: under load a slow query there held back every answer of the
process. Every other path goes to `application` (belote_project/asgi.py).
"""

import itertools
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

# games/api/feed_urls.py: .../games/<uuid>/events and .../games/<uuid>/stream, and
# games/api/mine_urls.py: .../me/events and .../me/stream
FEED_PATH = re.compile(r"/(?:games/[0-9a-fA-F-]{32,36}|me)/(?:events|stream)\Z")
# Threads the feed's requests share; each takes a database connection from the pool only
# while its token query runs, so they add at most this many to the pool's users.
FEED_THREADS = 4


def with_feed_handler(application: AsgiApp, feed_paths: re.Pattern[str] = FEED_PATH) -> AsgiApp:
    """`application`, except the feed's paths (the games' own, or `feed_paths`, which
    the project widens with other apps' long-polls): Django's ASGI handler on a few
    threads."""
    feed: AsgiApp = get_asgi_application()
    threads = [
        ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"feed{number}")
        for number in range(FEED_THREADS)
    ]
    turns = itertools.cycle(threads)

    async def routed(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and feed_paths.search(scope["path"]):
            # A context with an executor is entered once: a new one per request.
            async with ThreadSensitiveContext(executor=next(turns)):
                await feed(scope, receive, send)
        else:
            await application(scope, receive, send)

    return routed
