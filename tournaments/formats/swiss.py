"""Swiss pairings: round 1 seeded or drawn, then teams on close scores who have not met.

Later rounds are one maximum-weight matching (networkx's blossom algorithm) over every
pair of teams. Integer weights, so that no float rounding can tip a choice:

- a pair that has already met gets none of `REMATCH_FREE`, which outweighs every other
  consideration summed over a whole round: a matching with fewer rematches always
  wins, and a rematch happens only when no pairing of the round avoids it;
- then `CLOSE - (score difference)²`: closer scores weigh more, and a big gap costs
  more than two small ones.

`maxcardinality=True`: everyone plays (a perfect matching) whenever one exists.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass

import networkx as nx

from tournaments.formats.records import Pairing, PairingError


@dataclass(frozen=True, slots=True)
class SwissTeam:
    """A team as the pairing sees it: its id, seed (1 is best) and match points."""

    team: int
    seed: int
    points: int = 0


def first_round(teams: Sequence[SwissTeam], *, seeded: bool, seed: bytes) -> tuple[Pairing, ...]:
    """Round 1: by seed (the top half meets the bottom half, 1 v n/2+1, 2 v n/2+2, ...),
    or in an order drawn from `seed` (the tournament's, so the draw can be replayed).
    With an odd count the last team of that order (the lowest seed) has the bye."""
    _distinct(teams)
    ordered = sorted(teams, key=lambda team: team.seed)
    if not seeded:
        random.Random(seed).shuffle(ordered)  # noqa: S311 (a draw, not a secret)
    bye = ordered.pop() if len(ordered) % 2 else None
    half = len(ordered) // 2
    pairings = [
        Pairing(home=ordered[index].team, away=ordered[index + half].team) for index in range(half)
    ]
    if bye is not None:
        pairings.append(Pairing(home=bye.team, away=None))
    return tuple(pairings)


#: the weight of not being a rematch: more than `CLOSE` times the most pairs of a round
REMATCH_FREE = 10**9
#: the weight of equal scores; each pair's squared score difference comes off it
CLOSE = 10**5


def later_round(
    teams: Sequence[SwissTeam], *, met: Set[frozenset[int]], had_bye: Set[int]
) -> tuple[Pairing, ...]:
    """A round after the first, from the standings so far.

    With an odd count the bye goes to the lowest team (fewest points, then the worst
    seed) that has not had one; if everyone has, to the lowest team.
    """
    _distinct(teams)
    playing = list(teams)
    pairings: list[Pairing] = []
    if len(playing) % 2:
        lowest_first = sorted(playing, key=lambda team: (team.points, -team.seed))
        without = [team for team in lowest_first if team.team not in had_bye]
        bye = (without or lowest_first)[0]
        playing.remove(bye)
        pairings.append(Pairing(home=bye.team, away=None))
    if len(playing) > REMATCH_FREE // CLOSE:
        raise PairingError("too many teams for the pairing weights")
    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(team.team for team in playing)
    for index, first in enumerate(playing):
        for second in playing[index + 1 :]:
            graph.add_edge(first.team, second.team, weight=_weight(first, second, met))
    matching = nx.max_weight_matching(graph, maxcardinality=True, weight="weight")
    by_id: Mapping[int, SwissTeam] = {team.team: team for team in playing}
    matched = []
    for one, other in matching:
        # the better-placed team first; the order of a set of pairs is not ours to keep
        home, away = sorted((by_id[one], by_id[other]), key=_standing)
        matched.append((home, away))
    matched.sort(key=lambda pair: _standing(pair[0]))
    return (*(Pairing(home=home.team, away=away.team) for home, away in matched), *pairings)


def _weight(first: SwissTeam, second: SwissTeam, met: Set[frozenset[int]]) -> int:
    fresh = frozenset((first.team, second.team)) not in met
    return (REMATCH_FREE if fresh else 0) + CLOSE - (first.points - second.points) ** 2


def _standing(team: SwissTeam) -> tuple[int, int]:
    return (-team.points, team.seed)


def _distinct(teams: Sequence[SwissTeam]) -> None:
    if len(teams) < 2 or len({team.team for team in teams}) != len(teams):
        raise PairingError("a Swiss round needs two or more distinct teams")
