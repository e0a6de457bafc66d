"""Examples for the game endpoints' OpenAPI documentation (made-up cards, the caller's own)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample

from games import rules

_EXAMPLE_SEATS = [
    {"seat": 0, "username": "alice", "bot_level": None},
    {"seat": 1, "username": "bob", "bot_level": None},
    {"seat": 2, "username": None, "bot_level": "basic"},
    {"seat": 3, "username": "dan", "bot_level": None},
]

EXAMPLE_VIEW: dict[str, Any] = {
    "id": "5f0c4a8e-0000-4000-8000-000000000000",
    "status": "playing",
    "version": 7,
    "head_hash": "3f1d5e0b9c7a2486d1e0f4b8a6c29e5d7b3a1c0f8e6d4b2a09c7e5f3d1b8a6c4",
    "options": rules.Options(turn_seconds=30, time_bank_seconds=60).to_dict(),
    "seats": _EXAMPLE_SEATS,
    "fairness": {
        "secret_chain": "9b2e41c07d5f8a36e1d4c2b0a79f6e85d3c1b0a9f8e7d6c5b4a3928170f6e5d4",
        "client_seeds": ["a1f3", "", "8c0e5b1d2f", "7d"],
    },
    "seat": 0,
    "dealer": 3,
    "hand_number": 1,
    "phase": "bidding_1",
    "turn": 0,
    "turned_card": "9D",
    "trump": None,
    "taker": None,
    "hand": ["7S", "8S", "QS", "AH", "KC"],
    "hand_sizes": {"0": 5, "1": 5, "2": 5, "3": 5},
    "bids": [],
    "trick": [],
    "last_trick": None,
    "tricks": [],
    "tricks_won": [0, 0],
    "trick_points": [0, 0],
    "declarations": [],
    "declarations_team": None,
    "belote": [],
    "scores": [0, 0],
    "waiting_points": 0,
    "hands": [],
    "winner": None,
    "turn_deadline": "2026-12-01T10:00:30.125Z",
    "time_banks_ms": [60000, 60000, 60000, 60000],
    "absent_seats": [],
    "timeouts": [0, 0, 0, 0],
    "legal_actions": [{"type": "take"}, {"type": "pass"}],
}

VIEW_EXAMPLE = OpenApiExample(
    "Seat 0 to bid (made-up cards: only the caller's own hand is ever shown)",
    value=EXAMPLE_VIEW,
    response_only=True,
)

ACT_EXAMPLES = [
    OpenApiExample(
        "Take the turned card",
        value={"action": {"type": "take"}, "expected_version": 7},
        request_only=True,
    ),
    OpenApiExample(
        "Play a card",
        value={"action": {"type": "play", "card": "JH"}, "expected_version": 31},
        request_only=True,
    ),
    OpenApiExample(
        "Declare a tierce",
        value={
            "action": {
                "type": "declare",
                "declarations": [{"kind": "tierce", "cards": ["7S", "8S", "9S"]}],
            },
            "expected_version": 12,
        },
        request_only=True,
    ),
]

CONFLICT_EXAMPLE = OpenApiExample(
    "Someone acted first: resync from `game` (made-up cards, the caller's own only)",
    value={
        "type": "urn:belote:problem:version_conflict",
        "title": "The game has moved on",
        "status": 409,
        "detail": "You acted on version 6; the game is at version 7.",
        "code": "version_conflict",
        "instance": "/api/v1/games/5f0c4a8e-0000-4000-8000-000000000000/actions",
        "current_version": 7,
        "game": EXAMPLE_VIEW,
    },
    response_only=True,
)
