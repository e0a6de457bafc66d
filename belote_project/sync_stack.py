"""Django's ASGI handler for the sync API: a request in one thread hop.

Under ASGI Django builds its middleware chain in async mode. Each of Django's own
middlewares (sessions, CSRF, auth, messages, ...) then runs every hook of its own through
`sync_to_async`: some fifteen trips per request between the event loop and the request's
thread, each copying contexts and waking both sides. That cost about 4.5 ms of CPU per
request, four times what the trivial insert endpoint does itself.

`SyncStackASGIHandler` builds the chain in sync mode, as under WSGI. Its `handle` then
makes one trip to the request's own thread (the same thread Django would have used for
each trip) for all the sync work of a request: the `request_started` signal, building the
request, the middleware chain and view, and, for an answer already in memory, closing it
(the `request_finished` signal, which hands the database connection back). Django's own
`handle` makes three trips for those and runs a second task per request listening for a
disconnect, which only cancels the wait: a sync view finishes in its thread either way.
A streaming answer is closed after it is sent, as Django does. The feed's coroutine views
keep Django's async handler (games/feed/asgi.py).

Django's `__call__` also starts a new thread for each request (a fresh
`ThreadSensitiveContext`) and joins it at the end: ~0.5 ms of CPU per request, and a new
thread-local database wrapper each time. `__call__` here keeps Django's rule (all of a
request's sync code runs on one thread of its own, one request at a time on it) with
threads that are kept and reused: each request takes an idle single-thread executor
(`RequestThreads`) and hands it to asgiref as its thread-sensitive context's executor.
There are as many threads as requests ever ran at once, as before, and no more.
"""

from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.http import FileResponse, HttpRequest, HttpResponseBase
from django.urls import set_script_prefix


class RequestThreads:
    """Idle one-thread executors, each lent to one request at a time.

    Used from the event loop's thread only, so it needs no lock. Above `keep` idle ones
    (a burst is over), a returned executor is shut down rather than kept.
    """

    def __init__(self, keep: int = 64) -> None:
        self._keep = keep
        self._idle: list[ThreadPoolExecutor] = []

    def take(self) -> ThreadPoolExecutor:
        if self._idle:
            return self._idle.pop()
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix="request")

    def give_back(self, executor: ThreadPoolExecutor) -> None:
        if len(self._idle) < self._keep:
            self._idle.append(executor)
        else:
            executor.shutdown(wait=False)

    @property
    def idle(self) -> int:
        return len(self._idle)


class SyncStackASGIHandler(ASGIHandler):
    def __init__(self) -> None:
        super().__init__()
        self.load_middleware(is_async=False)
        self.threads = RequestThreads()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django serves HTTP only, not {scope['type']}.")
        executor = self.threads.take()
        try:
            async with ThreadSensitiveContext(executor=executor):
                await self.handle(scope, receive, send)
        finally:
            # A sync call still running there (a cancelled request) finishes first: the
            # executor runs one call at a time, so the next request waits for it.
            self.threads.give_back(executor)

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)

    async def handle(self, scope: Any, receive: Any, send: Any) -> None:
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        set_script_prefix(get_script_prefix(scope))
        try:
            response = await sync_to_async(self._respond, thread_sensitive=True)(scope, body_file)
            await self.send_response(response, send)
            if response.streaming:
                await sync_to_async(response.close)()
        finally:
            body_file.close()

    def _respond(self, scope: Any, body_file: Any) -> HttpResponseBase:
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, response = self.create_request(scope, body_file)
        if request is not None:
            response = self.get_response(request)
            response._handler_class = self.__class__  # type: ignore[attr-defined]
        assert response is not None
        if isinstance(response, FileResponse):
            response.block_size = self.chunk_size
        if not response.streaming:
            response.close()
        return response
