"""Serving the feed's waiting views: the game feed's hot path, then Django's stock ASGI
handler on a few shared threads.

A game's long-polls and streams go to the hot path first (feed_hot.py), which answers
the ones it can and hands the others to Django's handler. The feed's other paths (the
caller's own feed, a tournament's progress) go to Django's handler directly.

Django's ASGI handler enters a `ThreadSensitiveContext` for each request, so each
request's thread-sensitive sync code (the `request_started` receivers, authentication
and its token query, closing the answer) runs on a thread of its own, started with the
request and kept until it ends: a parked long-poll or stream would hold an idle thread.
asgiref documents that only the outermost `ThreadSensitiveContext` sets the context,
and that one given an executor sends the block's thread-sensitive calls to it.
`with_feed_handler` enters one around each request Django's handler serves here, with
one of `FEED_THREADS` single-thread executors taken in turn: a parked client holds
nothing but its coroutine. With one thread for all (as before), every feed request's
thread hops queued behind any other request's token query: under load a slow query
there held back every answer of the process. Every other path goes to `application`
(belote_project/asgi.py).
"""

import itertools
import re
from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import ThreadSensitiveContext
from django.core.asgi import get_asgi_application

from games.api.feed_hot import AsgiApp, Receive, Scope, Send, game_feed_hot_path

# games/api/feed_urls.py: .../games/<uuid>/events and .../games/<uuid>/stream, and
# games/api/mine_urls.py: .../me/events and .../me/stream
FEED_PATH = re.compile(r"/(?:games/[0-9a-fA-F-]{32,36}|me)/(?:events|stream)\Z")
# Threads the feed's requests on Django's handler share; each takes a database
# connection from the pool only while its token query runs, so they add at most this
# many to the pool's users.
FEED_THREADS = 4


def with_feed_handler(application: AsgiApp, feed_paths: re.Pattern[str] = FEED_PATH) -> AsgiApp:
    """`application`, except the feed's paths (the games' own, or `feed_paths`, which
    the project widens with other apps' long-polls): the game feed's hot path, and
    Django's ASGI handler on a few threads for what it does not answer."""
    django = get_asgi_application()
    threads = [
        ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"feed{number}")
        for number in range(FEED_THREADS)
    ]
    turns = itertools.cycle(threads)

    async def on_shared_threads(scope: Scope, receive: Receive, send: Send) -> None:
        # A context with an executor is entered once: a new one per request.
        async with ThreadSensitiveContext(executor=next(turns)):
            await django(scope, receive, send)

    feed = game_feed_hot_path(on_shared_threads)

    async def routed(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and feed_paths.search(scope["path"]):
            await feed(scope, receive, send)
        else:
            await application(scope, receive, send)

    return routed
