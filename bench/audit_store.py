"""What bench/audit_bench.py measures against PostgreSQL: the chain's cost per append and
`audit_games`' throughput (and the moves tests/audit appends). Needs Django set up."""

from __future__ import annotations

import io
import random
import secrets
import statistics
import time
from dataclasses import dataclass
from uuid import UUID

from django.core.management import call_command
from django.db import connection

from accounts.models import User
from accounts.services import user_register
from bench.audit_games import fair_game, rows_of
from bench.load_server import PASSWORD
from games import rules, services, store
from games.audit import chain
from games.models import Game, GameEvent, GameStatus
from games.services import deals
from games.store.sql import uuid_param
from games.store.stream import _HEAD_AT


@dataclass(frozen=True)
class ChainCost:
    append_ms: float
    head_read_ms: float
    hashing_ms: float
    column_bytes: float
    row_bytes: float

    @property
    def share(self) -> float:
        return (self.head_read_ms + self.hashing_ms) / self.append_ms


def players(prefix: str) -> list[User]:
    tag = secrets.token_hex(3)
    return [user_register(username=f"{prefix}{n}_{tag}", password=PASSWORD) for n in range(4)]


def new_table(seated: list[User]) -> UUID:
    game = services.game_create(user=seated[0], options={}, seat=0)
    for seat in (1, 2, 3):
        services.seat_join(game_id=game.id, user=seated[seat], seat=seat)
    return game.id


def table_secrets(game_id: UUID) -> str:
    """The table's secret chain end (games/models.py), which its deals come from."""
    return str(Game.objects.values_list("hand_secrets", flat=True).get(pk=game_id))


def random_move(
    loaded: store.LoadedGame, rng: random.Random, hand_secrets: str = ""
) -> tuple[tuple[rules.Event, ...], rules.GameState]:
    """The events of a random legal move of the seat to play, and the state after them;
    the next hand dealt from the table's `hand_secrets` as the service deals it."""
    seat = loaded.state.turn
    action = rng.choice(rules.legal_moves(loaded.state, seat))
    events = deals.decide_move(loaded.state, seat, action, hand_secrets)
    return events, rules.replay(events, loaded.state)


def append_move(
    game_id: UUID,
    loaded: store.LoadedGame,
    events: tuple[rules.Event, ...],
    after: rules.GameState,
) -> store.LoadedGame:
    """Append `events` (decided at `loaded`) as the service does; the game after them."""
    appended = store.append(
        game_id,
        expected_version=loaded.version,
        events=events,
        actor=store.Actor.system(),
        state_after=after,
    )
    return store.LoadedGame(after, appended.progress.version, appended.events[-1].hash)


def chain_cost(appends: int) -> ChainCost:
    """Median ms of whole appends, and of their chain work done again on its own."""
    seated, rng = players("chain"), random.Random(7)
    whole, reads, hashing = [], [], []
    game_id = new_table(seated)
    loaded, hand_secrets = store.load(game_id), table_secrets(game_id)
    while len(whole) < appends:
        if rules.summary(loaded.state).status == "finished":
            game_id = new_table(seated)
            loaded, hand_secrets = store.load(game_id), table_secrets(game_id)
        events, after = random_move(loaded, rng, hand_secrets)
        start = time.perf_counter()
        appended = append_move(game_id, loaded, events, after)
        whole.append(time.perf_counter() - start)
        # the same chain work again, alone: the read of the previous link, the hashes
        start = time.perf_counter()
        with connection.cursor() as cursor:
            cursor.execute(_HEAD_AT, [uuid_param(game_id), loaded.version])
            previous = cursor.fetchone()[0]
        reads.append(time.perf_counter() - start)
        start = time.perf_counter()
        for seq, event in enumerate(events, start=loaded.version + 1):
            wire = rules.event_to_dict(event)
            kind, version = wire.pop("type"), wire.pop("v")
            previous = chain.link(previous, seq, kind, version, wire)
        hashing.append(time.perf_counter() - start)
        assert previous == appended.head_hash
        loaded = appended
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT avg(pg_column_size(hash)), avg(pg_column_size(e.*)) FROM games_gameevent e"
        )
        column, row = cursor.fetchone()
    return ChainCost(
        append_ms=statistics.median(whole) * 1000,
        head_read_ms=statistics.median(reads) * 1000,
        hashing_ms=statistics.median(hashing) * 1000,
        column_bytes=float(column),
        row_bytes=float(row),
    )


def store_games(count: int, distinct: int = 40) -> list[UUID]:
    """`count` finished games stored as rows (their logs as append would have stored
    them; `distinct` logs of commit-reveal games played by the rules, each reused)."""
    owner = players("audit")[0]
    logs = [rows_of(fair_game(seed)) for seed in range(distinct)]
    games = Game.objects.bulk_create(
        Game(created_by=owner, options={}, status=GameStatus.FINISHED, scores=[0, 0])
        for _ in range(count)
    )
    for start in range(0, count, 50):
        GameEvent.objects.bulk_create(
            GameEvent(
                game=game,
                seq=row["seq"],
                type=row["type"],
                schema_version=row["schema_version"],
                payload=row["payload"],
                actor_kind="system",
                hash=row["hash"],
            )
            for number, game in enumerate(games[start : start + 50], start=start)
            for row in logs[number % distinct]
        )
    return [game.id for game in games]


def audit_games_rate(count: int) -> tuple[float, str]:
    """Games per second of `manage.py audit_games` over `count` stored games; its summary."""
    store_games(count)
    out = io.StringIO()
    start = time.perf_counter()
    call_command("audit_games", "--no-progress", stdout=out)
    spent = time.perf_counter() - start
    return count / spent, out.getvalue().strip().splitlines()[-1]
