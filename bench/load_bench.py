"""Load benchmark: game actions over HTTP against the production server setup.

    .venv/bin/python -m bench.load_bench [--seconds 20] [--clients 32] [--workers 2]
                                         [--think 1.0]

What it does, all on 127.0.0.1 and bounded in time (about 60-90 s):
1. recreates the PostgreSQL database `belote_bench`, migrates it and adds the table of
   the trivial endpoint (bench/ceiling.py, routed only by bench/server_settings.py);
2. starts the server as in production (docs/deploy.md: gunicorn with uvicorn workers,
   DEBUG off, a random SECRET_KEY), with the benchmark's settings and throttles lifted;
3. ceiling: CLIENTS concurrent clients POST to the trivial endpoint (auth + one INSERT);
4. games: CLIENTS concurrent clients each drive a table of four seats: GET the view of the
   seat to play, POST a random entry of its legal_actions with expected_version;
5. paced: CLIENTS players, each acting (GET + POST) then thinking THINK seconds, as
   people at tables do (far quicker than people): the latency at that offered load;
6. long game: one client plays a game to a high target alone and compares the latency of
   its last actions with its first ones.
Needs PostgreSQL and Redis on their default local ports.

Which figure answers which target of issue 4:
- (a) throughput: closed-loop actions/s over the ceiling's requests/s (phases 3 and 4);
- (b) p99 < 50 ms at 32 clients: the paced run (phase 5). In the closed loop (no pause)
  Little's law makes the mean latency CLIENTS / throughput whatever the code does, so
  its p99 measures saturation, not responsiveness; it is printed too;
- (c) long game: end / start latency (phase 6).
"""

import argparse
import asyncio
import os
import random
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psycopg

from bench.ceiling_table import CREATE_CEILING_TABLE

ROOT = Path(__file__).resolve().parent.parent
DB_NAME = "belote_bench"
POSTGRES = "host=127.0.0.1 port=5432 user=postgres"
POSTGRES_URL = "postgres://postgres@127.0.0.1:5432"
REDIS = "redis://127.0.0.1:6379"
PASSWORD = "bench-password-long-enough-123"
SEATS = range(4)
WARMUP_SECONDS = 2.0


# --- the server -----------------------------------------------------------------------
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
        "--worker-class", "belote_project.server.Worker",
        "--workers", str(workers),
        "--bind", f"127.0.0.1:{port}",
        "--graceful-timeout", "5",
        "--keep-alive", "75",
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


# --- measuring ------------------------------------------------------------------------
@dataclass
class Sample:
    """Latencies (seconds) of the requests that started inside the measured window."""

    latencies: list[float] = field(default_factory=list)
    seconds: float = 0.0
    errors: int = 0
    # Requests the server answered besides the measured ones (the GETs before actions).
    other_requests: int = 0
    # CPU the server's worker processes spent in the window (None: not measurable here).
    server_cpu: float | None = None

    @property
    def requests(self) -> int:
        return len(self.latencies) + self.other_requests

    def cpu_ms_per(self, count: int) -> float:
        return 1000 * self.server_cpu / count if self.server_cpu and count else float("nan")

    @property
    def throughput(self) -> float:
        return len(self.latencies) / self.seconds if self.seconds else 0.0

    def percentile_ms(self, share: float) -> float:
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        return 1000 * ordered[min(len(ordered) - 1, int(share * len(ordered)))]


class Window:
    """A warm-up, then a measured window; requests record themselves if inside it."""

    def __init__(self, seconds: float, warmup: float = WARMUP_SECONDS) -> None:
        now = time.monotonic()
        self.opens = now + warmup
        self.closes = self.opens + seconds

    def running(self) -> bool:
        return time.monotonic() < self.closes

    def inside(self, started: float) -> bool:
        return self.opens <= started < self.closes

    async def measure(
        self, sample: Sample, server: "ServerCpu", clients: list[Awaitable[None]]
    ) -> None:
        """Run the clients; note the server's CPU time from the window's opening to its close."""

        async def cpu_at(moment: float) -> float | None:
            await asyncio.sleep(max(0.0, moment - time.monotonic()))
            return server.seconds()

        opened = asyncio.create_task(cpu_at(self.opens))
        closed = asyncio.create_task(cpu_at(self.closes))
        await asyncio.gather(*clients)
        start, end = await opened, await closed
        sample.seconds = self.closes - self.opens
        if start is not None and end is not None:
            sample.server_cpu = end - start

    async def timed(self, sample: Sample, request: Awaitable[httpx.Response]) -> httpx.Response:
        started = time.monotonic()
        response = await request
        if self.inside(started):
            sample.latencies.append(time.monotonic() - started)
            if response.is_error:
                sample.errors += 1
        return response


def expect(response: httpx.Response, status: int) -> dict[str, Any]:
    if response.status_code != status:
        raise RuntimeError(f"{response.request.url}: {response.status_code} {response.text}")
    body: dict[str, Any] = response.json()
    return body


# --- the clients ----------------------------------------------------------------------
def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def register(client: httpx.AsyncClient, count: int) -> list[str]:
    tokens = []
    for number in range(count):
        username = f"bench{number}_{secrets.token_hex(3)}"
        body = {"username": username, "password": PASSWORD}
        tokens.append(expect(await client.post("/api/v1/auth/register", json=body), 201)["token"])
    return tokens


async def ceiling_client(
    client: httpx.AsyncClient, token: str, window: Window, sample: Sample
) -> None:
    while window.running():
        request = client.post("/api/v1/bench/insert", headers=bearer(token))
        expect(await window.timed(sample, request), 201)


@dataclass
class Table:
    game_id: str
    tokens: list[str]  # index = seat


async def open_table(
    client: httpx.AsyncClient, tokens: list[str], options: dict[str, Any]
) -> Table:
    created = await client.post(
        "/api/v1/games", json={"options": options, "seat": 0}, headers=bearer(tokens[0])
    )
    game_id = expect(created, 201)["id"]
    for seat in SEATS[1:]:
        joined = await client.post(
            f"/api/v1/games/{game_id}/seats", json={"seat": seat}, headers=bearer(tokens[seat])
        )
        expect(joined, 201)
    return Table(game_id=game_id, tokens=tokens)


async def first_turn(client: httpx.AsyncClient, table: Table) -> int | None:
    view = expect(
        await client.get(f"/api/v1/games/{table.game_id}", headers=bearer(table.tokens[0])), 200
    )
    turn: int | None = view["turn"]
    return turn


async def play_one_action(
    client: httpx.AsyncClient,
    table: Table,
    turn: int,
    chooser: random.Random,
    post: Callable[[Awaitable[httpx.Response]], Awaitable[httpx.Response]],
) -> dict[str, Any]:
    """GET the view of the seat to play, POST a random legal action; the new view."""
    headers = bearer(table.tokens[turn])
    view = expect(await client.get(f"/api/v1/games/{table.game_id}", headers=headers), 200)
    action = chooser.choice(view["legal_actions"])
    request = client.post(
        f"/api/v1/games/{table.game_id}/actions",
        json={"action": action, "expected_version": view["version"]},
        headers=headers,
    )
    game: dict[str, Any] = expect(await post(request), 201)["game"]
    return game


async def game_client(
    client: httpx.AsyncClient, tokens: list[str], window: Window, sample: Sample, seed: int
) -> None:
    chooser = random.Random(seed)
    while window.running():
        table = await open_table(client, tokens, {})
        turn = await first_turn(client, table)
        while turn is not None and window.running():
            sample.other_requests += window.inside(time.monotonic())  # the view's GET
            game = await play_one_action(
                client, table, turn, chooser, lambda request: window.timed(sample, request)
            )
            turn = game["turn"]


@dataclass
class Paced:
    """The paced run: latency of whole actions (GET + POST) and of their POSTs alone."""

    actions: Sample = field(default_factory=Sample)
    posts: Sample = field(default_factory=Sample)
    think: float = 0.0


async def paced_client(
    client: httpx.AsyncClient, tokens: list[str], window: Window, paced: Paced, seed: int
) -> None:
    """A table's players: act (GET the view, POST), think, act again, until the window ends."""
    chooser = random.Random(seed)
    table = await open_table(client, tokens, {})
    turn = await first_turn(client, table)
    await asyncio.sleep(paced.think * chooser.random())  # tables do not act in step
    while window.running():
        if turn is None:
            table = await open_table(client, tokens, {})
            turn = await first_turn(client, table)
            continue
        started = time.monotonic()
        game = await play_one_action(
            client, table, turn, chooser, lambda request: window.timed(paced.posts, request)
        )
        if window.inside(started):
            paced.actions.latencies.append(time.monotonic() - started)
        turn = game["turn"]
        await asyncio.sleep(paced.think)


@dataclass
class LongGame:
    """One game played alone: per action, the POST's latency and the server CPU so far."""

    latencies: list[float] = field(default_factory=list)
    cpu_after: list[float | None] = field(default_factory=list)
    version: int = 0

    def block_ms(self, block: slice) -> tuple[float, float]:
        """Median POST latency and mean server CPU per action (GET + POST) of a block."""
        latency = 1000 * statistics.median(self.latencies[block])
        indexes = range(len(self.latencies))[block]
        before = self.cpu_after[indexes[0] - 1] if indexes[0] > 0 else self.cpu_after[0]
        after = self.cpu_after[indexes[-1]]
        if before is None or after is None:
            return latency, float("nan")
        return latency, 1000 * (after - before) / len(indexes)


async def long_game(
    client: httpx.AsyncClient, server: ServerCpu, tokens: list[str], target: int, seconds: float
) -> LongGame:
    """Play one game to `target` alone, or until `seconds` pass."""
    chooser = random.Random(1)
    table = await open_table(client, tokens, {"target": target})
    turn = await first_turn(client, table)
    played = LongGame()
    deadline = time.monotonic() + seconds

    async def timed(request: Awaitable[httpx.Response]) -> httpx.Response:
        started = time.monotonic()
        response = await request
        played.latencies.append(time.monotonic() - started)
        return response

    while turn is not None and time.monotonic() < deadline:
        game = await play_one_action(client, table, turn, chooser, timed)
        played.cpu_after.append(server.seconds())
        turn, played.version = game["turn"], game["version"]
    return played


async def run_phases(base_url: str, server: ServerCpu, args: argparse.Namespace) -> dict[str, Any]:
    limits = httpx.Limits(
        max_connections=args.clients + 4, max_keepalive_connections=args.clients + 4
    )
    async with httpx.AsyncClient(base_url=base_url, limits=limits, timeout=30.0) as client:
        tokens = await register(client, len(SEATS))

        ceiling, window = Sample(), Window(args.seconds)
        await window.measure(
            ceiling,
            server,
            [ceiling_client(client, tokens[n % 4], window, ceiling) for n in range(args.clients)],
        )
        actions, window = Sample(), Window(args.seconds)
        await window.measure(
            actions,
            server,
            [game_client(client, tokens, window, actions, seed) for seed in range(args.clients)],
        )

        paced = Paced(think=args.think)
        # Each player's first action waits up to one think time: warm up that much longer.
        window = Window(args.seconds, warmup=WARMUP_SECONDS + args.think)
        await window.measure(
            paced.actions,
            server,
            [paced_client(client, tokens, window, paced, seed) for seed in range(args.clients)],
        )

        played = await long_game(client, server, tokens, args.long_target, args.long_seconds)
    return {"ceiling": ceiling, "actions": actions, "paced": paced, "long": played}


# --- the report -----------------------------------------------------------------------
def _check_rows(
    results: dict[str, Any], args: argparse.Namespace
) -> list[tuple[str, str, str, bool | None]]:
    """The targets of issue 4 (ok: True/False) and the figures shown beside them (None)."""
    ceiling: Sample = results["ceiling"]
    actions: Sample = results["actions"]
    paced: Paced = results["paced"]
    ratio = actions.throughput / ceiling.throughput if ceiling.throughput else 0.0
    p99 = paced.actions.percentile_ms(0.99)
    saturated_p99 = actions.percentile_ms(0.99)
    (start_ms, _), (end_ms, _) = results["long_blocks"]
    growth = end_ms / start_ms
    return [
        ("(a) closed loop: actions/s / ceiling", f"{ratio:.2f}", ">= 0.5", ratio >= 0.5),
        (
            f"(b) paced, {args.clients} players: p99 GET+POST",
            f"{p99:.1f} ms",
            "< 50 ms",
            p99 < 50,
        ),
        (
            "    closed loop (saturated): p99 POST",
            f"{saturated_p99:.1f} ms",
            "(info)",
            None,
        ),
        ("(c) long game: end / start latency", f"{growth:.2f}", "<= 1.2", growth <= 1.2),
    ]


def _report_paced(paced: Paced, args: argparse.Namespace) -> None:
    actions, posts = paced.actions, paced.posts
    offered = args.clients / (paced.think + actions.percentile_ms(0.5) / 1000)
    print(
        f"paced: {args.clients} players, each acts then thinks {paced.think:.1f} s: offered "
        f"~{offered:.1f} actions/s, measured {actions.throughput:.1f} actions/s, server CPU "
        f"{actions.cpu_ms_per(len(actions.latencies)):.1f} ms/action"
    )
    for name, sample in (("action (GET + POST)", actions), ("POST alone", posts)):
        print(
            f"  {name:<22}p50 {sample.percentile_ms(0.5):>6.1f} ms  p99 "
            f"{sample.percentile_ms(0.99):>6.1f} ms  max {sample.percentile_ms(1.0):>6.1f} ms  "
            f"({len(sample.latencies)} measured, {sample.errors} errors)"
        )


def report(results: dict[str, Any], args: argparse.Namespace) -> bool:
    print(
        f"\nbelote load benchmark: {args.clients} clients, {args.workers} server workers, "
        f"{args.seconds:.0f} s windows, load average {os.getloadavg()[0]:.1f} "
        f"on {os.cpu_count()} cores"
    )
    print(
        f"{'measured requests':<30}{'req/s':>8}{'p50 ms':>8}{'p99 ms':>9}{'count':>7}"
        f"{'errors':>7}{'server CPU ms':>15}"
    )
    ceiling: Sample = results["ceiling"]
    actions: Sample = results["actions"]
    rows = (
        ("ceiling: POST /bench/insert", ceiling, "/request"),
        ("POST /games/{id}/actions", actions, "/action*"),
    )
    for name, sample, unit in rows:
        print(
            f"{name:<30}{sample.throughput:>8.1f}{sample.percentile_ms(0.5):>8.1f}"
            f"{sample.percentile_ms(0.99):>9.1f}{len(sample.latencies):>7}{sample.errors:>7}"
            f"{sample.cpu_ms_per(len(sample.latencies)):>7.1f} {unit}"
        )
    print(
        f"* each action also needs the GET of the seat's view ({actions.other_requests} GETs): "
        f"{actions.requests / actions.seconds:.1f} requests/s, server CPU "
        f"{actions.cpu_ms_per(actions.requests):.1f} ms/request"
    )
    _report_paced(results["paced"], args)
    played: LongGame = results["long"]
    share = max(10, len(played.latencies) // 5)
    results["long_blocks"] = blocks = (
        played.block_ms(slice(0, share)),
        played.block_ms(slice(-share, None)),
    )
    print(
        f"long game, 1 client, target {args.long_target}: {len(played.latencies)} actions to "
        f"version {played.version}; POST median / server CPU per action:"
    )
    for name, (latency, cpu) in zip((f"first {share}", f"last {share}"), blocks, strict=True):
        print(f"  {name:<12}{latency:>8.1f} ms{cpu:>8.1f} ms")
    print(f"\n{'target (issue 4)':<42}{'measured':>12}{'wanted':>10}  ok")
    checks = _check_rows(results, args)
    for name, measured, wanted, ok in checks:
        verdict = "-" if ok is None else "yes" if ok else "NO"
        print(f"{name:<42}{measured:>12}{wanted:>10}  {verdict}")
    return all(ok for *_, ok in checks if ok is not None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="measured window per phase")
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--workers", type=int, default=2, help="server worker processes")
    parser.add_argument(
        "--think", type=float, default=1.0, help="paced run: seconds a player waits between actions"
    )
    parser.add_argument("--long-target", type=int, default=1000, help="target of the long game")
    parser.add_argument("--long-seconds", type=float, default=25.0, help="cap on the long game")
    parser.add_argument(
        "--settings",
        default="bench.server_settings",
        help="settings module of the server (to compare a configuration with production's; "
        "it must route the yardstick as bench/server_settings.py does)",
    )
    args = parser.parse_args()

    env = server_environment(args.settings)
    prepare_database(env)
    port = free_port()
    with tempfile.TemporaryFile() as log:
        server = subprocess.Popen(
            server_command(port, args.workers),
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            base_url = f"http://127.0.0.1:{port}"
            wait_until_serving(base_url, server)
            results = asyncio.run(run_phases(base_url, ServerCpu(server), args))
        finally:
            server.terminate()
            server.wait(timeout=15)
            log.seek(0)
            trouble = [
                line
                for line in log.read().decode(errors="replace").splitlines()
                if any(word in line for word in ("Traceback", "ERROR", "CRITICAL", "WARNING"))
                and "SIGTERM" not in line
            ]
            if trouble:
                print(f"server log: {len(trouble)} line(s) of trouble, the last ones:")
                print("\n".join(trouble[-10:]))
    sys.exit(0 if report(results, args) else 1)


if __name__ == "__main__":
    main()
