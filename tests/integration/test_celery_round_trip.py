"""A task goes through the real broker to a real `celery worker` process and back.

The worker runs the production settings module against this test run's database,
broker and queue, so the round trip proves the command line, the broker, the result
backend and the worker's database access together.
"""

import os
import signal
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any
from urllib.parse import quote

import pytest
from django.conf import settings
from django.db import connection

from belote_project.models import WorkerHeartbeat
from belote_project.tasks import ping
from bench.load_server import worker_command

REPO = Path(__file__).resolve().parents[2]
# One process, no chatter with other workers (the tests' workers only ever talk to this
# run's queue).
WORKER_OPTIONS = ("--pool", "solo", "--without-gossip", "--without-mingle")
ROUND_TRIP_SECONDS = 60


def database_url() -> str:
    """The URL of the database this test is using (the test database, not the real one)."""
    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    password = f":{quote(db['PASSWORD'], safe='')}" if db["PASSWORD"] else ""
    return f"postgres://{db['USER']}{password}@{db['HOST']}:{db['PORT'] or 5432}/{db['NAME']}"


def worker_environment(**overrides: str) -> dict[str, str]:
    """The environment of a worker on this test run's database, broker and queue."""
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="belote_project.settings",
        DEBUG="false",
        SECRET_KEY=settings.SECRET_KEY,
        DATABASE_URL=database_url(),
        CELERY_BROKER_URL=settings.CELERY_BROKER_URL,
        CELERY_RESULT_BACKEND=settings.CELERY_RESULT_BACKEND,
        CELERY_TASK_DEFAULT_QUEUE=settings.CELERY_TASK_DEFAULT_QUEUE,
        BELOTE_VAR_DIR=str(settings.VAR_DIR),
    )
    env.update(overrides)
    return env


def start_worker(*options: str, log: IO[str], **popen: Any) -> subprocess.Popen[str]:
    """A `celery worker` process on this run's queue (`popen`: more Popen arguments,
    `env` included), writing its output to `log`: a file, never a pipe, which a worker
    that logs more than the pipe holds (~64 KiB) would block on, silently."""
    queue = ("--queues", settings.CELERY_TASK_DEFAULT_QUEUE)
    command = worker_command(
        f"roundtrip-{uuid.uuid4().hex[:8]}@%h", *WORKER_OPTIONS, *queue, *options
    )
    popen.setdefault("env", worker_environment())
    return subprocess.Popen(
        command, cwd=REPO, stdout=log, stderr=subprocess.STDOUT, text=True, **popen
    )


def print_log(log: IO[str]) -> None:
    """The worker's output, shown by pytest when the test fails."""
    log.seek(0)
    print(log.read())


@contextmanager
def running_worker(*options: str) -> Iterator[subprocess.Popen[str]]:
    """A `celery worker` process on this test run's database, broker and queue."""
    with tempfile.TemporaryFile("w+") as log:
        worker = start_worker(*options, log=log)
        try:
            yield worker
        finally:
            worker.send_signal(signal.SIGTERM)
            try:
                worker.wait(timeout=30)
            except subprocess.TimeoutExpired:
                worker.kill()
                worker.wait()
            print_log(log)


@pytest.fixture
def worker_process():
    with running_worker() as worker:
        yield worker


@pytest.fixture
def beat_worker_process(tmp_path):
    """A worker with the beat scheduler embedded, as `./scripts/run` starts it."""
    with running_worker("--beat", "--schedule-filename", str(tmp_path / "beat")) as worker:
        yield worker


@pytest.mark.django_db(transaction=True)
def test_ping_task_round_trips_through_a_worker_process(worker_process):
    token = uuid.uuid4().hex

    outcome = ping.delay(token).get(timeout=ROUND_TRIP_SECONDS)

    heartbeat = WorkerHeartbeat.objects.get(token=token)
    assert outcome == {"token": token, "worker": heartbeat.worker}
    assert worker_process.poll() is None


@pytest.mark.services
def test_suite_runs_against_postgresql_and_redis():
    assert connection.vendor == "postgresql"
    assert settings.CELERY_BROKER_URL.startswith("redis://")
    assert settings.CACHES["default"]["BACKEND"].endswith("RedisCache")
