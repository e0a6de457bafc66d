"""Properties of whole random games, driven only through the public API."""

from __future__ import annotations

import hashlib
import json
import pickle
import random
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from games import rules
from games.rules.state import GAME_FIELDS
from games.rules.tricks import legal_cards_mask

GAME_LIMIT = 5000  # commands: far above any real game, so a loop is caught
SETTINGS = settings(
    max_examples=25,
    deadline=None,
    derandomize=True,  # the same games on every run
    phases=[
        Phase.explicit,
        Phase.generate,
    ],  # a failing game is printed whole; shrinking it is slow
    suppress_health_check=[HealthCheck.too_slow],
)

options_strategy = st.builds(
    rules.Options,
    target=st.sampled_from([1, 162, 501]),
    declarations=st.booleans(),
    auto_belote=st.booleans(),
    overtrump_partner_on_trump_lead=st.booleans(),
    tie_rule=st.sampled_from(["litige", "inside"]),
    capot_points=st.sampled_from([252, 250]),
)


@dataclass
class Step:
    """One accepted command: the state before, who acted, what, and what it produced."""

    before: Any
    seat: int
    action: dict[str, Any]
    events: tuple[Any, ...]


@dataclass
class Game:
    options: Any
    start_events: tuple[Any, ...]
    steps: list[Step] = field(default_factory=list)
    final: Any = None

    @property
    def events(self) -> list[Any]:
        return [*self.start_events, *(e for step in self.steps for e in step.events)]


def seed(*parts: int) -> bytes:
    return hashlib.sha256(b"/".join(str(p).encode() for p in parts)).digest()


def random_game(options: Any, game_number: int, choices: random.Random) -> Game:
    state = rules.new_game()
    started = rules.decide(state, rules.StartGame(seed(game_number), seed(game_number, 0), options))
    game = Game(options, started)
    state = rules.replay(started, state)
    while state.phase != "finished":
        assert len(game.steps) < GAME_LIMIT, "the game does not end"
        seat = state.turn
        offered = rules.legal_actions(state, seat)
        assert offered, "a seat to play must have a legal action"
        action = choices.choice(offered)
        command = rules.PlayerAction(
            seat, rules.parse_action(action), seed(game_number, len(game.steps) + 1)
        )
        produced = rules.decide(state, command)
        game.steps.append(Step(state, seat, action, produced))
        state = rules.replay(produced, state)
    game.final = state
    return game


games = st.builds(
    random_game, options_strategy, st.integers(0, 10**6), st.randoms(use_true_random=False)
)


def dicts_of(events: list[Any], kind: str) -> list[dict[str, Any]]:
    return [d for d in map(rules.event_to_dict, events) if d["type"] == kind]


@SETTINGS
@given(games)
def test_random_games_end_with_a_winner_over_the_target(game: Game) -> None:
    final = rules.view(game.final, None)
    assert final["status"] == "finished"
    (finished,) = dicts_of(game.events, "game_finished")
    scores = finished["scores"]
    assert scores[finished["winner"]] > scores[1 - finished["winner"]]
    assert max(scores) >= game.options.target
    assert final["waiting_points"] == 0


@SETTINGS
@given(games)
def test_card_points_make_162_a_hand_or_the_capot_points(game: Game) -> None:
    for scored in dicts_of(game.events, "hand_scored"):
        total = sum(scored["card_points"])
        assert total in (162, game.options.capot_points)
        assert (total == game.options.capot_points) == (0 in scored["card_points"])


@SETTINGS
@given(games)
def test_every_card_is_dealt_once_a_hand(game: Game) -> None:
    for deal in dicts_of(game.events, "hand_dealt"):
        cards = [c for seat in range(4) for c in deal["cards"][str(seat)]]
        cards += [deal["turned_card"], *deal["stock"]]
        assert sorted(cards) == sorted(rules.CARD_NAMES)
    for step in game.steps:
        for event in step.events:
            if rules.event_to_dict(event)["type"] == "rest_dealt":
                after = rules.replay(step.events, step.before)
                hands = [set(rules.view(after, s)["hand"]) for s in range(4)]
                assert all(len(h) == 8 for h in hands)
                assert set().union(*hands) == set(rules.CARD_NAMES)


@SETTINGS
@given(games)
def test_replay_equals_the_state_built_step_by_step(game: Game) -> None:
    events = list(game.start_events)
    for index, step in enumerate(game.steps):
        assert rules.replay(events) == step.before
        events += step.events
        if index % 7 == 0:  # the stored form replays to the same state too
            stored = [
                rules.event_from_dict(json.loads(json.dumps(rules.event_to_dict(e))))
                for e in events
            ]
            assert rules.replay(stored) == rules.replay(events)
    assert rules.replay(events) == game.final
    assert pickle.loads(pickle.dumps(game.final)) == game.final  # snapshots


def candidate_actions(state: Any, seat: int) -> list[dict[str, Any]]:
    """Every action shape worth trying: all plays, bids, and the seat's declaration offers."""
    plays = [
        {"type": "play", "card": card, **({} if belote is None else {"belote": belote})}
        for card in rules.CARD_NAMES
        for belote in (None, True, False)
    ]
    bids = [{"type": "take"}, {"type": "pass"}] + [
        {"type": "choose_trump", "suit": suit} for suit in "SHDC"
    ]
    bogus = {"type": "declare", "declarations": [{"kind": "tierce", "cards": ["7S", "8S", "9S"]}]}
    return [*plays, *bids, bogus]


@SETTINGS
@given(games, st.randoms(use_true_random=False))
def test_exactly_the_legal_actions_are_accepted(game: Game, pick: random.Random) -> None:
    for step in pick.sample(game.steps, min(40, len(game.steps))):
        offered = rules.legal_actions(step.before, step.seat)
        for action in offered:
            rules.decide(
                step.before, rules.PlayerAction(step.seat, rules.parse_action(action), b"")
            )
        for action in candidate_actions(step.before, step.seat):
            if action in offered:
                continue
            command = rules.PlayerAction(step.seat, rules.parse_action(action), b"")
            with pytest.raises(rules.RuleError) as refused:
                rules.decide(step.before, command)
            assert refused.value.code in rules.ERROR_CODES
        other = (step.seat + pick.randrange(1, 4)) % 4
        assert rules.legal_actions(step.before, other) == []


def strings_in(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings_in(v) for v in value.values()), set(map(str, value)))
    if isinstance(value, list | tuple):
        return set().union(*(strings_in(v) for v in value))
    return set()


def public_cards(state: Any) -> set[str]:
    """Cards anyone may know: the turned card and the declarations shown after trick 1."""
    seen = rules.view(state, None)
    shown = {card for d in seen["declarations"] for card in d["cards"] or ()}
    return shown | ({seen["turned_card"]} if seen["turned_card"] else set())


@SETTINGS
@given(games)
def test_a_view_never_shows_another_seats_hidden_cards(game: Game) -> None:
    for step in game.steps[::2]:
        state = step.before
        hands = {s: set(rules.view(state, s)["hand"]) for s in range(4)}
        public = public_cards(state)
        for viewer in (None, 0, 1, 2, 3):
            visible = strings_in(rules.view(state, viewer))
            for other in range(4):
                if other != viewer:
                    assert not (hands[other] - public) & visible, (viewer, other)


@SETTINGS
@given(games)
def test_redacted_events_carry_only_the_viewers_own_cards(game: Game) -> None:
    state = rules.replay(game.start_events)
    for event in [*game.start_events[1:], *(e for step in game.steps for e in step.events)]:
        state = rules.apply(state, event)
        full = rules.event_to_dict(event)
        for viewer in (None, 0, 1, 2, 3):
            seen = rules.redact(event, viewer, state)
            if full["type"] in ("hand_dealt", "rest_dealt"):
                assert seen is None or set(seen["cards"]) <= {str(viewer)}
                assert seen is None or ("stock" not in seen and "seed" not in seen)
            elif full["type"] == "declared" and viewer != full["seat"]:
                shown = strings_in(rules.view(state, None)["declarations"])
                assert all(set(d.get("cards", ())) <= shown for d in seen["declarations"])
            else:
                assert seen == full


@SETTINGS
@given(games)
def test_the_state_knows_the_legal_cards_of_the_seat_to_play(game: Game) -> None:
    # `legal` is a property that decide and legal_actions read: check it
    # against the one function that decides legality, at every state of the game.
    state = rules.replay(game.start_events)
    for event in (e for step in game.steps for e in step.events):
        if state.phase == "playing" and state.turn >= 0 and len(state.trick) < 4:
            expected = legal_cards_mask(
                state.hands[state.turn],
                state.trick,
                state.trump,
                state.options.overtrump_partner_on_trump_lead,
            )
        else:
            expected = 0
        assert state.legal == expected
        state = rules.apply(state, event)


#: what the deal itself sets
DEALT_FIELDS = {
    "phase",
    "dealer",
    "hand_number",
    "hand_seed",
    "seed_commitment",
    "hands",
    "turned_card",
    "stock",
    "turn",
}


@SETTINGS
@given(games)
def test_a_new_deal_keeps_the_game_and_starts_every_other_field_afresh(game: Game) -> None:
    fresh = rules.GameState()
    state = rules.new_game()
    for event in (*game.start_events, *(e for step in game.steps for e in step.events)):
        after = rules.apply(state, event)
        if rules.event_to_dict(event)["type"] == "hand_dealt":
            for name in rules.GameState._fields:
                if name in GAME_FIELDS:
                    assert getattr(after, name) == getattr(state, name), name
                elif name not in DEALT_FIELDS:
                    assert getattr(after, name) == getattr(fresh, name), name
        state = after
