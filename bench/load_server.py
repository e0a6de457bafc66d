"""The load benchmarks' server: a fresh database, the production command, its CPU from /proc.

Shared by bench/load_bench.py, bench/serving_bench.py, bench/floor_bench.py and the tests'
live server (tests/live_server.py); `worker_command` by every benchmark and test that
starts a Celery worker.
"""

import contextlib
import os
import secrets
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import psycopg

from bench.ceiling_table import CREATE_CEILING_TABLE

ROOT = Path(__file__).resolve().parent.parent
# BENCH_DATABASE: another name, so that runs of several checkouts never share one.
DB_NAME = os.environ.get("BENCH_DATABASE", "belote_bench")
POSTGRES = "host=127.0.0.1 port=5432 user=postgres"
POSTGRES_URL = "postgres://postgres@127.0.0.1:5432"
REDIS = "redis://127.0.0.1:6379"
PASSWORD = "bench-password-long-enough-123"


def recreate_database() -> None:
    with psycopg.connect(f"{POSTGRES} dbname=postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {DB_NAME}")


def server_environment(settings_module: str) -> dict[str, str]:
    lifted = "1000000/min"
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": settings_module,
        "DATABASE_URL": f"{POSTGRES_URL}/{DB_NAME}",
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "127.0.0.1",
        "CELERY_BROKER_URL": f"{REDIS}/12",
        "REDIS_URL": f"{REDIS}/13",
        "CACHE_KEY_PREFIX": f"bench-{secrets.token_hex(4)}",
        "LOG_LEVEL": "WARNING",
        "THROTTLE_LOGIN": lifted,
        "THROTTLE_REGISTER": lifted,
        "THROTTLE_GAME_CREATE": lifted,
        "THROTTLE_GAME_ACTIONS": lifted,
    }


def prepare_database(env: dict[str, str]) -> None:
    recreate_database()
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    with psycopg.connect(f"{POSTGRES} dbname={DB_NAME}", autocommit=True) as conn:
        conn.execute(CREATE_CEILING_TABLE)


def server_command(port: int, workers: int) -> list[str]:
    """The production command of docs/deploy.md, on a loopback port."""
    return [
        sys.executable, "-m", "gunicorn", "belote_project.asgi:application",
        "--config", "python:belote_project.server",
        "--worker-class", "belote_project.server.Worker",
        "--workers", str(workers),
        "--bind", f"127.0.0.1:{port}",
        "--graceful-timeout", "5",
        "--keep-alive", "75",
    ]  # fmt: skip


def worker_command(node: str, *options: str, loglevel: str = "info") -> list[str]:
    """The Celery worker of docs/deploy.md (compose's `worker`), named `node` (`%h` is the
    host), with `options` after it (`--pool solo`, `--concurrency 2`, `--beat`...)."""
    return [
        sys.executable, "-m", "celery", "-A", "belote_project", "worker",
        "--loglevel", loglevel, "--hostname", node, *options,
    ]  # fmt: skip


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def wait_until_serving(base_url: str, server: subprocess.Popen[bytes]) -> None:
    """Return once the server answers HTTP; RuntimeError if it exits or takes over 30 s."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError("the server exited during start-up")
        try:
            httpx.get(f"{base_url}/healthz", timeout=1.0)
        except httpx.TransportError:
            time.sleep(0.1)
        else:
            return
    raise RuntimeError("the server did not start within 30 s")


class ServerCpu:
    """CPU seconds (user + system) of the server's worker processes, read from /proc."""

    def __init__(self, server: subprocess.Popen[bytes]) -> None:
        self._server = server

    def seconds(self) -> float | None:
        try:
            workers = Path(f"/proc/{self._server.pid}/task/{self._server.pid}/children")
            ticks = sum(cpu_ticks(pid) for pid in workers.read_text().split())
        except OSError:
            return None
        return ticks / os.sysconf("SC_CLK_TCK")


def cpu_ticks(pid: str) -> int:
    """User + system CPU clock ticks of process `pid` so far (/proc); OSError if gone."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime, stime


def postgres_cpu_seconds() -> float | None:
    """CPU seconds used so far by the local PostgreSQL server's processes (None: unknown)."""
    found = subprocess.run(["pgrep", "postgres"], capture_output=True, text=True, check=False)
    ticks = 0
    for pid in found.stdout.split():
        with contextlib.suppress(OSError):  # a process that has just exited
            ticks += cpu_ticks(pid)
    return ticks / os.sysconf("SC_CLK_TCK") if ticks else None


def database_transactions() -> int | None:
    """Transactions committed or rolled back in the benchmark's database so far, from
    PostgreSQL's statistics (each backend reports its own within about a second): a
    count of the server's database round trips that other databases on the machine do
    not disturb. None when the statistics cannot be read."""
    try:
        with psycopg.connect(f"{POSTGRES} dbname={DB_NAME}", autocommit=True) as conn:
            row = conn.execute(
                "SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = %s",
                [DB_NAME],
            ).fetchone()
    except psycopg.Error:
        return None
    return None if row is None else int(row[0])


def trouble_lines(log: str) -> list[str]:
    """The server log's lines worth showing: tracebacks, errors and warnings."""
    words = ("Traceback", "ERROR", "CRITICAL", "WARNING")
    return [
        line
        for line in log.splitlines()
        if any(word in line for word in words) and "SIGTERM" not in line
    ]
