"""Timed games survive their worker and their broker (docs/clocks.md, "Exactly once").

A worker killed with SIGKILL mid-game and a new one started: every timed game finishes,
with no gap and no move twice. The broker down when a move commits: the move stands, and
once the broker is back the periodic sweeps play the bot turn whose task was never sent,
and the timeouts after it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import tempfile
import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit
from uuid import UUID

import pytest
from celery import Celery
from django.conf import settings

from belote_project.celery import app as belote_app
from bench.load_server import free_port
from games.models import Game, GameEvent
from tests.games.helpers import GAMES
from tests.integration.test_celery_round_trip import (
    print_log,
    start_worker,
    worker_environment,
)
from tests.integration.test_clocks_worker import of_type, players_turn, wait_for

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True), pytest.mark.slow]

# One hand decides the game; the person at seat 0 never plays: two timeouts, then a bot.
TIMED = {"target": 1, "turn_seconds": 5, "absent_after": 2}


def table_with_three_bots(client, options: dict[str, object]) -> UUID:
    created = client.post(GAMES, {"seat": 0, "options": options}, format="json").json()
    for seat in (1, 2, 3):
        client.post(f"{GAMES}/{created['id']}/bots", {"seat": seat, "level": "basic"})
    return UUID(created["id"])


@contextlib.contextmanager
def beat_worker(schedule: Path, **env: str) -> Iterator[subprocess.Popen[str]]:
    """A worker with beat embedded, in a process group of its own (beat is a child
    process of the worker: killing the group kills both)."""
    with tempfile.TemporaryFile("w+") as log:
        worker = start_worker(
            "--beat",
            "--schedule-filename",
            str(schedule),
            log=log,
            env=worker_environment(**env),
            start_new_session=True,
        )
        try:
            yield worker
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(worker.pid, signal.SIGTERM)
            try:
                worker.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(worker.pid, signal.SIGKILL)
                worker.wait()
            print_log(log)


def assert_played_once_each(game_id: UUID) -> None:
    """No gap in the seqs, and no move stored twice: each hand's 32 cards once each."""
    events = list(GameEvent.objects.filter(game_id=game_id).order_by("seq"))
    assert [event.seq for event in events] == list(range(1, len(events) + 1))
    hand, cards = 0, Counter[tuple[int, str]]()
    for event in events:
        if event.type == "hand_dealt":
            hand = event.payload["hand"]
        elif event.type == "card_played":
            cards[hand, event.payload["card"]] += 1
    assert set(cards.values()) == {1}
    assert [event.type for event in events].count("game_finished") == 1


def test_a_worker_killed_mid_game_and_a_new_one_finish_every_timed_game(
    auth_client, tmp_path
) -> None:
    games = [table_with_three_bots(auth_client(), TIMED) for _ in range(3)]
    with beat_worker(tmp_path / "first-beat") as first:
        wait_for(lambda: all(of_type(game_id, "turn_timed_out") for game_id in games))
        os.killpg(first.pid, signal.SIGKILL)
        first.wait(timeout=30)
    assert not all(Game.objects.get(pk=game_id).status == "finished" for game_id in games)

    with beat_worker(tmp_path / "second-beat"):
        wait_for(
            lambda: all(Game.objects.get(pk=game_id).status == "finished" for game_id in games)
        )
    for game_id in games:
        assert_played_once_each(game_id)
        marks = [event.payload for event in of_type(game_id, "turn_timed_out")]
        assert marks == [{"seat": 0, "consecutive": 1}, {"seat": 0, "consecutive": 2}]


class BrokerLink:
    """A TCP relay to the broker that the test can cut: while down it accepts nothing and
    the connections it carried are closed, as if the broker were gone."""

    def __init__(self, broker_url: str) -> None:
        parts = urlsplit(broker_url)
        self._upstream = (parts.hostname or "127.0.0.1", parts.port or 6379)
        self.port = free_port()
        self.url = urlunsplit(parts._replace(netloc=f"127.0.0.1:{self.port}"))
        self._listener: socket.socket | None = None
        self._carried: list[socket.socket] = []
        self._lock = threading.Lock()

    def up(self) -> None:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen()
        self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def down(self) -> None:
        with self._lock:
            if self._listener is not None:
                # shutdown first: on Linux, close alone leaves a thread blocked in
                # accept() holding the socket, and it would go on accepting
                with contextlib.suppress(OSError):
                    self._listener.shutdown(socket.SHUT_RDWR)
                self._listener.close()
                self._listener = None
            for carried in self._carried:
                with contextlib.suppress(OSError):
                    carried.shutdown(socket.SHUT_RDWR)
                carried.close()
            self._carried.clear()

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # closed by down()
            upstream = socket.create_connection(self._upstream)
            with self._lock:
                self._carried += [client, upstream]
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=_pump, args=(source, sink), daemon=True).start()


def _pump(source: socket.socket, sink: socket.socket) -> None:
    with contextlib.suppress(OSError):
        while data := source.recv(65536):
            sink.sendall(data)
    with contextlib.suppress(OSError):
        sink.shutdown(socket.SHUT_WR)


@contextlib.contextmanager
def sending_through(url: str) -> Iterator[None]:
    """This thread's tasks go to the broker at `url` (Celery's current app, swapped)."""
    relayed = Celery("belote")
    relayed.config_from_object("django.conf:settings", namespace="CELERY")
    # The write URL: this process's CELERY_BROKER_URL (the run's broker) outranks
    # broker_url, and producers connect to the write URL first.
    relayed.conf.update(broker_write_url=url, broker_connection_timeout=1, task_publish_retry=False)
    relayed.set_current()
    try:
        yield
    finally:
        belote_app.set_current()
        relayed.close()


def test_a_move_committed_while_the_broker_is_down_is_followed_once_it_is_back(
    auth_client, tmp_path
) -> None:
    link = BrokerLink(settings.CELERY_BROKER_URL)
    link.up()
    player = auth_client()
    options = {"turn_seconds": 5, "absent_after": 20}
    with sending_through(link.url), beat_worker(tmp_path / "beat", CELERY_BROKER_URL=link.url):
        game_id = table_with_three_bots(player, options)
        wait_for(players_turn(game_id))
        view = player.get(f"{GAMES}/{game_id}").json()
        link.down()
        action = next(item for item in view["legal_actions"] if item["type"] != "declare")
        move = {"action": action, "expected_version": view["version"]}
        answer = player.post(f"{GAMES}/{game_id}/actions", move, format="json")
        assert answer.status_code == 201, answer.content
        mine = view["version"] + 1
        link.up()

        def bot_played_after_me() -> bool:
            return GameEvent.objects.filter(
                game_id=game_id, seq__gt=mine, actor_kind="bot"
            ).exists()

        wait_for(bot_played_after_me)
        wait_for(lambda: bool(of_type(game_id, "turn_timed_out")))
    link.down()
    (mark,) = of_type(game_id, "turn_timed_out")[:1]
    assert mark.seq > mine
    assert mark.payload == {"seat": 0, "consecutive": 1}
    seqs = list(GameEvent.objects.filter(game_id=game_id).values_list("seq", flat=True))
    assert sorted(seqs) == list(range(1, len(seqs) + 1))
