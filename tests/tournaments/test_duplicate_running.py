"""A duplicate tournament run through the services in this process (the worker's tasks
called directly): boards committed before the pairings, each board's second table dealt
the first's cards once the first has finished, the secret revealed after both, the match
scored in IMPs (docs/tournaments.md, "Duplicate")."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from games.models import GameEvent, Seat
from games.rules import fairness
from tests.tournaments.helpers import play_out, tournament_of_bots
from tournaments import selectors, services
from tournaments.formats.duplicate import BoardPlayed, match_imps
from tournaments.models import Board, Match, Tournament, TournamentEvent, TournamentStatus
from tournaments.services.results import on_game_finished

pytestmark = pytest.mark.django_db


def duplicate_of_bots(organiser: Any, teams: int, boards: int) -> Tournament:
    return tournament_of_bots(organiser, format="duplicate", teams=teams, boards=boards)


def dealt(game_id: Any) -> dict[str, Any]:
    return dict(GameEvent.objects.get(game_id=game_id, seq=2).payload)


def play_duplicate_round(tournament: Tournament) -> None:
    """Every board's first table, then its second, recorded as the worker would."""
    tournament.refresh_from_db()
    number = tournament.current_round
    for board in Board.objects.filter(
        match__round__tournament=tournament, match__round__number=number
    ):
        play_out(board.first_game_id)
        services.game_result_record(board.first_game_id)
        board.refresh_from_db()
        play_out(board.second_game_id)
        services.game_result_record(board.second_game_id)
    services.round_close(tournament.pk, number)
    tournament.refresh_from_db()


def test_the_boards_commitments_come_before_the_pairings(user: Any) -> None:
    tournament = duplicate_of_bots(user, teams=2, boards=3)
    services.tournament_start(tournament_id=tournament.pk, user=user)
    kinds = list(
        TournamentEvent.objects.filter(tournament=tournament).values_list("type", "payload")
    )
    assert [kind for kind, _ in kinds] == ["boards_committed", "round_started"]
    boards = Board.objects.filter(match__round__tournament=tournament).order_by("number")
    assert kinds[0][1]["boards"] == [
        {"table": 1, "board": board.number, "commitment": board.commitment} for board in boards
    ]
    assert all(b.commitment == fairness.commitment(bytes.fromhex(b.secret)) for b in boards)
    assert len({board.commitment for board in boards}) == 3


def test_a_boards_second_table_is_dealt_only_once_the_first_has_finished(user: Any) -> None:
    tournament = duplicate_of_bots(user, teams=2, boards=1)
    services.tournament_start(tournament_id=tournament.pk, user=user)
    (board,) = Board.objects.filter(match__round__tournament=tournament)
    assert (board.first_game_id is not None, board.second_game_id) == (True, None)
    play_out(board.first_game_id)
    assert services.game_result_record(board.first_game_id)
    assert not services.game_result_record(board.first_game_id)  # delivered twice
    board.refresh_from_db()
    assert board.second_game_id is not None
    assert (board.first_scores is not None, board.revealed) == (True, "")


def test_a_duplicate_deals_each_board_alike_at_both_tables_and_scores_imps(user: Any) -> None:
    tournament = duplicate_of_bots(user, teams=3, boards=2)
    services.tournament_start(tournament_id=tournament.pk, user=user)
    tournament.refresh_from_db()
    while tournament.status == TournamentStatus.RUNNING:
        play_duplicate_round(tournament)
    assert tournament.total_rounds == 3  # a round robin of three: a bye each
    boards = list(Board.objects.filter(match__round__tournament=tournament).select_related("match"))
    assert len(boards) == 3 * 2
    for board in boards:
        first, second = dealt(board.first_game_id), dealt(board.second_game_id)
        assert (first["cards"], first["dealer"]) == (second["cards"], second["dealer"])
        home = {row.seat: row.bot_level for row in Seat.objects.filter(game_id=board.first_game_id)}
        assert len(home) == 4
        assert fairness.step(bytes.fromhex(board.revealed)).hex() == board.commitment
        assert first["secret"] == second["secret"] == board.revealed
    for match in Match.objects.filter(round__tournament=tournament, away__isnull=False):
        played = [
            BoardPlayed(tuple(b.first_scores), tuple(b.second_scores))  # type: ignore[arg-type]
            for b in boards
            if b.match_id == match.pk
        ]
        assert (match.home_score, match.away_score) == match_imps(played)
    table = selectors.standings_of(tournament)
    assert sum(line["match_points"] for line in table) == 3 * 2 + 3 * 2  # 3 matches, 3 byes
    kinds = list(
        TournamentEvent.objects.filter(tournament=tournament).values_list("type", flat=True)
    )
    assert kinds.count("board_revealed") == 6
    assert kinds.count("game_finished") == 12
    assert kinds[-1] == "tournament_finished"


def test_the_sweeper_records_a_boards_table_whose_task_was_lost(user: Any) -> None:
    tournament = duplicate_of_bots(user, teams=2, boards=1)
    services.tournament_start(tournament_id=tournament.pk, user=user)
    (board,) = Board.objects.filter(match__round__tournament=tournament)
    play_out(board.first_game_id)
    assert services.unrecorded_games_sweep() == 1
    board.refresh_from_db()
    play_out(board.second_game_id)
    assert services.unrecorded_games_sweep() == 2  # the table, and the round it completed
    board.refresh_from_db()
    tournament.refresh_from_db()
    assert board.revealed
    assert Match.objects.get(pk=board.match_id).outcome is not None
    assert tournament.status == TournamentStatus.FINISHED


def test_a_game_outside_any_tournament_costs_its_end_one_query(
    user: Any, django_assert_num_queries: Any
) -> None:
    with django_assert_num_queries(1):
        on_game_finished(None, game_id=uuid.uuid4())
