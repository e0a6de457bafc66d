"""Round robin by the circle method: every team meets every other once."""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.formats.records import Pairing, PairingError


def round_count(teams: int) -> int:
    """Rounds a round robin of `teams` takes: n - 1, or n for an odd n (one bye each)."""
    return teams - 1 if teams % 2 == 0 else teams


def round_robin_round(teams: Sequence[int], round_number: int) -> tuple[Pairing, ...]:
    """The pairings of round `round_number` (1-based) for `teams` in seed order.

    The circle method: the first team stays put, the others turn one place a round, and
    position i meets position n-1-i. An odd count gets a phantom team; whoever meets it
    has the bye. The first team alternates sides so that nobody is always home.
    """
    if len(set(teams)) != len(teams) or len(teams) < 2:
        raise PairingError("a round robin needs two or more distinct teams")
    if not 1 <= round_number <= round_count(len(teams)):
        raise PairingError(f"round {round_number} is not in this round robin")
    circle: list[int | None] = [*teams, None] if len(teams) % 2 else list(teams)
    size = len(circle)
    shift = round_number - 1
    rest = circle[1:]
    turned = rest[-shift:] + rest[:-shift] if shift else rest
    order = [circle[0], *turned]
    pairings = []
    for index in range(size // 2):
        first, second = order[index], order[size - 1 - index]
        if index == 0 and round_number % 2 == 0:
            first, second = second, first
        if first is None or second is None:
            present = first if second is None else second
            assert present is not None
            pairings.append(Pairing(home=present, away=None))
        else:
            pairings.append(Pairing(home=first, away=second))
    # the bye last: a table list reads better with the matches first
    return tuple(sorted(pairings, key=lambda pairing: pairing.away is None))
