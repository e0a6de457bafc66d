"""Registration, sign-in, sign-out and bearer tokens: what authenticates and what is 401."""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import AccessToken
from accounts.selectors import (
    TokenHolder,
    access_token_alive,
    access_token_find,
    access_token_holders,
    access_tokens_alive,
)
from accounts.services import access_token_issue
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

PROBLEM = "application/problem+json"


def register(client, username="alice", password=PASSWORD):
    return client.post(
        "/api/v1/auth/register", {"username": username, "password": password}, format="json"
    )


def test_register_answers_a_token_that_authenticates(api_client):
    response = register(api_client)

    assert response.status_code == 201
    token = response.json()["token"]
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    me = api_client.get("/api/v1/me")
    assert me.status_code == 200
    assert me.json()["username"] == "alice"


def test_token_is_stored_only_as_its_digest(api_client):
    token = register(api_client).json()["token"]

    stored = AccessToken.objects.get()
    assert token not in stored.digest
    assert len(stored.digest) == 64


def test_register_rejects_a_common_password_with_field_errors(api_client):
    response = register(api_client, password="password")

    assert response.status_code == 400
    assert response["Content-Type"] == PROBLEM
    body = response.json()
    assert body["code"] == "validation_failed"
    codes = {(error["field"], error["code"]) for error in body["errors"]}
    assert ("password", "password_too_common") in codes


def test_register_rejects_a_taken_username_whatever_its_case(api_client, make_user):
    make_user(username="Alice")

    response = register(api_client, username="alice")

    assert response.status_code == 400
    assert response.json()["errors"] == [
        {"field": "username", "code": "username_taken", "message": "This username is taken."}
    ]


def test_login_answers_a_new_token(api_client, make_user):
    make_user(username="bob")

    response = api_client.post(
        "/api/v1/auth/token", {"username": "bob", "password": PASSWORD}, format="json"
    )

    assert response.status_code == 200
    assert response.json()["token"].startswith("blt_")


def test_login_with_a_wrong_password_is_401_invalid_credentials(api_client, make_user):
    make_user(username="bob")

    response = api_client.post(
        "/api/v1/auth/token", {"username": "bob", "password": "nope"}, format="json"
    )

    assert response.status_code == 401
    assert response.json()["code"] == "invalid_credentials"
    assert response["WWW-Authenticate"].startswith("Bearer")


def test_me_without_a_token_is_401_not_authenticated(api_client):
    response = api_client.get("/api/v1/me")

    assert response.status_code == 401
    assert response["Content-Type"] == PROBLEM
    assert response.json()["code"] == "not_authenticated"
    assert response["WWW-Authenticate"].startswith("Bearer")


def test_me_with_an_unknown_token_is_401_invalid_token(api_client):
    api_client.credentials(HTTP_AUTHORIZATION="Bearer blt_not-a-real-token")

    response = api_client.get("/api/v1/me")

    assert response.status_code == 401
    assert response.json()["code"] == "invalid_token"


def test_logout_revokes_the_token(auth_client):
    client = auth_client()

    assert client.post("/api/v1/auth/logout").status_code == 204
    response = client.get("/api/v1/me")

    assert response.status_code == 401
    assert response.json()["code"] == "invalid_token"


def test_logout_keeps_the_users_other_tokens(auth_client, user):
    phone, tablet = auth_client(user), auth_client(user)

    phone.post("/api/v1/auth/logout")

    assert tablet.get("/api/v1/me").status_code == 200


def test_an_expired_token_is_401_invalid_token(auth_client, user):
    client = auth_client(user)
    AccessToken.objects.filter(user=user).update(expires_at=timezone.now() - timedelta(seconds=1))

    response = client.get("/api/v1/me")

    assert response.status_code == 401
    assert response.json()["code"] == "invalid_token"


def test_a_deactivated_users_token_stops_working(auth_client, user):
    client = auth_client(user)
    user.is_active = False
    user.save()

    assert client.get("/api/v1/me").status_code == 401


def test_login_ignores_the_case_of_the_username(api_client, make_user):
    make_user(username="Erin")

    response = api_client.post(
        "/api/v1/auth/token", {"username": "erin", "password": PASSWORD}, format="json"
    )

    assert response.status_code == 200


def test_a_token_stays_alive_until_logout_expiry_or_deactivation(make_user):
    users = [make_user(username=name) for name in ("ann", "bob", "cat", "dan")]
    for user in users:
        access_token_issue(user=user)
    tokens = [AccessToken.objects.get(user=user) for user in users]
    ids = [token.pk for token in tokens]
    assert all(access_token_alive(token_id=token_id) for token_id in ids)

    tokens[1].delete()
    AccessToken.objects.filter(pk=tokens[2].pk).update(expires_at=timezone.now())
    users[3].is_active = False
    users[3].save()

    assert [access_token_alive(token_id=token_id) for token_id in ids] == [
        True,
        False,
        False,
        False,
    ]
    # Many at once, in one statement, as the feed's rechecks ask (games/feed/tokens.py).
    assert access_tokens_alive(token_ids=ids) == {ids[0]}
    assert access_tokens_alive(token_ids=[]) == set()


def test_many_presented_tokens_are_looked_up_by_one_rule_and_statement(make_user):
    users = [make_user(username=name) for name in ("eve", "fay", "gus", "hal")]
    presented = [access_token_issue(user=user) for user in users]
    records = [AccessToken.objects.get(user=user) for user in users]
    records[1].delete()
    AccessToken.objects.filter(pk=records[2].pk).update(expires_at=timezone.now())
    users[3].is_active = False
    users[3].save()

    holders = access_token_holders(tokens=[*presented, "blt_never-issued", presented[0]])

    # The feed's hot path asks this for polls that come together (games/feed/tokens.py):
    # what access_token_find would authenticate, and only that.
    assert holders == {presented[0]: TokenHolder(token_id=records[0].pk, user_id=users[0].pk)}
    assert access_token_find(token=presented[0]).pk == records[0].pk
    assert all(access_token_find(token=token) is None for token in presented[1:])
    assert access_token_holders(tokens=[]) == {}
