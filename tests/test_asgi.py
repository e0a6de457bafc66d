"""The ASGI application production serves (docs/deploy.md), exercised through httpx."""

import asyncio
import threading

import httpx
import pytest
from django.conf import settings
from django.core import signals
from django.http import HttpResponse
from django.utils.module_loading import import_string

from belote_project.asgi import application
from belote_project.sync_stack import RequestThreads, SyncStackASGIHandler
from games.feed.asgi import SharedThreadASGIHandler


def get(path):
    async def fetch():
        transport = httpx.ASGITransport(app=application)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            return await client.get(path)

    return asyncio.run(fetch())


def test_every_middleware_runs_natively_under_asgi():
    # One sync-only middleware would make each waiting async view hold a thread.
    for path in settings.MIDDLEWARE:
        assert getattr(import_string(path), "async_capable", False), path


@pytest.mark.django_db(transaction=True)
def test_health_answers_through_the_asgi_application():
    response = get("/healthz")

    assert response.status_code == 200
    assert response.json()["status"] == "ok"


@pytest.mark.parametrize("path", ["/nowhere", "/static/no-such-file.css"])
def test_unknown_paths_and_static_files_are_404_problems(path):
    response = get(path)

    assert response.status_code == 404
    assert response.headers["content-type"] == "application/problem+json"
    assert response.json()["code"] == "not_found"


@pytest.mark.django_db(transaction=True)
def test_the_feed_is_wired_through_its_shared_thread_handler(monkeypatch):
    served = []
    handle = SharedThreadASGIHandler.__call__

    async def spy(self, scope, receive, send):
        served.append(scope["path"])
        await handle(self, scope, receive, send)

    monkeypatch.setattr(SharedThreadASGIHandler, "__call__", spy)
    path = "/api/v1/games/8d7cf2a0-3f55-4f1e-9d8a-0a6f1b2c3d4e/events"

    response = get(path)

    assert served == [path]
    assert response.status_code == 401
    assert response.headers["content-type"] == "application/problem+json"


def _threads_of(paths, *, concurrently):
    """The thread each request's sync code ran on (the request_started signal's)."""
    seen = []

    def note(**kwargs):
        seen.append(threading.get_ident())

    async def fetch_all():
        transport = httpx.ASGITransport(app=application)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            if concurrently:
                await asyncio.gather(*(client.get(path) for path in paths))
            else:
                for path in paths:
                    await client.get(path)

    signals.request_started.connect(note)
    try:
        asyncio.run(fetch_all())
    finally:
        signals.request_started.disconnect(note)
    return seen


@pytest.mark.django_db(transaction=True)
def test_requests_one_after_another_reuse_one_thread():
    threads = _threads_of(["/healthz"] * 3, concurrently=False)

    assert len(threads) == 3
    assert len(set(threads)) == 1
    assert threading.get_ident() not in threads


def test_requests_at_once_each_get_a_thread_of_their_own(monkeypatch):
    # Each view blocks until all of them are in: only possible on separate threads.
    count = 3
    barrier = threading.Barrier(count, timeout=10)
    idents = []

    def view(request):
        idents.append(threading.get_ident())
        barrier.wait()
        return HttpResponse("ok")

    monkeypatch.setattr(SyncStackASGIHandler, "get_response", lambda self, request: view(request))
    _threads_of(["/nowhere"] * count, concurrently=True)

    assert len(set(idents)) == count


def test_request_threads_are_lent_one_request_at_a_time_and_kept():
    threads = RequestThreads(keep=1)
    first, second = threads.take(), threads.take()

    assert first is not second
    threads.give_back(first)
    threads.give_back(second)  # above `keep`: shut down, not kept
    assert threads.idle == 1
    assert threads.take() is first
    with pytest.raises(RuntimeError):
        second.submit(int)
