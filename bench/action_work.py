"""What bench/floor_bench.py measures: a ceiling request through the production ASGI
application in this process, and a game action through the same calls the game endpoints
make, with or without the stack around them. Needs Django set up."""

from __future__ import annotations

import asyncio
import json
import random
import secrets
import time
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any
from uuid import UUID

from accounts.selectors import access_token_find
from accounts.services import access_token_issue, user_register
from belote_project.asgi import application
from belote_project.throttling import ScopedRedisRateThrottle
from bench.asgi_scope import asgi_request
from bench.load_server import PASSWORD, postgres_cpu_seconds
from games import rules, selectors, services, store
from games.feed.events import visible_events


def cost_ms(run: Callable[[], object], count: int, rounds: int = 3) -> tuple[float, float | None]:
    """Milliseconds of CPU per call of `run` (this process's, PostgreSQL's), from the
    cheapest of `rounds` rounds of `count` calls: other load only ever adds to a round."""
    for _ in range(count // 10):  # warm-up
        run()
    best: tuple[float, float | None] = (float("inf"), None)
    for _ in range(rounds):
        database, start = postgres_cpu_seconds(), time.process_time()
        for _ in range(count):
            run()
        own = (time.process_time() - start) * 1000 / count
        after = postgres_cpu_seconds()
        spent = None if database is None or after is None else (after - database) * 1000 / count
        if own + (spent or 0.0) < best[0] + (best[1] or 0.0):
            best = (own, spent)
    return best


class AsgiCaller:
    """Requests to the production ASGI application, in this process (no sockets)."""

    def __init__(self) -> None:
        self._application = application
        self._loop = asyncio.new_event_loop()

    def request(
        self, method: str, path: str, token: str, body: Any = None
    ) -> tuple[int, dict[str, Any]]:
        """(status, JSON body) of one request."""
        return self._loop.run_until_complete(
            asgi_request(self._application, method, path, token, body)
        )


class ActionWork:
    """One table of four, played through the same calls the game endpoints make."""

    def __init__(self) -> None:
        self._users = [
            user_register(username=f"floor{seat}_{secrets.token_hex(3)}", password=PASSWORD)
            for seat in range(4)
        ]
        self.tokens = [access_token_issue(user=user) for user in self._users]
        self._chooser = random.Random(1)
        # what the throttle reads of GameActApi (games/api/views.py)
        self._throttled_view = SimpleNamespace(throttle_scope="game_actions")
        self._game_id: UUID | None = None
        self._turn: int | None = None

    def _new_table(self) -> None:
        game = services.game_create(user=self._users[0], options={}, seat=0)
        for seat in (1, 2, 3):
            game = services.seat_join(game_id=game.id, user=self._users[seat], seat=seat)
        self._game_id, self._turn = game.id, rules.summary(store.load(game.id).state).turn

    def _seat_to_play(self) -> tuple[UUID, int]:
        if self._turn is None:
            self._new_table()
        assert self._game_id is not None
        assert self._turn is not None
        return self._game_id, self._turn

    def act_over_asgi(self, caller: AsgiCaller) -> None:
        """The same action through the whole stack: GET the view, POST the action."""
        game_id, turn = self._seat_to_play()
        path, token = f"/api/v1/games/{game_id}", self.tokens[turn]
        status, view = caller.request("GET", path, token)
        assert status == 200, view
        action = self._chooser.choice(view["legal_actions"])
        body = {"action": action, "expected_version": view["version"]}
        status, answer = caller.request("POST", f"{path}/actions", token, body)
        assert status == 201, answer
        self._turn = answer["game"]["turn"]

    def act(self) -> None:
        """The seat to play reads its view, then plays a random legal action."""
        game_id, turn = self._seat_to_play()
        # GET: the token, then the table, the view, its JSON
        token = access_token_find(token=self.tokens[turn])
        assert token is not None
        read = selectors.table_state(game_id)
        selectors.view_etag(read.table)
        view, _ = selectors.game_view_for(read, token.user)
        json.dumps(view)
        action = self._chooser.choice(view["legal_actions"])
        # POST: the token, the throttle, the command (its own read), the answer's JSON
        token = access_token_find(token=self.tokens[turn])
        assert token is not None
        throttle = ScopedRedisRateThrottle()
        assert throttle.allow_request(SimpleNamespace(user=token.user), self._throttled_view)  # type: ignore[arg-type]
        result = services.game_act(
            game_id=game_id, user=token.user, action=action, expected_version=view["version"]
        )
        events = visible_events(result.before, result.appended, result.seat)
        json.dumps({"events": events, "game": result.view})
        self._turn = result.view["turn"]
