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
"""

from typing import Any

from asgiref.sync import sync_to_async
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.http import FileResponse, HttpRequest, HttpResponseBase
from django.urls import set_script_prefix


class SyncStackASGIHandler(ASGIHandler):
    def __init__(self) -> None:
        super().__init__()
        self.load_middleware(is_async=False)

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
