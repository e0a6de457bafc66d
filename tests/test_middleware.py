"""Django's browser middlewares (sessions, CSRF, the session user, messages) run for the
admin's pages and step aside on the API's paths (belote_project/middleware.py)."""

import asyncio

import pytest
from django.http import HttpRequest, HttpResponse
from django.test import Client, RequestFactory

from belote_project.middleware import (
    AuthenticationMiddleware,
    MessageMiddleware,
    SessionMiddleware,
)

BROWSER_ONLY = (SessionMiddleware, AuthenticationMiddleware, MessageMiddleware)


def _chain(request: HttpRequest) -> HttpRequest:
    """Session, user and messages middlewares around a view; the request the view saw."""
    seen: list[HttpRequest] = []

    def view(request: HttpRequest) -> HttpResponse:
        seen.append(request)
        return HttpResponse("ok")

    handler = view
    for middleware in reversed(BROWSER_ONLY):
        handler = middleware(handler)
    handler(request)
    return seen[0]


def test_an_api_request_gets_no_session_user_or_messages():
    seen = _chain(RequestFactory().get("/api/v1/me", HTTP_COOKIE="sessionid=abc"))

    assert not hasattr(seen, "session")
    assert not hasattr(seen, "user")
    assert not hasattr(seen, "_messages")


@pytest.mark.django_db
def test_an_admin_request_gets_session_user_and_messages():
    seen = _chain(RequestFactory().get("/admin/", HTTP_COOKIE="sessionid=abc"))

    assert seen.session.session_key is None  # an unknown cookie: a fresh session
    assert not seen.user.is_authenticated
    assert hasattr(seen, "_messages")


@pytest.mark.django_db
def test_an_admin_post_without_a_csrf_token_is_refused():
    response = Client(enforce_csrf_checks=True).post(
        "/admin/login/", {"username": "a", "password": "b"}
    )

    assert response.status_code == 403


def test_in_async_mode_an_api_request_skips_the_session_too():
    seen: list[HttpRequest] = []

    async def view(request: HttpRequest) -> HttpResponse:
        seen.append(request)
        return HttpResponse("ok")

    response = asyncio.run(SessionMiddleware(view)(RequestFactory().get("/api/v1/x")))

    assert response.status_code == 200
    assert not hasattr(seen[0], "session")


@pytest.mark.django_db
def test_the_admin_login_page_still_sets_its_csrf_cookie(client):
    response = client.get("/admin/login/")

    assert response.status_code == 200
    assert "csrftoken" in response.cookies


def test_api_answers_set_no_cookie(api_client):
    response = api_client.get("/api/v1/me")

    assert response.status_code == 401
    assert not response.cookies
    assert "Cookie" not in response.get("Vary", "")
