"""A duplicate through the tournament endpoints, every answer checked against the schema
(conftest.py): its settings, its boards in the rounds list, and no board secret in any
answer before both of its tables have finished."""

from __future__ import annotations

from typing import Any

import pytest

from games import selectors as game_selectors
from games.rules import fairness
from tests.tournaments.helpers import play_out
from tournaments import services
from tournaments.models import Board

pytestmark = pytest.mark.django_db

T = "/api/v1/tournaments"


def create(client: Any, **body: Any) -> Any:
    body = {"name": "duplicate night", "format": "duplicate", "boards": 2, **body}
    return client.post(T, body, format="json")


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"boards": None}, 422, "invalid_tournament"),
        ({"boards": 0}, 400, "validation_failed"),
        ({"boards": 17}, 400, "validation_failed"),
        ({"boards": True}, 400, "validation_failed"),
        ({"format": "swiss", "rounds": 2}, 422, "invalid_tournament"),
        ({"no_show": "forfeit"}, 422, "invalid_tournament"),
        ({"rounds": 2}, 422, "invalid_tournament"),
    ],
)
def test_bad_duplicate_settings_are_refused(
    auth_client: Any, body: dict[str, Any], status: int, code: str
) -> None:
    client = auth_client()
    answer = create(client, **body)
    assert (answer.status_code, answer.json()["code"]) == (status, code)
    assert client.get(T).json()["results"] == []


def test_a_duplicate_plays_every_board_with_its_game_options(auth_client: Any) -> None:
    answer = create(auth_client(), options={"target": 1000})
    assert answer.status_code == 201, answer.content
    assert (answer.json()["format"], answer.json()["boards"]) == ("duplicate", 2)


def answers(client: Any, tid: str) -> list[str]:
    paths = (T, f"{T}/{tid}", f"{T}/{tid}/rounds", f"{T}/{tid}/standings", f"{T}/{tid}/progress")
    return [client.get(path).content.decode() for path in paths]


def hidden(board: Board) -> list[str]:
    """What must not show before the board is revealed: its chain end, s(1), and the
    seeds of its tables' deal."""
    first_secret = fairness.hand_secret(bytes.fromhex(board.secret), 1).hex()
    seeds = [
        game_selectors.table_state(game_id).loaded.state.hand_seed
        for game_id in (board.first_game_id, board.second_game_id)
        if game_id is not None
    ]
    return [board.secret, first_secret, *seeds]


# The progress feed reads on another thread, with its own connection: it sees only what
# is committed, so this test commits (as tests/tournaments/test_api.py's feed tests do).
@pytest.mark.django_db(transaction=True)
def test_no_answer_shows_a_boards_secret_until_both_its_tables_have_finished(
    auth_client: Any, user: Any
) -> None:
    organiser = auth_client(user)
    tid = create(organiser, boards=1).json()["id"]
    for number in range(2):
        organiser.post(
            f"{T}/{tid}/bot-teams",
            {"name": f"bots {number}", "levels": ["random", "random"]},
            format="json",
        )
    assert organiser.post(f"{T}/{tid}/start").status_code == 200
    feed = organiser.get(f"{T}/{tid}/progress").json()
    assert [entry["type"] for entry in feed] == ["boards_committed", "round_started"]
    (board,) = Board.objects.filter(match__round__tournament_id=tid)
    (line,) = organiser.get(f"{T}/{tid}/rounds").json()[0]["matches"][0]["boards"]
    assert line["commitment"] == feed[0]["payload"]["boards"][0]["commitment"] == board.commitment
    assert (line["secret"], line["second_game_id"]) == (None, None)
    play_out(board.first_game_id)
    services.game_result_record(board.first_game_id)
    board.refresh_from_db()
    texts = answers(organiser, tid)
    play_out(board.second_game_id)
    texts += answers(organiser, tid)
    for text in texts:
        assert not [secret for secret in hidden(board) if secret in text]
    services.game_result_record(board.second_game_id)
    (line,) = organiser.get(f"{T}/{tid}/rounds").json()[0]["matches"][0]["boards"]
    assert fairness.step(bytes.fromhex(line["secret"])).hex() == board.commitment
    assert board.secret not in organiser.get(f"{T}/{tid}/rounds").content.decode()
    revealed = organiser.get(f"{T}/{tid}/progress").json()[-1]
    assert revealed["type"] == "board_revealed"
    assert revealed["payload"]["secret"] == line["secret"]
