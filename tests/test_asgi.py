"""The ASGI application production serves (docs/deploy.md), driven as a server drives it."""

import asyncio
import json
import threading

import httpx
import pytest
from django.conf import settings
from django.core import signals
from django.utils.module_loading import import_string

from belote_project.asgi import application
from bench.asgi_scope import http_scope
from games.api.asgi import FEED_THREADS

FEED = "/api/v1/games/8d7cf2a0-3f55-4f1e-9d8a-0a6f1b2c3d4e/events"
REGISTER = "/api/v1/auth/register"


def get_all(*paths):
    async def fetch():
        transport = httpx.ASGITransport(app=application)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            return [await client.get(path) for path in paths]

    return asyncio.run(fetch())


def test_every_middleware_runs_natively_under_asgi():
    # One sync-only middleware would make each waiting async view (the feed) hold a thread.
    for path in settings.MIDDLEWARE:
        assert getattr(import_string(path), "async_capable", False), path


@pytest.mark.django_db(transaction=True)
def test_health_answers_through_the_asgi_application():
    [response] = get_all("/healthz")

    assert response.status_code == 200
    assert response.json()["status"] == "ok"


@pytest.mark.parametrize("path", ["/nowhere", "/static/no-such-file.css"])
def test_unknown_paths_and_static_files_are_404_problems(path):
    [response] = get_all(path)

    assert response.status_code == 404
    assert response.headers["content-type"] == "application/problem+json"
    assert response.json()["code"] == "not_found"


def _threads_serving(*paths):
    """The name of the thread each request's sync code started on (request_started)."""
    names = []

    def note(**kwargs):
        names.append(threading.current_thread().name)

    signals.request_started.connect(note)
    try:
        responses = get_all(*paths)
    finally:
        signals.request_started.disconnect(note)
    return names, responses


@pytest.mark.django_db(transaction=True)
def test_the_feed_runs_on_its_few_shared_threads_and_the_rest_on_the_wsgi_pool():
    feeds = 2 * FEED_THREADS
    names, responses = _threads_serving(*[FEED] * feeds, "/healthz")

    *feed_threads, health = names
    assert all(name.startswith("feed") for name in feed_threads)
    assert len(set(feed_threads)) == FEED_THREADS  # no thread of its own per feed request
    assert health.startswith("WSGI")  # a2wsgi's pool: Django's stock WSGI handler
    assert [response.status_code for response in responses] == [401] * feeds + [200]
    assert responses[0].headers["content-type"] == "application/problem+json"


# --- the body limit, before the body is read ------------------------------------------
class Client:
    """One request driven into the application as a server would, counting the body
    bytes the application took."""

    def __init__(self, *, headers, chunks, chunk_size=64 * 1024):
        self.headers = [(b"host", b"testserver"), *headers]
        self.chunks = chunks
        self.chunk_size = chunk_size
        self.consumed = 0
        self.messages = []

    async def receive(self):
        if self.chunks == 0:
            await asyncio.Event().wait()  # the client never sends more, nor leaves
        self.chunks -= 1
        self.consumed += self.chunk_size
        return {"type": "http.request", "body": b"x" * self.chunk_size, "more_body": True}

    async def send(self, message):
        self.messages.append(message)

    def post(self, path):
        scope = http_scope("POST", path, self.headers)
        asyncio.run(asyncio.wait_for(application(scope, self.receive, self.send), 30))
        start, *bodies = self.messages
        return (
            start["status"],
            dict(start["headers"]),
            json.loads(b"".join(m["body"] for m in bodies)),
        )


def test_a_content_length_over_the_limit_is_413_before_a_byte_is_read():
    client = Client(headers=[(b"content-length", str(40 * 2**20).encode())], chunks=640)

    status, headers, body = client.post(REGISTER)

    assert client.consumed == 0
    assert status == 413
    assert headers[b"content-type"] == b"application/problem+json"
    assert headers[b"connection"] == b"close"
    assert body["code"] == "request_too_large"
    assert body["instance"] == REGISTER


def test_a_chunked_body_is_read_only_up_to_the_limit_then_refused():
    # 150 MiB offered, never ended: the answer comes once the limit is passed.
    client = Client(headers=[(b"transfer-encoding", b"chunked")], chunks=2400)

    status, _, body = client.post(REGISTER)

    assert status == 413
    assert body["code"] == "request_too_large"
    assert client.consumed <= settings.MAX_REQUEST_BODY_BYTES + client.chunk_size
    assert client.chunks == 2400 - client.consumed // client.chunk_size


@pytest.mark.parametrize("length", ["lots", "-1", "1" * 5000])
def test_an_unreadable_or_absurd_content_length_is_refused_unread(length):
    client = Client(headers=[(b"content-length", length.encode())], chunks=1)

    status, _, body = client.post(REGISTER)

    assert client.consumed == 0
    assert (status, body["code"]) in {(400, "malformed_request"), (413, "request_too_large")}


@pytest.mark.django_db(transaction=True)
def test_a_chunked_body_under_the_limit_reaches_the_view_whole():
    async def register():
        transport = httpx.ASGITransport(app=application)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:

            async def chunks():
                yield b'{"username": "chunky", '
                yield b'"password": "a-long-enough-password-1"}'

            return await client.post(
                REGISTER, content=chunks(), headers={"Content-Type": "application/json"}
            )

    response = asyncio.run(register())

    assert response.status_code == 201, response.text
    assert "token" in response.json()
