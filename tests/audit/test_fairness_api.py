"""Commit-reveal at the table (docs/fairness.md): the commitment is public from the
table's creation, each seat's client seed goes into every deal, and no hand's secret
shows in any answer or feed message before that hand ends."""

from __future__ import annotations

import json
import random

import pytest

from games.models import Game, GameEvent
from games.rules import fairness
from tests.games.helpers import GAMES

pytestmark = [pytest.mark.services, pytest.mark.django_db]


def _seated(auth_client, seeds):
    clients = [auth_client() for _ in range(4)]
    created = clients[0].post(
        GAMES, {"options": {}, "seat": 0, "client_seed": seeds[0]}, format="json"
    )
    assert created.status_code == 201, created.content
    view = created.json()
    game_id = view["id"]
    for seat in (1, 2, 3):
        body = {"seat": seat} if seeds[seat] is None else {"seat": seat, "client_seed": seeds[seat]}
        joined = clients[seat].post(f"{GAMES}/{game_id}/seats", body, format="json")
        assert joined.status_code == 201, joined.content
    return game_id, clients, view


def test_the_commitment_comes_first_and_every_deal_follows_from_it(auth_client):
    game_id, _, created = _seated(auth_client, ["alice-7f", "b0b", None, "d4n"])
    published = created["fairness"]["secret_chain"]
    assert len(published) == 64
    assert created["fairness"]["client_seeds"] == ["alice-7f", None, None, None]
    started = GameEvent.objects.get(game_id=game_id, seq=1).payload
    assert started["secret_chain"] == published
    assert started["client_seeds"] == ["alice-7f", "b0b", "", "d4n"]
    dealt = GameEvent.objects.get(game_id=game_id, seq=2).payload
    secret = bytes.fromhex(dealt["secret"])
    assert fairness.step(secret).hex() == published
    assert dealt["seed"] == fairness.hand_seed(secret, started["client_seeds"], 1).hex()
    assert started["game_seed"] == fairness.hand_seed(secret, started["client_seeds"], 0).hex()
    game = Game.objects.get(pk=game_id)
    assert fairness.hand_secret(bytes.fromhex(game.hand_secrets), 1) == secret


def test_a_bots_client_seed_is_fixed_by_the_commitment(auth_client):
    client = auth_client()
    created = client.post(GAMES, {"options": {}, "seat": 0}, format="json").json()
    for seat in (1, 2, 3):
        answer = client.post(
            f"{GAMES}/{created['id']}/bots", {"seat": seat, "level": "random"}, format="json"
        )
        assert answer.status_code == 201, answer.content
    started = GameEvent.objects.get(game_id=created["id"], seq=1).payload
    chain = created["fairness"]["secret_chain"]
    assert started["client_seeds"] == [
        "",
        *(fairness.bot_client_seed(chain, seat) for seat in (1, 2, 3)),
    ]


@pytest.mark.parametrize("seed", ["", "x" * 65, "two words", "caf\u00e9", 0, 7.5, True])
def test_a_client_seed_that_is_not_1_to_64_printable_ascii_is_refused(auth_client, seed):
    answer = auth_client().post(GAMES, {"options": {}, "client_seed": seed}, format="json")
    assert answer.status_code == 400
    assert answer.json()["code"] == "validation_failed"


def _hands_over(view):
    """The first hand not over as of `view` (every hand is, once the game is)."""
    return view["hand_number"] + (view["status"] == "finished")


def test_no_hands_secret_shows_in_any_answer_or_feed_message_before_it_ends(auth_client):
    game_id, clients, _ = _seated(auth_client, ["1", "2", "3", "4"])
    watcher = auth_client()
    end = bytes.fromhex(Game.objects.get(pk=game_id).hand_secrets)
    url = f"{GAMES}/{game_id}"
    rng = random.Random(3)
    seen: list[tuple[int, str]] = []  # (the first hand not over then, an answer's text)

    def read(client, path, hand):
        answer = client.get(path)
        seen.append((hand, answer.content.decode()))
        return answer

    for count in range(2000):
        answer = watcher.get(url)
        view = answer.json()
        hand = view["hand_number"]
        seen.append((_hands_over(view), answer.content.decode()))
        if hand > 3 or view["status"] == "finished":
            break
        for client in (*clients, watcher) if count % 6 == 0 else ():
            read(client, f"{url}/events?after=0&limit=500", hand)
            read(client, f"{url}/replay?seq={view['version']}", hand)
            read(client, f"{url}/audit", hand)
            read(client, f"{url}/export", hand)
        seat = view["turn"]
        own = read(clients[seat], url, hand).json()
        acted = clients[seat].post(
            f"{url}/actions",
            {"action": rng.choice(own["legal_actions"]), "expected_version": own["version"]},
            format="json",
        )
        assert acted.status_code == 201, acted.content
        # an answer that ends a hand reveals that hand's secret
        seen.append((_hands_over(acted.json()["game"]), acted.content.decode()))
    assert seen
    for hand, text in seen:
        # the chain's end, and every secret of a hand not yet over when this was sent
        hidden = [end.hex()] + [
            fairness.hand_secret(end, later).hex() for later in range(max(hand, 1), 6)
        ]
        assert not [secret for secret in hidden if secret in text.lower()], (hand, text[:200])
    revealed = fairness.hand_secret(end, 1).hex()
    ended = [
        row.payload
        for row in GameEvent.objects.filter(
            game_id=game_id, type__in=["hand_scored", "hand_thrown_in"]
        ).order_by("seq")
    ]
    assert ended[0]["secret"] == revealed
    assert any(revealed in text for _, text in seen)
    assert json.dumps(ended)
