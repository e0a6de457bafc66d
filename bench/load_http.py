"""The load benchmark's HTTP: aiohttp for the players' and the yardstick's requests, and a
lean keep-alive connection of its own for each follower's long-polls.

The phones the benchmark stands for have cores of their own; its clients share the
server's two, so what a client spends on a request is time the server does not get, and
a delivery's receive time includes it. Measured with 200 long-poll spectators of one
game (`./scripts/bench load --tables 1 --spectators 200`, this session's server), the
spectators' processes spent in the measured window:
- httpx (HTTP parsed in Python): 14-15% of a core, about 0.75 ms a poll;
- aiohttp (its parser is C): 3%, about 0.16 ms a poll; delivery p50 26-29 ms and p99
  43-67 ms over 19 runs (median 55);
- `PollConnection`: 1%; delivery p50 23-26 ms and p99 38-52 ms over 11 runs (median 45).
A follower's poll is always the same request but for its cursor, so `PollConnection`
formats it from a template and parses the answer with httptools (llhttp, the parser the
server's uvicorn uses): a few dozen lines instead of a general client's per-request
work. Every follower long-polls through one, the seats' as the spectators', so the one
and the 200 spectators' phases are measured the same way.
The benchmark's processes run on uvloop, as the server does: with the default loop the
200 spectators' processes spent 2% of a core and their delivery p99 was 41-54 ms, with
uvloop 1% and 40 ms (two runs each, 2026-12-02).
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Any, cast
from urllib.parse import urlencode, urlsplit

import aiohttp
import httptools

LONG_POLL_WAIT = 20
# Longer than any held poll or a stream's silence (15 s): a follower's request times out
# only if the server is stuck. Per read, not per request: a stream lasts a whole game.
HTTP_TIMEOUT_SECONDS = LONG_POLL_WAIT + 15.0
HTTP_TIMEOUT = aiohttp.ClientTimeout(
    total=None, sock_connect=HTTP_TIMEOUT_SECONDS, sock_read=HTTP_TIMEOUT_SECONDS
)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@dataclass(frozen=True)
class Answer:
    """A whole HTTP answer, read: what the benchmark looks at in one."""

    url: str
    status: int
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def text(self) -> str:
        return self.body.decode(errors="replace")


async def fetch(
    client: aiohttp.ClientSession,
    method: str,
    url: str,
    token: str,
    *,
    params: dict[str, Any] | None = None,
    body: Any = None,
) -> Answer:
    """One request as `token`'s user through aiohttp, its answer read to the end."""
    async with client.request(
        method, url, params=params, json=body, headers=bearer(token)
    ) as response:
        return Answer(str(response.url), response.status, await response.read())


class PollConnection(asyncio.Protocol):
    """One follower's keep-alive connection: a GET at a time, its answer read whole.

    Opened again when the server closes it (its keep-alive timeout, say); a GET under
    way when it is lost fails with ConnectionError."""

    def __init__(self, base_url: str, token: str) -> None:
        address = urlsplit(base_url)
        self.host, self.port = address.hostname or "127.0.0.1", address.port or 80
        self._head = f"Host: {address.netloc}\r\nAuthorization: Bearer {token}\r\n\r\n"
        self._transport: asyncio.Transport | None = None
        self._parser = httptools.HttpResponseParser(self)
        self._body: list[bytes] = []
        self._answer: asyncio.Future[tuple[int, bytes]] | None = None

    async def get(self, path: str, params: dict[str, Any]) -> Answer:
        """The answer to `GET path?params`. No timeout of its own: a follower stuck on a
        server that never answers fails the phase's exactly-once check."""
        target = f"{path}?{urlencode(params)}"
        if self._transport is None or self._transport.is_closing():
            loop = asyncio.get_running_loop()
            await loop.create_connection(lambda: self, self.host, self.port)
        assert self._transport is not None
        self._answer = asyncio.get_running_loop().create_future()
        self._transport.write(f"GET {target} HTTP/1.1\r\n{self._head}".encode())
        status, body = await self._answer
        return Answer(target, status, body)

    def close(self) -> None:
        if self._transport is not None:
            self._transport.close()

    # asyncio.Protocol
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # A stream's transport (uvloop's are not asyncio.Transport's subclasses)
        self._transport = cast(asyncio.Transport, transport)
        self._parser = httptools.HttpResponseParser(self)

    def data_received(self, data: bytes) -> None:
        self._parser.feed_data(data)

    def connection_lost(self, error: Exception | None) -> None:
        self._transport = None
        if self._answer is not None and not self._answer.done():
            self._answer.set_exception(ConnectionError("the server closed the connection"))

    # httptools' callbacks
    def on_body(self, body: bytes) -> None:
        self._body.append(body)

    def on_message_complete(self) -> None:
        body, self._body = b"".join(self._body), []
        if self._answer is not None and not self._answer.done():
            self._answer.set_result((self._parser.get_status_code(), body))
