"""HTTP helpers for the games tests: a table of four signed-in players."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from rest_framework.test import APIClient

GAMES = "/api/v1/games"


@dataclass
class Table:
    game_id: str
    clients: list[APIClient]  # index = seat

    @property
    def url(self) -> str:
        return f"{GAMES}/{self.game_id}"

    def view(self, seat: int) -> dict[str, Any]:
        response = self.clients[seat].get(self.url)
        assert response.status_code == 200, response.content
        return response.json()

    def act(self, seat: int, action: dict[str, Any], version: int, **headers: str) -> Any:
        return self.clients[seat].post(
            f"{self.url}/actions",
            {"action": action, "expected_version": version},
            format="json",
            headers=headers,
        )


def create_table(clients: list[APIClient], options: dict[str, Any] | None = None) -> Table:
    """Seat the four clients in order (the fourth join starts the game)."""
    response = clients[0].post(GAMES, {"options": options or {}, "seat": 0}, format="json")
    assert response.status_code == 201, response.content
    game_id = response.json()["id"]
    for seat, client in enumerate(clients[1:], start=1):
        joined = client.post(f"{GAMES}/{game_id}/seats", {"seat": seat}, format="json")
        assert joined.status_code == 201, joined.content
    return Table(game_id=game_id, clients=clients)


def turn_of(view: dict[str, Any]) -> int | None:
    return view["turn"] if view["status"] == "playing" else None


def pick(rng: random.Random, view: dict[str, Any]) -> dict[str, Any]:
    return rng.choice(view["legal_actions"])


def stored(game_id: str, field: str) -> list[Any]:
    """One column of a game's stored events, in seq order."""
    from games.models import GameEvent  # noqa: PLC0415 (helpers load before Django apps)

    return list(
        GameEvent.objects.filter(game_id=game_id).order_by("seq").values_list(field, flat=True)
    )
