"""The pure formats: pairings and tie-breaks from plain values, no database."""

from __future__ import annotations

import itertools

import pytest

from tournaments.formats import Outcome, Pairing, PairingError, Result, knockout, round_robin, swiss
from tournaments.formats.standings import standings
from tournaments.formats.swiss import SwissTeam


def pairs(pairings):
    return {frozenset((p.home, p.away)) for p in pairings if p.away is not None}


@pytest.mark.parametrize("count", [2, 3, 4, 5, 6, 7, 8, 11])
def test_round_robin_meets_everyone_once_with_one_bye_each_for_odd_counts(count):
    teams = list(range(10, 10 + count))
    met, byes = [], []
    for number in range(1, round_robin.round_count(count) + 1):
        pairings = round_robin.round_robin_round(teams, number)
        seen = [p.home for p in pairings] + [p.away for p in pairings if p.away is not None]
        assert sorted(seen) == teams  # everyone once per round
        met += pairs(pairings)
        byes += [p.home for p in pairings if p.away is None]
    assert sorted(met, key=sorted) == sorted(
        (frozenset(pair) for pair in itertools.combinations(teams, 2)), key=sorted
    )
    assert sorted(byes) == (teams if count % 2 else [])


def test_round_robin_refuses_a_round_it_does_not_have():
    with pytest.raises(PairingError):
        round_robin.round_robin_round([1, 2, 3], 4)
    with pytest.raises(PairingError):
        round_robin.round_robin_round([1, 1], 1)


def test_swiss_round_one_seeded_pairs_top_half_with_bottom_half_and_byes_the_last():
    teams = [SwissTeam(team=100 + seed, seed=seed) for seed in range(1, 8)]
    pairings = swiss.first_round(teams, seeded=True, seed=b"x")
    assert pairings == (
        Pairing(101, 104),
        Pairing(102, 105),
        Pairing(103, 106),
        Pairing(107, None),
    )


def test_swiss_round_one_drawn_depends_on_the_seed_only():
    teams = [SwissTeam(team=t, seed=t) for t in range(1, 17)]
    one = swiss.first_round(teams, seeded=False, seed=b"a")
    assert one == swiss.first_round(list(reversed(teams)), seeded=False, seed=b"a")
    assert one != swiss.first_round(teams, seeded=False, seed=b"b")


def test_swiss_later_round_pairs_close_scores_and_avoids_rematches():
    teams = [
        SwissTeam(1, 1, points=4),
        SwissTeam(2, 2, points=4),
        SwissTeam(3, 3, points=2),
        SwissTeam(4, 4, points=2),
    ]
    # 1 and 2 are level but have met: each meets one of the 2-point teams instead
    met = {frozenset((1, 2)), frozenset((3, 4))}
    pairings = swiss.later_round(teams, met=met, had_bye=set())
    assert pairs(pairings) & met == set()
    assert pairs(pairings) in (
        {frozenset((1, 3)), frozenset((2, 4))},
        {frozenset((1, 4)), frozenset((2, 3))},
    )
    # without that history the leaders meet
    assert pairs(swiss.later_round(teams, met=set(), had_bye=set())) == {
        frozenset((1, 2)),
        frozenset((3, 4)),
    }


def test_swiss_bye_goes_to_the_lowest_team_that_has_not_had_one():
    teams = [SwissTeam(t, t, points=p) for t, p in [(1, 4), (2, 2), (3, 2), (4, 0), (5, 0)]]
    pairings = swiss.later_round(teams, met=set(), had_bye={5})
    assert Pairing(4, None) in pairings
    everyone = swiss.later_round(teams, met=set(), had_bye={1, 2, 3, 4, 5})
    assert Pairing(5, None) in everyone


def test_swiss_rematch_only_when_nothing_else_is_possible():
    teams = [SwissTeam(t, t) for t in (1, 2)]
    assert swiss.later_round(teams, met={frozenset((1, 2))}, had_bye=set()) == (Pairing(1, 2),)


def test_knockout_seeds_meet_late_and_top_seeds_get_the_byes():
    assert knockout.seed_positions(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    teams = [10, 20, 30, 40, 50, 60]  # seeds 1..6 in a bracket of 8
    first = knockout.first_round(teams)
    assert first == (Pairing(10, None), Pairing(40, 50), Pairing(20, None), Pairing(30, 60))
    seeds = {team: index for index, team in enumerate(teams, start=1)}
    played = [
        Result(1, 10, None, Outcome.BYE),
        Result(1, 40, 50, Outcome.AWAY, 10, 20),
        Result(1, 20, None, Outcome.BYE),
        Result(1, 30, 60, Outcome.DRAW, 30, 30),  # a draw: the better seed goes on
    ]
    assert knockout.next_round(played, seeds) == (Pairing(10, 50), Pairing(20, 30))
    assert knockout.round_count(6) == 3
    assert knockout.next_round(played[:1], seeds) == ()


def test_standings_match_points_then_point_difference_then_head_to_head():
    seeds = {1: 1, 2: 2, 3: 3}
    results = [
        Result(1, 1, 2, Outcome.AWAY, 100, 200),  # 2 beats 1 by 100
        Result(2, 2, 3, Outcome.AWAY, 100, 150),  # 3 beats 2 by 50
        Result(3, 3, 1, Outcome.AWAY, 100, 150),  # 1 beats 3 by 50
    ]
    table = standings(seeds, results, swiss=False)
    assert [line.match_points for line in table] == [2, 2, 2]
    # point difference: 2 is +50, 1 is -50, 3 is 0
    assert [line.team for line in table] == [2, 3, 1]
    level = [Result(1, 1, 2, Outcome.HOME, 200, 100), Result(2, 2, 1, Outcome.HOME, 200, 100)]
    # level on points and difference: still ordered, the seed last
    assert [line.team for line in standings({1: 1, 2: 2}, level, swiss=False)] == [1, 2]


def test_head_to_head_settles_teams_level_on_points_and_difference():
    seeds = {1: 1, 2: 2, 3: 3, 4: 4}
    results = [
        Result(1, 2, 1, Outcome.HOME, 150, 100),  # 2 beat 1 by 50
        Result(1, 3, 4, Outcome.HOME, 150, 100),
        Result(2, 1, 4, Outcome.HOME, 150, 100),  # 1 beat 4 by 50
        Result(2, 3, 2, Outcome.HOME, 150, 100),  # 2 lost to 3 by 50
    ]
    table = {line.team: line for line in standings(seeds, results, swiss=False)}
    assert (table[1].match_points, table[1].point_difference) == (2, 0)
    assert (table[2].match_points, table[2].point_difference) == (2, 0)
    assert table[2].head_to_head == 2
    assert table[1].head_to_head == 0
    assert table[2].rank < table[1].rank


def test_buchholz_and_sonneborn_berger_for_swiss():
    seeds = {1: 1, 2: 2, 3: 3, 4: 4, 5: 5}
    results = [
        Result(1, 1, 2, Outcome.HOME, 10, 0),
        Result(1, 3, 4, Outcome.HOME, 10, 0),
        Result(1, 5, None, Outcome.BYE),
        Result(2, 1, 3, Outcome.DRAW, 5, 5),
        Result(2, 2, 5, Outcome.HOME, 10, 0),
        Result(2, 4, None, Outcome.BYE),
    ]
    table = {line.team: line for line in standings(seeds, results, swiss=True)}
    # 1: beat 2 (2 points), drew 3 (3 points) -> Buchholz 5, SB 2*2 + 3*1
    assert (table[1].match_points, table[1].buchholz, table[1].sonneborn_berger) == (3, 5, 7)
    # the bye counts no opponent
    assert (table[5].buchholz, table[5].sonneborn_berger) == (2, 0)
    assert standings(seeds, results, swiss=False)[0].buchholz == 0


def test_forfeits_and_byes_score_as_documented():
    home = Result(1, 1, 2, Outcome.HOME_FORFEIT, 300, 0)
    assert (home.match_points(1), home.match_points(2), home.point_difference(2)) == (0, 2, 0)
    both = Result(1, 1, 2, Outcome.DOUBLE_FORFEIT)
    assert (both.match_points(1), both.match_points(2), both.winner()) == (0, 0, None)
    assert Result(1, 1, None, Outcome.BYE).match_points(1) == 2
