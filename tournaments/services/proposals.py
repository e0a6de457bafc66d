"""A paused tournament's next round: paired, held, not opened (docs/tournaments.md,
"Operators"). A round is "not started" while it is held: no game of it exists, since a
game is created seated and started at once, so no one can have played in it."""

from __future__ import annotations

from tournaments.formats import Pairing
from tournaments.models import Tournament
from tournaments.services import pairing


def round_hold(tournament: Tournament, number: int, pairings: tuple[Pairing, ...] | None) -> None:
    """Hold round `number` with `pairings` (paired now when None) instead of opening it."""
    if pairings is None:
        pairings = pairing.pairings(tournament, number)
    tournament.proposed_round = number
    tournament.proposed_pairings = [{"home": pair.home, "away": pair.away} for pair in pairings]
    tournament.save(
        update_fields=[
            "status",
            "started_at",
            "total_rounds",
            "proposed_round",
            "proposed_pairings",
        ]
    )


def held_pairings(tournament: Tournament) -> tuple[Pairing, ...]:
    return tuple(
        Pairing(home=row["home"], away=row["away"]) for row in tournament.proposed_pairings
    )
