"""The health check: 200 or 503, and why a check failed told only to staff."""

import logging

import pytest
from django.db import OperationalError, connection

from belote_project.celery import app as celery_app

pytestmark = pytest.mark.django_db

# What a failing check's exception says: none of it is for anonymous callers.
INTERNALS = ("127.0.0.1", ":9", "10.20.30.40", "5432", "belote_secret_db", "Error", "refused")


def test_health_is_200_when_database_and_broker_answer(api_client):
    response = api_client.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {"status": "ok", "checks": {"database": "ok", "broker": "ok"}}


@pytest.fixture
def unreachable_broker(monkeypatch):
    """Nothing listens on port 9: the health check opens a real connection and fails."""
    connect = celery_app.connection_for_write
    monkeypatch.setattr(
        celery_app, "connection_for_write", lambda: connect("redis://127.0.0.1:9/0")
    )


def fail_the_database(monkeypatch):
    def refuse():
        raise OperationalError(
            'connection to server at "10.20.30.40", port 5432 failed: '
            'database "belote_secret_db" refused'
        )

    monkeypatch.setattr(connection, "cursor", refuse)


@pytest.fixture
def staff(make_user):
    user = make_user()
    user.is_staff = True
    user.save()
    return user


def assert_names_only(response, checks):
    assert response.status_code == 503
    assert response["Content-Type"] == "application/problem+json"
    body = response.json()
    assert body["code"] == "dependency_unreachable"
    assert body["checks"] == checks
    assert "details" not in body
    for internal in INTERNALS:
        assert internal not in response.content.decode()


def test_an_anonymous_caller_learns_only_that_the_broker_failed(api_client, unreachable_broker):
    response = api_client.get("/healthz")

    assert_names_only(response, {"database": "ok", "broker": "error"})


def test_an_anonymous_caller_learns_only_that_the_database_failed(api_client, monkeypatch, caplog):
    fail_the_database(monkeypatch)
    with caplog.at_level(logging.ERROR, logger="belote_project.health"):
        response = api_client.get("/healthz")

    assert_names_only(response, {"database": "error", "broker": "ok"})
    assert [r.getMessage() for r in caplog.records if r.name == "belote_project.health"] == [
        'health check database failed: OperationalError: connection to server at "10.20.30.40",'
        ' port 5432 failed: database "belote_secret_db" refused'
    ]


def test_a_signed_in_player_who_is_not_staff_gets_no_details(auth_client, unreachable_broker):
    assert_names_only(auth_client().get("/healthz"), {"database": "ok", "broker": "error"})


def test_an_invalid_token_is_anonymous_not_a_401(api_client, unreachable_broker):
    api_client.credentials(HTTP_AUTHORIZATION="Bearer blt_not-a-token")

    assert_names_only(api_client.get("/healthz"), {"database": "ok", "broker": "error"})


def test_with_the_database_down_a_staff_token_cannot_be_checked_and_gets_no_details(
    auth_client, staff, monkeypatch
):
    client = auth_client(staff)
    fail_the_database(monkeypatch)

    assert_names_only(client.get("/healthz"), {"database": "error", "broker": "ok"})


def _assert_broker_details(response):
    assert response.status_code == 503
    body = response.json()
    assert body["checks"] == {"database": "ok", "broker": "error"}
    assert list(body["details"]) == ["broker"]
    assert "127.0.0.1:9" in body["details"]["broker"]


def test_staff_with_a_bearer_token_get_the_details(auth_client, staff, unreachable_broker):
    _assert_broker_details(auth_client(staff).get("/healthz"))


def test_staff_signed_in_to_the_admin_get_the_details(api_client, staff, unreachable_broker):
    api_client.force_login(staff)

    _assert_broker_details(api_client.get("/healthz"))
