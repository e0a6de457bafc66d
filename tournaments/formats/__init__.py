"""Tournament formats, pure: pairings and standings from plain values (no Django, no I/O).

- `round_robin`: the circle method;
- `swiss`: round 1 seeded or drawn, then a weighted matching;
- `knockout`: a seeded single-elimination bracket;
- `duplicate`: boards at two tables with the seats swapped, scored in IMPs;
- `standings`: match points and tie-breaks.
"""

from tournaments.formats import duplicate, knockout, round_robin, swiss
from tournaments.formats.records import DRAW, LOSS, WIN, Outcome, Pairing, PairingError, Result
from tournaments.formats.standings import Standing, standings

__all__ = [
    "DRAW",
    "LOSS",
    "WIN",
    "Outcome",
    "Pairing",
    "PairingError",
    "Result",
    "Standing",
    "duplicate",
    "knockout",
    "round_robin",
    "standings",
    "swiss",
]
