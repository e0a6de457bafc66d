"""docker-compose.yml cannot run here (no Docker engine); pin its shape instead."""

from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def services():
    return yaml.safe_load((REPO / "docker-compose.yml").read_text())["services"]


def command_of(service):
    command = service["command"]
    return command if isinstance(command, str) else " ".join(command)


def test_compose_declares_the_five_services(services):
    assert set(services) == {"postgres", "redis", "web", "worker", "scheduler"}


def test_every_service_has_a_healthcheck(services):
    for name, service in services.items():
        assert service["healthcheck"]["test"], name


def test_web_runs_the_asgi_app_under_gunicorn_after_migrating(services):
    command = command_of(services["web"])
    assert "migrate" in command
    assert "gunicorn -c python:belote_project.server belote_project.asgi:application" in command
    assert "/healthz" in " ".join(services["web"]["healthcheck"]["test"])


def test_worker_and_scheduler_run_celery(services):
    assert "celery -A belote_project worker" in command_of(services["worker"])
    assert "celery -A belote_project beat" in command_of(services["scheduler"])


def test_application_services_wait_for_healthy_dependencies(services):
    for name in ("web", "worker", "scheduler"):
        depends = services[name]["depends_on"]
        assert depends["postgres"]["condition"] == "service_healthy", name
        assert depends["redis"]["condition"] == "service_healthy", name


def test_application_services_run_in_production_mode(services):
    for name in ("web", "worker", "scheduler"):
        environment = services[name]["environment"]
        assert environment["DEBUG"] == "false", name
        assert environment["DATABASE_URL"].startswith("postgres://"), name
        assert environment["CELERY_BROKER_URL"].startswith("redis://"), name
        assert "SECRET_KEY" in environment, name


def test_the_image_is_built_from_the_dockerfile(services):
    dockerfile = (REPO / "Dockerfile").read_text()
    assert "pip install" in dockerfile
    assert "collectstatic" in dockerfile
    for name in ("web", "worker", "scheduler"):
        assert services[name]["build"] == "." or services[name].get("image") == "belote:latest"
