"""The serving stack's fixed cost: server CPU and latency of one cheap API request.

    .venv/bin/python -m bench.serving_bench [--app MODULE:APP] [--requests 2000]
                                            [--clients 1] [--worker-class CLASS]

Starts the production command (bench.load_server.server_command, one worker) against a
fresh database of its own, signs one user up, then sends `--requests` authenticated
`GET /api/v1/me` (the token lookup, DRF, the middleware chain: little beyond the
stack) from `--clients` concurrent keep-alive clients, and prints the server's CPU
per request and the client-side p50/p99 latency. `--app` swaps the application
(e.g. `django.core.asgi:get_asgi_application()`) to compare serving shapes on the
same machine in the same minute, `--settings` the settings module: docs/deploy.md's
table comes from this.
"""

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time

import httpx
import psycopg

from bench.load_server import (
    PASSWORD,
    POSTGRES,
    POSTGRES_URL,
    ROOT,
    ServerCpu,
    free_port,
    server_command,
    server_environment,
    wait_until_serving,
)

DB_NAME = f"belote_serving_{os.getpid()}"
WARMUP = 200


def fresh_database(env: dict[str, str]) -> None:
    with psycopg.connect(f"{POSTGRES} dbname=postgres", autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {DB_NAME}")
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )


def drop_database() -> None:
    with psycopg.connect(f"{POSTGRES} dbname=postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")


async def measure(base_url: str, cpu: ServerCpu, requests: int, clients: int) -> None:
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as client:
        signup = await client.post(
            "/api/v1/auth/register", json={"username": "bench", "password": PASSWORD}
        )
        signup.raise_for_status()
        headers = {"Authorization": f"Bearer {signup.json()['token']}"}
        latencies: list[float] = []

        async def loop(count: int, record: bool) -> None:
            for _ in range(count):
                start = time.perf_counter()
                response = await client.get("/api/v1/me", headers=headers)
                response.raise_for_status()
                if record:
                    latencies.append(time.perf_counter() - start)

        await asyncio.gather(*(loop(WARMUP // clients, False) for _ in range(clients)))
        before = cpu.seconds()
        await asyncio.gather(*(loop(requests // clients, True) for _ in range(clients)))
        after = cpu.seconds()
    cuts = statistics.quantiles(latencies, n=100)
    per_request = (
        f"{1000 * (after - before) / len(latencies):.2f} ms"
        if before is not None and after is not None
        else "n/a"
    )
    print(
        f"{len(latencies)} requests, {clients} client(s): server CPU {per_request}/request, "
        f"p50 {1000 * cuts[49]:.2f} ms, p99 {1000 * cuts[98]:.2f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--app", default="belote_project.asgi:application")
    parser.add_argument("--worker-class", default=None, help="gunicorn worker class")
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--clients", type=int, default=1)
    parser.add_argument("--settings", default="belote_project.settings")
    args = parser.parse_args()

    env = {
        **server_environment(args.settings),
        "DATABASE_URL": f"{POSTGRES_URL}/{DB_NAME}",
    }
    fresh_database(env)
    command = server_command(free_port(), workers=1)
    port = int(command[command.index("--bind") + 1].rsplit(":", 1)[1])
    command[command.index("belote_project.asgi:application")] = args.app
    if args.worker_class:
        command[command.index("--worker-class") + 1] = args.worker_class
    print(f"{args.app} ({command[command.index('--worker-class') + 1]})")
    try:
        with tempfile.TemporaryFile() as log:
            server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=log)
            try:
                base_url = f"http://127.0.0.1:{port}"
                wait_until_serving(base_url, server)
                asyncio.run(measure(base_url, ServerCpu(server), args.requests, args.clients))
            finally:
                server.terminate()
                server.wait(timeout=15)
    finally:
        drop_database()


if __name__ == "__main__":
    main()
