"""Django's stock browser middlewares (sessions, CSRF, the session user, messages) serve
the admin's pages and leave no trace on the API's answers."""

import pytest
from django.test import Client

from accounts.models import AccessToken
from accounts.services import access_token_issue


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


@pytest.mark.django_db
def test_an_admin_signs_in_with_the_csrf_token_and_keeps_the_session(admin_user):
    # admin_user's password is "password" (pytest-django's fixture).
    client = Client(enforce_csrf_checks=True)
    login_page = client.get("/admin/login/")
    token = login_page.cookies["csrftoken"].value

    signed_in = client.post(
        "/admin/login/?next=/admin/",
        {"username": admin_user.username, "password": "password", "csrfmiddlewaretoken": token},
    )
    index = client.get("/admin/")

    assert signed_in.status_code == 302
    assert signed_in["Location"] == "/admin/"
    assert "sessionid" in signed_in.cookies
    assert index.status_code == 200
    assert index.wsgi_request.user == admin_user


@pytest.mark.django_db
def test_the_admin_shows_the_messages_it_stores(admin_user):
    access_token_issue(user=admin_user)
    [token] = AccessToken.objects.filter(user=admin_user)
    client = Client()
    client.force_login(admin_user)

    # Deleting through the change list's action stores a message, shown on the next page.
    deleted = client.post(
        "/admin/accounts/accesstoken/",
        {"action": "delete_selected", "_selected_action": [token.pk], "post": "yes"},
        follow=True,
    )

    assert deleted.status_code == 200
    assert [str(message) for message in deleted.context["messages"]] == [
        "Successfully deleted 1 access token."
    ]
    assert not AccessToken.objects.filter(pk=token.pk).exists()


@pytest.mark.django_db
def test_api_requests_carry_no_session_and_no_session_user(api_client):
    response = api_client.get("/api/v1/me")

    assert response.status_code == 401
    assert not hasattr(response.wsgi_request, "session")


@pytest.mark.django_db
def test_answers_say_their_length_and_forbid_framing(api_client, admin_user):
    client = Client()
    client.force_login(admin_user)

    for response in (api_client.get("/api/v1/me"), client.get("/admin/"), client.get("/healthz")):
        assert response["Content-Length"] == str(len(response.content))
        assert response["X-Frame-Options"] == "DENY"
