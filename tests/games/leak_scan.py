"""The hidden-information scan's record: who saw what, and the truth to hold it to
(tests/games/test_hidden_information_scan.py plays the tables)."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

import httpx

from games.models import Game
from tests.games.feed_support import (
    StreamRead,
    parse_sse,
)
from tests.games.leaks import (
    HAND_ENDS,
    NOTHING_HIDDEN,
    Secrets,
    card_strings,
    secrets_by_seq,
    seeds_in,
)

GAMES = "/api/v1/games"
#: every so many actions, everyone reads event pages, the lists and a held long-poll
CHECKPOINT_EVERY = 15
PLAYER, SPECTATOR, ANONYMOUS, CHANGER = "player", "spectator", "anonymous", "seat changer"


@dataclass
class Viewer:
    kind: str
    client: httpx.Client
    seat: int | None = None  # the seat held now; None: watching


@dataclass(frozen=True)
class Seen:
    """One thing a viewer was given and the seq (event) or version (anything else) it
    reflects; `sent`: cards the viewer named in its request, which an error may echo."""

    kind: str
    seat: int | None
    game_id: UUID
    seq: int
    body: Any
    text: str
    sent: frozenset[str] = frozenset()
    is_view: bool = False


@dataclass
class Scan:
    seen: list[Seen] = field(default_factory=list)
    answers: Counter[str] = field(default_factory=Counter)
    messages: Counter[str] = field(default_factory=Counter)
    _truths: dict[UUID, dict[int, Secrets]] = field(default_factory=dict)

    def answer(
        self, viewer: Viewer, game_id: UUID, response: httpx.Response, sent: frozenset[str]
    ) -> Any:
        """Record an HTTP answer (never a 5xx): its events at their seqs, a list's rows
        at their games' versions, the rest (a view, a problem, a page) at the game's
        version now."""
        assert response.status_code < 500, response.text
        self.answers[viewer.kind] += 1
        now = stored_version(game_id)
        body = response.json() if response.content else None
        parts = dict(body) if isinstance(body, dict) else {}
        for event in parts.pop("events", []):
            self.event(viewer, game_id, event, json.dumps(event))
        for row in parts.pop("results", []):
            row_game = UUID(row["id"])
            seat = viewer.seat if row_game == game_id else None
            self.seen.append(
                Seen(viewer.kind, seat, row_game, row["version"], row, json.dumps(row))
            )
        for view in views_in(parts):
            assert view["version"] == now
            self._note(viewer, game_id, now, view, json.dumps(view), is_view=True)
        headers = "\n".join(f"{name}: {value}" for name, value in response.headers.items())
        rest = parts if isinstance(body, dict) else body
        self._note(viewer, game_id, now, rest, f"{headers}\n{json.dumps(rest)}", sent=sent)
        return body

    def event(self, viewer: Viewer, game_id: UUID, event: dict[str, Any], text: str) -> None:
        self.messages[viewer.kind] += 1
        self._note(viewer, game_id, event["seq"], event, text)

    def stream(self, viewer: Viewer, game_id: UUID, read: StreamRead) -> None:
        assert read.status == 200
        assert read.ended, "the server ends every stream of these games"
        for frame in parse_sse(read.text):
            event = json.loads(frame["data"])
            assert (frame["id"], frame["event"]) == (str(event["seq"]), event["type"])
            self.event(viewer, game_id, event, json.dumps(frame))

    def _note(
        self,
        viewer: Viewer,
        game_id: UUID,
        seq: int,
        body: Any,
        text: str,
        *,
        sent: frozenset[str] = frozenset(),
        is_view: bool = False,
    ) -> None:
        self.seen.append(Seen(viewer.kind, viewer.seat, game_id, seq, body, text, sent, is_view))

    def truth(self, game_id: UUID, seq: int) -> Secrets:
        if game_id not in self._truths:
            self._truths[game_id] = secrets_by_seq(game_id)
        return self._truths[game_id].get(seq, NOTHING_HIDDEN)

    def leaks(self) -> list[str]:
        """Everything seen that its viewer could not see at its moment."""
        found = []
        for seen in self.seen:
            secrets = self.truth(seen.game_id, seen.seq)
            cards = set(card_strings(seen.body)) & secrets.cards_hidden_from(seen.seat) - seen.sent
            seeds = seeds_in(seen.text) & secrets.seeds
            where = f"{seen.kind} (seat {seen.seat}) at {seen.seq} of {seen.game_id}"
            if cards or seeds:
                found.append(f"{where}: cards {sorted(cards)}, seeds {sorted(seeds)}")
            if seen.is_view and view_hand(seen.body) != true_hand(secrets, seen.seat):
                found.append(f"{where}: a view of seat {seen.body['seat']}: {seen.body['hand']}")
        return found

    def sightings(self) -> dict[str, bool]:
        """Whether the feeds held what the scan must recognise: a player's own cards
        hidden from the others, a seed revealed that was secret the event before, bot
        moves."""
        events = [
            seen for seen in self.seen if isinstance(seen.body, dict) and "actor" in seen.body
        ]
        return {
            "own hidden cards": any(
                seen.kind == PLAYER
                and set(card_strings(seen.body))
                & self.truth(seen.game_id, seen.seq).cards_hidden_from(None)
                for seen in events
            ),
            "revealed seeds": any(
                seen.body["type"] in HAND_ENDS
                and seeds_in(seen.text) & self.truth(seen.game_id, seen.seq - 1).seeds
                for seen in events
            ),
            "bot moves": any(seen.body["actor"] == "bot" for seen in events),
        }


def views_in(body: Any) -> list[dict[str, Any]]:
    """The game views in an answer: the answer itself, or its `game` (an action's
    answer, a version conflict)."""
    if not isinstance(body, dict):
        return []
    if "legal_actions" in body:
        return [body]
    return views_in(body.get("game"))


def view_hand(view: dict[str, Any]) -> tuple[int | None, set[str]]:
    return view["seat"], set(view["hand"])


def true_hand(secrets: Secrets, seat: int | None) -> tuple[int | None, set[str]]:
    return seat, set() if seat is None else set(secrets.hands[seat])


def stored_version(game_id: UUID) -> int:
    version: int = Game.objects.values_list("version", flat=True).get(pk=game_id)
    return version


@dataclass(frozen=True)
class Plan:
    """One table: the seats the changer sits at and leaves, where it ends (None:
    watching), a bot's seat (None: none), the seed of everyone's random choices, and
    whether it is a board (docs/rules.md, "Boards": its end reveals no seed)."""

    changer_visits: tuple[int, ...]
    changer_ends: int | None
    bot_seat: int | None
    seed: int
    board: bool = False


PLANS = (
    Plan(changer_visits=(1, 2, 3), changer_ends=None, bot_seat=None, seed=11),
    Plan(changer_visits=(2, 3), changer_ends=1, bot_seat=None, seed=22),
    Plan(changer_visits=(1,), changer_ends=None, bot_seat=3, seed=33),
    Plan(changer_visits=(3,), changer_ends=None, bot_seat=1, seed=44, board=True),
)
