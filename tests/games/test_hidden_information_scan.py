"""A hidden-information scan over real HTTP against the production server (issue 10).

Three whole games to the smallest target (a hand or two each), one with a bot seat, and
a board (one hand, its seed not revealed at its end) with a bot seat.
Each table has four seated users choosing random legal actions from their own views, a
spectator, an anonymous client and a seat changer: a fifth user who sits at seats and
leaves them before the table fills, opening a stream and a held long-poll at each (the
attack of tests/games/test_feed_seat_changes.py), then plays or watches with a stream
opened at its last seat. On the way the seats also send stale versions, illegal moves,
other seats' cards and malformed actions, and everyone reads views, 304s, event pages,
held long-polls and the table lists.

Everything a viewer gets is checked, once the games are over, against the truth folded
from the stored events (`leaks.secrets_by_seq`) at the moment it reflects: an event at
its seq, a view at its version, anything else at the game's version when it was
answered (nothing else writes to these games while the test acts: it plays the bot's
turns itself, as the worker would). No other seat's unplayed cards, no stock card, no
unrevealed hand seed or bot seed in any form; a view holds exactly its viewer's hand.
"""

from __future__ import annotations

import random
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any
from uuid import UUID

import pytest

from accounts.models import User
from games import rules, store, tasks
from tests.games.feed_support import (
    PARK_SECONDS,
    Background,
    StreamRead,
    open_stream,
    send_long_poll,
)
from tests.games.leak_scan import (
    ANONYMOUS,
    CHANGER,
    CHECKPOINT_EVERY,
    GAMES,
    PLANS,
    PLAYER,
    SPECTATOR,
    Plan,
    Scan,
    Viewer,
    stored_version,
)
from tests.live_server import LiveServer, live_server

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture(scope="module")
def server(django_db_setup: None) -> Iterator[LiveServer]:
    # Its bot tasks go to a queue no worker reads: the test plays the bots' turns itself.
    with live_server(CELERY_TASK_DEFAULT_QUEUE=f"leakscan-{uuid.uuid4().hex}") as started:
        yield started


class ScannedTable:
    """One table played to its end over HTTP, everything its viewers get recorded."""

    def __init__(self, scan: Scan, server: LiveServer, user: Callable[[], User], plan: Plan):
        self.scan, self.plan = scan, plan
        self.rng = random.Random(plan.seed)
        self.creator = Viewer(PLAYER, server.client(user()), seat=0)
        self.spectator = Viewer(SPECTATOR, server.client(user()))
        self.changer = Viewer(CHANGER, server.client(user()))
        self.anonymous = Viewer(ANONYMOUS, server.anonymous_client())
        self.joiners = [Viewer(PLAYER, server.client(user())) for _ in range(3)]
        created = self.creator.client.post(
            GAMES,
            json={"options": {"target": rules.TARGET_MIN, "board": plan.board}, "seat": 0},
        )
        assert created.status_code == 201, created.text
        self.game_id = UUID(created.json()["id"])
        self.url = f"{GAMES}/{self.game_id}"
        scan.answer(self.creator, self.game_id, created, frozenset())
        self.players: dict[int, Viewer] = {0: self.creator}
        self.feeds: list[tuple[Viewer, Background]] = []

    def call(
        self,
        viewer: Viewer,
        method: str,
        url: str,
        *,
        expect: int | tuple[int, ...] = (200, 201),
        sent: frozenset[str] = frozenset(),
        **arguments: Any,
    ) -> Any:
        response = viewer.client.request(method, url, **arguments)
        expected = (expect,) if isinstance(expect, int) else expect
        assert response.status_code in expected, (viewer.kind, method, url, response.text)
        return self.scan.answer(viewer, self.game_id, response, sent)

    def view(self, viewer: Viewer) -> dict[str, Any]:
        view: dict[str, Any] = self.call(viewer, "GET", self.url, expect=200)
        return view

    def watchers(self) -> list[Viewer]:
        """Every signed-in viewer of the table: its players, the spectator, the changer."""
        viewers = [*self.players.values(), self.spectator]
        return viewers if self.changer in viewers else [*viewers, self.changer]

    # -- before the start ---------------------------------------------------------

    def sit(self, viewer: Viewer, seat: int) -> None:
        viewer.seat = seat  # the answer is the view of that seat
        self.call(viewer, "POST", f"{self.url}/seats", json={"seat": seat}, expect=201)

    def stand_up(self, viewer: Viewer) -> None:
        seat, viewer.seat = viewer.seat, None
        self.call(viewer, "DELETE", f"{self.url}/seats/{seat}", expect=200)

    def fill(self) -> None:
        """The changer's visits with their feeds, then the table filled (the game starts)."""
        for seat in self.plan.changer_visits:
            self.sit(self.changer, seat)
            self.feeds.append((self.changer, open_stream(self.changer.client, self.game_id)))
            self.feeds.append((self.changer, send_long_poll(self.changer.client, self.game_id)))
            time.sleep(PARK_SECONDS)  # parked, its first read done for this seat
            self.stand_up(self.changer)
        if self.plan.changer_ends is not None:
            self.sit(self.changer, self.plan.changer_ends)
            self.players[self.plan.changer_ends] = self.changer
        for viewer in (self.changer, self.spectator, self.creator):
            self.feeds.append((viewer, open_stream(viewer.client, self.game_id)))
        if self.plan.bot_seat is not None:
            bot = {"seat": self.plan.bot_seat, "level": "basic"}
            self.call(self.creator, "POST", f"{self.url}/bots", json=bot, expect=201)
        free = [
            seat for seat in range(4) if seat not in self.players and seat != self.plan.bot_seat
        ]
        for seat, joiner in zip(free, self.joiners, strict=False):
            self.players[seat] = joiner
            self.sit(joiner, seat)  # the last one deals

    # -- the game -------------------------------------------------------------------

    def play(self) -> None:
        """Random legal actions from each seat's own view, the bot's turns played as the
        worker would, wrong moves from every seat, everything read now and then."""
        for step in range(1000):
            public = self.view(self.spectator)
            if public["status"] == "finished":
                return
            version, turn = public["version"], public["turn"]
            if turn == self.plan.bot_seat:
                assert tasks.play_bot_turn(str(self.game_id), version)
                continue
            own = self.view(self.players[turn])
            action = self.rng.choice(own["legal_actions"])
            self.send_wrong_moves(step, own, action)
            assert stored_version(self.game_id) == version, "a refused move appended nothing"
            polls = []
            if step % CHECKPOINT_EVERY == 0:
                polls = [
                    (viewer, send_long_poll(viewer.client, self.game_id, after=version))
                    for viewer in self.watchers()
                ]
                time.sleep(PARK_SECONDS)  # parked: the action below wakes them all at once
                self.read_everything(version)
            body = {"action": action, "expected_version": version}
            self.call(self.players[turn], "POST", f"{self.url}/actions", json=body, expect=201)
            for viewer, poll in polls:
                self.scan.answer(viewer, self.game_id, poll.join(), frozenset())
        raise AssertionError("the game never ended")

    def send_wrong_moves(self, step: int, own: dict[str, Any], action: dict[str, Any]) -> None:
        """From the seat to act: a stale version, then one of: another seat's card, one
        of its own cards it may not play, no card at all, a malformed If-Match. From a
        seat to wait: a move of its own; from a watcher: any move."""
        actions, version, turn = f"{self.url}/actions", own["version"], own["turn"]
        actor = self.players[turn]
        stale = {"action": action, "expected_version": version - 1}
        self.call(actor, "POST", actions, json=stale, expect=409)
        card = self.wrong_card(step, own)
        if card is None:
            self.call(
                actor,
                "POST",
                actions,
                json={"action": action},
                headers={"If-Match": 'W/"1"'},
                expect=412,
            )
        else:
            move = {"action": {"type": "play", "card": card}, "expected_version": version}
            self.call(actor, "POST", actions, json=move, expect=(400, 422), sent=frozenset({card}))
        waiting = [seat for seat in self.players if seat != turn]
        other = self.players[waiting[step % len(waiting)]]
        hand = self.view(other)["hand"]
        move = (
            {"type": "play", "card": hand[0]}
            if hand and own["phase"] == "playing"
            else {"type": "take"}
        )
        self.call(
            other, "POST", actions, json={"action": move, "expected_version": version}, expect=422
        )
        watcher = (
            self.spectator if step % 2 or self.changer in self.players.values() else self.changer
        )
        self.call(
            watcher,
            "POST",
            actions,
            json={"action": action, "expected_version": version},
            expect=403,
        )

    def wrong_card(self, step: int, own: dict[str, Any]) -> str | None:
        """Another seat's card, one of the actor's it may not play, "1Z" (none), or None
        (no card: a malformed If-Match instead)."""
        kind = step % 4
        if kind == 3:
            return None
        candidates = []
        if kind == 0:
            state = store.load(self.game_id).state
            others = (seat for seat in range(4) if seat != own["seat"])
            candidates = [card for seat in others for card in rules.view(state, seat)["hand"]]
        elif kind == 1:
            playable = {action.get("card") for action in own["legal_actions"]}
            candidates = sorted(set(own["hand"]) - playable)
        return self.rng.choice(candidates) if candidates else "1Z"

    def read_everything(self, version: int) -> None:
        """Every watcher's event pages from a random point, its lists and a 304; the
        anonymous client everywhere."""
        for viewer in self.watchers():
            after = self.rng.randrange(version + 1)
            page_url: str | None = f"{self.url}/events?after={after}&limit=7"
            while page_url:
                page_url = self.call(viewer, "GET", page_url, expect=200)["next"]
            self.call(viewer, "GET", GAMES, params={"mine": "true"}, expect=200)
            self.call(
                viewer, "GET", GAMES, params={"status": "playing", "page_size": 50}, expect=200
            )
            self.call(
                viewer, "GET", self.url, headers={"If-None-Match": f'"{version}"'}, expect=304
            )
        self.anonymous_everywhere(version)

    def anonymous_everywhere(self, version: int) -> None:
        move = {"action": {"type": "pass"}, "expected_version": version}
        for method, url, body in (
            ("GET", GAMES, None),
            ("POST", GAMES, {"options": {"target": 1}}),
            ("GET", self.url, None),
            ("POST", f"{self.url}/seats", {"seat": 1}),
            ("DELETE", f"{self.url}/seats/1", None),
            ("POST", f"{self.url}/bots", {"seat": 1, "level": "random"}),
            ("POST", f"{self.url}/actions", move),
            ("GET", f"{self.url}/events?after=0", None),
            ("GET", f"{self.url}/events?after={version}&wait=5", None),
            ("GET", f"{self.url}/stream", None),
            ("GET", "/api/v1/me", None),
        ):
            problem = self.call(self.anonymous, method, url, json=body, expect=401)
            assert problem["code"] == "not_authenticated"

    # -- after the end ----------------------------------------------------------------

    def finish(self) -> None:
        """Every feed collected, every watcher's whole game as a page and its last view;
        the public endpoints answer the anonymous client."""
        for viewer, feed in self.feeds:
            result = feed.join()
            if isinstance(result, StreamRead):
                self.scan.stream(viewer, self.game_id, result)
            else:
                self.scan.answer(viewer, self.game_id, result, frozenset())
        for viewer in self.watchers():
            self.call(viewer, "GET", f"{self.url}/events?after=0&limit=500", expect=200)
            self.view(viewer)
        self.anonymous_everywhere(stored_version(self.game_id))
        self.call(self.anonymous, "GET", "/healthz", expect=200)
        assert self.anonymous.client.get("/api/v1/schema/").status_code == 200
        for viewer in (*self.watchers(), *self.joiners, self.anonymous):
            viewer.client.close()


def test_no_answer_or_feed_message_shows_a_viewer_what_it_may_not_see(
    server: LiveServer, make_user: Callable[..., User]
) -> None:
    scan = Scan()
    for plan in PLANS:
        table = ScannedTable(scan, server, make_user, plan)
        table.fill()
        table.play()
        table.finish()

    assert scan.leaks() == []
    print(f"\nanswers {dict(scan.answers)}; feed messages {dict(scan.messages)}")
    assert set(scan.answers) == {PLAYER, SPECTATOR, ANONYMOUS, CHANGER}
    assert set(scan.messages) == {PLAYER, SPECTATOR, CHANGER}
    # The scan knows a secret when it meets one: players get cards nobody else may see
    # and seeds it held secret until their hands ended, and the bot's moves are in it.
    assert scan.sightings() == {"own hidden cards": True, "revealed seeds": True, "bot moves": True}
