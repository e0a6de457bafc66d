"""The readable record of a game (games/audit/record.py): from the events alone, served by
`GET /games/{id}/record` and printed offline by `python -m games.audit.record`."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from games import store
from games.audit.record import game_record
from games.models import Game
from tests.audit.stored import seated_table
from tests.games.helpers import GAMES

pytestmark = [pytest.mark.services, pytest.mark.django_db]

ROOT = Path(__file__).resolve().parents[2]
_TRICK = re.compile(
    r"^ +\d+\. ((?:[0-3]:[2-9TJQKA][CDHS](?: \(\w+\))? ?){4}) +-> seat ([0-3]), (\d+)$"
)


def _hands(text: str) -> list[list[str]]:
    blocks = text.split("\nHand ")[1:]
    return [block.splitlines() for block in blocks]


def test_the_record_tells_each_hand_card_by_card(finished, players, auth_client):
    answer = auth_client().get(f"{GAMES}/{finished}/record")
    text = answer.content.decode()
    game = Game.objects.get(pk=finished)

    assert answer.status_code == 200
    assert answer["Content-Type"] == "text/plain; charset=utf-8"
    assert f'[Game "{finished}"]' in text
    assert f'[Seat0 "{players[0].username}"]' in text
    assert f'[Scores "{game.scores[0]}-{game.scores[1]}"]' in text
    result = "1-0" if game.scores[0] > game.scores[1] else "0-1"
    assert f'[Result "{result}"]' in text
    assert text.rstrip().endswith(result)
    for lines in _hands(text):
        held = {
            int(line.split(":")[0].split()[-1]): set(line.split(": ")[1].split())
            for line in lines
            if line.startswith("  Seat ") and ":" in line and "timed out" not in line
        }
        tricks = [_TRICK.match(line) for line in lines if _TRICK.match(line)]
        if any("Thrown in" in line for line in lines):
            assert tricks == []
            continue
        # Eight tricks of four cards; each card came from its player's hand, once.
        assert len(tricks) == 8
        assert all(len(cards) == 8 for cards in held.values())
        played = [play.split(":") for trick in tricks for play in trick.group(1).split()
                  if ":" in play]  # fmt: skip
        assert sorted(card for _, card in played) == sorted(set().union(*held.values()))
        assert all(card in held[int(seat)] for seat, card in played)
        assert sum(int(trick.group(3)) for trick in tricks) in {162, 252, 250}


def test_a_running_games_record_is_staffs_alone(players, auth_client, make_user):
    game_id = seated_table(players)

    operator = make_user()
    operator.is_staff = True
    operator.save()

    refused = auth_client(players[0]).get(f"{GAMES}/{game_id}/record")
    staff = auth_client(operator).get(f"{GAMES}/{game_id}/record")

    assert refused.status_code == 409
    assert refused.json()["code"] == "game_not_over"
    assert staff.status_code == 200
    assert "Hand 1: dealer seat" in staff.content.decode()
    assert staff.content.decode().rstrip().endswith("*")


def test_the_record_is_printed_offline_from_an_export(finished, auth_client, tmp_path):
    export = auth_client().get(f"{GAMES}/{finished}/export").content
    (tmp_path / "game.ndjson").write_bytes(export)
    events = store.load_events_after(finished, 0)

    printed = subprocess.run(
        [sys.executable, "-m", "games.audit.record", str(tmp_path / "game.ndjson")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )

    assert printed.stdout == game_record([event.event for event in events])
    assert all(name in printed.stdout for name in ("[Result", "Bidding:", "Score:"))
