"""Single elimination: a seeded bracket, byes for the top seeds, winners meet next."""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.formats.records import Pairing, PairingError, Result


def bracket_size(teams: int) -> int:
    """The power of two the bracket is drawn for (the missing places are byes)."""
    size = 1
    while size < teams:
        size *= 2
    return size


def round_count(teams: int) -> int:
    """Rounds to a champion: log2 of the bracket's size."""
    return bracket_size(teams).bit_length() - 1


def seed_positions(size: int) -> list[int]:
    """Seeds (1-based) in bracket order, so that seed 1 and 2 can only meet in the final,
    1-4 in the semi-finals and so on: [1, 8, 4, 5, 2, 7, 3, 6] for eight."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, total - top)]
    return order


def first_round(teams: Sequence[int]) -> tuple[Pairing, ...]:
    """Round 1 for `teams` in seed order (best first): seed k meets seed size+1-k; a
    missing opponent is a bye, so the byes go to the top seeds."""
    if len(set(teams)) != len(teams) or len(teams) < 2:
        raise PairingError("a knockout needs two or more distinct teams")
    size = bracket_size(len(teams))
    positions = seed_positions(size)
    pairings = []
    for index in range(0, size, 2):
        high, low = positions[index], positions[index + 1]
        home = teams[high - 1]
        away = teams[low - 1] if low <= len(teams) else None
        pairings.append(Pairing(home=home, away=away))
    return tuple(pairings)


def advancing(result: Result, seed_of: dict[int, int]) -> int:
    """The team a knockout match sends on. A drawn match (possible only at the hand cap)
    or a double forfeit sends on the better seed (docs/tournaments.md)."""
    winner = result.winner()
    if winner is not None:
        return winner
    if result.away is None:
        return result.home
    return min((result.home, result.away), key=lambda team: seed_of[team])


def next_round(previous: Sequence[Result], seed_of: dict[int, int]) -> tuple[Pairing, ...]:
    """The following round: the teams sent on by matches 1 and 2 meet, 3 and 4, ...

    `previous` is the round just played in bracket order. A single result left means
    the tournament has its champion: no pairing.
    """
    if len(previous) < 2:
        return ()
    ahead = [advancing(result, seed_of) for result in previous]
    return tuple(
        Pairing(home=ahead[index], away=ahead[index + 1]) for index in range(0, len(ahead), 2)
    )
