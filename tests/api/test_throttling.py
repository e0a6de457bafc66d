"""The throttles: login, registration and game actions refused with 429 and Retry-After."""

import threading
from types import SimpleNamespace

import pytest
from rest_framework.throttling import ScopedRateThrottle

from belote_project.throttling import ScopedRedisRateThrottle
from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

LOGIN_LIMIT = 10  # "login": "10/min" in settings


def login(client, username, password="wrong-password", address="10.0.0.1"):
    return client.post(
        "/api/v1/auth/token",
        {"username": username, "password": password},
        format="json",
        REMOTE_ADDR=address,
    )


def test_login_attempts_beyond_the_rate_are_429_with_retry_after(api_client, make_user):
    make_user(username="carol")
    for _ in range(LOGIN_LIMIT):
        assert login(api_client, "carol").status_code == 401

    response = login(api_client, "carol", password=PASSWORD)

    assert response.status_code == 429
    assert response["Content-Type"] == "application/problem+json"
    assert int(response["Retry-After"]) > 0
    body = response.json()
    assert body["code"] == "throttled"
    assert body["retry_after"] == int(response["Retry-After"])


def test_login_throttle_is_per_username_and_address(api_client, make_user):
    make_user(username="dave")
    for _ in range(LOGIN_LIMIT):
        login(api_client, "carol")

    assert login(api_client, "dave", password=PASSWORD).status_code == 200
    assert login(api_client, "carol", address="10.0.0.2").status_code == 401
    assert login(api_client, "CAROL").status_code == 429


def test_registration_is_throttled_per_address(api_client, settings):
    for number in range(20):  # "register": "20/hour"
        response = api_client.post(
            "/api/v1/auth/register",
            {"username": f"newcomer{number}", "password": PASSWORD},
            format="json",
        )
        assert response.status_code == 201

    response = api_client.post(
        "/api/v1/auth/register", {"username": "one_too_many", "password": PASSWORD}, format="json"
    )

    assert response.status_code == 429
    assert "Retry-After" in response


@pytest.mark.services
def test_the_action_throttle_counts_concurrent_requests_atomically(monkeypatch):
    # DRF's throttle reads the history, then writes it back: requests in flight at once
    # could each see room. The Lua script counts and records in one step.
    monkeypatch.setitem(ScopedRateThrottle.THROTTLE_RATES, "game_actions", "25/min")
    view = SimpleNamespace(throttle_scope="game_actions")
    caller = SimpleNamespace(user=SimpleNamespace(is_authenticated=True, pk=4242))
    start, allowed = threading.Barrier(8), []

    def hammer():
        start.wait()
        allowed.extend(ScopedRedisRateThrottle().allow_request(caller, view) for _ in range(10))

    threads = [threading.Thread(target=hammer) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert allowed.count(True) == 25
    assert allowed.count(False) == 55
