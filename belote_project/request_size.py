"""The request-body limit (MAX_REQUEST_BODY_BYTES), enforced before the body is read.

`limit_request_body` is the outermost layer of the ASGI application: a Content-Length
over the limit is answered 413 before a byte of the body is received, and a body
without one (chunked) is received only up to the limit, then answered 413 with the
rest never read. Nothing behind it (Django, which would read a whole body into a
temporary file before any middleware runs) sees a body over the limit.
`RequestSizeGuardMiddleware` (belote_project/middleware.py) applies the same check
when Django is served by WSGI, which reads the body only when a view asks for it.
"""

import json
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, NamedTuple

from django.conf import settings

from belote_project.problems import PROBLEM_CONTENT_TYPE, problem_body

Scope = dict[str, Any]
Message = Mapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
AsgiApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class SizeProblem(NamedTuple):
    status: int
    code: str
    detail: str


def too_large() -> SizeProblem:
    limit = settings.MAX_REQUEST_BODY_BYTES
    return SizeProblem(413, "request_too_large", f"The body may hold at most {limit} bytes.")


def content_length_problem(raw: str | None) -> SizeProblem | None:
    """What is wrong with a request's Content-Length header (None: nothing)."""
    if raw is None or raw == "":
        return None
    if not (raw.isascii() and raw.isdigit()):
        return SizeProblem(
            400, "malformed_request", "The Content-Length header is not a non-negative integer."
        )
    # More digits than any limit has (and than int() takes: 4,300) is too large too.
    if len(raw) > 30 or int(raw) > settings.MAX_REQUEST_BODY_BYTES:
        return too_large()
    return None


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope["headers"]:
        if key == name:
            text: str = value.decode("latin-1")
            return text
    return None


async def _refuse(scope: Scope, send: Send, problem: SizeProblem) -> None:
    body = json.dumps(
        problem_body(
            status=problem.status, code=problem.code, detail=problem.detail, instance=scope["path"]
        )
    ).encode()
    await send(
        {
            "type": "http.response.start",
            "status": problem.status,
            "headers": [
                (b"content-type", PROBLEM_CONTENT_TYPE.encode()),
                (b"content-length", str(len(body)).encode()),
                # The unread rest of the body would be taken for the next request.
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def limit_request_body(application: AsgiApp) -> AsgiApp:
    """`application` behind the body limit; it gets the whole body as one message."""

    async def limited(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await application(scope, receive, send)
            return
        declared = _header(scope, b"content-length")
        problem = content_length_problem(declared)
        if problem is not None:
            await _refuse(scope, send, problem)
            return
        limit = settings.MAX_REQUEST_BODY_BYTES
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return  # the client left before its body was in: nobody to answer
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await _refuse(scope, send, too_large())
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if declared is None and body:
            # A chunked body, now whole: say its length, or Django's WSGI handler reads
            # none of it (it reads CONTENT_LENGTH bytes).
            length = (b"content-length", str(len(body)).encode())
            scope = {**scope, "headers": [*scope["headers"], length]}
        whole = {"type": "http.request", "body": body, "more_body": False}
        handed_over = False

        async def receive_after_body() -> Message:
            # The body once, then what the server sends next (a disconnect).
            nonlocal handed_over
            if not handed_over:
                handed_over = True
                return whole
            return await receive()

        await application(scope, receive_after_body, send)

    return limited
