"""Global fixtures and the services policy of the suite.

Fixtures: ``api_client`` (anonymous), ``make_user(username=None, password=PASSWORD)``,
``user``, ``auth_client(user=None)`` (an APIClient sending that user's bearer token).

Services: tests marked ``@pytest.mark.services`` need PostgreSQL and Redis. When
tests/settings.py could not reach them those tests are skipped and the run says so
loudly; under CI=true a missing service is an error and so is any skipped test.
"""

import copy
import itertools
import os
import shutil
import uuid
from collections.abc import Callable, Iterator

import pytest
from django.conf import settings as django_settings
from django.db import connection
from rest_framework.test import APIClient

from accounts.models import User
from accounts.services import access_token_issue

PASSWORD = "a-long-enough-test-password"
_IN_CI = os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}
_user_numbers = itertools.count(1)


def _missing_services() -> list[str]:
    return list(getattr(django_settings, "TEST_SERVICES_MISSING", []))


def _banner(lines: list[str]) -> str:
    rule = "!" * 78
    return "\n".join([rule, *(f"!! {line}" for line in lines), rule])


def pytest_configure(config: pytest.Config) -> None:
    missing = _missing_services()
    if _IN_CI and missing:
        raise pytest.UsageError("\n" + _banner(["CI=true but services are unreachable:", *missing]))


def pytest_report_header(config: pytest.Config) -> list[str]:
    database = django_settings.DATABASES["default"]
    return [
        f"belote: database {database['ENGINE'].rsplit('.', 1)[-1]} {database['NAME']}",
        f"belote: broker {django_settings.CELERY_BROKER_URL.split('://')[0]}",
    ]


def pytest_sessionstart(session: pytest.Session) -> None:
    # The report header is hidden by -q; this banner is not. Workers' output is not shown.
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    missing = _missing_services()
    if missing and reporter and not hasattr(session.config, "workerinput"):
        warning = "SERVICES MISSING: tests marked 'services' WILL BE SKIPPED"
        reporter.write_line(_banner([warning, *missing]), red=True, bold=True)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    missing = _missing_services()
    if not missing:
        return
    skip = pytest.mark.skip(reason="SERVICES MISSING: " + "; ".join(missing))
    for item in items:
        if item.get_closest_marker("services"):
            item.add_marker(skip)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    missing = _missing_services()
    skipped = len(terminalreporter.stats.get("skipped", []))
    if missing:
        terminalreporter.write_line(
            _banner(
                [
                    f"SERVICES MISSING; {skipped} test(s) skipped. Not a full run.",
                    *missing,
                    "Start PostgreSQL and Redis (see README) for the whole suite.",
                ]
            ),
            red=True,
            bold=True,
        )


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    # The run's own scratch directory (tests/settings.py names it after the run).
    scratch = django_settings.VAR_DIR
    if scratch.parent.name == "test" and scratch.name == django_settings.TEST_RUN_NAME:
        shutil.rmtree(scratch, ignore_errors=True)
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = len(reporter.stats.get("skipped", [])) if reporter else 0
    if _IN_CI and skipped and exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
        if reporter:
            reporter.write_line(_banner([f"CI=true: {skipped} skipped test(s) fail the run."]))


@pytest.fixture(autouse=True)
def _fresh_cache_namespace(settings: object) -> None:
    """Throttle counters (and any cache entry) start empty for every test.

    A new key prefix rather than cache.clear(): clearing would wipe the entries of
    tests running at the same time in other xdist workers.
    """
    caches = copy.deepcopy(django_settings.CACHES)
    caches["default"]["KEY_PREFIX"] = f"test-{uuid.uuid4().hex}"
    settings.CACHES = caches  # type: ignore[attr-defined]


@pytest.fixture(autouse=True)
def _flush_may_truncate_events(request: pytest.FixtureRequest) -> Iterator[None]:
    """A transactional test ends with Django's flush (TRUNCATE of every table), which the
    append-only events table refuses unless the session sets ``belote.allow_truncate``
    (games/migrations/0002). Set up after the database fixtures, so this runs first."""
    yield
    marker = request.node.get_closest_marker("django_db")
    flushes = "transactional_db" in request.fixturenames or bool(
        marker and marker.kwargs.get("transaction")
    )
    if flushes and connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET belote.allow_truncate = 'on'")


@pytest.fixture
def api_client() -> APIClient:
    return APIClient()


@pytest.fixture
def make_user(db: None) -> Callable[..., User]:
    def make(username: str | None = None, password: str = PASSWORD) -> User:
        name = username or f"player{next(_user_numbers)}_{uuid.uuid4().hex[:6]}"
        return User.objects.create_user(username=name, password=password)

    return make


@pytest.fixture
def user(make_user: Callable[..., User]) -> User:
    return make_user()


@pytest.fixture
def auth_client(make_user: Callable[..., User]) -> Callable[..., APIClient]:
    def authenticated(user: User | None = None) -> APIClient:
        client = APIClient()
        token = access_token_issue(user=user or make_user())
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
        return client

    return authenticated
