"""Hidden-information checks: what a response to one seat may not contain."""

from __future__ import annotations

import base64
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from games import rules, store
from games.audit.seeds import bot_seed

CARD = re.compile(r"^[789TJQKA][SHDC]$")
SEATS = range(4)


def card_strings(value: Any) -> Iterator[str]:
    """Every string in a JSON document that is a card, plus cards named inside texts."""
    if isinstance(value, dict):
        for item in value.values():
            yield from card_strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from card_strings(item)
    elif isinstance(value, str):
        if CARD.match(value):
            yield value
        else:
            yield from re.findall(r"\b[789TJQKA][SHDC]\b", value)


def hidden_from(game_id: str, viewer: int | None) -> set[str]:
    """The unplayed cards of the other seats that nobody but their holder knows now."""
    state = store.load(UUID(game_id)).state
    public = set(card_strings(rules.view(state, None)))
    others = set()
    for seat in SEATS:
        if seat != viewer:
            others.update(rules.view(state, seat)["hand"])
    return others - public


def assert_no_leak(
    game_id: str, viewer: int | None, body: Any, sent: frozenset[str] = frozenset()
) -> None:
    """`body` (a view, an error, a conflict) names none of the others' hidden cards.

    `sent`: cards the viewer named in the request, which an error may echo.
    """
    leaked = set(card_strings(body)) & hidden_from(game_id, viewer) - sent
    assert not leaked, f"seat {viewer} was shown {sorted(leaked)}"


def assert_events_redacted(viewer: int | None, events: list[dict[str, Any]]) -> None:
    """Dealt cards only for the viewer's own seat; stock and unrevealed seeds never."""
    own = {str(viewer)} if viewer is not None else set()
    for event in events:
        data = event["data"]
        if event["type"] == "hand_dealt":
            assert "stock" not in data
            assert "seed" not in data
            assert set(data["cards"]) <= own
        if event["type"] == "rest_dealt":
            assert set(data["cards"]) <= own
        if event["type"] == "declared" and data["seat"] != viewer:
            for declaration in data["declarations"]:
                assert "cards" not in declaration or declaration["cards"] == []


@dataclass(frozen=True)
class Secrets:
    """What is hidden after one event of a game.

    `hands`: every seat's unplayed cards; `cards`: those of them nobody but their
    holder knows (the turned card and shown declarations are public); `stock`: the
    cards not dealt yet; `seeds`: the unrevealed hand seed and every bot seed derived
    from it (docs/bots.md), as lowercase hex and unpadded URL-safe base64 (the forms
    `seeds_in` reduces any hex or base64 to).
    """

    hands: dict[int, frozenset[str]]
    cards: dict[int, frozenset[str]]
    stock: frozenset[str]
    seeds: frozenset[str]

    def cards_hidden_from(self, viewer: int | None) -> frozenset[str]:
        """The cards `viewer` (None: a spectator) may not see now."""
        return self.stock.union(*(cards for seat, cards in self.cards.items() if seat != viewer))


NOTHING_HIDDEN = Secrets(
    hands={seat: frozenset() for seat in SEATS},
    cards={seat: frozenset() for seat in SEATS},
    stock=frozenset(),
    seeds=frozenset(),
)
HAND_ENDS = frozenset({"hand_scored", "hand_thrown_in"})


def secrets_by_seq(game_id: UUID) -> dict[int, Secrets]:
    """After each stored event of the game: what is hidden then (the truth, folded from
    the events with the rules). A hand's seed is secret from its `hand_dealt` until the
    `hand_scored` or `hand_thrown_in` that reveals it; a hand thrown in reveals all."""
    stream = [(stored.seq, stored.event) for stored in store.load_events_after(game_id, 0)]
    seeds = _unrevealed_seeds([(seq, rules.event_to_dict(event)) for seq, event in stream])
    state = rules.new_game()
    public: set[str] = set()
    secrets: dict[int, Secrets] = {}
    for seq, event in stream:
        state = rules.apply(state, event)
        stored_form = rules.event_to_dict(event)
        if stored_form["type"] == "hand_dealt":
            public = {stored_form["turned_card"]}
        elif stored_form["type"] == "declarations_shown":
            public |= set(card_strings(stored_form["declarations"]))
        if stored_form["type"] == "hand_thrown_in":
            secrets[seq] = NOTHING_HIDDEN
            continue
        hands = {seat: frozenset(rules.view(state, seat)["hand"]) for seat in SEATS}
        secrets[seq] = Secrets(
            hands=hands,
            cards={seat: hands[seat] - public for seat in SEATS},
            stock=frozenset(rules.CARD_NAMES[card] for card in state.stock),
            seeds=seeds.get(seq, frozenset()),
        )
    return secrets


def _unrevealed_seeds(stream: list[tuple[int, dict[str, Any]]]) -> dict[int, frozenset[str]]:
    """Per seq, the seeds still secret then: each hand's seed and the bot seeds of every
    version of the hand, from its deal until its end (or the last event, while it is on)."""
    last = stream[-1][0] if stream else 0
    windows: list[tuple[int, int, bytes]] = []
    for seq, stored_form in stream:
        if stored_form["type"] == "hand_dealt":
            windows.append((seq, last + 1, bytes.fromhex(stored_form["seed"])))
        elif stored_form["type"] in HAND_ENDS:
            start, _, seed = windows[-1]
            windows[-1] = (start, seq, seed)
    unrevealed: dict[int, frozenset[str]] = {}
    for start, end, seed in windows:
        derived = [seed, *(bot_seed(seed, v, s) for v in range(start, end + 1) for s in SEATS)]
        forms = frozenset(form for value in derived for form in _seed_forms(value))
        unrevealed.update(dict.fromkeys(range(start, end), forms))
    return unrevealed


def _seed_forms(value: bytes) -> tuple[str, str]:
    return value.hex(), base64.urlsafe_b64encode(value).decode().rstrip("=")


HEX_RUN = re.compile(r"[0-9a-fA-F]{64,}")
BASE64_RUN = re.compile(r"[A-Za-z0-9+/_-]{43,}")


def seeds_in(text: str) -> set[str]:
    """Every 32-byte value written in `text` as hex (either case) or base64 (either
    alphabet), in the forms `Secrets.seeds` holds, wherever it sits in a longer run."""
    found: set[str] = set()
    for run in HEX_RUN.findall(text):
        lowered = run.lower()
        found.update(lowered[i : i + 64] for i in range(len(lowered) - 63))
    for run in BASE64_RUN.findall(text):
        urlsafe = run.replace("+", "-").replace("/", "_")
        found.update(urlsafe[i : i + 43] for i in range(len(urlsafe) - 42))
    return found
