"""The duplicate format, pure: board swings, the IMP scale, a match's IMPs and outcome
(docs/tournaments.md, "Duplicate")."""

from __future__ import annotations

import pytest

from tournaments.formats import Outcome, Result, duplicate, standings
from tournaments.formats.duplicate import BoardPlayed, imps, match_imps, match_outcome


def test_a_board_played_alike_at_both_tables_swings_nothing() -> None:
    # the home team scored 100 to 62 at table 1; the away team, holding the same
    # cards at table 2 (seats 0 and 2), scored the same
    assert BoardPlayed(first=(100, 62), second=(100, 62)).swing == 0


def test_the_swing_compares_what_each_team_made_of_the_same_cards() -> None:
    # table 1: home took and made 100-62; table 2: away, with the home team's cards,
    # went inside (0-162 for the home team, now at seats 1 and 3)
    board = BoardPlayed(first=(100, 62), second=(0, 162))
    assert board.swing == (100 - 62) + (162 - 0)


@pytest.mark.parametrize(
    ("swing", "expected"),
    [
        (0, 0),
        (9, 0),
        (10, 1),
        (29, 1),
        (30, 2),
        (79, 3),
        (80, 4),
        (200, 6),
        (409, 9),
        (410, 10),
        (2_000, 10),
        (-10, -1),
        (-200, -6),
        (-5_000, -10),
    ],
)
def test_the_imp_scale(swing: int, expected: int) -> None:
    assert imps(swing) == expected


def test_a_matchs_imps_go_board_by_board_to_the_side_that_did_better() -> None:
    boards = [
        BoardPlayed((100, 62), (0, 162)),  # home +200: 6
        BoardPlayed((162, 0), (162, 0)),  # nothing
        BoardPlayed((0, 162), (92, 90)),  # home -164: away 6
        BoardPlayed((81, 81), (70, 92)),  # home +22: 1
    ]
    assert match_imps(boards) == (7, 6)
    assert match_outcome(boards) is Outcome.HOME
    assert match_outcome(boards[:3]) is Outcome.DRAW
    assert match_outcome(boards[2:3]) is Outcome.AWAY


def test_a_match_of_passed_boards_is_a_draw() -> None:
    assert match_outcome([BoardPlayed((0, 0), (0, 0))] * 3) is Outcome.DRAW


def test_imp_difference_is_the_standings_point_difference() -> None:
    played = [Result(1, 1, 2, Outcome.HOME, home_score=7, away_score=6)]
    table = standings({1: 1, 2: 2}, played, swiss=False)
    assert [(line.team, line.match_points, line.point_difference) for line in table] == [
        (1, 2, 1),
        (2, 0, -1),
    ]
    assert duplicate.IMP_MAX == 10
