"""Django's stock browser middlewares (sessions, CSRF, the session user, messages) serve
the admin's pages and leave no trace on the API's answers."""

import pytest
from django.test import Client


@pytest.mark.django_db
def test_an_admin_post_without_a_csrf_token_is_refused():
    response = Client(enforce_csrf_checks=True).post(
        "/admin/login/", {"username": "a", "password": "b"}
    )

    assert response.status_code == 403


@pytest.mark.django_db
def test_the_admin_login_page_still_sets_its_csrf_cookie(client):
    response = client.get("/admin/login/")

    assert response.status_code == 200
    assert "csrftoken" in response.cookies


@pytest.mark.django_db
def test_api_answers_set_no_cookie(api_client):
    unauthorised = api_client.get("/api/v1/me")
    registered = api_client.post(
        "/api/v1/auth/register",
        {"username": "cookieless", "password": "a-long-enough-password-1"},
        format="json",
    )

    for response in (unauthorised, registered):
        assert response.status_code in {201, 401}
        assert not response.cookies
        assert "Cookie" not in response.get("Vary", "")


@pytest.mark.django_db
def test_a_bearer_api_post_needs_no_csrf_token(api_client):
    api_client.handler.enforce_csrf_checks = True

    response = api_client.post(
        "/api/v1/auth/register",
        {"username": "nocsrf", "password": "a-long-enough-password-1"},
        format="json",
    )

    assert response.status_code == 201
