"""Duplicate boards (docs/fairness.md, "Boards"): the tables of a board, dealt from one
committed secret, get the same deal whoever sits where; no answer shows the secret or
the seed before the board's owner releases the deal; the released log verifies."""

from __future__ import annotations

import secrets
from typing import Any
from uuid import UUID

import pytest

from accounts.models import User
from games import services
from games.audit import verify
from games.models import GameEvent
from games.rules import fairness
from tests.audit.stored import play_stored
from tests.games.helpers import GAMES

pytestmark = [pytest.mark.services, pytest.mark.django_db]


def board(organiser: User, seats: list[services.SeatTaker], secret: str) -> UUID:
    return services.board_game_create(
        user=organiser, options={}, seats=seats, board_secret=secret
    ).id


def users(players: list[User]) -> list[services.SeatTaker]:
    return [services.SeatTaker(user_id=player.pk) for player in players]


def payload(game_id: UUID, seq: int) -> dict[str, Any]:
    return dict(GameEvent.objects.get(game_id=game_id, seq=seq).payload)


def test_both_tables_of_a_board_get_the_deal_its_commitment_fixes(players: list[User]) -> None:
    secret = secrets.token_hex(32)
    a0, b0, a1, b1 = players
    first = board(a0, users([a0, b0, a1, b1]), secret)
    # the teams swap seats: team A holds at table 2 the cards team B held at table 1
    second = board(a0, users([b0, a0, b1, a1]), secret)
    published = fairness.commitment(bytes.fromhex(secret))
    for game_id in (first, second):
        started = payload(game_id, 1)
        assert started["secret_chain"] == published
        assert started["client_seeds"] == ["", "", "", ""]
        assert started["options"]["board"] is True
    dealt = [payload(game_id, 2) for game_id in (first, second)]
    assert dealt[0]["cards"] == dealt[1]["cards"]
    assert (dealt[0]["dealer"], dealt[0]["stock"]) == (dealt[1]["dealer"], dealt[1]["stock"])
    assert fairness.step(bytes.fromhex(dealt[0]["secret"])).hex() == published


def test_bots_at_a_board_contribute_nothing_so_the_deal_stays_the_boards(
    players: list[User],
) -> None:
    secret = secrets.token_hex(32)
    bots = [services.SeatTaker(bot_level="random") for _ in range(4)]
    mixed = [bots[0], *users(players[1:])]
    dealt = [payload(board(players[0], seats, secret), 2) for seats in (bots, mixed)]
    assert dealt[0]["cards"] == dealt[1]["cards"]
    assert dealt[0]["client_seeds"] == ["", "", "", ""]


def test_a_board_needs_a_32_byte_secret(players: list[User]) -> None:
    with pytest.raises(ValueError, match="32 bytes"):
        board(players[0], users(players), "ab" * 16)


def test_a_boards_log_is_sealed_until_its_deal_is_released(
    players: list[User], auth_client: Any
) -> None:
    secret = secrets.token_hex(32)
    game_id = board(players[0], users(players), secret)
    dealt = payload(game_id, 2)
    play_stored(game_id, 7)
    hidden = (dealt["seed"], dealt["secret"], secret)
    clients = [auth_client(player) for player in players] + [auth_client()]
    url = f"{GAMES}/{game_id}"
    for client in clients:
        for path in (url, f"{url}/replay?seq=3", f"{url}/replay?seq=40"):
            answer = client.get(path)
            assert answer.status_code == 200, answer.content
            assert not [value for value in hidden if value in answer.content.decode()]
        for path in (f"{url}/export", f"{url}/audit", f"{url}/record"):
            answer = client.get(path)
            assert (answer.status_code, answer.json()["code"]) == (409, "game_not_over")
    assert client.get(f"{url}/replay?seq=3").json()["all_hands"] is None
    assert services.board_deals_release(game_ids=[game_id]) == 1
    audit = clients[-1].get(f"{url}/audit")
    assert audit.status_code == 200, audit.content
    assert audit.json()["valid"] is True
    assert dealt["secret"] in clients[-1].get(f"{url}/export").content.decode()


def test_the_offline_verifier_checks_both_tables_against_the_boards_commitment(
    players: list[User], auth_client: Any, tmp_path: Any
) -> None:
    secret = secrets.token_hex(32)
    a0, b0, a1, b1 = players
    tables = [board(a0, users(seated), secret) for seated in ([a0, b0, a1, b1], [b0, a0, b1, a1])]
    for game_id in tables:
        play_stored(game_id, 3)
    assert services.board_deals_release(game_ids=tables) == 2
    published = fairness.commitment(bytes.fromhex(secret))
    for number, game_id in enumerate(tables):
        log = tmp_path / f"table{number}.ndjson"
        log.write_bytes(auth_client().get(f"{GAMES}/{game_id}/export").content)
        assert verify.main([str(log), "--commitment", published]) == 0
        assert verify.main([str(log), "--commitment", "0" * 64]) == 1
    report = verify.audit_text(log.read_text().splitlines(), commitment="ab" * 32)
    assert report.discrepancy is not None
    assert (report.discrepancy.seq, report.discrepancy.what) == (1, "commitment")
