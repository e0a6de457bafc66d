"""The schema describes what the rules produce, field for field: views and events of whole
games, for every seat and a spectator, validate against the closed schema components,
and the view's serializer names exactly the keys `rules.view` and the selectors give."""

import random
import uuid
from datetime import UTC, datetime

import jsonschema_rs
import pytest

from games import rules
from games.api.serializers import GameViewSerializer
from games.feed.events import served_event
from games.store.records import StoredEvent
from tests.openapi_contract import strict_schema

#: what games.selectors.game_view adds to rules.view (the clock is the service's, not the rules')
SELECTOR_KEYS = {
    "id",
    "version",
    "head_hash",
    "fairness",
    "seats",
    "turn_deadline",
    "time_banks_ms",
}
VIEWERS = (0, 1, 2, 3, None)


def _validator(component: str) -> jsonschema_rs.Draft202012Validator:
    # OpenAPI 3.1's schema objects are JSON Schema 2020-12 (plus annotations).
    schema = strict_schema()
    return jsonschema_rs.Draft202012Validator(
        {"$ref": f"#/components/schemas/{component}", **schema}
    )


def _game(seed: int, options: rules.Options) -> list[tuple[rules.GameState, list[rules.Event]]]:
    """Each state of a random game with the events that led to it."""
    rng = random.Random(seed)
    state = rules.new_game()
    command = rules.StartGame(
        options=options, game_seed=rng.randbytes(32), hand_seed=rng.randbytes(32)
    )
    events = rules.decide(state, command)
    states = []
    while True:
        before = state
        state = rules.replay(events, state)
        states.append((before, events))
        if state.phase == "finished":
            return [*states, (state, [])]
        action = rng.choice(rules.legal_actions(state, state.turn))
        events = rules.decide(
            state, rules.PlayerAction(state.turn, rules.parse_action(action), rng.randbytes(32))
        )


def _api_view(state: rules.GameState, seat: int | None, version: int) -> dict:
    seats = [{"seat": n, "username": f"p{n}", "bot_level": None} for n in range(4)]
    return {
        **rules.view(state, seat),
        "id": str(uuid.uuid4()),
        "version": version,
        "head_hash": f"{version:064x}",
        "fairness": {"secret_chain": state.secret_chain, "client_seeds": list(state.client_seeds)},
        "seats": seats,
        "turn_deadline": "2026-12-01T10:00:30.125Z" if state.turn is not None else None,
        "time_banks_ms": [60_000, 0, 15_500, 60_000],
    }


def test_the_view_serializer_names_exactly_what_the_api_view_holds():
    view = rules.view(rules.new_game(), 0)
    assert set(GameViewSerializer().fields) == set(view) | SELECTOR_KEYS


OPTIONS = [
    rules.Options(target=300),
    rules.Options(target=200, auto_belote=False, declarations=True, tie_rule="inside"),
]


@pytest.mark.parametrize(("seed", "options"), [(1, OPTIONS[0]), (2, OPTIONS[1]), (3, OPTIONS[0])])
def test_every_view_and_event_of_a_game_matches_the_schema(seed, options):
    views, events = _validator("GameView"), _validator("Event")
    version = 0
    seen_types = set()
    for before, produced in _game(seed, options):
        state = before
        for event in produced:
            version += 1
            state = rules.apply(state, event)
            stored = StoredEvent(version, event, "user", datetime.now(UTC))
            for seat in VIEWERS:
                visible = rules.redact(event, seat, state)
                if visible is not None:
                    events.validate(served_event(stored, visible))
                    seen_types.add(visible["type"])
        for seat in VIEWERS:
            views.validate(_api_view(state, seat, version))
    assert {"card_played", "hand_scored", "game_finished"} <= seen_types
