"""Where every deal's seed comes from: the table's committed hand secrets and the seats'
client seeds (docs/fairness.md), through `games.rules.fairness.hand_seed` alone.

A table created before commit-reveal has no hand secrets: its deals keep a seed drawn
from the operating system's CSPRNG, as before, and an empty secret.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from games import rules
from games.rules import fairness
from games.rules.events import HandDealt

#: what a move is first decided with: if it deals a hand, it is decided again with the
#: hand's real seed, so that walking the chain of secrets costs only the moves that deal
_UNDEALT = bytes(32)


def table_secrets() -> tuple[str, str]:
    """A new table's (secret chain end, its published commitment), in hex."""
    end = secrets.token_bytes(32)
    return end.hex(), fairness.commitment(end)


def hand_material(hand_secrets: str, hand: int, client_seeds: Sequence[str]) -> tuple[bytes, bytes]:
    """(seed, secret) of hand `hand` (0: the game seed, from hand 1's secret)."""
    if not hand_secrets or hand > rules.MAX_HANDS:
        return secrets.token_bytes(32), b""
    secret = fairness.hand_secret(bytes.fromhex(hand_secrets), max(hand, 1))
    return fairness.hand_seed(secret, client_seeds, hand), secret


def start_command(
    hand_secrets: str,
    secret_chain: str,
    client_seeds: tuple[str, str, str, str],
    options: rules.Options,
) -> rules.StartGame:
    """The command that starts a table: both seeds from hand 1's secret."""
    game_seed, _ = hand_material(hand_secrets, 0, client_seeds)
    hand_seed, secret = hand_material(hand_secrets, 1, client_seeds)
    if not secret:  # before commit-reveal: the game seed is drawn on its own too
        return rules.StartGame(game_seed, hand_seed, options)
    return rules.StartGame(
        game_seed,
        hand_seed,
        options,
        hand_secret=secret,
        secret_chain=secret_chain,
        client_seeds=client_seeds,
    )


def decide_move(
    state: rules.GameState,
    seat: int,
    action: rules.Action,
    hand_secrets: str,
    *,
    timed_out: bool = False,
) -> tuple[rules.Event, ...]:
    """The events of `seat`'s `action`, the next hand (if it deals one) from its seed."""
    command = rules.PlayerAction(seat, action, _UNDEALT, timed_out=timed_out)
    events = rules.decide(state, command)
    if not any(isinstance(event, HandDealt) for event in events):
        return events
    seed, secret = hand_material(hand_secrets, state.hand_number + 1, state.client_seeds)
    return rules.decide(state, command._replace(next_hand_seed=seed, next_hand_secret=secret))
