"""The ASGI application production serves (docs/deploy.md), exercised through httpx."""

import asyncio

import httpx
import pytest
from django.conf import settings
from django.utils.module_loading import import_string

from belote_project.asgi import application
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
