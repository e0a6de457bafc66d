import pytest
from django.db import OperationalError, connection

from belote_project.celery import app as celery_app

pytestmark = pytest.mark.django_db


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


def test_health_is_503_problem_when_the_broker_is_unreachable(api_client, unreachable_broker):
    response = api_client.get("/healthz")

    assert response.status_code == 503
    assert response["Content-Type"] == "application/problem+json"
    body = response.json()
    assert body["code"] == "dependency_unreachable"
    assert body["checks"]["database"] == "ok"
    assert body["checks"]["broker"] != "ok"


def test_health_is_503_problem_when_the_database_fails(api_client, monkeypatch):
    def refuse():
        raise OperationalError("connection refused")

    monkeypatch.setattr(connection, "cursor", refuse)

    response = api_client.get("/healthz")

    assert response.status_code == 503
    assert response.json()["checks"]["database"] == "OperationalError: connection refused"
