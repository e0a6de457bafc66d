"""Standings: match points first, then the tie-breaks of docs/tournaments.md, in order."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from tournaments.formats.records import Result


@dataclass(frozen=True, slots=True)
class Standing:
    """One team's line in the standings."""

    rank: int
    team: int
    played: int
    match_points: int
    point_difference: int
    #: match points won in the matches between the teams level with this one
    head_to_head: int
    #: sum of the opponents' match points (Swiss only, else 0)
    buchholz: int
    #: sum over the matches of opponent's points x own points in that match (Swiss only)
    sonneborn_berger: int


def standings(
    teams: Mapping[int, int], results: Iterable[Result], *, swiss: bool
) -> tuple[Standing, ...]:
    """Rank `teams` (id -> seed) by their `results`.

    Order: match points, point difference, head-to-head among the teams still level,
    then for a Swiss Buchholz and Sonneborn-Berger, and last the seed (so the order is
    total and the same every time). Sonneborn-Berger here multiplies each opponent's
    match points by the 2/1/0 the match gave: the usual measure, doubled, so it stays a
    whole number.
    """
    played = [result for result in results if result.home in teams or result.away in teams]
    points: dict[int, int] = defaultdict(int)
    difference: dict[int, int] = defaultdict(int)
    count: dict[int, int] = defaultdict(int)
    for result in played:
        for team in _sides(result):
            points[team] += result.match_points(team)
            difference[team] += result.point_difference(team)
            count[team] += 1
    buchholz: dict[int, int] = defaultdict(int)
    berger: dict[int, int] = defaultdict(int)
    if swiss:
        for result in played:
            for team in _sides(result):
                opponent = result.opponent(team)
                if opponent is None:
                    continue  # a bye has no opponent to count
                buchholz[team] += points[opponent]
                berger[team] += points[opponent] * result.match_points(team)
    level: dict[tuple[int, int], list[int]] = defaultdict(list)
    for team in teams:
        level[(points[team], difference[team])].append(team)
    head_to_head: dict[int, int] = {}
    for group in level.values():
        head_to_head.update(_mini_league(group, played))

    def key(team: int) -> tuple[int, ...]:
        return (
            -points[team],
            -difference[team],
            -head_to_head[team],
            -buchholz[team],
            -berger[team],
            teams[team],
        )

    ordered = sorted(teams, key=key)
    return tuple(
        Standing(
            rank=rank,
            team=team,
            played=count[team],
            match_points=points[team],
            point_difference=difference[team],
            head_to_head=head_to_head[team],
            buchholz=buchholz[team],
            sonneborn_berger=berger[team],
        )
        for rank, team in enumerate(ordered, start=1)
    )


def _sides(result: Result) -> tuple[int, ...]:
    return (result.home,) if result.away is None else (result.home, result.away)


def _mini_league(group: Sequence[int], results: Iterable[Result]) -> dict[int, int]:
    members = set(group)
    won = dict.fromkeys(group, 0)
    if len(members) > 1:
        for result in results:
            if result.home in members and result.away in members:
                for team in _sides(result):
                    won[team] += result.match_points(team)
    return won
