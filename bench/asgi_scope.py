"""The HTTP scope an ASGI server hands the application, and one request through it, for code
that drives it directly (the floor and feedcost benchmarks, and tests)."""

import asyncio
import json
from typing import Any


def http_scope(
    method: str, path: str, headers: list[tuple[bytes, bytes]], query: str = ""
) -> dict[str, Any]:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": query.encode(),
        "root_path": "",
        "headers": headers,
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
    }


async def asgi_request(
    application: Any, method: str, path: str, token: str, body: Any = None, query: str = ""
) -> tuple[int, dict[str, Any]]:
    """(status, JSON body) of one bearer-token request to an ASGI application, no socket."""
    sent_body = b"" if body is None else json.dumps(body).encode()
    headers = [(b"host", b"127.0.0.1"), (b"authorization", f"Bearer {token}".encode())]
    if body is not None:
        headers += [(b"content-type", b"application/json")]
        headers += [(b"content-length", str(len(sent_body)).encode())]
    status: list[int] = []
    chunks: list[bytes] = []
    delivered = False

    async def receive() -> dict[str, Any]:
        nonlocal delivered
        if not delivered:
            delivered = True
            return {"type": "http.request", "body": sent_body, "more_body": False}
        await asyncio.Event().wait()  # no disconnect while the answer is built
        raise AssertionError

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            status.append(message["status"])
        else:
            chunks.append(message.get("body", b""))

    await application(http_scope(method, path, headers, query), receive, send)
    answer: dict[str, Any] = json.loads(b"".join(chunks) or b"{}")
    return status[0], answer
