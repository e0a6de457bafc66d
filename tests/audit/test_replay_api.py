"""GET .../replay?seq=N: the game as of any event, as the caller could see it then."""

from __future__ import annotations

import pytest

from games import rules
from games.models import Game, GameEvent
from games.rules.cards import names_of
from games.store.stream import load_events_after
from tests.audit.stored import play_stored, seated_table
from tests.games.helpers import GAMES

pytestmark = [pytest.mark.services, pytest.mark.django_db]

VIEW_ONLY = {
    "id",
    "version",
    "head_hash",
    "fairness",
    "seat",
    "seats",
    "options",
    "complete",
    "all_hands",
}


@pytest.fixture
def players(make_user):
    return [make_user() for _ in range(4)]


def _replay(client, game_id, seq):
    answer = client.get(f"{GAMES}/{game_id}/replay", {"seq": seq})
    assert answer.status_code == 200, answer.content
    return answer.json()


def _states(game_id):
    """(seq, state after it, its hash) for every event, built one event at a time."""
    state, built = rules.new_game(), []
    for stored in load_events_after(game_id, 0):
        state = rules.apply(state, stored.event)
        built.append((stored.seq, state, stored.hash))
    return built


def test_replay_at_every_seq_of_a_finished_game_is_the_state_built_event_by_event(
    players, auth_client
):
    game_id = seated_table(players, {"target": 150})
    play_stored(game_id, 2)
    assert Game.objects.get(pk=game_id).status == "finished"
    seated, watcher = auth_client(players[2]), auth_client()
    for seq, state, link in _states(game_id):
        for client, seat in ((seated, 2), (watcher, None)):
            body = _replay(client, game_id, seq)
            assert (body["version"], body["head_hash"], body["complete"]) == (seq, link, True)
            expected = rules.view(state, seat)
            assert {key: body[key] for key in body if key not in VIEW_ONLY} == {
                key: value for key, value in expected.items() if key not in VIEW_ONLY
            }
            assert (body["seat"], body["options"]) == (seat, expected["options"])
            assert body["all_hands"] == {str(s): names_of(state.hands[s]) for s in range(4)}


def test_while_the_game_runs_a_replay_shows_only_what_the_caller_saw_then(players, auth_client):
    game_id = seated_table(players)
    play_stored(game_id, 4, actions=40)
    built = _states(game_id)
    for seq, state, _ in built[:: max(1, len(built) // 12)]:
        for seat in (0, 3):
            body = _replay(auth_client(players[seat]), game_id, seq)
            assert body["complete"] is False
            assert body["all_hands"] is None
            assert body["hand"] == names_of(state.hands[seat])
            assert body == {**body, **rules.view(state, seat)}
            others = {card for s in range(4) if s != seat for card in names_of(state.hands[s])}
            assert not others & set(body["hand"])
            # a hand's end (scored or thrown in) reveals its seed; until then it is hidden
            if state.hand_seed and state.phase != "hand_over":
                assert state.hand_seed not in str(body)
        watcher = _replay(auth_client(), game_id, seq)
        assert (watcher["seat"], watcher["hand"], watcher["legal_actions"]) == (None, [], [])


def test_seq_zero_is_before_any_event_and_past_the_end_is_refused(players, auth_client):
    game_id = seated_table(players)
    client = auth_client(players[0])
    first = _replay(client, game_id, 0)
    assert (first["version"], first["status"], first["head_hash"]) == (0, "waiting", "0" * 64)
    last = GameEvent.objects.filter(game_id=game_id).count()
    refused = client.get(f"{GAMES}/{game_id}/replay", {"seq": last + 1})
    assert refused.status_code == 404
    assert refused.json()["code"] == "event_not_found"
    for bad in ({}, {"seq": -1}, {"seq": "x"}):
        answer = client.get(f"{GAMES}/{game_id}/replay", bad)
        assert answer.status_code == 400
        assert answer.json()["code"] == "validation_failed"
