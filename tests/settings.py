"""Settings for the test suite: the service's own settings, production-like (DEBUG off),
pointed at PostgreSQL and Redis when they answer.

Explicit DATABASE_URL / CELERY_BROKER_URL / REDIS_URL win. Otherwise PostgreSQL at
TEST_DATABASE_URL and Redis at TEST_REDIS_URL (local defaults below) are probed; a
service that does not answer is replaced by the embedded default (SQLite, and a SQLite
broker) and named in ``TEST_SERVICES_MISSING``, which tests/conftest.py reports loudly
(and turns into an error under CI=true).
"""

import os
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
import redis

# Several runs may share a machine (and its PostgreSQL and Redis): every name a run
# creates carries the run's id and its xdist worker.
_RUN = os.environ.get("PYTEST_XDIST_TESTRUNUID", "")[:8] or f"p{os.getpid()}"
_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "main")
TEST_RUN_NAME = f"{_RUN}_{_WORKER}"
_POSTGRES_URL = os.environ.get("TEST_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/belote")
_REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379")
# Redis databases of their own, so tests never touch a running service's data.
_BROKER_DB, _CACHE_DB = 14, 15


def _one_line(error: Exception) -> str:
    return " ".join(str(error).split())


def _postgres_error(url: str) -> str | None:
    parts = urlsplit(url)
    try:
        psycopg.connect(
            host=parts.hostname,
            port=parts.port or 5432,
            user=parts.username,
            password=parts.password,
            dbname="postgres",
            connect_timeout=3,
        ).close()
    except psycopg.Error as error:
        return f"PostgreSQL at {parts.hostname}:{parts.port or 5432}: {_one_line(error)}"
    return None


def _redis_error(url: str) -> str | None:
    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except redis.RedisError as error:
        return f"Redis at {url}: {_one_line(error)}"
    return None


def _choose_services() -> list[str]:
    """Point the environment at reachable services; return what is missing and why."""
    missing = []
    if "DATABASE_URL" not in os.environ:
        problem = _postgres_error(_POSTGRES_URL)
        if problem is None:
            os.environ["DATABASE_URL"] = _POSTGRES_URL
        else:
            missing.append(problem)
    if "CELERY_BROKER_URL" not in os.environ:
        problem = _redis_error(_REDIS_URL)
        if problem is None:
            os.environ["CELERY_BROKER_URL"] = f"{_REDIS_URL}/{_BROKER_DB}"
            os.environ.setdefault("REDIS_URL", f"{_REDIS_URL}/{_CACHE_DB}")
        else:
            missing.append(problem)
    return missing


_probe_problems = _choose_services()
os.environ["DEBUG"] = "false"
os.environ.setdefault("SECRET_KEY", "test-only-secret-key-" + "x1y2z3w4v5u6t7s8r9q0" * 2)
_REPO = Path(__file__).resolve().parent.parent
os.environ.setdefault("BELOTE_VAR_DIR", str(_REPO / "var" / "test" / TEST_RUN_NAME))

from belote_project.settings import *  # noqa: E402, F403
from belote_project.settings import CELERY_BROKER_URL, DATABASES  # noqa: E402

_uses_postgres = DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
_uses_redis = CELERY_BROKER_URL.startswith(("redis://", "rediss://"))


def _why_missing(service: str, fallback: str) -> str:
    return next((p for p in _probe_problems if p.startswith(service)), fallback)


TEST_SERVICES_MISSING: list[str] = []
if not _uses_postgres:
    TEST_SERVICES_MISSING.append(
        _why_missing("PostgreSQL", "PostgreSQL: not used, DATABASE_URL names another database")
    )
if not _uses_redis:
    TEST_SERVICES_MISSING.append(
        _why_missing("Redis", "Redis: not used, CELERY_BROKER_URL names another broker")
    )
if _uses_postgres:
    # pytest-django appends the xdist worker to this name itself.
    DATABASES["default"]["TEST"] = {"NAME": f"test_belote_{_RUN}"}
else:
    # A file, not memory, so that a worker subprocess sees what a test committed.
    _test_db = Path(os.environ["BELOTE_VAR_DIR"]) / "test.sqlite3"
    DATABASES["default"]["TEST"] = {"NAME": str(_test_db)}

# Each xdist worker consumes its own queue, so a worker started by one test process never
# takes another's tasks.
CELERY_TASK_DEFAULT_QUEUE = f"belote-test-{TEST_RUN_NAME}"
# Hashing cost is not what these tests measure.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
