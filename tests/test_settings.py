"""Settings come from the environment; each case imports them in a fresh interpreter."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
STRONG_KEY = "k3Jv9-QpX2mZ8rT1yW6uB4nE7cH0aL5sD-fG"
SHOW = """
import json
from django.conf import settings
print(json.dumps({
    "engine": settings.DATABASES["default"]["ENGINE"],
    "database": str(settings.DATABASES["default"]["NAME"]),
    "broker": settings.CELERY_BROKER_URL,
    "result_backend": settings.CELERY_RESULT_BACKEND,
    "cache": settings.CACHES["default"]["BACKEND"],
    "debug": settings.DEBUG,
    "renderers": settings.REST_FRAMEWORK["DEFAULT_RENDERER_CLASSES"],
    "hosts": settings.ALLOWED_HOSTS,
}))
"""


def load_settings(tmp_path, **environment):
    env = {
        key: value
        for key, value in os.environ.items()
        if key
        not in {
            "DATABASE_URL",
            "CELERY_BROKER_URL",
            "CELERY_RESULT_BACKEND",
            "REDIS_URL",
            "SECRET_KEY",
            "DEBUG",
            "ALLOWED_HOSTS",
        }
    }
    env |= {"DJANGO_SETTINGS_MODULE": "belote_project.settings", "BELOTE_VAR_DIR": str(tmp_path)}
    env |= environment
    return subprocess.run(
        [sys.executable, "-c", SHOW], cwd=REPO, env=env, capture_output=True, text=True, check=False
    )


def shown(result):
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_nothing_set_means_sqlite_and_a_sqlite_broker_under_var(tmp_path):
    values = shown(load_settings(tmp_path))

    assert values["engine"] == "django.db.backends.sqlite3"
    assert values["database"] == str(tmp_path / "belote.sqlite3")
    assert values["broker"] == f"sqla+sqlite:///{tmp_path / 'celery-broker.sqlite3'}"
    assert values["result_backend"] == f"file://{tmp_path / 'celery' / 'results'}"
    assert values["cache"].endswith("FileBasedCache")
    assert values["debug"] is True


def test_urls_select_postgresql_and_redis(tmp_path):
    values = shown(
        load_settings(
            tmp_path,
            DATABASE_URL="postgres://belote:pw@db:5432/belote",
            CELERY_BROKER_URL="redis://cache:6379/0",
        )
    )

    assert values["engine"] == "django.db.backends.postgresql"
    assert values["database"] == "belote"
    assert values["result_backend"] == "redis://cache:6379/0"
    assert values["cache"] == "django_redis.cache.RedisCache"


@pytest.mark.parametrize(
    "key",
    [
        None,
        "",
        "insecure-development-key-never-use-in-production",
        "django-insecure-abcdefghijklmnopqrstuvwxyz0123456789",
        "short",
    ],
)
def test_production_refuses_a_default_or_weak_secret_key(tmp_path, key):
    environment = {"DEBUG": "false"} | ({} if key is None else {"SECRET_KEY": key})

    result = load_settings(tmp_path, **environment)

    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert "SECRET_KEY" in result.stderr


def test_production_with_a_strong_key_serves_json_only(tmp_path):
    production = {"DEBUG": "false", "SECRET_KEY": STRONG_KEY, "ALLOWED_HOSTS": "belote.example"}

    values = shown(load_settings(tmp_path, **production))

    assert values["debug"] is False
    assert values["renderers"] == ["rest_framework.renderers.JSONRenderer"]
    assert values["hosts"] == ["belote.example"]


def test_a_malformed_boolean_is_refused(tmp_path):
    result = load_settings(tmp_path, DEBUG="maybe")

    assert result.returncode != 0
    assert "DEBUG='maybe' is not a boolean" in result.stderr
