"""The embedded default's broker (kombu's SQLAlchemy transport on SQLite) with a real worker.

The suite itself uses Redis; these tests start processes with nothing configured, as
`./scripts/run` does on a machine with nothing installed.
"""

import sqlite3
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.embedded_bench import embedded_environment, migrate
from bench.load_server import worker_command

REPO = Path(__file__).resolve().parents[2]
PROBE = [sys.executable, "-m", "belote_project.worker_probe"]


def test_a_burst_from_several_producers_runs_every_task_exactly_once(tmp_path):
    # Paced so that the queue is often empty and the worker reads each message as soon as
    # it appears: the moment at which the filesystem transport's worker read empty files.
    stress = [sys.executable, "-m", "bench.broker_bench", "--tasks", "150", "--producers", "3"]
    result = subprocess.run(
        [*stress, "--pace", "0.05"],
        cwd=REPO,
        env=embedded_environment(str(tmp_path)),
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert "(sqla+sqlite)" in result.stdout
    assert "ran once: 150, more than once: 0, never: 0; worker alive" in result.stdout


def test_migrate_declares_the_queue_before_any_process_races_to_create_it(tmp_path):
    # The worker and the web workers each declare the queue when they first use the
    # broker; two processes inserting the same new queue row at once made one of them fail
    # on the unique name. After migrate, the row is there and nothing inserts it again.
    migrate(embedded_environment(str(tmp_path)))

    with sqlite3.connect(tmp_path / "celery-broker.sqlite3") as broker:
        queues = [name for (name,) in broker.execute("SELECT name FROM kombu_queue")]
    assert queues == ["belote"]

    migrate(embedded_environment(str(tmp_path)))  # again: declaring is idempotent

    with sqlite3.connect(tmp_path / "celery-broker.sqlite3") as broker:
        assert broker.execute("SELECT count(*) FROM kombu_queue").fetchone() == (1,)


@pytest.fixture
def embedded_worker(tmp_path) -> Iterator[tuple[dict[str, str], str]]:
    env = embedded_environment(str(tmp_path))
    node = f"probe-{uuid.uuid4().hex[:8]}@localhost"
    migrate(env)
    worker = subprocess.Popen(
        worker_command(node, "--pool", "solo", loglevel="warning"), cwd=REPO, env=env
    )
    yield env, node
    worker.terminate()
    worker.wait(timeout=60)
    assert worker.returncode == 0


def probe(env: dict[str, str], node: str, timeout: float) -> int:
    return subprocess.run(
        [*PROBE, "--timeout", str(timeout), node], cwd=REPO, env=env, check=False
    ).returncode


def test_the_readiness_probe_reaches_that_worker_without_remote_control(embedded_worker):
    env, node = embedded_worker

    # The first probes may go out before the worker consumes; a ready worker answers one.
    assert any(probe(env, node, timeout=5) == 0 for _ in range(12))
    assert probe(env, f"nobody-{uuid.uuid4().hex[:8]}@localhost", timeout=1) == 1
